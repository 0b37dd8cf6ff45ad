package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// TargetSet is a persistent, named set of items of one document (for example
// "every paragraph mentioning Anna"), so a model can collect targets in one
// step and edit them in later ones, across edits and restarts.
type TargetSet struct {
	ID        string // "ts_" + 12 random hex digits: short, and not guessable as an index
	DocID     int64
	Name      string
	CreatedAt time.Time
}

// TargetMember is one item of a TargetSet, stored as a byte position at a known
// revision so it can be re-based across later edits.
type TargetMember struct {
	SetID string
	// ByteOffset is the item's first byte in the content at Rev.
	ByteOffset int64
	// Rev is the revision ByteOffset refers to.
	Rev int64
	// DeletedInRev is the revision that removed the item, 0 while it is alive.
	// A deleted member keeps the ByteOffset and Rev it had before that revision.
	DeletedInRev int64
	// Label is a human name of the item when it was added (e.g. "H2.p42"), to
	// report members whose items are gone.
	Label string
	// Quote is the item's text when it was added (its first words), what an
	// author is told when the member cannot be followed.
	Quote string
	// Hash is the content hash of the item's Markdown as it was last followed
	// (document.ContentHash): an item lost and brought back (cut and pasted,
	// deleted and undone) is known by it.
	Hash string
	// Lost says why a deleted member is gone: "deleted", "rewritten" (changed
	// past recognition); "" for a member deleted before this was kept.
	Lost string
}

// CreateTargetSet makes a new, empty set for a document and gives it a random id.
func (c *core) CreateTargetSet(ctx context.Context, docID int64, name string) (TargetSet, error) {
	ts := TargetSet{DocID: docID, Name: name, CreatedAt: now()}
	err := c.atomic(ctx, func(q querier) error {
		if err := requireDocument(ctx, q, docID); err != nil {
			return err
		}
		for attempt := 0; ; attempt++ {
			var b [6]byte
			if _, err := rand.Read(b[:]); err != nil {
				return fmt.Errorf("random id: %w", err)
			}
			ts.ID = "ts_" + hex.EncodeToString(b[:])
			res, err := q.ExecContext(ctx,
				"INSERT INTO target_sets (id, doc_id, name, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
				ts.ID, docID, name, fmtTime(ts.CreatedAt))
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil {
				return err
			} else if n == 1 {
				return nil
			}
			if attempt == 5 { // 2^48 ids: a repeat collision means broken randomness
				return errors.New("could not find a free id")
			}
		}
	})
	if err != nil {
		return TargetSet{}, fmt.Errorf("create target set %q for document %d: %w", name, docID, err)
	}
	return ts, nil
}

// TargetSet returns a set by id. An unknown id gives an error that wraps
// ErrNotFound and names the id, because ids come from models, which do mistype.
func (c *core) TargetSet(ctx context.Context, id string) (TargetSet, error) {
	return targetSet(ctx, c.q, id)
}

func targetSet(ctx context.Context, q querier, id string) (TargetSet, error) {
	var ts TargetSet
	var created string
	err := q.QueryRowContext(ctx, "SELECT id, doc_id, name, created_at FROM target_sets WHERE id = ?", id).
		Scan(&ts.ID, &ts.DocID, &ts.Name, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return TargetSet{}, fmt.Errorf("target set %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return TargetSet{}, fmt.Errorf("look up target set %q: %w", id, err)
	}
	if ts.CreatedAt, err = parseTime(created); err != nil {
		return TargetSet{}, fmt.Errorf("look up target set %q: %w", id, err)
	}
	return ts, nil
}

// TargetSets lists a document's sets, oldest first, so they can be shown and
// offered to the model.
func (c *core) TargetSets(ctx context.Context, docID int64) ([]TargetSet, error) {
	rows, err := c.q.QueryContext(ctx,
		"SELECT id, doc_id, name, created_at FROM target_sets WHERE doc_id = ? ORDER BY created_at, id", docID)
	if err != nil {
		return nil, fmt.Errorf("target sets of document %d: %w", docID, err)
	}
	var out []TargetSet
	for rows.Next() {
		var ts TargetSet
		var created string
		if err := rows.Scan(&ts.ID, &ts.DocID, &ts.Name, &created); err != nil {
			rows.Close()
			return nil, fmt.Errorf("target sets of document %d: %w", docID, err)
		}
		if ts.CreatedAt, err = parseTime(created); err != nil {
			rows.Close()
			return nil, fmt.Errorf("target sets of document %d: %w", docID, err)
		}
		out = append(out, ts)
	}
	if err := closeRows(rows); err != nil {
		return nil, fmt.Errorf("target sets of document %d: %w", docID, err)
	}
	return out, nil
}

// AddTargetMembers adds items to a set, ignoring any whose ByteOffset is already
// an alive member (adding the same item twice is harmless), and returns how many
// alive members the set has afterwards. All members are added or none.
// A member's SetID may be empty (it is the set's) but not another set's.
func (c *core) AddTargetMembers(ctx context.Context, id string, ms []TargetMember) (int, error) {
	for i, m := range ms {
		if m.SetID != "" && m.SetID != id {
			return 0, fmt.Errorf("add to target set %q: %w: member %d belongs to set %q", id, ErrInvalid, i, m.SetID)
		}
		if m.ByteOffset < 0 || m.Rev < 0 || m.DeletedInRev != 0 {
			return 0, fmt.Errorf("add to target set %q: %w: member %d has offset %d, rev %d, deleted in %d",
				id, ErrInvalid, i, m.ByteOffset, m.Rev, m.DeletedInRev)
		}
	}
	var count int
	err := c.atomic(ctx, func(q querier) error {
		if _, err := targetSet(ctx, q, id); err != nil {
			return err
		}
		for _, m := range ms {
			if _, err := q.ExecContext(ctx, `INSERT INTO target_members (set_id, byte_offset, rev, label, quote, content_hash)
				SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE NOT EXISTS (SELECT 1 FROM target_members
					WHERE set_id = ?1 AND byte_offset = ?2 AND deleted_in_rev = 0)`,
				id, m.ByteOffset, m.Rev, m.Label, m.Quote, m.Hash); err != nil {
				return fmt.Errorf("insert member at %d: %w", m.ByteOffset, err)
			}
		}
		return q.QueryRowContext(ctx,
			"SELECT count(*) FROM target_members WHERE set_id = ? AND deleted_in_rev = 0", id).Scan(&count)
	})
	if err != nil {
		return 0, fmt.Errorf("add %d members to target set %q: %w", len(ms), id, err)
	}
	return count, nil
}

// TargetMembers returns all members of a set, alive and deleted, ordered by
// ByteOffset, so the caller can resolve the alive ones to items and report the
// deleted ones.
func (c *core) TargetMembers(ctx context.Context, id string) ([]TargetMember, error) {
	fail := func(err error) ([]TargetMember, error) {
		return nil, fmt.Errorf("members of target set %q: %w", id, err)
	}
	if _, err := targetSet(ctx, c.q, id); err != nil {
		return nil, err
	}
	rows, err := c.q.QueryContext(ctx, `SELECT set_id, byte_offset, rev, deleted_in_rev, label, quote, content_hash, lost
		FROM target_members WHERE set_id = ? ORDER BY byte_offset, id`, id)
	if err != nil {
		return fail(err)
	}
	var out []TargetMember
	for rows.Next() {
		var m TargetMember
		if err := rows.Scan(&m.SetID, &m.ByteOffset, &m.Rev, &m.DeletedInRev, &m.Label, &m.Quote, &m.Hash, &m.Lost); err != nil {
			rows.Close()
			return fail(err)
		}
		out = append(out, m)
	}
	if err := closeRows(rows); err != nil {
		return fail(err)
	}
	return out, nil
}

// ItemMove is where the item that started at Old before a revision is after
// it (document.Edit.Follow): at New with content hash Hash, or Lost.
type ItemMove struct {
	Old, New int64
	Hash     string
	Lost     string
}

// MadeItem is an item a revision made from new text, which a member lost
// earlier with the same content hash comes back to.
type MadeItem struct {
	Start int64
	Hash  string
}

// FollowTargetMembers moves the members of every set of a document across
// the revision rev that replaced the bytes [start, oldEnd) by new bytes ending
// at newEnd. Run it in the Tx of the AppendRevision of rev, so members and
// history never disagree. A member on an item of moves goes where its move
// says (a lost one keeps the offset and Rev it had, with DeletedInRev = rev
// and why); any other alive member stays before the change and moves by its
// length after it. Then a lost member whose content hash is a made item's
// comes back to it (one per set, the last lost first). Every alive member
// gets Rev = rev; two alive members of a set on one item are merged.
func (c *core) FollowTargetMembers(ctx context.Context, docID, rev, start, oldEnd, newEnd int64, moves []ItemMove, made []MadeItem) error {
	if start < 0 || oldEnd < start || newEnd < start || rev <= 0 {
		return fmt.Errorf("move target sets of document %d to revision %d: %w: splice [%d,%d)→[%d,%d)",
			docID, rev, ErrInvalid, start, oldEnd, start, newEnd)
	}
	olds := make([]int64, 0, len(moves))
	byOld := map[int64]ItemMove{}
	for _, mv := range moves {
		olds = append(olds, mv.Old)
		byOld[mv.Old] = mv
	}
	oldJSON, err := json.Marshal(olds)
	if err != nil {
		return err
	}
	err = c.atomic(ctx, func(q querier) error {
		type row struct{ id, off int64 }
		var moved []row
		if len(moves) > 0 {
			rows, err := q.QueryContext(ctx, `SELECT id, byte_offset FROM target_members
				WHERE deleted_in_rev = 0 AND set_id IN (SELECT id FROM target_sets WHERE doc_id = ?1)
				AND byte_offset IN (SELECT value FROM json_each(?2))`, docID, string(oldJSON))
			if err != nil {
				return fmt.Errorf("members on moved items: %w", err)
			}
			for rows.Next() {
				var r row
				if err := rows.Scan(&r.id, &r.off); err != nil {
					rows.Close()
					return err
				}
				moved = append(moved, r)
			}
			if err := closeRows(rows); err != nil {
				return err
			}
		}
		ids := make([]int64, 0, len(moved))
		for _, r := range moved {
			ids = append(ids, r.id)
		}
		idJSON, _ := json.Marshal(ids)
		if _, err := q.ExecContext(ctx, `UPDATE target_members SET rev = ?1,
				byte_offset = CASE WHEN byte_offset >= ?2 THEN byte_offset + (?3 - ?2) ELSE byte_offset END
			WHERE deleted_in_rev = 0 AND set_id IN (SELECT id FROM target_sets WHERE doc_id = ?4)
			AND id NOT IN (SELECT value FROM json_each(?5))`, rev, oldEnd, newEnd, docID, string(idJSON)); err != nil {
			return fmt.Errorf("move members: %w", err)
		}
		for _, r := range moved {
			mv := byOld[r.off]
			if mv.Lost != "" {
				_, err = q.ExecContext(ctx, `UPDATE target_members SET deleted_in_rev = ?, lost = ? WHERE id = ?`, rev, mv.Lost, r.id)
			} else {
				// An empty Hash keeps the one the member had.
				_, err = q.ExecContext(ctx, `UPDATE target_members SET byte_offset = ?1, rev = ?2,
					content_hash = CASE WHEN ?3 = '' THEN content_hash ELSE ?3 END WHERE id = ?4`, mv.New, rev, mv.Hash, r.id)
			}
			if err != nil {
				return fmt.Errorf("member %d: %w", r.id, err)
			}
		}
		for _, it := range made {
			if err := reviveMembers(ctx, q, docID, rev, it); err != nil {
				return err
			}
		}
		return mergeSameItemMembers(ctx, q, docID)
	})
	if err != nil {
		return fmt.Errorf("move target sets of document %d to revision %d: %w", docID, rev, err)
	}
	return nil
}

// reviveMembers brings back, in each set of the document, the last member
// lost whose content hash is the made item's.
func reviveMembers(ctx context.Context, q querier, docID, rev int64, it MadeItem) error {
	rows, err := q.QueryContext(ctx, `SELECT id, set_id FROM target_members
		WHERE content_hash = ?1 AND deleted_in_rev <> 0 AND lost IN ('deleted', 'rewritten')
		AND set_id IN (SELECT id FROM target_sets WHERE doc_id = ?2)
		ORDER BY deleted_in_rev DESC, id DESC`, it.Hash, docID)
	if err != nil {
		return fmt.Errorf("lost members of %s: %w", it.Hash, err)
	}
	var ids []int64
	seen := map[string]bool{}
	for rows.Next() {
		var id int64
		var set string
		if err := rows.Scan(&id, &set); err != nil {
			rows.Close()
			return err
		}
		if !seen[set] {
			seen[set] = true
			ids = append(ids, id)
		}
	}
	if err := closeRows(rows); err != nil {
		return err
	}
	for _, id := range ids {
		if _, err := q.ExecContext(ctx, `UPDATE target_members SET deleted_in_rev = 0, lost = '', byte_offset = ?, rev = ?
			WHERE id = ?`, it.Start, rev, id); err != nil {
			return fmt.Errorf("bring back member %d: %w", id, err)
		}
	}
	return nil
}

// RemoveTargetMember removes the alive member at byteOffset from a set, for a
// user or model narrowing a selection. Unknown set or member wraps ErrNotFound.
func (c *core) RemoveTargetMember(ctx context.Context, id string, byteOffset int64) error {
	err := c.atomic(ctx, func(q querier) error {
		if _, err := targetSet(ctx, q, id); err != nil {
			return err
		}
		res, err := q.ExecContext(ctx,
			"DELETE FROM target_members WHERE set_id = ? AND byte_offset = ? AND deleted_in_rev = 0", id, byteOffset)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return fmt.Errorf("no alive member at byte %d: %w", byteOffset, ErrNotFound)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("remove member of target set %q: %w", id, err)
	}
	return nil
}

// DeleteTargetSet deletes a set and its members (by foreign-key cascade), when
// the user or model is done with it. An unknown id wraps ErrNotFound.
func (c *core) DeleteTargetSet(ctx context.Context, id string) error {
	res, err := c.q.ExecContext(ctx, "DELETE FROM target_sets WHERE id = ?", id)
	if err != nil {
		return fmt.Errorf("delete target set %q: %w", id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("delete target set %q: %w", id, err)
	}
	if n == 0 {
		return fmt.Errorf("delete target set %q: %w", id, ErrNotFound)
	}
	return nil
}

// mergeSameItemMembers keeps one alive member per item and set of the
// document, after a re-base or re-map moved two members onto the same item.
func mergeSameItemMembers(ctx context.Context, q querier, docID int64) error {
	if _, err := q.ExecContext(ctx, `DELETE FROM target_members AS t
		WHERE t.deleted_in_rev = 0 AND t.set_id IN (SELECT id FROM target_sets WHERE doc_id = ?1)
		AND EXISTS (SELECT 1 FROM target_members o WHERE o.set_id = t.set_id
			AND o.byte_offset = t.byte_offset AND o.deleted_in_rev = 0 AND o.id < t.id)`, docID); err != nil {
		return fmt.Errorf("merge members on the same item: %w", err)
	}
	return nil
}
