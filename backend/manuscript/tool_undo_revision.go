package manuscript

import (
	"context"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/store"
	"github.com/waymark/waymark/backend/tools"
)

// UndoRevisionArgs names the edit to undo.
type UndoRevisionArgs struct {
	Revision int64 `json:"revision" jsonschema:"the revision of the edit to undo (from a command's edits, EditsSince or History)"`
}

// Refine: revisions start at 1.
func (UndoRevisionArgs) Refine(s *jsonschema.Schema) {
	tools.Range(tools.Prop(s, "revision"), 1, 1<<53)
}

// UndoRevisionResult is the undo's own revision.
type UndoRevisionResult struct {
	Revision int64  `json:"revision"`
	Undid    int64  `json:"undid"`
	Summary  string `json:"summary"`
}

// UndoRevisionRef is the typed handle on the UndoRevision tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var UndoRevisionRef = tools.RefTo[UndoRevisionArgs, UndoRevisionResult]("UndoRevision")

func undoRevisionTool(ws *Workspace) tools.Tool {
	return UndoRevisionRef.Func("Undo the edit of one revision — only when it is the newest edit not yet undone, so an undo never reverts something other than the edit named. Otherwise it says which later edit to undo first.",
		func(ctx context.Context, a UndoRevisionArgs) (UndoRevisionResult, error) {
			return UndoRevision(ctx, ws, a)
		})
}

// UndoRevision is the UndoRevision tool's handler.
func UndoRevision(ctx context.Context, ws *Workspace, a UndoRevisionArgs) (UndoRevisionResult, error) {
	m, err := ws.Current()
	if err != nil {
		return UndoRevisionResult{}, err
	}
	last, ok, err := ws.Store.LastRevisionWhere(ctx, m.DocID, store.EditOps, false)
	if err != nil {
		return UndoRevisionResult{}, err
	}
	if !ok || last.Rev != a.Revision {
		if ok && last.Rev > a.Revision {
			return UndoRevisionResult{}, fmt.Errorf("revision %d cannot be undone on its own: a later edit (revision %d, %s) came after it; undo that first", a.Revision, last.Rev, last.Summary)
		}
		return UndoRevisionResult{}, fmt.Errorf("revision %d is not an edit that can be undone now (already undone, or not an edit); the newest edit not yet undone is %s", a.Revision, newest(last, ok))
	}
	out, err := m.Undo(ctx)
	if err != nil {
		return UndoRevisionResult{}, err
	}
	return UndoRevisionResult{Revision: out.Rev, Undid: a.Revision, Summary: out.Summary}, nil
}

func newest(r store.Revision, ok bool) string {
	if !ok {
		return "none"
	}
	return fmt.Sprintf("revision %d (%s)", r.Rev, r.Summary)
}
