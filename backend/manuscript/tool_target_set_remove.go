package manuscript

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

// TargetSetRemoveArgs are the TargetSetRemove tool's arguments.
type TargetSetRemoveArgs struct {
	TargetSetID string `json:"targetSetId" jsonschema:"the set (from TargetSetCreate or TargetSetList)"`
	Index       int    `json:"index" jsonschema:"the item's linear index (as in TargetSetGet's itemIndices; valid only for the current revision)"`
}

func (TargetSetRemoveArgs) Refine(s *jsonschema.Schema) {
	tools.MinLength(tools.Prop(s, "targetSetId"), 1)
	tools.Min(tools.Prop(s, "index"), 0)
}

// TargetSetRemoveRef is the typed handle on the TargetSetRemove tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var TargetSetRemoveRef = tools.RefTo[TargetSetRemoveArgs, TargetSetCount]("TargetSetRemove")

// targetSetRemoveTool is the TargetSetRemove tool: one item taken out of a TargetSet.
func targetSetRemoveTool(ws *Workspace) tools.Tool {
	return TargetSetRemoveRef.Func("Take one item (by its index) out of a TargetSet; the item stays in the manuscript.", ws.toolTargetSetRemove)
}

func (ws *Workspace) toolTargetSetRemove(ctx context.Context, a TargetSetRemoveArgs) (TargetSetCount, error) {
	m, err := ws.Current()
	if err != nil {
		return TargetSetCount{}, err
	}
	if err := m.RemoveFromTargetSet(ctx, a.TargetSetID, a.Index); err != nil {
		return TargetSetCount{}, err
	}
	v, err := m.TargetSet(ctx, a.TargetSetID)
	if err != nil {
		return TargetSetCount{}, err
	}
	return TargetSetCount{Success: true, Count: len(v.ItemIndices)}, nil
}
