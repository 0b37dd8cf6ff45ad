package manuscript

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

// TargetSetCreateArgs are the TargetSetCreate tool's arguments.
type TargetSetCreateArgs struct {
	Name string `json:"name,omitempty" jsonschema:"the set's name, up to 200 characters"`
}

func (TargetSetCreateArgs) Refine(s *jsonschema.Schema) {
	tools.Prop(s, "name").MaxLength = jsonschema.Ptr(200)
}

// TargetSetCreateRef is the typed handle on the TargetSetCreate tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var TargetSetCreateRef = tools.RefTo[TargetSetCreateArgs, TargetSetCreated]("TargetSetCreate")

// targetSetCreateTool is the TargetSetCreate tool: a new, empty TargetSet.
func targetSetCreateTool(ws *Workspace) tools.Tool {
	return TargetSetCreateRef.Func("Create a persistent set of pointers (e.g. every scene with Natasha). Returns targetSetId.", ws.toolTargetSetCreate)
}

// TargetSetCreated names the new set.
type TargetSetCreated struct {
	ID   string `json:"targetSetId"`
	Name string `json:"name"`
}

func (ws *Workspace) toolTargetSetCreate(ctx context.Context, a TargetSetCreateArgs) (TargetSetCreated, error) {
	m, err := ws.Current()
	if err != nil {
		return TargetSetCreated{}, err
	}
	ts, err := m.CreateTargetSet(ctx, a.Name)
	if err != nil {
		return TargetSetCreated{}, err
	}
	return TargetSetCreated{ID: ts.ID, Name: ts.Name}, nil
}
