package manuscript

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

type targetSetDeleteArgs struct {
	TargetSetID string `json:"targetSetId" jsonschema:"the set (from TargetSetCreate or TargetSetList)"`
}

func (targetSetDeleteArgs) Refine(s *jsonschema.Schema) {
	tools.MinLength(tools.Prop(s, "targetSetId"), 1)
}

// targetSetDeleteTool is the TargetSetDelete tool: a whole TargetSet deleted.
func targetSetDeleteTool(ws *Workspace) tools.Tool {
	return tools.Func("TargetSetDelete", "Delete a whole TargetSet (its items stay in the manuscript).", ws.toolTargetSetDelete)
}

// Done says that a tool with nothing else to report did its work.
type Done struct {
	Success bool `json:"success"`
}

func (ws *Workspace) toolTargetSetDelete(ctx context.Context, a targetSetDeleteArgs) (Done, error) {
	m, err := ws.Current()
	if err != nil {
		return Done{}, err
	}
	if err := m.DeleteTargetSet(ctx, a.TargetSetID); err != nil {
		return Done{}, err
	}
	return Done{Success: true}, nil
}
