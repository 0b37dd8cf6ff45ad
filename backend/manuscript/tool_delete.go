package manuscript

import (
	"context"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/tools"
)

// DeleteArgs are the Delete tool's arguments.
type DeleteArgs struct {
	ItemAddress
}

// DeleteRef is the typed handle on the Delete tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var DeleteRef = tools.RefTo[DeleteArgs, EditView]("Delete")

// deleteTool is the Delete tool: one item (with a list item's nested items) removed.
func deleteTool(ws *Workspace) tools.Tool {
	return DeleteRef.Func("Delete one item (a list item together with its nested items). Headings and table cells cannot be deleted.", ws.toolDelete)
}

func (ws *Workspace) toolDelete(ctx context.Context, a DeleteArgs) (EditView, error) {
	return ws.editItem(ctx, a.ItemAddress, func(d *document.Document, i int) (*document.Edit, error) {
		return d.PlanDelete(i)
	})
}
