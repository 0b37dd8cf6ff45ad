package manuscript

import (
	"context"

	"github.com/waymark/waymark/backend/tools"
)

type redoArgs struct{}

// redoTool is the Redo tool: the newest undone edit, made again.
func redoTool(ws *Workspace) tools.Tool {
	return tools.Func("Redo", "Redo the newest undone edit (not possible once a new edit was made after the undo).", ws.toolRedo)
}

func (ws *Workspace) toolRedo(ctx context.Context, _ redoArgs) (EditView, error) {
	m, err := ws.Current()
	if err != nil {
		return EditView{}, err
	}
	out, err := m.Redo(ctx)
	if err != nil {
		return EditView{}, err
	}
	return editView(m, out), nil
}
