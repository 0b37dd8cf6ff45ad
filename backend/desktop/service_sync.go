package desktop

import (
	"errors"

	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/tools"
)

// SyncResult brings the editor up to the manuscript's newest revision: either
// the whole text (Full) or one change from what the editor holds.
type SyncResult struct {
	Revision int64  `json:"revision"`
	Full     bool   `json:"full"`
	Markdown string `json:"markdown,omitempty"`
	// From and To are the replaced range of the editor's text and Insert the
	// new text, in UTF-16 units. From == To and Insert == "" means no change.
	From    int    `json:"from"`
	To      int    `json:"to"`
	Insert  string `json:"insert"`
	Summary string `json:"summary,omitempty"`
}

// Sync returns what changed since the editor's revision knownRev (after a
// command, an undo, a restore or a reload): the TextChanges tool.
func (a *App) Sync(knownRev int64) (SyncResult, error) {
	// Typed, not through JSON: the whole text of a novel may be in it.
	d, err := call(a, a.context(), manuscript.TextChangesRef, manuscript.TextChangesArgs{KnownRevision: max(knownRev, 0)}, tools.Context{})
	if err != nil {
		return SyncResult{}, err
	}
	return SyncResult{Revision: d.Revision, Full: d.Full, Markdown: d.Markdown, From: d.FromUtf16, To: d.ToUtf16, Insert: d.Insert}, nil
}

// TypeResult is the outcome of saving typed text: the editor applies
// Changes (what other doors and programs changed meanwhile, in UTF-16 units
// of its text with the typing) and shows Note; on a Conflict it offers both
// versions of the paragraph.
type TypeResult struct {
	Revision int64                     `json:"revision"`
	Summary  string                    `json:"summary"`
	Changes  []manuscript.EditorChange `json:"changes"`
	Note     string                    `json:"note,omitempty"`
	Conflict *manuscript.Conflict      `json:"conflict,omitempty"`
}

// TypeEdit saves what the author typed in the editor: the range [from, to) of
// the editor's text at revision baseRev (UTF-16 units) became text, through
// the TypeText tool. It is one revision, undoable like any edit. Changes made
// meanwhile by other doors and programs are kept and come back in Changes; if
// the file cannot be written (gone, not text), the window is told
// ("manuscript:disk").
func (a *App) TypeEdit(baseRev int64, from, to int, text string) (TypeResult, error) {
	out, err := call(a, a.context(), manuscript.TypeTextRef, manuscript.TypeTextArgs{BaseRevision: baseRev, FromUtf16: from, ToUtf16: to, Text: text}, tools.Context{})
	if err != nil {
		if errors.Is(err, manuscript.ErrChangedOnDisk) {
			if d, cerr := a.CheckDisk(); cerr == nil {
				a.send("manuscript:disk", d)
			}
		}
		return TypeResult{}, err
	}
	return TypeResult{Revision: out.Revision, Summary: out.Summary, Changes: out.Changes, Note: a.mergeNote(out.Merged, out.Note), Conflict: out.Conflict}, nil
}
