package manuscript

import (
	"context"
	"time"

	"github.com/waymark/waymark/backend/tools"
)

// TargetSetListArgs are the TargetSetList tool's arguments.
type TargetSetListArgs struct{}

// TargetSetListRef is the typed handle on the TargetSetList tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var TargetSetListRef = tools.RefTo[TargetSetListArgs, TargetSetListResult]("TargetSetList")

// targetSetListTool is the TargetSetList tool: every TargetSet with its count.
func targetSetListTool(ws *Workspace) tools.Tool {
	return TargetSetListRef.Func("The manuscript's TargetSets: targetSetId, name, count of live items, createdAt.", ws.toolTargetSetList)
}

// TargetSetSummary is one set in a list of them.
type TargetSetSummary struct {
	ID        string `json:"targetSetId"`
	Name      string `json:"name"`
	Count     int    `json:"count"`
	Deleted   int    `json:"deleted"`
	CreatedAt string `json:"createdAt"`
}

// TargetSetListResult is the book's sets.
type TargetSetListResult struct {
	TargetSets []TargetSetSummary `json:"targetSets"`
	Count      int                `json:"count"`
}

func (ws *Workspace) toolTargetSetList(ctx context.Context, _ TargetSetListArgs) (TargetSetListResult, error) {
	m, err := ws.Current()
	if err != nil {
		return TargetSetListResult{}, err
	}
	sets, err := m.TargetSets(ctx)
	if err != nil {
		return TargetSetListResult{}, err
	}
	out := make([]TargetSetSummary, 0, len(sets))
	for _, ts := range sets {
		v, err := m.TargetSet(ctx, ts.ID)
		if err != nil {
			return TargetSetListResult{}, err
		}
		out = append(out, TargetSetSummary{ID: ts.ID, Name: ts.Name, Count: len(v.ItemIndices),
			Deleted: len(v.Deleted), CreatedAt: ts.CreatedAt.Format(time.DateTime)})
	}
	return TargetSetListResult{TargetSets: out, Count: len(out)}, nil
}
