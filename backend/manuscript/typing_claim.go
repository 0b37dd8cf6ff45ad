package manuscript

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/tools"
)

// The window's unsaved typing, told to the other doors. The editor saves
// typing in groups (a pause, a clause's end); meanwhile what it typed is only
// in the window. An edit another door (the CLI, MCP) makes in that paragraph
// then loses: when the typing is saved it goes over the paragraph, and the
// other door's version is kept aside (the window's conflicts, the history).
// So the editor says where it types (NoteTyping, at a group's first key) in
// the shared database, and an edit of that paragraph is answered that it
// will be kept aside, and where — not plain success.

// typingLife is how long a note of unsaved typing holds when no save clears
// it (a window closed mid-group): longer than any typing group lasts.
const typingLife = 20 * time.Second

// typingNote is the editor's unsaved typing: in the paragraph [Start, End)
// of the text at revision Rev, until Until (Unix milliseconds).
type typingNote struct {
	Rev   int64 `json:"rev"`
	Start int   `json:"start"`
	End   int   `json:"end"`
	Until int64 `json:"until"`
}

func typingKey(docID int64) string { return fmt.Sprintf("editor.typing.%d", docID) }

// NoteTypingArgs is where the editor holds typing not saved yet.
type NoteTypingArgs struct {
	BaseRevision int64 `json:"baseRevision" jsonschema:"the revision of the editor's text"`
	Utf16Offset  int   `json:"utf16Offset" jsonschema:"where the unsaved typing is, in UTF-16 code units of that text"`
}

// Refine: no negative positions or revisions.
func (NoteTypingArgs) Refine(s *jsonschema.Schema) {
	tools.Range(tools.Prop(s, "baseRevision"), 1, 1<<53)
	tools.Range(tools.Prop(s, "utf16Offset"), 0, 1<<53)
}

// NoteTypingResult says the note was taken.
type NoteTypingResult struct {
	Noted bool `json:"noted"`
}

// NoteTypingRef is the typed handle on the NoteTyping tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var NoteTypingRef = tools.RefTo[NoteTypingArgs, NoteTypingResult]("NoteTyping")

func noteTypingTool(ws *Workspace, tc *textCache) tools.Tool {
	return NoteTypingRef.Func("An editor's note that it holds typing not saved yet at a place of its text (the window calls it at the first key of a typing group; the typing's save (TypeText) clears it). An edit another door makes in that paragraph meanwhile is answered that it will be kept aside, not plain success.",
		func(ctx context.Context, a NoteTypingArgs) (NoteTypingResult, error) {
			m, err := ws.Current()
			if err != nil {
				return NoteTypingResult{}, err
			}
			src, rev := current(m)
			if a.BaseRevision > rev {
				return NoteTypingResult{}, fmt.Errorf("%w: the editor is at revision %d, the manuscript at %d — reload the book", ErrStale, a.BaseRevision, rev)
			}
			if a.BaseRevision != rev {
				if src, err = tc.at(ctx, ws, m, a.BaseRevision); err != nil {
					return NoteTypingResult{}, fmt.Errorf("%w: the editor's revision %d cannot be rebuilt (%v) — reload the book", ErrStale, a.BaseRevision, err)
				}
			}
			at, err := document.NewUTF16Index(src).ByteAt(a.Utf16Offset)
			if err != nil {
				return NoteTypingResult{}, fmt.Errorf("%w: the place of the typing: %v", document.ErrBadInput, err)
			}
			ps, pe := paragraphAround(src, at, at)
			b, _ := json.Marshal(typingNote{Rev: a.BaseRevision, Start: ps, End: pe, Until: time.Now().Add(typingLife).UnixMilli()})
			if err := ws.Store.SetSetting(ctx, typingKey(m.DocID), string(b)); err != nil {
				return NoteTypingResult{}, err
			}
			return NoteTypingResult{Noted: true}, nil
		})
}

// typingSaved clears the note: the typing is in the book now.
func (m *Manuscript) typingSaved(ctx context.Context) {
	if v, ok, err := m.w.Store.Setting(ctx, typingKey(m.DocID)); err == nil && ok && v != "" {
		_ = m.w.Store.SetSetting(ctx, typingKey(m.DocID), "")
	}
}

// typedSpan is where the editor's unsaved typing is in the text now (its
// paragraph, widened over the changes since), if a note of it holds. The
// caller holds m.mu.
func (m *Manuscript) typedSpan(ctx context.Context) (int, int, bool) {
	v, ok, err := m.w.Store.Setting(ctx, typingKey(m.DocID))
	if err != nil || !ok || v == "" {
		return 0, 0, false
	}
	var n typingNote
	if json.Unmarshal([]byte(v), &n) != nil || time.Now().UnixMilli() > n.Until || n.Rev > m.doc.Rev() {
		return 0, 0, false
	}
	s, e := m.doc.SpanSince(n.Rev, n.Start, n.End)
	return s, e, true
}

// keptAsideWords say an edit that the window's unsaved typing will go over.
var keptAsideWords = map[bool]string{
	false: "Your edit is in the file for now, but the window holds unsaved typing in the same paragraph (%s): when the window saves it, the typed paragraph goes into the book and your edit is kept aside — offered beside it in the window (Ctrl+Shift+D) and kept in the history as revision %d.",
	true:  "Ваша правка пока в файле, но в окне в этом же абзаце набран текст, ещё не сохранённый (%s): когда окно его сохранит, в книгу войдёт набранный абзац, а ваша правка будет отложена — окно покажет её рядом (Ctrl+Shift+D), а в истории она останется правкой %d.",
}

// keptAside is what an edit of [start, oldEnd) of the text before it, just
// made as revision rev, must be answered when the window's unsaved typing is
// in that paragraph (span from typedSpan); "" when it is not.
func (m *Manuscript) keptAside(e *document.Edit, rev int64, s, t int) string {
	touches := e.Start < t && e.OldEnd > s || e.Start == e.OldEnd && e.Start > s && e.Start < t
	if !touches {
		return ""
	}
	russian := bookIsRussian(m.doc.Source())
	where := ""
	if i := m.doc.IndexContaining(min(e.Start, max(len(m.doc.Source())-1, 0))); i >= 0 {
		where = m.doc.Place(i)
	}
	if where == "" {
		where = editWords[russian].none[1:]
	}
	return fmt.Sprintf(keptAsideWords[russian], where, rev)
}

// Failed: an edit the window's unsaved typing will go over is not a plain
// success; every door says why (the CLI exits 1, MCP marks it an error).
func (v EditView) Failed() (string, bool) { return v.KeptAside, v.KeptAside != "" }
