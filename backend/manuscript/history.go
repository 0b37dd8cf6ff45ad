package manuscript

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"unicode/utf8"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/store"
)

// ErrStale means a caller (the editor) made its change against a revision that
// is no longer the newest: it must fetch the newest text first.
var ErrStale = errors.New("the manuscript changed since this view of it")

// Conflict is typing into a paragraph that another door or program changed
// since the editor's text: both versions, side by side. The typed one is in
// the file (the author is writing it); the other one stays in the history, one
// Undo away, and is offered here to take instead.
type Conflict struct {
	// Heading is the chapter the paragraph is in ("" before the first heading).
	Heading string `json:"heading"`
	// Theirs is the paragraph as the other door or program left it; Mine as
	// the author typed it (now in the file).
	Theirs string `json:"theirs"`
	Mine   string `json:"mine"`
	// ByteOffset and Utf16Offset are where Mine begins in the text now.
	ByteOffset  int `json:"byteOffset"`
	Utf16Offset int `json:"utf16Offset"`
}

// Typed is the outcome of typing saved into the manuscript.
type Typed struct {
	Outcome
	// Merged lists what other doors and programs changed since the editor's
	// revision, taken in around the typing.
	Merged []Merge
	// Conflict is set when one of them changed the paragraph typed in.
	Conflict *Conflict
	// Mine is the editor's text (its revision's text with the typing); Text is
	// the manuscript's text now. They differ by the merged changes.
	Mine, Text []byte
}

// ApplySplice records a change typed in the editor: bytes [start, end) of the
// text at revision baseRev (base, or nil to rebuild it from the history)
// become text. Unlike the item tools it may cross item boundaries and change
// the outline (the author typed it), but it goes through the same path as
// every edit: atomic save, a revision in SQLite, TargetSets and cursors
// re-based, undo. It is recorded as a ReplaceText revision.
//
// Typing is never refused for being based on an older revision: what other
// doors and programs changed since (catchUp) is kept and the typing is placed
// where its text is now. Typing into a paragraph one of them changed is a
// conflict: the typed paragraph goes in, and the other version is returned
// beside it (Typed.Conflict).
func (m *Manuscript) ApplySplice(ctx context.Context, baseRev int64, base []byte, start, end int, text []byte) (Typed, error) {
	if base == nil && baseRev > 0 {
		b, err := m.w.Store.ContentAt(ctx, m.DocID, baseRev)
		if err != nil {
			return Typed{}, fmt.Errorf("%w: the editor's revision %d cannot be rebuilt (%v); nothing was written — reload the book", ErrStale, baseRev, err)
		}
		base = b
	}
	if start < 0 || end < start || end > len(base) {
		return Typed{}, fmt.Errorf("%w: the change [%d,%d) is outside the manuscript (0..%d bytes); nothing was written", document.ErrBadInput, start, end, len(base))
	}
	if (start < len(base) && !utf8.RuneStart(base[start])) || (end < len(base) && !utf8.RuneStart(base[end])) {
		return Typed{}, fmt.Errorf("%w: the change [%d,%d) splits a character; nothing was written", document.ErrBadInput, start, end)
	}
	if !utf8.Valid(text) || bytes.IndexByte(text, 0) >= 0 {
		return Typed{}, fmt.Errorf("%w: the typed text is not valid UTF-8 text (or holds a NUL byte); nothing was written", document.ErrBadInput)
	}
	mine := make([]byte, 0, len(base)-(end-start)+len(text))
	mine = append(append(append(mine, base[:start]...), text...), base[end:]...)
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, err := m.catchUp(ctx); err != nil {
		return Typed{}, err
	}
	for attempt := 0; ; attempt++ {
		out, err := m.typeLocked(ctx, baseRev, base, mine, start, end, text)
		if err == nil {
			m.typingSaved(ctx) // what the note was about is saved (or came to nothing)
		}
		if again, _ := m.lostRace(ctx, err, attempt); !again {
			// The changes the editor's text did not have yet.
			for _, g := range m.takeMerges() {
				if g.Revision > baseRev {
					out.Merged = append(out.Merged, g)
				}
			}
			return out, err
		}
	}
}

// typeLocked is ApplySplice once the others' changes are taken in.
func (m *Manuscript) typeLocked(ctx context.Context, baseRev int64, base, mine []byte, start, end int, text []byte) (Typed, error) {
	d := m.doc
	if baseRev > d.Rev() {
		return Typed{}, fmt.Errorf("%w: the editor's revision %d is newer than the manuscript's (%d); nothing was written — reload the book", ErrStale, baseRev, d.Rev())
	}
	out := Typed{Mine: mine}
	if start == end && len(text) == 0 {
		out.Outcome = Outcome{Op: store.OpReplaceText, Rev: d.Rev(), Cursor: -1, Summary: "nothing changed"}
		out.Text = append([]byte(nil), d.Source()...)
		return out, nil
	}
	src := d.Source()
	at, to, put := start, end, text
	if baseRev != d.Rev() {
		// The paragraph typed in, in the editor's text: between blank lines.
		ps, pe := paragraphAround(base, start, end)
		if _, _, err := d.RebaseRange(baseRev, ps, pe); err == nil {
			at, to, _ = d.RebaseRange(baseRev, start, end)
		} else {
			// Another door or program changed this paragraph: the typed one
			// replaces what it became, and that is returned beside it.
			cs, ce := d.SpanSince(baseRev, ps, pe)
			at, to = cs, ce
			put = mine[ps : pe+len(text)-(end-start)]
			out.Conflict = &Conflict{Heading: m.headingAt(cs), Theirs: string(src[cs:ce]), Mine: string(put), ByteOffset: cs}
		}
	}
	if len(src)-(to-at)+len(put) == 0 {
		return Typed{}, fmt.Errorf("%w: the manuscript cannot become empty; nothing was written (delete the file instead, or leave a title line)", document.ErrBadInput)
	}
	e, err := m.planRaw(store.OpReplaceText, at, to, append([]byte(nil), put...), false)
	if err != nil {
		return Typed{}, err
	}
	summary := "typed in the editor"
	if h := m.headingAt(at); h != "" {
		summary += " in “" + h + "”"
	}
	if out.Conflict != nil {
		summary += " (over a change made elsewhere, kept in the history)"
	}
	o, err := m.commitAs(ctx, e, 0, summary)
	if err != nil {
		return Typed{}, err
	}
	out.Outcome = o
	out.Text = append([]byte(nil), m.doc.Source()...)
	return out, nil
}

// paragraphAround returns the block of text holding [start, end): from the
// line after the blank line before it to the blank line after it.
func paragraphAround(b []byte, start, end int) (int, int) {
	blank := func(line []byte) bool { return len(bytes.TrimSpace(line)) == 0 }
	ps := bytes.LastIndexByte(b[:start], '\n') + 1
	for ps > 0 {
		prev := bytes.LastIndexByte(b[:ps-1], '\n') + 1
		if blank(b[prev : ps-1]) {
			break
		}
		ps = prev
	}
	lineEnd := func(p int) int {
		if e := bytes.IndexByte(b[p:], '\n'); e >= 0 {
			return p + e
		}
		return len(b)
	}
	pe := lineEnd(end)
	for pe < len(b) {
		next := lineEnd(pe + 1)
		if blank(b[pe+1 : next]) {
			break
		}
		pe = next
	}
	return ps, pe
}

// RevisionInfo is one step of the history as the revision list shows it.
type RevisionInfo struct {
	Rev     int64  `json:"revision"`
	Op      string `json:"op"`
	Summary string `json:"summary"`
	// Description is the revision in words, in the language asked for (the
	// book's by default): what changed and under which headings it is now
	// (describeRevision).
	Description string `json:"description"`
	Size        int64  `json:"size"`
	Undone      bool   `json:"undone"`
	Snapshot    bool   `json:"snapshot"`
	CreatedAt   string `json:"createdAt"`
	Current     bool   `json:"current"`
}

// History lists the newest revisions (at most limit; 0 = 200), newest first,
// each said in the book's language (HistoryIn).
func (m *Manuscript) History(ctx context.Context, limit int) ([]RevisionInfo, error) {
	return m.HistoryIn(ctx, limit, "")
}

// HistoryIn is History with the descriptions in lang ("en", "ru"; "" the
// book's): the window's History panel asks for the window's language.
func (m *Manuscript) HistoryIn(ctx context.Context, limit int, lang string) ([]RevisionInfo, error) {
	if limit <= 0 {
		limit = 200
	}
	m.mu.Lock()
	head := m.doc.Rev()
	m.mu.Unlock()
	after := head - int64(limit)
	if after < 0 {
		after = 0
	}
	revs, err := m.w.Store.Revisions(ctx, m.DocID, after)
	if err != nil {
		return nil, fmt.Errorf("history of %s: %w", filepath.Base(m.Path), err)
	}
	out := make([]RevisionInfo, 0, len(revs))
	for len(revs) > 0 && revs[len(revs)-1].Rev > head {
		revs = revs[:len(revs)-1] // written after the text was read
	}
	// Each revision's place now: its start moved by every later revision
	// that changed text before it (as EditsSince places an edit).
	_ = m.Do(func(d *document.Document) error {
		russian := describeIn(lang, d.Source())
		exact := d.Rev() == head
		for k := len(revs) - 1; k >= 0; k-- {
			r := revs[k]
			at := -1
			if exact && r.Op != store.OpOpen {
				at = int(r.Start)
				for _, later := range revs[k+1:] {
					if int(later.Start) <= at {
						at += len(later.New) - len(later.Old)
					}
				}
			}
			out = append(out, RevisionInfo{Rev: r.Rev, Op: r.Op, Summary: r.Summary, Description: describeRevision(r, d, at, russian),
				Size: r.Size, Undone: r.Undone, Snapshot: r.HasSnapshot, CreatedAt: r.CreatedAt.Format("2006-01-02 15:04:05"), Current: r.Rev == head})
		}
		return nil
	})
	return out, nil
}

// Restore sets the manuscript back to its content at revision rev. Nothing is
// lost: the restore is a new revision (with a snapshot), so the text before it
// stays in the history and can itself be restored.
func (m *Manuscript) Restore(ctx context.Context, rev int64) (Outcome, error) {
	content, err := m.w.Store.ContentAt(ctx, m.DocID, rev)
	if err != nil {
		return Outcome{}, fmt.Errorf("restore revision %d of %s: %w", rev, filepath.Base(m.Path), err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, err := m.catchUp(ctx); err != nil {
		return Outcome{}, err
	}
	if rev >= m.doc.Rev() {
		return Outcome{}, fmt.Errorf("%w: revision %d is the current text (or newer); pick an earlier revision from the history", document.ErrBadInput, rev)
	}
	out, err := m.replaceAll(ctx, store.OpRestore, content, fmt.Sprintf("Restore revision %d", rev))
	if err != nil {
		return Outcome{}, err
	}
	return out, nil
}

// replaceAll makes content the manuscript's text as one snapshot revision of op
// (Restore or external), touching as little of the document as the change needs.
// The caller holds m.mu.
func (m *Manuscript) replaceAll(ctx context.Context, op string, content []byte, summary string) (Outcome, error) {
	if err := document.CheckSource(m.Path, content, m.w.MaxSize); err != nil {
		return Outcome{}, err
	}
	src := m.doc.Source()
	p := document.CommonPrefix(src, content)
	s := document.CommonSuffix(src[p:], content[p:])
	for p > 0 && p < len(src) && !utf8.RuneStart(src[p]) {
		p--
	}
	for s > 0 && !utf8.RuneStart(src[len(src)-s]) {
		s--
	}
	e, err := m.doc.PlanSplice(op, p, len(src)-s, append([]byte(nil), content[p:len(content)-s]...), true)
	if err != nil {
		if e, err = m.doc.PlanSpliceWide(op, p, len(src)-s, append([]byte(nil), content[p:len(content)-s]...), true); err != nil {
			return Outcome{}, err
		}
	}
	out, err := m.commitAs(ctx, e, 0, summary)
	if err == nil {
		out.Summary = summary
	}
	return out, err
}

// DiskState says whether the file on disk still holds what Waymark wrote or
// read, and what was taken in from elsewhere.
type DiskState struct {
	Changed bool   `json:"changed"`
	Missing bool   `json:"missing"`
	Size    int64  `json:"size"`
	Detail  string `json:"detail"`
	// Revision is the manuscript's revision after what was taken in.
	Revision int64 `json:"revision"`
	// Merged lists the changes of other doors and programs taken in by this
	// look, and Note says so in one line in the book's language ("Another
	// program changed “III”; your text is kept."); an editor brings its text
	// up to Revision (TextChanges).
	Merged []Merge `json:"merged,omitempty"`
	Note   string  `json:"note,omitempty"`
}

// CheckDisk takes in what other Waymark doors and other programs changed (see
// catchUp), then tells whether the file is missing or holds what Waymark
// cannot take in (not text, too large).
func (m *Manuscript) CheckDisk() DiskState {
	m.mu.Lock()
	if _, err := m.catchUp(context.Background()); err != nil {
		m.w.Log.Warn("take in changes from elsewhere", "path", m.Path, "err", err)
	}
	merges := m.takeMerges()
	known, rev := m.disk, m.doc.Rev()
	note := MergeNote(merges, bookIsRussian(m.doc.Source()))
	m.mu.Unlock()
	ds := m.checkDisk(known)
	ds.Revision, ds.Merged, ds.Note = rev, merges, note
	return ds
}

// checkDisk compares the file with what Waymark last knew of it.
func (m *Manuscript) checkDisk(known diskState) DiskState {
	fi, err := os.Stat(m.Path)
	if err != nil {
		return DiskState{Changed: true, Missing: true, Detail: fmt.Sprintf("%s can no longer be read: %v", m.Path, err)}
	}
	if err := checkUnchanged(m.Path, known, false); err != nil {
		return DiskState{Changed: true, Size: fi.Size(), Detail: fmt.Sprintf("%s was changed by another program since Waymark opened or saved it", filepath.Base(m.Path))}
	}
	return DiskState{Size: fi.Size()}
}

// DiskText reads the file's text as it is on disk now (to compare it with
// Waymark's), without a byte-order mark.
func (m *Manuscript) DiskText() ([]byte, error) {
	file, err := document.ReadFile(m.Path, m.w.MaxSize)
	text, _ := document.CutBOM(file)
	return text, err
}

// ReloadFromDisk takes the other program's version: it becomes the newest
// revision (an "external" snapshot); Waymark's version stays in the history.
func (m *Manuscript) ReloadFromDisk(ctx context.Context) (Outcome, error) {
	file, err := document.ReadFile(m.Path, m.w.MaxSize)
	if err != nil {
		return Outcome{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.reloadLocked(ctx, file)
}

// reloadLocked is ReloadFromDisk with m.mu held and the file read.
func (m *Manuscript) reloadLocked(ctx context.Context, file []byte) (Outcome, error) {
	content, bom := document.CutBOM(file)
	sha := hashParts(file)
	m.doc.SetFileBOM(bom != nil) // the next save writes the mark as the file has it now
	if bytes.Equal(content, m.doc.Source()) {
		if st, err := stateOf(m.Path, sha); err == nil {
			m.disk = st
		}
		return Outcome{Op: store.OpExternal, Rev: m.doc.Rev(), Cursor: -1, Summary: "the file on disk holds the same text"}, nil
	}
	// The file already holds content: commit must not refuse the write, and the
	// write puts back exactly those bytes.
	if st, err := stateOf(m.Path, sha); err == nil {
		m.disk = st
	}
	return m.replaceAll(ctx, store.OpExternal, content, fmt.Sprintf("external change of %s reloaded (%d bytes)", filepath.Base(m.Path), len(content)))
}

// KeepMine writes Waymark's version over the other program's. The other version
// is recorded first (an "external" snapshot), then Waymark's is restored on top,
// so both stay in the history.
func (m *Manuscript) KeepMine(ctx context.Context) (Outcome, error) {
	theirFile, err := document.ReadFile(m.Path, m.w.MaxSize)
	theirs, theirBOM := document.CutBOM(theirFile)
	missing := errors.Is(err, os.ErrNotExist)
	if err != nil && !missing {
		// Unreadable or not text: keep it aside rather than losing it.
		return Outcome{}, fmt.Errorf("keep mine: the file on disk cannot be kept in the history (%w); move it aside first, then choose keep mine again", err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	mine := append([]byte(nil), m.doc.Source()...)
	if !missing {
		if st, err := stateOf(m.Path, hashParts(theirFile)); err == nil {
			m.disk = st
		}
		myBOM := m.doc.FileBOM() != nil
		m.doc.SetFileBOM(theirBOM != nil)
		if _, err := m.replaceAll(ctx, store.OpExternal, theirs, fmt.Sprintf("external change of %s (set aside: kept Waymark's)", filepath.Base(m.Path))); err != nil {
			m.doc.SetFileBOM(myBOM)
			return Outcome{}, err
		}
		m.doc.SetFileBOM(myBOM) // Waymark's version goes back with its own mark
	} else {
		if err := WriteAtomic(m.Path, m.doc.FileBOM(), mine); err != nil {
			return Outcome{}, err
		}
		if st, err := stateOf(m.Path, hashParts(m.doc.FileBOM(), mine)); err == nil {
			m.disk = st
		}
		return Outcome{Op: "write", Rev: m.doc.Rev(), Cursor: -1, Summary: "the file was missing; Waymark's version was written back"}, nil
	}
	return m.replaceAll(ctx, store.OpRestore, mine, "kept Waymark's version over the external change")
}
