package manuscript

import (
	"context"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/tools"
)

// TypeTextArgs is one change typed in an editor, in UTF-16 code units.
type TypeTextArgs struct {
	BaseRevision int64  `json:"baseRevision" jsonschema:"the revision of the text the change was typed into; changes made since by others are kept and the typing is placed where its text is now"`
	FromUtf16    int    `json:"fromUtf16" jsonschema:"start of the replaced range, in UTF-16 code units (not bytes)"`
	ToUtf16      int    `json:"toUtf16" jsonschema:"end of the replaced range (exclusive), in UTF-16 code units (not bytes)"`
	Text         string `json:"text" jsonschema:"the text typed in place of the range (may be empty: a deletion)"`
}

// Refine: no negative positions or revisions.
func (TypeTextArgs) Refine(s *jsonschema.Schema) {
	tools.Range(tools.Prop(s, "baseRevision"), 1, 1<<53)
	tools.Range(tools.Prop(s, "fromUtf16"), 0, 1<<53)
	tools.Range(tools.Prop(s, "toUtf16"), 0, 1<<53)
}

// EditorChange is one replacement that brings an editor's text up to the
// manuscript's: UTF-16 code units [FromUtf16, ToUtf16) become Insert.
type EditorChange struct {
	FromUtf16 int    `json:"fromUtf16"`
	ToUtf16   int    `json:"toUtf16"`
	Insert    string `json:"insert"`
}

// TypeTextResult is the typing's revision, and what the editor must do to
// hold the manuscript's text: apply Changes to its text with the typing (the
// changes others made meanwhile, taken in), show Note (one line, in the
// book's language) and, on a Conflict, both versions of the paragraph.
type TypeTextResult struct {
	Revision int64          `json:"revision"`
	Summary  string         `json:"summary"`
	Changes  []EditorChange `json:"changes"`
	Merged   []Merge        `json:"merged,omitempty"`
	Note     string         `json:"note,omitempty"`
	Conflict *Conflict      `json:"conflict,omitempty"`
}

// TypeTextRef is the typed handle on the TypeText tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var TypeTextRef = tools.RefTo[TypeTextArgs, TypeTextResult]("TypeText")

func typeTextTool(ws *Workspace, tc *textCache) tools.Tool {
	return TypeTextRef.Func("Write what was typed in an editor straight into the manuscript: UTF-16 code units [fromUtf16, toUtf16) of the text at baseRevision become text. It may cross items; it is one revision, saved and undoable like any edit. Typing into an older revision is never refused: changes made since by other doors or programs are kept (changes: what the editor applies to hold the new text; note: one line to show); typing into a paragraph one of them changed keeps both versions (conflict: theirs and mine; mine is in the file). Splitting a character writes nothing.",
		func(ctx context.Context, a TypeTextArgs) (TypeTextResult, error) { return TypeText(ctx, ws, tc, a) })
}

// TypeText is the TypeText tool's handler.
func TypeText(ctx context.Context, ws *Workspace, tc *textCache, a TypeTextArgs) (TypeTextResult, error) {
	m, err := ws.Current()
	if err != nil {
		return TypeTextResult{}, err
	}
	if a.ToUtf16 < a.FromUtf16 {
		return TypeTextResult{}, fmt.Errorf("%w: the typed change has its end (%d) before its start (%d); nothing was written", document.ErrBadInput, a.ToUtf16, a.FromUtf16)
	}
	// The editor's text: the revision it was typed into (the text of a
	// revision never changes, so it is read without the manuscript's lock).
	src, rev := current(m)
	if rev != a.BaseRevision {
		if a.BaseRevision > rev {
			return TypeTextResult{}, fmt.Errorf("%w: the change was typed into revision %d, the manuscript is at revision %d; nothing was written — reload the book", ErrStale, a.BaseRevision, rev)
		}
		if src, err = tc.at(ctx, ws, m, a.BaseRevision); err != nil {
			return TypeTextResult{}, fmt.Errorf("%w: the editor's revision %d cannot be rebuilt (%v); nothing was written — reload the book", ErrStale, a.BaseRevision, err)
		}
	}
	x := document.NewUTF16Index(src)
	from, err := x.ByteAt(a.FromUtf16)
	if err != nil {
		return TypeTextResult{}, fmt.Errorf("%w: the typed change: %v; nothing was written", document.ErrBadInput, err)
	}
	to, err := x.ByteAt(a.ToUtf16)
	if err != nil {
		return TypeTextResult{}, fmt.Errorf("%w: the typed change: %v; nothing was written", document.ErrBadInput, err)
	}
	out, err := m.ApplySplice(ctx, a.BaseRevision, src, from, to, []byte(a.Text))
	if err != nil {
		return TypeTextResult{}, err
	}
	res := TypeTextResult{Revision: out.Rev, Summary: out.Summary, Changes: []EditorChange{}, Merged: out.Merged, Conflict: out.Conflict}
	if len(out.Merged) > 0 {
		res.Note = MergeNote(out.Merged, bookIsRussian(out.Text))
	}
	if p, oldEnd, newEnd := document.RuneDelta(out.Mine, out.Text); p != oldEnd || p != newEnd {
		f := document.UTF16Units(out.Mine[:p])
		res.Changes = append(res.Changes, EditorChange{FromUtf16: f, ToUtf16: f + document.UTF16Units(out.Mine[p:oldEnd]), Insert: string(out.Text[p:newEnd])})
	}
	if res.Conflict != nil {
		res.Conflict.Utf16Offset = document.UTF16Units(out.Text[:res.Conflict.ByteOffset])
	}
	tc.put(m.DocID, out.Rev, out.Text)
	return res, nil
}
