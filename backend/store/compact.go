package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"unicode/utf8"
)

// Snapshot policy: a revision stores a full copy of the text only when the
// revisions since the last copy number SnapshotEvery, or their splices hold
// as many bytes as the text itself. Replaying splices is cheap (a gap buffer,
// see replay), so the copies are few: a keystroke save adds a few bytes, and a
// 6 MB copy only once in thousands of them.
const (
	SnapshotEvery = 5000
)

// SnapshotDue tells whether the revision after revs revisions holding spliced
// bytes since the last snapshot, on a text of size bytes, should store one.
func SnapshotDue(revs, spliced, size int64) bool {
	return revs >= SnapshotEvery || spliced >= max(size, 1)
}

// goMigrations are the steps of a schema version that SQL cannot do, run in
// the migration's transaction right after that version's SQL file.
var goMigrations = map[int]func(ctx context.Context, q querier) (bool, error){
	4: compactHistory,
}

// compactHistory is the Go step of 0004_compact_history.sql. For every
// document it replays the history from its first snapshot and, revision by
// revision: trims each splice to the bytes that really changed (keeping
// characters whole), turns a whole-text revision (an outside change or a
// restore stored as a snapshot only) into the splice from the text before,
// and keeps a snapshot only where SnapshotDue says a new one would be stored.
// The content of every revision is checked against its stored hash; a
// document whose history does not replay is left exactly as it was.
func compactHistory(ctx context.Context, q querier) (bool, error) {
	rows, err := q.QueryContext(ctx, "SELECT id FROM documents ORDER BY id")
	if err != nil {
		return false, err
	}
	var docs []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return false, err
		}
		docs = append(docs, id)
	}
	if err := closeRows(rows); err != nil {
		return false, err
	}
	changed := false
	for _, id := range docs {
		c, err := compactDocument(ctx, q, id)
		if err != nil {
			return false, fmt.Errorf("document %d: %w", id, err)
		}
		changed = changed || c
	}
	return changed, nil
}

// errNoReplay marks a history that does not replay: it is left alone.
var errNoReplay = errors.New("history does not replay")

func compactDocument(ctx context.Context, q querier, docID int64) (bool, error) {
	heads, err := revisionHeads(ctx, q, docID)
	if err != nil {
		return false, err
	}
	if len(heads) == 0 || !heads[0].hasSnap {
		return false, nil
	}
	var updates []compactUpdate
	var drop []int64
	var content []byte
	var sinceRevs, sinceBytes int64
	for k, h := range heads {
		r, err := revisionByNumber(ctx, q, docID, h.rev, true)
		if err != nil {
			return false, err
		}
		if k == 0 {
			content = r.Snapshot
			continue
		}
		next, start, old, new, ok := replaySplice(content, h, r)
		if !ok {
			return false, nil // errNoReplay: leave this document as it was
		}
		p, s := trimSplice(content, old, new, int(start))
		if p > 0 || s > 0 || len(old) != len(r.Old) || len(new) != len(r.New) {
			updates = append(updates, compactUpdate{rev: h.rev, start: start + int64(p), old: old[p : len(old)-s], new: new[p : len(new)-s]})
		}
		sinceRevs++
		sinceBytes += int64(len(old)-p-s) + int64(len(new)-p-s)
		if h.hasSnap {
			if h.op == OpOpen || SnapshotDue(sinceRevs, sinceBytes, int64(len(next))) {
				sinceRevs, sinceBytes = 0, 0
			} else {
				drop = append(drop, h.rev)
			}
		}
		content = next
	}
	if err := applyCompaction(ctx, q, docID, updates, drop); err != nil {
		return false, err
	}
	return len(updates) > 0 || len(drop) > 0, nil
}

// compactHead is what compaction reads first of a revision.
type compactHead struct {
	rev     int64
	op      string
	sha     string
	size    int64
	hasSnap bool
}

// compactUpdate is a revision's splice trimmed to the bytes it changes.
type compactUpdate struct {
	rev      int64
	start    int64
	old, new []byte
}

// revisionHeads lists a document's revisions in order, each with whether it
// has a snapshot.
func revisionHeads(ctx context.Context, q querier, docID int64) ([]compactHead, error) {
	rows, err := q.QueryContext(ctx, `SELECT r.rev, r.op, r.sha256, r.size, s.rev IS NOT NULL FROM revisions r
		LEFT JOIN snapshots s ON s.doc_id = r.doc_id AND s.rev = r.rev WHERE r.doc_id = ? ORDER BY r.rev`, docID)
	if err != nil {
		return nil, err
	}
	var heads []compactHead
	for rows.Next() {
		var h compactHead
		if err := rows.Scan(&h.rev, &h.op, &h.sha, &h.size, &h.hasSnap); err != nil {
			rows.Close()
			return nil, err
		}
		heads = append(heads, h)
	}
	if err := closeRows(rows); err != nil {
		return nil, err
	}
	return heads, nil
}

// replaySplice replays revision r (head h) on the text before it, content:
// the text after it and the splice that makes it (a whole-text revision's
// splice is the difference from the text before). ok is false when the
// history does not replay (errNoReplay).
func replaySplice(content []byte, h compactHead, r Revision) (next []byte, start int64, old, new []byte, ok bool) {
	start, old, new = r.Start, r.Old, r.New
	if h.hasSnap && start == 0 && len(old) == 0 && len(new) == 0 && !bytes.Equal(r.Snapshot, content) {
		next = r.Snapshot
		old, new = content, next
	} else {
		end := start + int64(len(old))
		if end > int64(len(content)) || !bytes.Equal(content[start:end], old) {
			return nil, 0, nil, nil, false
		}
		next = make([]byte, 0, int64(len(content))-int64(len(old))+int64(len(new)))
		next = append(append(append(next, content[:start]...), new...), content[end:]...)
	}
	if sum := sha256.Sum256(next); hex.EncodeToString(sum[:]) != h.sha {
		return nil, 0, nil, nil, false
	}
	return next, start, old, new, true
}

// applyCompaction writes the trimmed splices and drops the snapshots no
// longer due.
func applyCompaction(ctx context.Context, q querier, docID int64, updates []compactUpdate, drop []int64) error {
	for _, u := range updates {
		if _, err := q.ExecContext(ctx, "UPDATE revisions SET start = ?, old = ?, new = ? WHERE doc_id = ? AND rev = ?",
			u.start, nonNil(u.old), nonNil(u.new), docID, u.rev); err != nil {
			return fmt.Errorf("compact revision %d: %w", u.rev, err)
		}
	}
	for _, rev := range drop {
		if _, err := q.ExecContext(ctx, "DELETE FROM snapshots WHERE doc_id = ? AND rev = ?", docID, rev); err != nil {
			return fmt.Errorf("drop the snapshot of revision %d: %w", rev, err)
		}
	}
	return nil
}

// trimSplice returns how many bytes at the start (p) and at the end (s) of a
// splice that replaces old by new, at offset start of content, are the same in
// both, cut back so that neither cuts a character of the text in two.
func trimSplice(content, old, new []byte, start int) (p, s int) {
	for p < len(old) && p < len(new) && old[p] == new[p] {
		p++
	}
	for p > 0 && p < len(old) && !utf8.RuneStart(old[p]) {
		p--
	}
	for p > 0 && p == len(old) && start+p < len(content) && !utf8.RuneStart(content[start+p]) {
		p--
	}
	for s < len(old)-p && s < len(new)-p && old[len(old)-1-s] == new[len(new)-1-s] {
		s++
	}
	for s > 0 && !utf8.RuneStart(old[len(old)-s]) {
		s--
	}
	return p, s
}

// vacuumAfter gives the pages a compaction freed back to the file system.
// It runs outside any transaction; failing (another process holds the
// database) only leaves the file its old size.
func vacuumAfter(ctx context.Context, db *sql.DB) {
	_, _ = db.ExecContext(ctx, "VACUUM")
}
