// Package manuscript ties a Markdown file, its linear document and its history in
// SQLite together: it opens manuscripts, applies edits so that the file, the
// revision log and the in-memory model change together or not at all, and keeps
// TargetSets and named cursors pointing at the right items as the book changes.
package manuscript

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/store"
)

// editOps are the operations an undo can revert.
var editOps = []string{"ReplaceText", "InsertAfter", "InsertBefore", "Delete", "Redo"}

// Workspace is the set of manuscripts open in one process, over one database.
type Workspace struct {
	Store   *store.Store
	MaxSize int64 // largest file opened; 0 = document.DefaultMaxSize
	Log     *slog.Logger

	mu      sync.Mutex
	open    map[string]*Manuscript
	current *Manuscript
}

// NewWorkspace returns a workspace over st.
func NewWorkspace(st *store.Store) *Workspace {
	return &Workspace{Store: st, open: map[string]*Manuscript{}, Log: slog.Default()}
}

func (w *Workspace) maxSize() int64 {
	if w.MaxSize > 0 {
		return w.MaxSize
	}
	return document.DefaultMaxSize
}

// ErrNoManuscript means a document tool was called with no manuscript open.
var ErrNoManuscript = errors.New("no manuscript is open")

// Current returns the manuscript the tools act on.
func (w *Workspace) Current() (*Manuscript, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.current == nil {
		return nil, fmt.Errorf("%w: open one first (CLI: --doc PATH)", ErrNoManuscript)
	}
	return w.current, nil
}

// Manuscript is one open file.
type Manuscript struct {
	w     *Workspace
	Path  string
	DocID int64

	mu      sync.Mutex
	doc     *document.Document
	cursors *document.Cursors
	disk    diskState
	// unreported is what was taken in from other doors and programs and not
	// yet told to the author (see takeMerges).
	unreported []Merge
	// u16 indexes the text at u16rev in UTF-16 code units, and outlined is
	// the outline at outlinedRev: made once per revision (utf16Index,
	// toolOutline), for the editors that ask again after every save.
	u16         *document.UTF16Index
	u16rev      int64
	u16doc      *document.Document
	outlined    *OutlineResult
	outlinedRev int64
}

// Open opens (or returns the already open) manuscript at path and makes it current.
// The file is validated first; nothing is written to it. The database learns of it:
// its first revision is a snapshot of the file, and a file changed by another
// program since Waymark last saw it gets an "external" snapshot revision, so that
// no version is ever lost.
func (w *Workspace) Open(ctx context.Context, path string) (*Manuscript, error) {
	abs, err := bookPath(path)
	if err != nil {
		return nil, err
	}
	if m := w.alreadyOpen(abs); m != nil {
		return m, nil
	}

	// Reading the file and reconciling it with the history happen under the save
	// lock, so another process's save is never half-seen (its rename done, its
	// revision not yet committed).
	unlock, err := lockBook(abs)
	if err != nil {
		return nil, err
	}
	defer unlock()
	src, fi, err := document.ReadRawInfo(abs, w.MaxSize)
	if err != nil {
		return nil, err
	}
	rec, known, err := w.Store.DocumentByPath(ctx, abs)
	if err != nil {
		return nil, fmt.Errorf("open manuscript %s: %w", abs, err)
	}
	o, err := w.readBook(ctx, abs, src, rec.ID, known)
	if err != nil {
		return nil, err
	}
	removeStaleTemps(abs)
	if !known {
		if rec, err = w.Store.EnsureDocument(ctx, abs); err != nil {
			return nil, fmt.Errorf("open manuscript %s: %w", abs, err)
		}
	}
	m := &Manuscript{w: w, Path: abs, DocID: rec.ID}
	recorded, err := m.reconcile(ctx, o, src)
	if err != nil {
		return nil, err
	}
	if !o.fromIndex {
		m.saveCache(ctx, fi, o.fileSHA, o.sha) // a cache: failure costs a parse next time
	}
	m.disk = diskStateOf(fi, o.fileSHA)
	m.cursors = document.NewCursors(m.doc)
	if err := m.loadCursors(ctx); err != nil {
		return nil, err
	}
	if recorded || !o.fromIndex {
		// An unchanged book opened from its cache writes nothing at all (a
		// read-only CLI call stays read-only: no fsync of the database).
		_ = w.Store.LogEvent(ctx, "document_open", rec.ID, map[string]any{"path": abs, "bytes": len(src), "items": m.doc.Len(), "revision": m.doc.Rev()})
	}
	return w.register(abs, m), nil
}

// bookPath is the absolute path of the book at path. A book opened through
// a symbolic link is the file it points to: saves replace that file and
// leave the link a link.
func bookPath(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("open manuscript %s: %w", path, err)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	return abs, nil
}

// alreadyOpen is the open manuscript of the book at abs, made current (nil:
// the book is not open).
func (w *Workspace) alreadyOpen(abs string) *Manuscript {
	w.mu.Lock()
	defer w.mu.Unlock()
	m, ok := w.open[abs]
	if ok {
		w.current = m
	}
	return m
}

// register makes m the open and current manuscript of the book at abs; if
// another Open opened it concurrently, that one stays and is returned.
func (w *Workspace) register(abs string, m *Manuscript) *Manuscript {
	w.mu.Lock()
	defer w.mu.Unlock()
	if prev, ok := w.open[abs]; ok { // opened concurrently
		w.current = prev
		return prev
	}
	w.open[abs] = m
	w.current = m
	return m
}

// openedBook is a book's file read and checked: its document, its text
// (after any byte-order mark), the hashes of the file and of the text, and
// whether the document came from the cached index.
type openedBook struct {
	doc          *document.Document
	text         []byte
	fileSHA, sha string
	fromIndex    bool
}

// readBook makes the document of the file's bytes src: from the cached
// index when it was made of these bytes, else parsed; a file that fails the
// checks is refused.
//
// The file's bytes decide whether the cached index is this book's: a book
// opens from it only when the SHA-256 of what was just read is the one the
// index was made from. Its size, modification time or inode cannot decide
// it: another program can write other bytes of the same size within one
// tick of the file system's clock, or put the old time back, and a stale
// index would then hide that change from the history. The bytes are
// hashed on the other core while the cached index is decoded, which is
// then kept only if the hashes agree. The revision log holds text (after
// any byte-order mark): its hashes and sizes are the text's; the disk
// check uses the file's.
func (w *Workspace) readBook(ctx context.Context, abs string, src []byte, docID int64, known bool) (*openedBook, error) {
	text, _ := document.CutBOM(src)
	hashes := make(chan [2]string, 1)
	go func() {
		file := hashParts(src)
		if len(text) == len(src) {
			hashes <- [2]string{file, file}
			return
		}
		hashes <- [2]string{file, hashParts(text)}
	}()
	parsed := make(chan *document.Document, 1) // buffered: a send never blocks, even if Open fails
	parse := func() {
		// Parsing — the long part of opening a whole book — runs on the other
		// core while the bytes are checked. The document takes src over; until
		// Open returns, src is only read here (hashes, the splice of an
		// outside change) while the parser reads it too, and edits come only
		// after.
		parses.Add(1)
		go func() { parsed <- document.ParseOwned(src, 0) }()
	}
	cached, cachedFor := w.cachedIndex(ctx, src, docID, known)
	if cached == nil {
		// What would make the parse grow with the square of the book is
		// refused before it starts (the parse of a rejected file would run on).
		if err := document.CheckHazards(abs, src); err != nil {
			return nil, err
		}
		parse()
	}
	h := <-hashes
	o := &openedBook{text: text, fileSHA: h[0], sha: h[1]}
	o.fromIndex = cached != nil && cachedFor == o.fileSHA
	if o.fromIndex {
		parsed <- cached
	} else {
		if cached != nil { // made for other bytes: dropped
			if err := document.CheckHazards(abs, src); err != nil {
				return nil, err
			}
			parse()
		}
		if err := document.CheckSource(abs, src, w.MaxSize); err != nil {
			return nil, err // the parse of a rejected file is dropped
		}
	}
	// Lists or block quotes nested deeper than the parse goes are refused.
	o.doc = <-parsed
	if err := o.doc.NestingError(abs); err != nil {
		return nil, err
	}
	return o, nil
}

// cachedIndex is the document of src made from the cached index of a known
// book, and the file hash the index was made for (nil: no usable index).
func (w *Workspace) cachedIndex(ctx context.Context, src []byte, docID int64, known bool) (*document.Document, string) {
	if !known {
		return nil, ""
	}
	c, ok, err := w.Store.DocumentCache(ctx, docID)
	if err != nil || !ok || c.Version != document.IndexVersion {
		return nil, ""
	}
	d, err := document.ParseWithIndex(src, 0, c.Data)
	if err != nil {
		return nil, ""
	}
	return d, c.FileSHA256
}

// reconcile gives m the opened book's document at its revision: the latest
// one when it holds this text, else a new revision it records (recorded
// true).
func (m *Manuscript) reconcile(ctx context.Context, o *openedBook, src []byte) (bool, error) {
	head, ok, err := m.w.Store.LatestRevision(ctx, m.DocID)
	if err != nil {
		return false, fmt.Errorf("open manuscript %s: %w", m.Path, err)
	}
	m.doc = o.doc
	if ok && head.SHA256 == o.sha {
		m.doc.SetRev(head.Rev)
		return false, m.loadHistory(ctx, head.Rev)
	}
	if err := m.recordOpen(ctx, o, src, head, ok); err != nil {
		return false, err
	}
	return true, nil
}

// recordOpen records the text of a book opened for the first time (a
// snapshot), or changed by another program since the latest revision head
// (an external revision holding the bytes it changed, the TargetSet
// members following their items).
func (m *Manuscript) recordOpen(ctx context.Context, o *openedBook, src []byte, head store.Revision, hasHead bool) error {
	w, text := m.w, o.text
	op := store.OpOpen
	if hasHead {
		op = store.OpExternal
	}
	var follow *document.Edit // the change, planned on the text before it
	r := store.Revision{DocID: m.DocID, Op: op, SHA256: o.sha, Size: int64(len(text)),
		Summary: fmt.Sprintf("%s %s (%d bytes)", op, filepath.Base(m.Path), len(src))}
	if op == store.OpOpen {
		r.Snapshot = text
	} else if prev, err := w.Store.ContentAt(ctx, m.DocID, head.Rev); err == nil {
		// Another program changed the book: the revision holds the bytes it changed.
		r.Start, r.Old, r.New = spliceBetween(prev, text)
		follow = planOutside(document.Parse(prev, head.Rev), int(r.Start), r.Old, r.New)
	} else {
		r.Snapshot = text // the text before cannot be rebuilt: keep this one whole
	}
	err := w.Store.Tx(ctx, func(tx *store.Tx) error {
		if op == store.OpExternal && r.Snapshot == nil {
			if n, spliced, err := tx.ChangesSinceSnapshot(ctx, m.DocID); err != nil {
				return err
			} else if store.SnapshotDue(n+1, spliced+int64(len(r.Old)+len(r.New)), r.Size) {
				r.Snapshot = text
			}
		}
		stored, err := tx.AppendRevision(ctx, r)
		if err != nil {
			return err
		}
		r.Rev = stored.Rev
		if op != store.OpExternal || follow == nil {
			return nil
		}
		// Another program changed the book: TargetSet members follow their
		// items into the new text.
		moves, made := memberMoves(follow)
		return tx.FollowTargetMembers(ctx, m.DocID, stored.Rev, r.Start, r.Start+int64(len(r.Old)), r.Start+int64(len(r.New)), moves, made)
	})
	if err != nil {
		return fmt.Errorf("open manuscript %s: record revision: %w", m.Path, err)
	}
	m.doc.SetRev(r.Rev)
	if op == store.OpExternal {
		return m.loadHistory(ctx, r.Rev)
	}
	return nil
}

// parses counts the Markdown parses Open started (a test sees whether an open
// used the cached index).
var parses atomic.Int64

// saveCache stores the index of the current text as the document's cache,
// replacing the one before: one row per document, whatever its history. The
// file's status is kept beside it for a reader of the database; only the
// hash of the file's bytes makes the row valid (Open).
func (m *Manuscript) saveCache(ctx context.Context, fi os.FileInfo, fileSHA, sha string) {
	ino, ctime := fileID(fi)
	_ = m.w.Store.SaveDocumentCache(ctx, store.DocumentCache{DocID: m.DocID, Version: document.IndexVersion,
		SHA256: sha, FileSHA256: fileSHA, FileSize: fi.Size(), FileMtimeNs: fi.ModTime().UnixNano(),
		FileIno: int64(ino), FileCtimeNs: ctime, Data: m.doc.MarshalIndex()})
}

// spliceBetween returns the one splice that turns old into new: the bytes
// between their common start and common end, kept to whole characters.
func spliceBetween(old, new []byte) (start int64, o, n []byte) {
	p := document.CommonPrefix(old, new)
	s := document.CommonSuffix(old[p:], new[p:])
	for p > 0 && p < len(old) && !utf8.RuneStart(old[p]) {
		p--
	}
	for s > 0 && !utf8.RuneStart(old[len(old)-s]) {
		s--
	}
	return int64(p), append([]byte(nil), old[p:len(old)-s]...), append([]byte(nil), new[p:len(new)-s]...)
}

// loadHistory installs the changes since the last snapshot, so pointers taken at
// those revisions (by an earlier process, a TargetSet, a model) can be re-based.
func (m *Manuscript) loadHistory(ctx context.Context, head int64) error {
	// History runs from the last discontinuity: the first sight of the file, a
	// change by another program, or a restore.
	snap, ok, err := m.w.Store.LastWholeText(ctx, m.DocID)
	if err != nil {
		return fmt.Errorf("load history of %s: %w", m.Path, err)
	}
	if !ok {
		m.doc.SetRev(head)
		return nil
	}
	revs, err := m.w.Store.Revisions(ctx, m.DocID, snap.Rev)
	if err != nil {
		return fmt.Errorf("load history of %s: %w", m.Path, err)
	}
	byRev := map[int64]store.Revision{}
	for _, r := range revs {
		byRev[r.Rev] = r
	}
	var changes []document.Change
	for _, r := range revs {
		removes, err := m.removes(ctx, r, byRev)
		if err != nil {
			return err
		}
		if wholeChange(r.Op) {
			changes = append(changes, document.LineHunks(r.Rev, int(r.Start), r.Old, r.New)...)
			continue
		}
		changes = append(changes, document.Change{Rev: r.Rev, Start: int(r.Start), OldEnd: int(r.Start) + len(r.Old),
			NewEnd: int(r.Start) + len(r.New), Removes: removes,
			DLines: document.LineBreaks(r.New) - document.LineBreaks(r.Old),
			DRunes: utf8.RuneCount(r.New) - utf8.RuneCount(r.Old)})
	}
	m.doc.SetHistory(snap.Rev, changes)
	return nil
}

// wholeChange tells whether revisions of op change the text as a whole
// (another program's change, a restore): their pointers re-base over the
// lines they left alone (document.LineHunks).
func wholeChange(op string) bool { return op == store.OpExternal || op == store.OpRestore }

// refineChange splits the change the applied edit e recorded into the lines
// it really changed, when e changed the text as a whole.
func (m *Manuscript) refineChange(e *document.Edit) {
	if wholeChange(e.Op) {
		m.doc.RefineLastChange(document.LineHunks(m.doc.Rev(), e.Start, e.Old, e.New))
	}
}

// memberMoves is where e takes the TargetSet members of the items it
// replaced (document.Edit.Follow), and the items it made from new text, where
// members lost earlier may come back.
func memberMoves(e *document.Edit) ([]store.ItemMove, []store.MadeItem) {
	starts := e.Replaced()
	var moves []store.ItemMove
	for k, f := range e.Follow(starts) {
		moves = append(moves, store.ItemMove{Old: int64(starts[k]), New: int64(f.Start), Hash: f.Hash, Lost: string(f.Lost)})
	}
	var made []store.MadeItem
	ms, hs := e.Made()
	for k := range ms {
		made = append(made, store.MadeItem{Start: int64(ms[k]), Hash: hs[k]})
	}
	return moves, made
}

// planOutside plans, on the text before it (old), the change another program
// made: bytes o at start became n. nil when it cannot be planned.
func planOutside(old *document.Document, start int, o, n []byte) *document.Edit {
	e, err := old.PlanSplice(store.OpExternal, start, start+len(o), append([]byte(nil), n...), true)
	if err != nil {
		e, err = old.PlanSpliceWide(store.OpExternal, start, start+len(o), append([]byte(nil), n...), true)
	}
	if err != nil {
		return nil
	}
	return e
}

// effectiveOp follows undo/redo links to the edit a revision finally performs.
func (m *Manuscript) effectiveOp(ctx context.Context, r store.Revision, cache map[int64]store.Revision) (string, bool, error) {
	undo := false
	for k := 0; k < 10000; k++ {
		switch r.Op {
		case "Undo", "Redo":
			if r.Op == "Undo" {
				undo = !undo
			} else {
				// A redo re-applies what its undo reverted: two steps back, same sense.
				undo = !undo
			}
			next, ok := cache[r.UndoOf]
			if !ok {
				var err error
				next, err = m.w.Store.Revision(ctx, m.DocID, r.UndoOf)
				if err != nil {
					return "", false, fmt.Errorf("history of %s: revision %d refers to %d: %w", m.Path, r.Rev, r.UndoOf, err)
				}
			}
			r = next
		default:
			return r.Op, undo, nil
		}
	}
	return "", false, fmt.Errorf("history of %s: undo chain too long", m.Path)
}

// removes tells whether a revision removed the items in its old range.
func (m *Manuscript) removes(ctx context.Context, r store.Revision, cache map[int64]store.Revision) (bool, error) {
	op, inverted, err := m.effectiveOp(ctx, r, cache)
	if err != nil {
		return false, err
	}
	switch op {
	case "Delete":
		return !inverted, nil
	case "InsertAfter", "InsertBefore":
		return inverted, nil
	case store.OpExternal, store.OpRestore:
		// A change made as a whole: an item that started inside the changed bytes
		// may be another one now; its pointers are refused, never moved onto a
		// neighbour (TargetSet members follow their items by content instead).
		return true, nil
	}
	return false, nil
}

// Do runs fn with the manuscript locked, for read-only access to the document.
func (m *Manuscript) Do(fn func(d *document.Document) error) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.catchUpQuietly(context.Background())
	return fn(m.doc)
}

// catchUpQuietly is catchUp for readers: a failure to take in others' changes
// is logged, and the reader sees the text as this process has it.
func (m *Manuscript) catchUpQuietly(ctx context.Context) {
	if _, err := m.catchUp(ctx); err != nil {
		m.w.Log.Warn("take in changes from elsewhere", "path", m.Path, "err", err)
	}
}

// Outcome is the result of an applied edit, as tools report it.
type Outcome struct {
	Op       string
	Rev      int64
	Start    int // where the splice began, in the text before it
	Produced []int
	Deleted  []document.Pointer
	Cursor   int
	Context  string
	Summary  string
	Note     string // what the user must be told about where the edit went
	// Description is an undo's or redo's edit in words, in the book's
	// language, with where it is (describeRevision).
	Description string
	// KeptAside says that the window's unsaved typing is in the paragraph
	// this edit changed: the edit will be kept aside when it is saved.
	KeptAside string
}

// Edit plans an edit with plan, then saves the file atomically, records the
// revision (and re-bases TargetSets) in one transaction, and only then changes the
// in-memory document. If any step fails nothing has changed: a failed database
// write puts the old file back.
func (m *Manuscript) Edit(ctx context.Context, plan func(d *document.Document) (*document.Edit, error)) (Outcome, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, err := m.catchUp(ctx); err != nil {
		return Outcome{}, err
	}
	for attempt := 0; ; attempt++ {
		e, err := plan(m.doc)
		if err != nil {
			return Outcome{}, err
		}
		s, t, typing := m.typedSpan(ctx)
		out, err := m.commit(ctx, e, 0)
		if again, _ := m.lostRace(ctx, err, attempt); !again {
			if err == nil && typing {
				out.KeptAside = m.keptAside(e, out.Rev, s, t)
			}
			return out, err
		}
		// Another door saved first: the edit is planned again on its text.
	}
}

// lostRace tells whether a save failed only because another Waymark door or
// another program saved the book between this process's look and its write:
// their change is then taken in (catchUp) and the caller tries again, a few
// times at most. The caller holds m.mu.
func (m *Manuscript) lostRace(ctx context.Context, err error, attempt int) (bool, []Merge) {
	if err == nil || !errors.Is(err, ErrChangedOnDisk) || attempt >= 3 {
		return false, nil
	}
	merges, cerr := m.catchUp(ctx)
	return cerr == nil && len(merges) > 0, merges
}

// commit persists and applies a planned edit. undoOf links undo/redo revisions.
func (m *Manuscript) commit(ctx context.Context, e *document.Edit, undoOf int64) (Outcome, error) {
	return m.commitAs(ctx, e, undoOf, "")
}

// commitAs is commit with the revision's summary given (empty: the op and the
// target's label).
//
// The order makes two writers safe: under an OS lock on the book, the file's
// content is checked (by hash) to be what this process last read or wrote; the
// revision is written in a transaction whose last step is the rename of the new
// file, so the transaction commits only when the rename did; a failed commit puts
// the old file back. A second process (or a second window) that read the same
// text then finds the file changed and is refused with ErrChangedOnDisk.
func (m *Manuscript) commitAs(ctx context.Context, e *document.Edit, undoOf int64, summary string) (Outcome, error) {
	return m.commitWith(ctx, e, undoOf, summary, nil)
}

// commitWith is commitAs with the moves of TargetSet members given (an edit
// that knows exactly where each item went, EditItems); nil follows them
// (memberMoves).
func (m *Manuscript) commitWith(ctx context.Context, e *document.Edit, undoOf int64, summary string, moves []store.ItemMove) (Outcome, error) {
	d := m.doc
	src := d.Source()
	bom := d.FileBOM()
	before, after := src[:e.Start], src[e.OldEnd:]
	size := int64(len(bom) + len(before) + len(e.New) + len(after))
	if max := m.w.maxSize(); size > max {
		return Outcome{}, fmt.Errorf("%w: after this edit %s would be %d bytes, over the size limit of %d bytes that opening a book allows; nothing was written — split the manuscript or raise the limit (--max-size)", document.ErrBadInput, filepath.Base(m.Path), size, max)
	}
	unlock, err := lockBook(m.Path)
	if err != nil {
		return Outcome{}, err
	}
	defer unlock()
	if err := m.checkFileAsLeft(); err != nil {
		return Outcome{}, err
	}
	sha := hashParts(before, e.New, after) // the text's, as the revision log keeps it
	fileSHA := hashParts(bom, before, e.New, after)
	if summary == "" {
		summary = e.Op
		if e.Target >= 0 {
			summary = e.Op + " " + d.Label(e.Target)
		}
	}
	// TargetSet members follow their items: by the splice where it left them
	// alone, by content where it replaced them.
	var made []store.MadeItem
	if moves == nil {
		moves, made = memberMoves(e)
	}
	rev := d.Rev() + 1
	renamed := false
	err = m.w.Store.Tx(ctx, func(tx *store.Tx) error {
		head, ok, err := tx.LatestRevision(ctx, m.DocID)
		if err != nil {
			return err
		}
		if !ok || head.Rev != d.Rev() {
			return fmt.Errorf("%w: another Waymark process changed %s (revision %d, this one has %d); nothing was written — reload it", ErrChangedOnDisk, m.Path, head.Rev, d.Rev())
		}
		r := store.Revision{DocID: m.DocID, Op: e.Op, Start: int64(e.Start), Old: e.Old, New: e.New,
			SHA256: sha, Size: size - int64(len(bom)), UndoOf: undoOf, Summary: summary}
		if n, spliced, err := tx.ChangesSinceSnapshot(ctx, m.DocID); err != nil {
			return err
		} else if store.SnapshotDue(n+1, spliced+int64(len(e.Old)+len(e.New)), size) {
			r.Snapshot = bytes.Join([][]byte{before, e.New, after}, nil)
		}
		stored, err := tx.AppendRevision(ctx, r)
		if err != nil {
			return err
		}
		if stored.Rev != rev {
			return fmt.Errorf("revision numbering of %s is out of step (%d, expected %d)", m.Path, stored.Rev, rev)
		}
		if err := markUndoRedo(ctx, tx, m.DocID, e.Op, undoOf); err != nil {
			return err
		}
		if err := tx.FollowTargetMembers(ctx, m.DocID, rev, int64(e.Start), int64(e.OldEnd), int64(e.Start+len(e.New)), moves, made); err != nil {
			return err
		}
		if err := tx.LogEvent(ctx, "edit", m.DocID, map[string]any{"op": e.Op, "revision": rev, "summary": summary,
			"start": e.Start, "removedBytes": len(e.Old), "insertedBytes": len(e.New)}); err != nil {
			return err
		}
		// Last: the file. The transaction commits only if the rename happened.
		if err := WriteAtomic(m.Path, bom, before, e.New, after); err != nil {
			return err
		}
		renamed = true
		return nil
	})
	if err != nil {
		return Outcome{}, m.failedCommit(summary, err, renamed, bom, src)
	}
	res := e.Apply()
	m.refineChange(e)
	m.cursors.Follow(res)
	if st, err := stateOf(m.Path, fileSHA); err == nil {
		m.disk = st
	}
	out := Outcome{Op: e.Op, Rev: res.Rev, Start: e.Start, Produced: res.Produced, Deleted: res.Deleted, Cursor: res.Cursor, Summary: summary, Note: e.Note}
	out.Context = m.safeContext(res.Cursor)
	return out, nil
}

// checkFileAsLeft checks, under the book's lock, that the file is still the
// regular, writable file with the content this process last read or wrote.
func (m *Manuscript) checkFileAsLeft() error {
	fi, err := os.Lstat(m.Path)
	if err != nil {
		return fmt.Errorf("%w: %s can no longer be read (%v); nothing was written", ErrChangedOnDisk, m.Path, err)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%w: %s is no longer a regular file (%s); nothing was written", ErrChangedOnDisk, m.Path, fi.Mode().Type())
	}
	if err := writable(m.Path, fi); err != nil {
		return err
	}
	return checkUnchanged(m.Path, m.disk, true)
}

// markUndoRedo records in the history what a revision of op does to the
// ones before: an undo marks undoOf undone, a redo consumes it, any other
// edit clears what could be redone.
func markUndoRedo(ctx context.Context, tx *store.Tx, docID int64, op string, undoOf int64) error {
	switch op {
	case "Undo":
		return tx.SetUndone(ctx, docID, undoOf, true)
	case "Redo":
		return tx.MarkConsumed(ctx, docID, undoOf)
	}
	return tx.ClearRedo(ctx, docID)
}

// failedCommit is the error of a commit whose transaction failed (err). If
// the new file had been renamed into place, the old one (bom, src) is put
// back so that file and history agree.
func (m *Manuscript) failedCommit(summary string, err error, renamed bool, bom, src []byte) error {
	if !renamed {
		return fmt.Errorf("save %s: %w", summary, err)
	}
	// The commit failed after the rename: put the old file back so file and
	// history agree.
	if rerr := WriteAtomic(m.Path, bom, src); rerr != nil {
		return fmt.Errorf("record %s in the database: %w; AND restoring the previous file failed: %v — the file holds the edited text", summary, err, rerr)
	}
	if st, serr := stateOf(m.Path, hashParts(bom, src)); serr == nil {
		m.disk = st
	}
	return fmt.Errorf("record %s in the database: %w; the file was left as it was", summary, err)
}

// safeContext builds the cursor context; a failure there never fails the edit.
func (m *Manuscript) safeContext(cur int) (s string) {
	defer func() {
		if r := recover(); r != nil {
			m.w.Log.Warn("cursor context failed", "path", m.Path, "err", r)
			s = ""
		}
	}()
	return m.doc.CursorContext(cur)
}

// Undo reverts the newest edit that is not yet undone, said in the book's
// language (UndoIn).
func (m *Manuscript) Undo(ctx context.Context) (Outcome, error) { return m.UndoIn(ctx, "") }

// UndoIn is Undo with its Description in lang ("en", "ru"; "" the book's):
// the window asks for its own language.
func (m *Manuscript) UndoIn(ctx context.Context, lang string) (Outcome, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, err := m.catchUp(ctx); err != nil {
		return Outcome{}, err
	}
	st := m.w.Store
	r, ok, err := st.LastRevisionWhere(ctx, m.DocID, editOps, false)
	if err != nil {
		return Outcome{}, err
	}
	// Undo stops at the last text known only whole (the first sight of the
	// file); changes by other programs, restores and snapshots are no barrier:
	// an edit whose text they left alone is undone where that text is now.
	if bar, bok, err := st.LastWholeText(ctx, m.DocID); err == nil && bok && ok && r.Rev < bar.Rev {
		ok = false
	}
	if !ok {
		return Outcome{}, withKind(ErrNothingToUndo, fmt.Errorf("%w: nothing to undo in %s", document.ErrBadInput, filepath.Base(m.Path)))
	}
	full, err := st.Revision(ctx, m.DocID, r.Rev)
	if err != nil {
		return Outcome{}, err
	}
	start, end, err := m.placeNow(full.Rev, int(full.Start), full.New)
	if err != nil {
		return Outcome{}, withKind(ErrUndoTextGone, fmt.Errorf("cannot undo revision %d (%s): the text it wrote is no longer there", full.Rev, full.Summary))
	}
	removes, err := m.removes(ctx, store.Revision{Op: "Undo", UndoOf: full.Rev}, map[int64]store.Revision{full.Rev: full})
	if err != nil {
		return Outcome{}, err
	}
	e, err := m.planRaw("Undo", start, end, full.Old, removes)
	if err != nil {
		return Outcome{}, withKind(ErrUndoTextGone, fmt.Errorf("cannot undo revision %d (%s): %w", full.Rev, full.Summary, err))
	}
	out, err := m.commit(ctx, e, full.Rev)
	out.Summary = "undid " + full.Summary
	if err == nil {
		out.Description = m.describeDone(out, lang)
	}
	return out, err
}

// placeNow finds where the bytes want, which began at start in the text of
// revision rev, are in the current text: re-based over the changes since
// (edits elsewhere, another program's change), or — when those changes were
// themselves undone — at the same place. The bytes must be there.
func (m *Manuscript) placeNow(rev int64, start int, want []byte) (int, int, error) {
	src := m.doc.Source()
	at := func(s int) bool { return s >= 0 && s+len(want) <= len(src) && bytes.Equal(src[s:s+len(want)], want) }
	if s, _, err := m.doc.RebaseRange(rev, start, start+len(want)); err == nil && at(s) {
		return s, s + len(want), nil
	}
	if at(start) {
		return start, start + len(want), nil
	}
	return 0, 0, errors.New("the text is no longer there")
}

// planRaw plans a splice that restores a state the text had (undo, redo): by
// its neighbours when it stays inside them, else by re-reading the whole book
// (an undone code fence, a table cell emptied and filled again).
func (m *Manuscript) planRaw(op string, start, end int, text []byte, removes bool) (*document.Edit, error) {
	e, err := m.doc.PlanSplice(op, start, end, text, removes)
	if err != nil {
		e, err = m.doc.PlanSpliceWide(op, start, end, text, removes)
	}
	return e, err
}

// Redo re-applies the newest undone edit, unless a new edit came after the
// undo, said in the book's language (RedoIn).
func (m *Manuscript) Redo(ctx context.Context) (Outcome, error) { return m.RedoIn(ctx, "") }

// RedoIn is Redo with its Description in lang ("en", "ru"; "" the book's).
func (m *Manuscript) RedoIn(ctx context.Context, lang string) (Outcome, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, err := m.catchUp(ctx); err != nil {
		return Outcome{}, err
	}
	st := m.w.Store
	u, ok, err := st.LastUnconsumedUndo(ctx, m.DocID)
	if err != nil {
		return Outcome{}, err
	}
	if !ok {
		return Outcome{}, withKind(ErrNothingToRedo, fmt.Errorf("%w: nothing to redo in %s", document.ErrBadInput, filepath.Base(m.Path)))
	}
	orig, err := st.Revision(ctx, m.DocID, u.UndoOf)
	if err != nil {
		return Outcome{}, err
	}
	start, end, err := m.placeNow(u.Rev, int(orig.Start), orig.Old)
	if err != nil {
		return Outcome{}, withKind(ErrUndoTextGone, fmt.Errorf("cannot redo revision %d (%s): the text has changed since", orig.Rev, orig.Summary))
	}
	removes, err := m.removes(ctx, store.Revision{Op: "Redo", UndoOf: u.Rev}, map[int64]store.Revision{u.Rev: u, orig.Rev: orig})
	if err != nil {
		return Outcome{}, err
	}
	e, err := m.planRaw("Redo", start, end, orig.New, removes)
	if err != nil {
		return Outcome{}, withKind(ErrUndoTextGone, fmt.Errorf("cannot redo revision %d (%s): %w", orig.Rev, orig.Summary, err))
	}
	out, err := m.commit(ctx, e, u.Rev)
	out.Summary = "redid " + orig.Summary
	if err == nil {
		out.Description = m.describeDone(out, lang)
	}
	return out, err
}

// describeDone says the revision out just made (an undo, a redo) in words,
// in lang (describeIn), placed where its text is now. The caller holds m.mu.
func (m *Manuscript) describeDone(out Outcome, lang string) string {
	r, err := m.w.Store.Revision(context.Background(), m.DocID, out.Rev)
	if err != nil {
		return ""
	}
	return describeRevision(r, m.doc, out.Start, describeIn(lang, m.doc.Source()))
}
