package manuscript

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/tools"
)

// TargetSetGetArgs are the TargetSetGet tool's arguments.
type TargetSetGetArgs struct {
	TargetSetID string `json:"targetSetId" jsonschema:"the set (from TargetSetCreate or TargetSetList)"`
}

func (TargetSetGetArgs) Refine(s *jsonschema.Schema) {
	tools.MinLength(tools.Prop(s, "targetSetId"), 1)
}

// TargetSetGetRef is the typed handle on the TargetSetGet tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var TargetSetGetRef = tools.RefTo[TargetSetGetArgs, TargetSetGetResult]("TargetSetGet")

// targetSetGetTool is the TargetSetGet tool: a TargetSet's members in document order.
func targetSetGetTool(ws *Workspace) tools.Tool {
	return TargetSetGetRef.Func("Return a target set's pointers in document order (and itemIndices ascending), and its members with each item's first words (snippet) and place in UTF-16 code units (utf16Offset, as an editor counts); members whose items were deleted are listed apart.", ws.toolTargetSetGet)
}

// TargetSetGetResult is a set's members in document order; members whose
// items were deleted are listed apart.
type TargetSetGetResult struct {
	ID          string             `json:"targetSetId"`
	Name        string             `json:"name"`
	Pointers    []document.Pointer `json:"pointers"`
	ItemIndices []int              `json:"itemIndices"`
	Count       int                `json:"count"`
	Members     []TargetSetMember  `json:"members"`
	Deleted     []DeletedMember    `json:"deleted,omitempty"`
}

func (ws *Workspace) toolTargetSetGet(ctx context.Context, a TargetSetGetArgs) (TargetSetGetResult, error) {
	m, err := ws.Current()
	if err != nil {
		return TargetSetGetResult{}, err
	}
	v, err := m.targetSet(ctx, a.TargetSetID, true)
	if err != nil {
		return TargetSetGetResult{}, err
	}
	if v.Members == nil {
		v.Members = []TargetSetMember{}
	}
	return TargetSetGetResult{ID: v.ID, Name: v.Name, Pointers: v.Pointers, ItemIndices: v.ItemIndices, Count: len(v.ItemIndices), Members: v.Members, Deleted: v.Deleted}, nil
}
