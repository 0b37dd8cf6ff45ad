package manuscript

import (
	"context"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/tools"
)

type replaceTextArgs struct {
	itemAddress
	NewMarkdown string `json:"newMarkdown" jsonschema:"Markdown for the item"`
}

// replaceTextTool is the ReplaceText tool: one item's Markdown, replaced in place.
func replaceTextTool(ws *Workspace) tools.Tool {
	return tools.Func("ReplaceText", "Replace one item's Markdown (a paragraph, list item, heading text, table cell, …). Bytes outside the item never change; a paragraph cannot become a heading and a heading keeps its level.", ws.toolReplaceText)
}

func (ws *Workspace) toolReplaceText(ctx context.Context, a replaceTextArgs) (EditView, error) {
	return ws.editItem(ctx, a.itemAddress, func(d *document.Document, i int) (*document.Edit, error) {
		return d.PlanReplaceText(i, a.NewMarkdown)
	})
}
