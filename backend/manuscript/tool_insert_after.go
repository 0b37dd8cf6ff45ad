package manuscript

import (
	"context"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/tools"
)

// InsertAfterArgs are the InsertAfter tool's arguments.
type InsertAfterArgs struct {
	ItemAddress
	Markdown string `json:"markdown" jsonschema:"Markdown for the item"`
}

// InsertAfterRef is the typed handle on the InsertAfter tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var InsertAfterRef = tools.RefTo[InsertAfterArgs, EditView]("InsertAfter")

// insertAfterTool is the InsertAfter tool: new items right after an item.
func insertAfterTool(ws *Workspace) tools.Tool {
	return InsertAfterRef.Func("Insert new Markdown item(s) right after an item (after a list item's nested items). Headings may only be inserted next to a heading of the same level.", ws.toolInsertAfter)
}

func (ws *Workspace) toolInsertAfter(ctx context.Context, a InsertAfterArgs) (EditView, error) {
	return ws.editItem(ctx, a.ItemAddress, func(d *document.Document, i int) (*document.Edit, error) {
		return d.PlanInsertAfter(i, a.Markdown)
	})
}
