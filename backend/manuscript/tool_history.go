package manuscript

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

type historyArgs struct {
	Limit int `json:"limit,omitempty" jsonschema:"at most this many (default 200)"`
}

func (historyArgs) Refine(s *jsonschema.Schema) { tools.Range(tools.Prop(s, "limit"), 1, 5000) }

// historyTool is the History tool: the manuscript's revisions, newest first.
func historyTool(ws *Workspace) tools.Tool {
	return tools.Func("History", "The manuscript's revisions, newest first: revision, op, summary, size, undone, createdAt. Every edit, undo, redo, restore and external change is one.", ws.toolHistory)
}

// HistoryResult is the newest revisions, newest first.
type HistoryResult struct {
	Revisions []RevisionInfo `json:"revisions"`
	Count     int            `json:"count"`
}

func (ws *Workspace) toolHistory(ctx context.Context, a historyArgs) (HistoryResult, error) {
	m, err := ws.Current()
	if err != nil {
		return HistoryResult{}, err
	}
	revs, err := m.History(ctx, a.Limit)
	if err != nil {
		return HistoryResult{}, err
	}
	return HistoryResult{Revisions: revs, Count: len(revs)}, nil
}
