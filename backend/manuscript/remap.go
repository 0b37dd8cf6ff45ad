package manuscript

import (
	"bytes"
	"context"
	"fmt"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/store"
)

// remapItem finds, in the new text, the item that started at byte off of the old
// text, after a change made as a whole (another program's edit, a restore): an
// item before the changed bytes keeps its offset, one after them moves by the
// change in length, and one inside them is looked for by its exact Markdown —
// the occurrence nearest its old relative position. ok is false when the item
// really vanished.
func remapItem(oldDoc, newDoc *document.Document, prefix, suffix, off int) (int, bool) {
	oldSrc, newSrc := oldDoc.Source(), newDoc.Source()
	i, isItem := oldDoc.IndexAt(off)
	if !isItem {
		return 0, false
	}
	md := oldDoc.Markdown(i)
	check := func(n int) bool {
		j, ok := newDoc.IndexAt(n)
		return ok && (newDoc.Markdown(j) == md || n < prefix)
	}
	switch {
	case off < prefix && check(off):
		return off, true
	case off >= len(oldSrc)-suffix && check(off+len(newSrc)-len(oldSrc)):
		return off + len(newSrc) - len(oldSrc), true
	}
	if md == "" {
		return 0, false
	}
	// By content: the nearest item with the same Markdown, measured in the
	// position relative to the book's length.
	want := float64(off) / float64(max(len(oldSrc), 1)) * float64(len(newSrc))
	best, bestDist := -1, 0.0
	for j := 0; j < newDoc.Len(); j++ {
		it := newDoc.Item(j)
		if it.End-it.Start != len(md) || !bytes.Equal(newSrc[it.Start:it.End], []byte(md)) {
			continue
		}
		dist := want - float64(it.Start)
		if dist < 0 {
			dist = -dist
		}
		if best < 0 || dist < bestDist {
			best, bestDist = it.Start, dist
		}
	}
	return best, best >= 0
}

// memberMoves re-maps every alive TargetSet member of the document from its
// revision's text to newDoc, by content and position. texts caches the text of
// each revision members refer to; cur is the text (as a document) at curRev.
func (m *Manuscript) memberMoves(ctx context.Context, q interface {
	AliveTargetMembers(context.Context, int64) ([]store.AliveMember, error)
}, cur *document.Document, curRev int64, newDoc *document.Document) ([]store.MemberMove, error) {
	members, err := q.AliveTargetMembers(ctx, m.DocID)
	if err != nil || len(members) == 0 {
		return nil, err
	}
	docs := map[int64]*document.Document{}
	if cur != nil {
		docs[curRev] = cur
	}
	var moves []store.MemberMove
	for _, mem := range members {
		old, ok := docs[mem.Rev]
		if !ok {
			text, err := m.w.Store.ContentAt(ctx, m.DocID, mem.Rev)
			if err != nil {
				// The text of that revision is gone: the member cannot be placed.
				moves = append(moves, store.MemberMove{ID: mem.ID, Gone: true})
				continue
			}
			old = document.Parse(text, mem.Rev)
			docs[mem.Rev] = old
		}
		o, n := old.Source(), newDoc.Source()
		p := document.CommonPrefix(o, n)
		s := document.CommonSuffix(o[p:], n[p:])
		off, ok := remapItem(old, newDoc, p, s, int(mem.ByteOffset))
		moves = append(moves, store.MemberMove{ID: mem.ID, NewOffset: int64(off), Gone: !ok})
	}
	return moves, nil
}

// remapper returns the commit hook that re-maps TargetSet members to the text
// of newDoc in the revision's transaction.
func (m *Manuscript) remapper(ctx context.Context, newDoc *document.Document) func(tx *store.Tx, rev int64) error {
	return func(tx *store.Tx, rev int64) error {
		moves, err := m.memberMoves(ctx, tx, m.doc, m.doc.Rev(), newDoc)
		if err != nil {
			return fmt.Errorf("re-map target sets: %w", err)
		}
		return tx.RemapTargetMembers(ctx, m.DocID, rev, moves)
	}
}
