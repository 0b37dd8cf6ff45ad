package manuscript

import (
	"context"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/tools"
)

// ReplaceTextArgs are the ReplaceText tool's arguments.
type ReplaceTextArgs struct {
	ItemAddress
	NewMarkdown string `json:"newMarkdown" jsonschema:"Markdown for the item"`
}

// ReplaceTextRef is the typed handle on the ReplaceText tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var ReplaceTextRef = tools.RefTo[ReplaceTextArgs, EditView]("ReplaceText")

// replaceTextTool is the ReplaceText tool: one item's Markdown, replaced in place.
func replaceTextTool(ws *Workspace) tools.Tool {
	return ReplaceTextRef.Func("Replace one item's Markdown (a paragraph, list item, heading text, table cell, …). Bytes outside the item never change; a paragraph cannot become a heading and a heading keeps its level.", ws.toolReplaceText)
}

func (ws *Workspace) toolReplaceText(ctx context.Context, a ReplaceTextArgs) (EditView, error) {
	return ws.editItem(ctx, a.ItemAddress, func(d *document.Document, i int) (*document.Edit, error) {
		return d.PlanReplaceText(i, a.NewMarkdown)
	})
}
