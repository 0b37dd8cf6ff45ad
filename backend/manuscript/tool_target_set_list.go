package manuscript

import (
	"context"
	"time"

	"github.com/waymark/waymark/backend/tools"
)

type targetSetListArgs struct{}

// targetSetListTool is the TargetSetList tool: every TargetSet with its count.
func targetSetListTool(ws *Workspace) tools.Tool {
	return tools.Func("TargetSetList", "The manuscript's TargetSets: targetSetId, name, count of live items, createdAt.", ws.toolTargetSetList)
}

func (ws *Workspace) toolTargetSetList(ctx context.Context, _ targetSetListArgs) (any, error) {
	m, err := ws.Current()
	if err != nil {
		return nil, err
	}
	sets, err := m.TargetSets(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]map[string]any, 0, len(sets))
	for _, ts := range sets {
		v, err := m.TargetSet(ctx, ts.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, map[string]any{"targetSetId": ts.ID, "name": ts.Name, "count": len(v.ItemIndices),
			"deleted": len(v.Deleted), "createdAt": ts.CreatedAt.Format(time.DateTime)})
	}
	return map[string]any{"targetSets": out, "count": len(out)}, nil
}
