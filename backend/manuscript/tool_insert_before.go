package manuscript

import (
	"context"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/tools"
)

// InsertBeforeArgs are the InsertBefore tool's arguments.
type InsertBeforeArgs struct {
	ItemAddress
	Markdown string `json:"markdown" jsonschema:"Markdown for the item"`
}

// InsertBeforeRef is the typed handle on the InsertBefore tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var InsertBeforeRef = tools.RefTo[InsertBeforeArgs, EditView]("InsertBefore")

// insertBeforeTool is the InsertBefore tool: new items right before an item.
func insertBeforeTool(ws *Workspace) tools.Tool {
	return InsertBeforeRef.Func("Insert new Markdown item(s) right before an item. Headings may only be inserted next to a heading of the same level.", ws.toolInsertBefore)
}

func (ws *Workspace) toolInsertBefore(ctx context.Context, a InsertBeforeArgs) (EditView, error) {
	return ws.editItem(ctx, a.ItemAddress, func(d *document.Document, i int) (*document.Edit, error) {
		return d.PlanInsertBefore(i, a.Markdown)
	})
}
