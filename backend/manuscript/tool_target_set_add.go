package manuscript

import (
	"context"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/tools"
)

// TargetSetAddArgs are the TargetSetAdd tool's arguments.
type TargetSetAddArgs struct {
	TargetSetID string             `json:"targetSetId" jsonschema:"the set (from TargetSetCreate or TargetSetList)"`
	Pointers    []document.Pointer `json:"pointers,omitempty" jsonschema:"the items to add, by pointer"`
	ItemIndices []int              `json:"itemIndices,omitempty" jsonschema:"the items to add, by linear index (current revision)"`
}

func (TargetSetAddArgs) Refine(s *jsonschema.Schema) {
	tools.MinLength(tools.Prop(s, "targetSetId"), 1)
	tools.Min(tools.Prop(s, "itemIndices").Items, 0)
}

// TargetSetAddRef is the typed handle on the TargetSetAdd tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var TargetSetAddRef = tools.RefTo[TargetSetAddArgs, TargetSetCount]("TargetSetAdd")

// targetSetAddTool is the TargetSetAdd tool: items added to a TargetSet.
func targetSetAddTool(ws *Workspace) tools.Tool {
	return TargetSetAddRef.Func("Add items to an existing target set, by pointers or by itemIndices. Returns {success, count}.", ws.toolTargetSetAdd)
}

// TargetSetCount is how many live items a set has after a change.
type TargetSetCount struct {
	Success bool `json:"success"`
	Count   int  `json:"count"`
}

func (ws *Workspace) toolTargetSetAdd(ctx context.Context, a TargetSetAddArgs) (TargetSetCount, error) {
	if len(a.Pointers) == 0 && len(a.ItemIndices) == 0 {
		return TargetSetCount{}, fmt.Errorf("%w for TargetSetAdd: give pointers or itemIndices (at least one item)", tools.ErrInvalidArgs)
	}
	m, err := ws.Current()
	if err != nil {
		return TargetSetCount{}, err
	}
	n, err := m.AddToTargetSet(ctx, a.TargetSetID, a.Pointers, a.ItemIndices)
	if err != nil {
		return TargetSetCount{}, err
	}
	return TargetSetCount{Success: true, Count: n}, nil
}
