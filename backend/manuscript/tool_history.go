package manuscript

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

// HistoryArgs are the History tool's arguments.
type HistoryArgs struct {
	Limit int `json:"limit,omitempty" jsonschema:"at most this many (default 200)"`
	// Language is the language of the descriptions: the window's own ("en",
	// "ru"); empty, the book's.
	Language string `json:"language,omitempty" jsonschema:"the language of the descriptions: en or ru; default the book's"`
}

func (HistoryArgs) Refine(s *jsonschema.Schema) {
	tools.Range(tools.Prop(s, "limit"), 1, 5000)
	tools.Enum(tools.Prop(s, "language"), "en", "ru")
}

// HistoryRef is the typed handle on the History tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var HistoryRef = tools.RefTo[HistoryArgs, HistoryResult]("History")

// historyTool is the History tool: the manuscript's revisions, newest first.
func historyTool(ws *Workspace) tools.Tool {
	return HistoryRef.Func("The manuscript's revisions, newest first: revision, op, summary, size, undone, createdAt. Every edit, undo, redo, restore and external change is one.", ws.toolHistory)
}

// HistoryResult is the newest revisions, newest first.
type HistoryResult struct {
	Revisions []RevisionInfo `json:"revisions"`
	Count     int            `json:"count"`
}

func (ws *Workspace) toolHistory(ctx context.Context, a HistoryArgs) (HistoryResult, error) {
	m, err := ws.Current()
	if err != nil {
		return HistoryResult{}, err
	}
	revs, err := m.HistoryIn(ctx, a.Limit, a.Language)
	if err != nil {
		return HistoryResult{}, err
	}
	return HistoryResult{Revisions: revs, Count: len(revs)}, nil
}
