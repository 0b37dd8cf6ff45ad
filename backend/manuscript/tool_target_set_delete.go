package manuscript

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

// TargetSetDeleteArgs are the TargetSetDelete tool's arguments.
type TargetSetDeleteArgs struct {
	TargetSetID string `json:"targetSetId" jsonschema:"the set (from TargetSetCreate or TargetSetList)"`
}

func (TargetSetDeleteArgs) Refine(s *jsonschema.Schema) {
	tools.MinLength(tools.Prop(s, "targetSetId"), 1)
}

// TargetSetDeleteRef is the typed handle on the TargetSetDelete tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var TargetSetDeleteRef = tools.RefTo[TargetSetDeleteArgs, Done]("TargetSetDelete")

// targetSetDeleteTool is the TargetSetDelete tool: a whole TargetSet deleted.
func targetSetDeleteTool(ws *Workspace) tools.Tool {
	return TargetSetDeleteRef.Func("Delete a whole TargetSet (its items stay in the manuscript).", ws.toolTargetSetDelete)
}

// Done says that a tool with nothing else to report did its work.
type Done struct {
	Success bool `json:"success"`
}

func (ws *Workspace) toolTargetSetDelete(ctx context.Context, a TargetSetDeleteArgs) (Done, error) {
	m, err := ws.Current()
	if err != nil {
		return Done{}, err
	}
	if err := m.DeleteTargetSet(ctx, a.TargetSetID); err != nil {
		return Done{}, err
	}
	return Done{Success: true}, nil
}
