package manuscript

import (
	"context"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/tools"
)

type targetSetAddArgs struct {
	TargetSetID string             `json:"targetSetId" jsonschema:"the set (from TargetSetCreate or TargetSetList)"`
	Pointers    []document.Pointer `json:"pointers,omitempty" jsonschema:"the items to add, by pointer"`
	ItemIndices []int              `json:"itemIndices,omitempty" jsonschema:"the items to add, by linear index (current revision)"`
}

func (targetSetAddArgs) Refine(s *jsonschema.Schema) {
	tools.MinLength(tools.Prop(s, "targetSetId"), 1)
	tools.Min(tools.Prop(s, "itemIndices").Items, 0)
}

// targetSetAddTool is the TargetSetAdd tool: items added to a TargetSet.
func targetSetAddTool(ws *Workspace) tools.Tool {
	return tools.Func("TargetSetAdd", "Add items to an existing target set, by pointers or by itemIndices. Returns {success, count}.", ws.toolTargetSetAdd)
}

func (ws *Workspace) toolTargetSetAdd(ctx context.Context, a targetSetAddArgs) (any, error) {
	if len(a.Pointers) == 0 && len(a.ItemIndices) == 0 {
		return nil, fmt.Errorf("%w for TargetSetAdd: give pointers or itemIndices (at least one item)", tools.ErrInvalidArgs)
	}
	m, err := ws.Current()
	if err != nil {
		return nil, err
	}
	n, err := m.AddToTargetSet(ctx, a.TargetSetID, a.Pointers, a.ItemIndices)
	if err != nil {
		return nil, err
	}
	return map[string]any{"success": true, "count": n}, nil
}
