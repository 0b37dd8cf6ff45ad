package manuscript

import (
	"bytes"
	"context"
	"fmt"
	"sort"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/store"
)

// ItemChange is one item's part of a multi-item edit: its new Markdown, or
// its removal.
type ItemChange struct {
	Index       int
	NewMarkdown string
	Delete      bool
}

// Place is where one change of a multi-item edit went: the item (its index in
// the text after the edit) and its bytes there.
type Place struct {
	Index      int
	Start, End int // in the text after the edit; End == Start for a deletion
	Deleted    bool
}

// EditItems applies the changes plan returns as ONE revision: one Undo takes
// them all back, and EditsSince lists each place. Every change is checked on
// its own first, as ReplaceText and Delete check theirs (the outline stays, a
// table keeps its shape); if any is refused nothing is written. TargetSet
// members move with their items exactly (a member in a deleted item is marked
// deleted). A pointer taken before the edit to an item between the first and
// the last change must be looked up again (it names a rewritten range).
func (m *Manuscript) EditItems(ctx context.Context, summary string, plan func(d *document.Document) ([]ItemChange, error)) (Outcome, []Place, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	d := m.doc
	changes, err := plan(d)
	if err != nil {
		return Outcome{}, nil, err
	}
	if len(changes) == 0 {
		return Outcome{}, nil, fmt.Errorf("%w: nothing to change", document.ErrBadInput)
	}
	pieces, anyDelete, err := planPieces(d, changes)
	if err != nil {
		return Outcome{}, nil, err
	}
	src := d.Source()
	start, end := pieces[0].start, pieces[len(pieces)-1].end
	var buf bytes.Buffer
	at := start
	for _, p := range pieces {
		buf.Write(src[at:p.start])
		buf.Write(p.new)
		at = p.end
	}
	buf.Write(src[at:end])
	op := store.OpReplaceText
	if anyDelete {
		op = store.OpDelete
	}
	e, err := d.PlanSplice(op, start, end, buf.Bytes(), anyDelete)
	if err != nil {
		return Outcome{}, nil, fmt.Errorf("the %d changes together: %w", len(pieces), err)
	}
	out, err := m.commitWith(ctx, e, 0, summary, pieceMoves(e, pieces))
	if err != nil {
		return Outcome{}, nil, err
	}
	return out, m.placesOf(pieces), nil
}

// editPiece is one change of a multi-item edit as a splice of the source.
type editPiece struct {
	start, end int
	new        []byte
	index      int
	deleted    bool
}

// planPieces checks each change on its own (as ReplaceText and Delete do)
// and returns them as splices in the order of the text; no item may be
// changed twice, no two changes may overlap. anyDelete: one is a deletion.
func planPieces(d *document.Document, changes []ItemChange) ([]editPiece, bool, error) {
	var pieces []editPiece
	seen := map[int]bool{}
	anyDelete := false
	for _, c := range changes {
		if seen[c.Index] {
			return nil, false, fmt.Errorf("%w: item %d is changed twice in one edit", document.ErrBadInput, c.Index)
		}
		seen[c.Index] = true
		var e *document.Edit
		var err error
		if c.Delete {
			e, err = d.PlanDelete(c.Index)
		} else {
			e, err = d.PlanReplaceText(c.Index, c.NewMarkdown)
		}
		if err != nil {
			return nil, false, fmt.Errorf("%s: %w", d.Label(c.Index), err)
		}
		pieces = append(pieces, editPiece{start: e.Start, end: e.OldEnd, new: e.New, index: c.Index, deleted: c.Delete})
		anyDelete = anyDelete || c.Delete
	}
	sort.Slice(pieces, func(a, b int) bool { return pieces[a].start < pieces[b].start })
	for k := 1; k < len(pieces); k++ {
		if pieces[k].start < pieces[k-1].end {
			return nil, false, fmt.Errorf("%w: the changes of %s and %s overlap", document.ErrBadInput, d.Label(pieces[k-1].index), d.Label(pieces[k].index))
		}
	}
	return pieces, anyDelete, nil
}

// shiftThrough is where the source offset off lands after the pieces (false:
// in a deleted item).
func shiftThrough(pieces []editPiece, off int) (int, bool) {
	delta := 0
	for _, p := range pieces {
		switch {
		case off < p.start:
			return off + delta, true
		case off < p.end && p.deleted:
			return 0, false
		case off < p.end:
			return off + delta, true // the rewritten item keeps its start
		}
		delta += len(p.new) - (p.end - p.start)
	}
	return off + delta, true
}

// pieceMoves is how TargetSet members move: every item the splice e re-read
// lands where shiftThrough says (its content hash is Follow's when Follow
// found it there too).
func pieceMoves(e *document.Edit, pieces []editPiece) []store.ItemMove {
	starts := e.Replaced()
	followed := e.Follow(starts)
	moves := make([]store.ItemMove, 0, len(starts))
	for k, st := range starts {
		off, ok := shiftThrough(pieces, st)
		if !ok {
			moves = append(moves, store.ItemMove{Old: int64(st), Lost: string(document.LostDeleted)})
			continue
		}
		mv := store.ItemMove{Old: int64(st), New: int64(off)}
		if f := followed[k]; f.Lost == "" && f.Start == off {
			mv.Hash = f.Hash
		}
		moves = append(moves, mv)
	}
	return moves
}

// placesOf is where each piece went in the text after the edit.
func (m *Manuscript) placesOf(pieces []editPiece) []Place {
	places := make([]Place, 0, len(pieces))
	delta := 0
	for _, p := range pieces {
		s := p.start + delta
		pl := Place{Start: s, End: s + len(p.new), Deleted: p.deleted}
		if p.deleted {
			pl.End = s
		}
		if i, ok := m.doc.IndexAt(s); ok && !p.deleted {
			pl.Index = i
		} else {
			pl.Index = m.doc.IndexContaining(s)
		}
		places = append(places, pl)
		delta += len(p.new) - (p.end - p.start)
	}
	return places
}
