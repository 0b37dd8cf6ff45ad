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

func (ws *Workspace) toolHistory(ctx context.Context, a historyArgs) (any, error) {
	m, err := ws.Current()
	if err != nil {
		return nil, err
	}
	revs, err := m.History(ctx, a.Limit)
	if err != nil {
		return nil, err
	}
	return map[string]any{"revisions": revs, "count": len(revs)}, nil
}
