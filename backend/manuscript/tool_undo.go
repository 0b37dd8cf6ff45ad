package manuscript

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

// UndoArgs are the Undo tool's arguments.
type UndoArgs struct {
	// Language is the language of the Description: the window's own ("en",
	// "ru"); empty, the book's.
	Language string `json:"language,omitempty" jsonschema:"the language of the description: en or ru; default the book's"`
}

// Refine: the language is one of the two.
func (UndoArgs) Refine(s *jsonschema.Schema) { tools.Enum(tools.Prop(s, "language"), "en", "ru") }

// UndoRef is the typed handle on the Undo tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var UndoRef = tools.RefTo[UndoArgs, EditView]("Undo")

// undoTool is the Undo tool: the newest edit not yet undone, undone.
func undoTool(ws *Workspace) tools.Tool {
	return UndoRef.Func("Undo the newest edit of the manuscript that is not undone yet.", ws.toolUndo)
}

func (ws *Workspace) toolUndo(ctx context.Context, a UndoArgs) (EditView, error) {
	m, err := ws.Current()
	if err != nil {
		return EditView{}, err
	}
	out, err := m.UndoIn(ctx, a.Language)
	if err != nil {
		return EditView{}, err
	}
	return editView(m, out), nil
}
