package manuscript

import (
	"context"

	"github.com/waymark/waymark/backend/tools"
)

type undoArgs struct{}

// undoTool is the Undo tool: the newest edit not yet undone, undone.
func undoTool(ws *Workspace) tools.Tool {
	return tools.Func("Undo", "Undo the newest edit of the manuscript that is not undone yet.", ws.toolUndo)
}

func (ws *Workspace) toolUndo(ctx context.Context, _ undoArgs) (EditView, error) {
	m, err := ws.Current()
	if err != nil {
		return EditView{}, err
	}
	out, err := m.Undo(ctx)
	if err != nil {
		return EditView{}, err
	}
	return editView(m, out), nil
}
