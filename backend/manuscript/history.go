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

// ApplySplice records a change typed in the editor: bytes [start, end) of the
// text at revision baseRev become text. Unlike the item tools it may cross item
// boundaries and change the outline (the author typed it), but it goes through
// the same path as every edit: atomic save, a revision in SQLite, TargetSets and
// cursors re-based, undo. It is recorded as a ReplaceText revision.
func (m *Manuscript) ApplySplice(ctx context.Context, baseRev int64, start, end int, text []byte) (Outcome, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	d := m.doc
	if baseRev != d.Rev() {
		return Outcome{}, fmt.Errorf("%w: the editor typed into revision %d, the manuscript is at revision %d; nothing was written", ErrStale, baseRev, d.Rev())
	}
	src := d.Source()
	if start < 0 || end < start || end > len(src) {
		return Outcome{}, fmt.Errorf("%w: the change [%d,%d) is outside the manuscript (0..%d bytes); nothing was written", document.ErrBadInput, start, end, len(src))
	}
	if (start < len(src) && !utf8.RuneStart(src[start])) || (end < len(src) && !utf8.RuneStart(src[end])) {
		return Outcome{}, fmt.Errorf("%w: the change [%d,%d) splits a character; nothing was written", document.ErrBadInput, start, end)
	}
	if !utf8.Valid(text) || bytes.IndexByte(text, 0) >= 0 {
		return Outcome{}, fmt.Errorf("%w: the typed text is not valid UTF-8 text (or holds a NUL byte); nothing was written", document.ErrBadInput)
	}
	if len(src)-(end-start)+len(text) == 0 {
		return Outcome{}, fmt.Errorf("%w: the manuscript cannot become empty; nothing was written (delete the file instead, or leave a title line)", document.ErrBadInput)
	}
	if start == end && len(text) == 0 {
		return Outcome{Op: "ReplaceText", Rev: d.Rev(), Cursor: -1, Summary: "nothing changed"}, nil
	}
	e, err := d.PlanSplice(store.OpReplaceText, start, end, append([]byte(nil), text...), false)
	if err != nil {
		// The typing changed blocks beyond its neighbours (an opened code fence
		// swallows the rest, say): the whole book is re-read, but the revision
		// still records only the typed bytes.
		if e, err = d.PlanSpliceWide(store.OpReplaceText, start, end, append([]byte(nil), text...), false); err != nil {
			return Outcome{}, err
		}
	}
	summary := "typed in the editor"
	if i, ok := d.IndexAt(start); ok {
		summary += " at " + d.Label(i)
	} else if i := d.IndexContaining(start); i >= 0 && i < d.Len() {
		summary += " at " + d.Label(i)
	}
	return m.commitAs(ctx, e, 0, summary)
}

// RevisionInfo is one step of the history as the revision list shows it.
type RevisionInfo struct {
	Rev       int64  `json:"revision"`
	Op        string `json:"op"`
	Summary   string `json:"summary"`
	Size      int64  `json:"size"`
	Undone    bool   `json:"undone"`
	Snapshot  bool   `json:"snapshot"`
	CreatedAt string `json:"createdAt"`
	Current   bool   `json:"current"`
}

// History lists the newest revisions (at most limit; 0 = 200), newest first.
func (m *Manuscript) History(ctx context.Context, limit int) ([]RevisionInfo, error) {
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
	for k := len(revs) - 1; k >= 0; k-- {
		r := revs[k]
		out = append(out, RevisionInfo{Rev: r.Rev, Op: r.Op, Summary: r.Summary, Size: r.Size, Undone: r.Undone,
			Snapshot: r.HasSnapshot, CreatedAt: r.CreatedAt.Format("2006-01-02 15:04:05"), Current: r.Rev == head})
	}
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
	// TargetSet members follow their items by content, not by the splice.
	out, err := m.commitWith(ctx, e, 0, summary, m.remapper(ctx, document.Parse(content, 0)))
	if err == nil {
		out.Summary = summary
	}
	return out, err
}

// DiskState says whether the file on disk still holds what Waymark wrote or read.
type DiskState struct {
	Changed bool   `json:"changed"`
	Missing bool   `json:"missing"`
	Size    int64  `json:"size"`
	Detail  string `json:"detail"`
}

// CheckDisk tells whether another program changed (or removed) the file since
// Waymark last read or wrote it.
func (m *Manuscript) CheckDisk() DiskState {
	m.mu.Lock()
	known := m.disk
	m.mu.Unlock()
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
	content, bom := document.CutBOM(file)
	m.mu.Lock()
	defer m.mu.Unlock()
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
