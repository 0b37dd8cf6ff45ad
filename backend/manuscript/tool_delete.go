package manuscript

import (
	"context"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/tools"
)

type deleteArgs struct {
	itemAddress
}

// deleteTool is the Delete tool: one item (with a list item's nested items) removed.
func deleteTool(ws *Workspace) tools.Tool {
	return tools.Func("Delete", "Delete one item (a list item together with its nested items). Headings and table cells cannot be deleted.", ws.toolDelete)
}

func (ws *Workspace) toolDelete(ctx context.Context, a deleteArgs) (EditView, error) {
	return ws.editItem(ctx, a.itemAddress, func(d *document.Document, i int) (*document.Edit, error) {
		return d.PlanDelete(i)
	})
}
