package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// Document is a manuscript file known to the profile. Its ID keys all history,
// cursors and TargetSets, so renaming the file is one row, not a rewrite.
type Document struct {
	ID        int64
	Path      string // absolute and clean; unique in the profile
	CreatedAt time.Time
}

// Revision ops. The first revision of a document (open) records the full
// content; every later one records a splice (Start, Old, New) against the
// content of the previous revision — the bytes it changed, not the book — and
// may carry a snapshot of the content after it as a cache that bounds replay.
const (
	OpOpen         = "open"         // first sight of a file; Snapshot required
	OpExternal     = "external"     // the file changed outside Waymark; a splice
	OpRestore      = "Restore"      // content set back to an earlier revision; a splice
	OpReplaceText  = "ReplaceText"  // splice
	OpInsertAfter  = "InsertAfter"  // splice
	OpInsertBefore = "InsertBefore" // splice
	OpDelete       = "Delete"       // splice
	OpUndo         = "Undo"         // splice reverting revision UndoOf
	OpRedo         = "Redo"         // splice re-applying what Undo revision UndoOf reverted
)

// EditOps are the ops an Undo may revert (see the undo/redo protocol on
// LastRevisionWhere). A Redo is itself undoable: undoing it reverts the redo.
var EditOps = []string{OpReplaceText, OpInsertAfter, OpInsertBefore, OpDelete, OpRedo}

// Revision is one step of a document's append-only history. Rev numbers are per
// document, starting at 1, strictly increasing, never reused, so a (DocID, Rev)
// pair names one content forever and pointers can be re-based across revisions.
type Revision struct {
	DocID int64
	Rev   int64
	// Op is one of the Op* constants.
	Op string
	// Start is the byte offset of the splice in the content BEFORE this revision.
	Start int64
	// Old is the bytes removed at Start.
	Old []byte
	// New is the bytes inserted at Start.
	New []byte
	// Snapshot is the full content AFTER this revision. It is required for
	// open/external/Restore, optional for edits (periodic snapshots bound the
	// replay needed to rebuild a content), and nil whenever a method says it
	// does not load snapshots. An empty content is a non-nil empty slice.
	Snapshot []byte
	// HasSnapshot tells whether a snapshot is stored, also when Snapshot was not loaded.
	HasSnapshot bool
	// SHA256 is the lowercase hex SHA-256 of the full content AFTER this revision.
	SHA256 string
	// Size is the length of the content after this revision.
	Size int64
	// UndoOf is, for Undo, the Rev it reverted; for Redo, the Rev of the Undo it
	// re-applied; else 0.
	UndoOf int64
	// Summary is a short human text, e.g. `ReplaceText H2.p42`.
	Summary string
	// Undone is undo bookkeeping: set on an edit once an Undo reverted it.
	Undone bool
	// Consumed is redo bookkeeping: set on an Undo once it was redone or a new
	// edit made redoing it impossible.
	Consumed  bool
	CreatedAt time.Time
}

// EnsureDocument returns the document for path, creating it on first sight, so
// opening a file is idempotent. path must be absolute; it is stored cleaned.
func (c *core) EnsureDocument(ctx context.Context, path string) (Document, error) {
	p, err := cleanDocPath(path)
	if err != nil {
		return Document{}, err
	}
	if _, err := c.q.ExecContext(ctx,
		"INSERT INTO documents (path, created_at) VALUES (?, ?) ON CONFLICT (path) DO NOTHING",
		p, fmtTime(now())); err != nil {
		return Document{}, fmt.Errorf("record document %s: %w", p, err)
	}
	d, ok, err := c.DocumentByPath(ctx, p)
	if err != nil {
		return Document{}, err
	}
	if !ok { // cannot happen: rows are never deleted
		return Document{}, fmt.Errorf("record document %s: row vanished", p)
	}
	return d, nil
}

// DocumentByPath looks a document up without creating it, so callers can ask
// "has this file history?" without side effects.
func (c *core) DocumentByPath(ctx context.Context, path string) (Document, bool, error) {
	p, err := cleanDocPath(path)
	if err != nil {
		return Document{}, false, err
	}
	var d Document
	var created string
	err = c.q.QueryRowContext(ctx, "SELECT id, path, created_at FROM documents WHERE path = ?", p).
		Scan(&d.ID, &d.Path, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return Document{}, false, nil
	}
	if err != nil {
		return Document{}, false, fmt.Errorf("look up document %s: %w", p, err)
	}
	if d.CreatedAt, err = parseTime(created); err != nil {
		return Document{}, false, fmt.Errorf("look up document %s: %w", p, err)
	}
	return d, true, nil
}

func cleanDocPath(p string) (string, error) {
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("document path %q: %w: must be absolute", p, ErrInvalid)
	}
	return filepath.Clean(p), nil
}

// isSnapshotOp tells the ops whose revision must carry a full snapshot.
func isSnapshotOp(op string) bool {
	return op == OpOpen
}

func knownOp(op string) bool {
	switch op {
	case OpOpen, OpExternal, OpRestore, OpReplaceText, OpInsertAfter, OpInsertBefore, OpDelete, OpUndo, OpRedo:
		return true
	}
	return false
}

// validateRevision checks what can be checked without the database. It runs
// before the transaction so hashing a large snapshot never holds the write lock.
func validateRevision(r Revision) error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, a...))
	}
	if !knownOp(r.Op) {
		return bad("unknown op %q", r.Op)
	}
	if len(r.SHA256) != 64 || strings.ToLower(r.SHA256) != r.SHA256 {
		return bad("SHA256 %q is not 64 lowercase hex digits", r.SHA256)
	}
	if _, err := hex.DecodeString(r.SHA256); err != nil {
		return bad("SHA256 %q is not hex", r.SHA256)
	}
	if r.Size < 0 || r.Start < 0 {
		return bad("negative Size %d or Start %d", r.Size, r.Start)
	}
	if isSnapshotOp(r.Op) && r.Snapshot == nil {
		return bad("op %s needs a Snapshot", r.Op)
	}
	if r.Snapshot != nil {
		if int64(len(r.Snapshot)) != r.Size {
			return bad("Size %d but Snapshot has %d bytes", r.Size, len(r.Snapshot))
		}
		sum := sha256.Sum256(r.Snapshot)
		if hex.EncodeToString(sum[:]) != r.SHA256 {
			return bad("SHA256 does not match the Snapshot")
		}
	}
	switch r.Op {
	case OpUndo, OpRedo:
		if r.UndoOf <= 0 {
			return bad("op %s needs UndoOf", r.Op)
		}
	default:
		if r.UndoOf != 0 {
			return bad("op %s must not have UndoOf (%d)", r.Op, r.UndoOf)
		}
	}
	return nil
}

// AppendRevision records the next step of a document's history and returns the
// stored row. It assigns Rev = last+1 (if r.Rev is non-zero it must equal that
// number, else the error wraps ErrConflict: the caller's view is stale) and
// CreatedAt; Undone/Consumed start false. It checks that the step is coherent
// (known op, hash and size of a snapshot, a splice that fits the previous
// content and gives Size, UndoOf naming a suitable earlier revision), because
// a wrong row in an append-only history can never be fixed later.
func (c *core) AppendRevision(ctx context.Context, r Revision) (Revision, error) {
	fail := func(err error) (Revision, error) {
		return Revision{}, fmt.Errorf("append %s revision to document %d: %w", r.Op, r.DocID, err)
	}
	if err := validateRevision(r); err != nil {
		return fail(err)
	}
	r.Undone, r.Consumed = false, false
	r.HasSnapshot = r.Snapshot != nil
	r.CreatedAt = now()
	err := c.atomic(ctx, func(q querier) error {
		if err := requireDocument(ctx, q, r.DocID); err != nil {
			return err
		}
		prev, havePrev, err := latestRevision(ctx, q, r.DocID)
		if err != nil {
			return err
		}
		next := prev.Rev + 1
		if r.Rev != 0 && r.Rev != next {
			return fmt.Errorf("%w: revision %d requested but the next one is %d", ErrConflict, r.Rev, next)
		}
		r.Rev = next
		if !havePrev && r.Snapshot == nil {
			return fmt.Errorf("%w: the first revision must hold the whole text (open), not a %s splice", ErrInvalid, r.Op)
		}
		if !isSnapshotOp(r.Op) && havePrev && !r.wholeText() {
			end := r.Start + int64(len(r.Old))
			if end > prev.Size {
				return fmt.Errorf("%w: splice [%d,%d) exceeds the previous content (%d bytes)", ErrInvalid, r.Start, end, prev.Size)
			}
			if want := prev.Size - int64(len(r.Old)) + int64(len(r.New)); r.Size != want {
				return fmt.Errorf("%w: Size %d, but the splice gives %d bytes", ErrInvalid, r.Size, want)
			}
		}
		if r.UndoOf != 0 {
			target, err := revisionByNumber(ctx, q, r.DocID, r.UndoOf, false)
			if err != nil {
				return fmt.Errorf("UndoOf: %w", err)
			}
			if r.Op == OpUndo && !contains(EditOps, target.Op) {
				return fmt.Errorf("%w: Undo of revision %d, which is %s, not an edit", ErrInvalid, target.Rev, target.Op)
			}
			if r.Op == OpRedo && target.Op != OpUndo {
				return fmt.Errorf("%w: Redo of revision %d, which is %s, not an Undo", ErrInvalid, target.Rev, target.Op)
			}
		}
		if _, err := q.ExecContext(ctx, `INSERT INTO revisions
			(doc_id, rev, op, start, sha256, size, undo_of, summary, created_at, old, new)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			r.DocID, r.Rev, r.Op, r.Start, r.SHA256, r.Size, r.UndoOf, r.Summary, fmtTime(r.CreatedAt),
			nonNil(r.Old), nonNil(r.New)); err != nil {
			return fmt.Errorf("insert revision %d: %w", r.Rev, err)
		}
		if r.Snapshot != nil {
			if _, err := q.ExecContext(ctx, "INSERT INTO snapshots (doc_id, rev, content) VALUES (?, ?, ?)",
				r.DocID, r.Rev, nonNil(r.Snapshot)); err != nil {
				return fmt.Errorf("insert snapshot of revision %d: %w", r.Rev, err)
			}
		}
		return nil
	})
	if err != nil {
		return fail(err)
	}
	return r, nil
}

// wholeText tells a revision that holds its whole text and no splice: the
// first one, or an outside change whose text before could not be rebuilt.
// History (pointers, undo) cannot be carried across it.
func (r Revision) wholeText() bool {
	return r.Op == OpOpen || (r.HasSnapshot || r.Snapshot != nil) && r.Start == 0 && len(r.Old) == 0 && len(r.New) == 0
}

// LastWholeText returns the newest revision (without Snapshot) that holds its
// whole text and no splice (see wholeText): the start of the history that
// pointers can be re-based and edits undone across.
func (c *core) LastWholeText(ctx context.Context, docID int64) (Revision, bool, error) {
	r, ok, err := queryOneRevision(ctx, c.q, false, revCols+revFrom+`WHERE r.doc_id = ? AND (r.op = 'open'
		OR (s.rev IS NOT NULL AND r.start = 0 AND length(r.old) = 0 AND length(r.new) = 0)) ORDER BY r.rev DESC LIMIT 1`, docID)
	if err != nil {
		return Revision{}, false, fmt.Errorf("last whole-text revision of document %d: %w", docID, err)
	}
	return r, ok, nil
}

// nonNil turns nil into an empty slice: the driver binds a nil slice as NULL.
func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Revision columns, without and with the snapshot content. HasSnapshot comes
// from the snapshots primary-key index, without reading the content.
const (
	revFrom = ` FROM revisions r LEFT JOIN snapshots s ON s.doc_id = r.doc_id AND s.rev = r.rev `
	revCols = `SELECT r.doc_id, r.rev, r.op, r.start, r.sha256, r.size, r.undo_of, r.summary,
		r.undone, r.consumed, r.created_at, r.old, r.new, s.rev IS NOT NULL`
	revColsSnap = revCols + `, s.content`
)

// scanRevision reads one row of revCols (or revColsSnap when withSnap).
func scanRevision(sc interface{ Scan(...any) error }, withSnap bool) (Revision, error) {
	var r Revision
	var created string
	dest := []any{&r.DocID, &r.Rev, &r.Op, &r.Start, &r.SHA256, &r.Size, &r.UndoOf, &r.Summary,
		&r.Undone, &r.Consumed, &created, &r.Old, &r.New, &r.HasSnapshot}
	if withSnap {
		dest = append(dest, &r.Snapshot)
	}
	if err := sc.Scan(dest...); err != nil {
		return Revision{}, err
	}
	var err error
	if r.CreatedAt, err = parseTime(created); err != nil {
		return Revision{}, err
	}
	r.Old, r.New = nonNil(r.Old), nonNil(r.New)
	if withSnap && r.HasSnapshot && r.Snapshot == nil {
		r.Snapshot = []byte{} // an empty content is still a snapshot
	}
	return r, nil
}

// queryRevisions runs a query selecting revCols and collects the rows.
func queryRevisions(ctx context.Context, q querier, query string, args ...any) ([]Revision, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	var out []Revision
	for rows.Next() {
		r, err := scanRevision(rows, false)
		if err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, r)
	}
	if err := closeRows(rows); err != nil {
		return nil, err
	}
	return out, nil
}

// queryOneRevision returns the first row of a revCols/revColsSnap query.
func queryOneRevision(ctx context.Context, q querier, withSnap bool, query string, args ...any) (Revision, bool, error) {
	r, err := scanRevision(q.QueryRowContext(ctx, query, args...), withSnap)
	if errors.Is(err, sql.ErrNoRows) {
		return Revision{}, false, nil
	}
	if err != nil {
		return Revision{}, false, err
	}
	return r, true, nil
}

func latestRevision(ctx context.Context, q querier, docID int64) (Revision, bool, error) {
	r, ok, err := queryOneRevision(ctx, q, false, revCols+revFrom+"WHERE r.doc_id = ? ORDER BY r.rev DESC LIMIT 1", docID)
	if err != nil {
		return Revision{}, false, fmt.Errorf("latest revision of document %d: %w", docID, err)
	}
	return r, ok, nil
}

func revisionByNumber(ctx context.Context, q querier, docID, rev int64, withSnap bool) (Revision, error) {
	cols := revCols
	if withSnap {
		cols = revColsSnap
	}
	r, ok, err := queryOneRevision(ctx, q, withSnap, cols+revFrom+"WHERE r.doc_id = ? AND r.rev = ?", docID, rev)
	if err != nil {
		return Revision{}, fmt.Errorf("revision %d of document %d: %w", rev, docID, err)
	}
	if !ok {
		return Revision{}, fmt.Errorf("revision %d of document %d: %w", rev, docID, ErrNotFound)
	}
	return r, nil
}

// Revisions returns the revisions with Rev > afterRev in ascending order, with
// Snapshot nil (see HasSnapshot), so replaying a long history after a snapshot
// does not load every stored full copy of the novel.
func (c *core) Revisions(ctx context.Context, docID, afterRev int64) ([]Revision, error) {
	revs, err := queryRevisions(ctx, c.q, revCols+revFrom+"WHERE r.doc_id = ? AND r.rev > ? ORDER BY r.rev", docID, afterRev)
	if err != nil {
		return nil, fmt.Errorf("revisions of document %d after %d: %w", docID, afterRev, err)
	}
	return revs, nil
}

// Revision returns one revision with its Snapshot (if any), for undo, redo and
// restore, which need the full row. A missing one wraps ErrNotFound.
func (c *core) Revision(ctx context.Context, docID, rev int64) (Revision, error) {
	return revisionByNumber(ctx, c.q, docID, rev, true)
}

// LatestRevision returns the newest revision (without Snapshot), the head a new
// edit must build on; ok is false for a document without history.
func (c *core) LatestRevision(ctx context.Context, docID int64) (Revision, bool, error) {
	return latestRevision(ctx, c.q, docID)
}

// LatestRevisionWithSHA returns the newest revision (without Snapshot) whose
// content hash is sha, so a file found on disk can be matched to the history
// that produced it (for example after a crash between file write and commit).
func (c *core) LatestRevisionWithSHA(ctx context.Context, docID int64, sha string) (Revision, bool, error) {
	r, ok, err := queryOneRevision(ctx, c.q, false,
		revCols+revFrom+"WHERE r.doc_id = ? AND r.sha256 = ? ORDER BY r.rev DESC LIMIT 1", docID, strings.ToLower(sha))
	if err != nil {
		return Revision{}, false, fmt.Errorf("revision of document %d with hash %s: %w", docID, sha, err)
	}
	return r, ok, nil
}

// LatestSnapshotAtOrBefore returns the newest revision ≤ rev that has a
// snapshot, with Snapshot loaded: the starting point for rebuilding the content
// at rev by replaying the splices after it.
func (c *core) LatestSnapshotAtOrBefore(ctx context.Context, docID, rev int64) (Revision, bool, error) {
	r, ok, err := queryOneRevision(ctx, c.q, true,
		revColsSnap+` FROM snapshots s JOIN revisions r ON r.doc_id = s.doc_id AND r.rev = s.rev
		WHERE s.doc_id = ? AND s.rev <= ? ORDER BY s.rev DESC LIMIT 1`, docID, rev)
	if err != nil {
		return Revision{}, false, fmt.Errorf("snapshot of document %d at or before revision %d: %w", docID, rev, err)
	}
	return r, ok, nil
}

// LatestSnapshotRev returns the number of the newest revision that has a
// snapshot, without loading it, for deciding when to store the next one. Note
// that edits may carry snapshots too: to find the newest open/external/Restore
// use LastRevisionWhere with those ops.
func (c *core) LatestSnapshotRev(ctx context.Context, docID int64) (int64, bool, error) {
	var rev sql.NullInt64
	if err := c.q.QueryRowContext(ctx, "SELECT max(rev) FROM snapshots WHERE doc_id = ?", docID).Scan(&rev); err != nil {
		return 0, false, fmt.Errorf("latest snapshot of document %d: %w", docID, err)
	}
	return rev.Int64, rev.Valid, nil
}

// ChangesSinceSnapshot returns how many revisions follow the newest snapshot
// of a document and how many bytes their splices hold (removed plus
// inserted), for deciding when a new snapshot is worth its size.
func (c *core) ChangesSinceSnapshot(ctx context.Context, docID int64) (revs, spliced int64, err error) {
	err = c.q.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(length(old) + length(new)), 0) FROM revisions
		WHERE doc_id = ?1 AND rev > coalesce((SELECT max(rev) FROM snapshots WHERE doc_id = ?1), 0)`, docID).Scan(&revs, &spliced)
	if err != nil {
		return 0, 0, fmt.Errorf("changes since the last snapshot of document %d: %w", docID, err)
	}
	return revs, spliced, nil
}

// LastRevisionWhere returns the newest revision (without Snapshot) whose Op is
// one of ops and whose Undone flag equals undone. It is the query behind undo.
//
// The undo/redo protocol (the caller implements it, in one Tx per step):
//
//   - Undo: r := LastRevisionWhere(EditOps, false). Apply the inverse splice,
//     AppendRevision{Op: Undo, UndoOf: r.Rev}, SetUndone(r.Rev, true).
//   - Redo: u := LastUnconsumedUndo. Re-apply the splice of revision u.UndoOf,
//     AppendRevision{Op: Redo, UndoOf: u.Rev}, MarkConsumed(u.Rev). The
//     original stays Undone: the Redo revision is now the undoable edit (Redo
//     is in EditOps), so a later undo reverts the Redo, never the original
//     twice.
//   - Any other edit: append it and call ClearRedo, so undone steps can no
//     longer be redone over text they were not made for.
func (c *core) LastRevisionWhere(ctx context.Context, docID int64, ops []string, undone bool) (Revision, bool, error) {
	if len(ops) == 0 {
		return Revision{}, false, fmt.Errorf("last revision of document %d: %w: no ops given", docID, ErrInvalid)
	}
	marks := strings.TrimSuffix(strings.Repeat("?,", len(ops)), ",")
	args := []any{docID, b2i(undone)}
	for _, op := range ops {
		args = append(args, op)
	}
	r, ok, err := queryOneRevision(ctx, c.q, false,
		revCols+revFrom+"WHERE r.doc_id = ? AND r.undone = ? AND r.op IN ("+marks+") ORDER BY r.rev DESC LIMIT 1", args...)
	if err != nil {
		return Revision{}, false, fmt.Errorf("last %s revision of document %d: %w", strings.Join(ops, "/"), docID, err)
	}
	return r, ok, nil
}

// LastUnconsumedUndo returns the newest Undo revision (without Snapshot) that
// can still be redone; ok is false when there is nothing to redo.
func (c *core) LastUnconsumedUndo(ctx context.Context, docID int64) (Revision, bool, error) {
	r, ok, err := queryOneRevision(ctx, c.q, false,
		revCols+revFrom+"WHERE r.doc_id = ? AND r.op = 'Undo' AND r.consumed = 0 ORDER BY r.rev DESC LIMIT 1", docID)
	if err != nil {
		return Revision{}, false, fmt.Errorf("last redoable undo of document %d: %w", docID, err)
	}
	return r, ok, nil
}

// SetUndone marks an edit revision as undone (or, with false, as in effect
// again), the bookkeeping that lets successive undos walk back in history.
func (c *core) SetUndone(ctx context.Context, docID, rev int64, undone bool) error {
	return c.setFlag(ctx, "undone", docID, rev, undone, "")
}

// MarkConsumed marks an Undo revision as redone (or made obsolete), so Redo does
// not offer it again.
func (c *core) MarkConsumed(ctx context.Context, docID, rev int64) error {
	return c.setFlag(ctx, "consumed", docID, rev, true, OpUndo)
}

// setFlag sets a bookkeeping column of one revision; if onlyOp is set the
// revision must have that op.
func (c *core) setFlag(ctx context.Context, col string, docID, rev int64, v bool, onlyOp string) error {
	return c.atomic(ctx, func(q querier) error {
		r, err := revisionByNumber(ctx, q, docID, rev, false)
		if err != nil {
			return fmt.Errorf("set %s: %w", col, err)
		}
		if onlyOp != "" && r.Op != onlyOp {
			return fmt.Errorf("set %s on revision %d of document %d: %w: it is %s, not %s", col, rev, docID, ErrInvalid, r.Op, onlyOp)
		}
		// col is one of two constants of this file, never user input.
		if _, err := q.ExecContext(ctx, "UPDATE revisions SET "+col+" = ? WHERE doc_id = ? AND rev = ?", b2i(v), docID, rev); err != nil {
			return fmt.Errorf("set %s on revision %d of document %d: %w", col, rev, docID, err)
		}
		return nil
	})
}

// ClearRedo marks every Undo revision of the document as consumed. Call it with
// every new edit (other than Undo/Redo), because redoing an old step on top of
// a newer, different text would corrupt it.
func (c *core) ClearRedo(ctx context.Context, docID int64) error {
	if _, err := c.q.ExecContext(ctx,
		"UPDATE revisions SET consumed = 1 WHERE doc_id = ? AND op = 'Undo' AND consumed = 0", docID); err != nil {
		return fmt.Errorf("clear redo of document %d: %w", docID, err)
	}
	return nil
}

// ContentAt rebuilds the full content of a document at rev from the nearest
// snapshot and the splices after it, and checks it against the stored hash, so
// Restore (and tests) can rely on it.
func (c *core) ContentAt(ctx context.Context, docID, rev int64) ([]byte, error) {
	snap, ok, err := c.LatestSnapshotAtOrBefore(ctx, docID, rev)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("content of document %d at revision %d: %w: no snapshot at or before it", docID, rev, ErrNotFound)
	}
	content := snap.Snapshot
	if snap.Rev < rev {
		revs, err := queryRevisions(ctx, c.q, revCols+revFrom+"WHERE r.doc_id = ? AND r.rev > ? AND r.rev <= ? ORDER BY r.rev", docID, snap.Rev, rev)
		if err != nil {
			return nil, fmt.Errorf("content of document %d at revision %d: %w", docID, rev, err)
		}
		if content, err = replay(content, revs); err != nil {
			return nil, fmt.Errorf("content of document %d at revision %d: %w", docID, rev, err)
		}
	}
	head, err := revisionByNumber(ctx, c.q, docID, rev, false)
	if err != nil {
		return nil, fmt.Errorf("content: %w", err)
	}
	sum := sha256.Sum256(content)
	if hex.EncodeToString(sum[:]) != head.SHA256 {
		return nil, fmt.Errorf("content of document %d at revision %d: rebuilt text does not match the stored hash", docID, rev)
	}
	return content, nil
}

// replay applies the splices of revs, in order, to content. The text is kept
// in a gap buffer whose gap follows the splices, so a run of thousands of
// keystroke revisions near one another costs their own bytes, not a copy of
// the book each.
func replay(content []byte, revs []Revision) ([]byte, error) {
	if len(revs) == 0 {
		return content, nil
	}
	var grow int64
	for _, r := range revs {
		if d := int64(len(r.New)) - int64(len(r.Old)); d > 0 {
			grow += d
		}
	}
	g := newGapBuffer(content, int(min(grow, 64<<20))+4096)
	for _, r := range revs {
		if err := g.splice(int(r.Start), r.Old, r.New); err != nil {
			return nil, fmt.Errorf("revision %d does not fit the content before it: %w", r.Rev, err)
		}
	}
	return g.bytes(), nil
}

// gapBuffer is a text with a movable gap: buf[:gs] + buf[ge:] is the text.
type gapBuffer struct {
	buf    []byte
	gs, ge int
}

func newGapBuffer(text []byte, gap int) *gapBuffer {
	buf := make([]byte, len(text)+gap)
	copy(buf, text)
	return &gapBuffer{buf: buf, gs: len(text), ge: len(buf)}
}

func (g *gapBuffer) len() int { return len(g.buf) - (g.ge - g.gs) }

// moveGap puts the gap at text offset p.
func (g *gapBuffer) moveGap(p int) {
	switch {
	case p < g.gs:
		n := g.gs - p
		copy(g.buf[g.ge-n:g.ge], g.buf[p:g.gs])
		g.gs, g.ge = p, g.ge-n
	case p > g.gs:
		n := p - g.gs
		copy(g.buf[g.gs:g.gs+n], g.buf[g.ge:g.ge+n])
		g.gs, g.ge = p, g.ge+n
	}
}

// splice replaces old at text offset start by new, after checking old is there.
func (g *gapBuffer) splice(start int, old, new []byte) error {
	end := start + len(old)
	if start < 0 || end > g.len() {
		return fmt.Errorf("splice [%d,%d) is past the end (%d bytes)", start, end, g.len())
	}
	g.moveGap(end)
	if !bytes.Equal(g.buf[start:g.gs], old) {
		return errors.New("the removed bytes differ")
	}
	g.gs = start
	if need := len(new) - (g.ge - g.gs); need > 0 {
		tail := len(g.buf) - g.ge
		nb := make([]byte, len(g.buf)+need+len(g.buf)/8+4096)
		copy(nb, g.buf[:g.gs])
		copy(nb[len(nb)-tail:], g.buf[g.ge:])
		g.buf, g.ge = nb, len(nb)-tail
	}
	copy(g.buf[g.gs:], new)
	g.gs += len(new)
	return nil
}

// bytes returns the text as one slice.
func (g *gapBuffer) bytes() []byte {
	out := make([]byte, 0, g.len())
	return append(append(out, g.buf[:g.gs]...), g.buf[g.ge:]...)
}
