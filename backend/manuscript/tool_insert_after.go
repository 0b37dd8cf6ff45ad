package manuscript

import (
	"context"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/tools"
)

type insertAfterArgs struct {
	itemAddress
	Markdown string `json:"markdown" jsonschema:"Markdown for the item"`
}

// insertAfterTool is the InsertAfter tool: new items right after an item.
func insertAfterTool(ws *Workspace) tools.Tool {
	return tools.Func("InsertAfter", "Insert new Markdown item(s) right after an item (after a list item's nested items). Headings may only be inserted next to a heading of the same level.", ws.toolInsertAfter)
}

func (ws *Workspace) toolInsertAfter(ctx context.Context, a insertAfterArgs) (EditView, error) {
	return ws.editItem(ctx, a.itemAddress, func(d *document.Document, i int) (*document.Edit, error) {
		return d.PlanInsertAfter(i, a.Markdown)
	})
}
