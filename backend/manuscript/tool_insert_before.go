package manuscript

import (
	"context"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/tools"
)

type insertBeforeArgs struct {
	itemAddress
	Markdown string `json:"markdown" jsonschema:"Markdown for the item"`
}

// insertBeforeTool is the InsertBefore tool: new items right before an item.
func insertBeforeTool(ws *Workspace) tools.Tool {
	return tools.Func("InsertBefore", "Insert new Markdown item(s) right before an item. Headings may only be inserted next to a heading of the same level.", ws.toolInsertBefore)
}

func (ws *Workspace) toolInsertBefore(ctx context.Context, a insertBeforeArgs) (EditView, error) {
	return ws.editItem(ctx, a.itemAddress, func(d *document.Document, i int) (*document.Edit, error) {
		return d.PlanInsertBefore(i, a.Markdown)
	})
}
