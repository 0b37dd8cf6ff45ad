package manuscript

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

// RedoArgs are the Redo tool's arguments.
type RedoArgs struct {
	// Language is the language of the Description: the window's own ("en",
	// "ru"); empty, the book's.
	Language string `json:"language,omitempty" jsonschema:"the language of the description: en or ru; default the book's"`
}

// Refine: the language is one of the two.
func (RedoArgs) Refine(s *jsonschema.Schema) { tools.Enum(tools.Prop(s, "language"), "en", "ru") }

// RedoRef is the typed handle on the Redo tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var RedoRef = tools.RefTo[RedoArgs, EditView]("Redo")

// redoTool is the Redo tool: the newest undone edit, made again.
func redoTool(ws *Workspace) tools.Tool {
	return RedoRef.Func("Redo the newest undone edit (not possible once a new edit was made after the undo).", ws.toolRedo)
}

func (ws *Workspace) toolRedo(ctx context.Context, a RedoArgs) (EditView, error) {
	m, err := ws.Current()
	if err != nil {
		return EditView{}, err
	}
	out, err := m.RedoIn(ctx, a.Language)
	if err != nil {
		return EditView{}, err
	}
	return editView(m, out), nil
}
