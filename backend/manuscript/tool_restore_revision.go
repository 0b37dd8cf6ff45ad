package manuscript

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

// RestoreRevisionArgs are the RestoreRevision tool's arguments.
type RestoreRevisionArgs struct {
	Revision int64 `json:"revision" jsonschema:"the revision to go back to (from History)"`
}

func (RestoreRevisionArgs) Refine(s *jsonschema.Schema) { tools.Min(tools.Prop(s, "revision"), 1) }

// RestoreRevisionRef is the typed handle on the RestoreRevision tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var RestoreRevisionRef = tools.RefTo[RestoreRevisionArgs, EditView]("RestoreRevision")

// restoreRevisionTool is the RestoreRevision tool: an earlier text, as a new revision.
func restoreRevisionTool(ws *Workspace) tools.Tool {
	return RestoreRevisionRef.Func("Set the manuscript back to its text at an earlier revision. The restore is itself a new revision, so nothing is lost.", ws.toolRestoreRevision)
}

func (ws *Workspace) toolRestoreRevision(ctx context.Context, a RestoreRevisionArgs) (EditView, error) {
	m, err := ws.Current()
	if err != nil {
		return EditView{}, err
	}
	out, err := m.Restore(ctx, a.Revision)
	if err != nil {
		return EditView{}, err
	}
	return editView(m, out), nil
}
