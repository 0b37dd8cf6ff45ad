package manuscript

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

type targetSetGetArgs struct {
	TargetSetID string `json:"targetSetId" jsonschema:"the set (from TargetSetCreate or TargetSetList)"`
}

func (targetSetGetArgs) Refine(s *jsonschema.Schema) {
	tools.MinLength(tools.Prop(s, "targetSetId"), 1)
}

// targetSetGetTool is the TargetSetGet tool: a TargetSet's members in document order.
func targetSetGetTool(ws *Workspace) tools.Tool {
	return tools.Func("TargetSetGet", "Return a target set's pointers in document order (and itemIndices ascending); members whose items were deleted are listed apart.", ws.toolTargetSetGet)
}

func (ws *Workspace) toolTargetSetGet(ctx context.Context, a targetSetGetArgs) (any, error) {
	m, err := ws.Current()
	if err != nil {
		return nil, err
	}
	v, err := m.TargetSet(ctx, a.TargetSetID)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"targetSetId": v.ID, "name": v.Name, "pointers": v.Pointers, "itemIndices": v.ItemIndices, "count": len(v.ItemIndices)}
	if len(v.Deleted) > 0 {
		out["deleted"] = v.Deleted
	}
	return out, nil
}
