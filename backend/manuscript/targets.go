package manuscript

import (
	"context"
	"fmt"
	"sort"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/store"
)

// TargetSetView is a TargetSet as tools return it: live members in document order,
// and the members whose items were deleted since they were added.
type TargetSetView struct {
	ID          string
	Name        string
	Pointers    []document.Pointer
	ItemIndices []int
	Deleted     []DeletedMember
	// Members are the live members with their snippets and places in an
	// editor (only when asked for: TargetSetGet).
	Members []TargetSetMember
}

// TargetSetMember is one live member of a set: its item, the item's first
// words and where it starts in UTF-16 code units (as an editor counts).
type TargetSetMember struct {
	Index       int              `json:"index"`
	Pointer     document.Pointer `json:"pointer"`
	Snippet     string           `json:"snippet"`
	Utf16Offset int              `json:"utf16Offset"`
}

// memberSnippetLimit is the length of a member's snippet, in characters.
const memberSnippetLimit = 100

// DeletedMember is a TargetSet member whose item no longer exists.
// Quote is the item's first words when it was added; Why says why it is
// gone: "deleted" (its text was removed), "rewritten" (changed past
// recognition, by another program say), "" when not known.
type DeletedMember struct {
	Label     string `json:"label"`
	Quote     string `json:"quote,omitempty"`
	Why       string `json:"why,omitempty"`
	DeletedIn int64  `json:"deletedInRevision"`
}

// memberQuoteLimit is how many characters of an item a member keeps, to name
// it when it cannot be followed.
const memberQuoteLimit = 60

// CreateTargetSet makes a new, empty, persistent set of pointers for this document.
func (m *Manuscript) CreateTargetSet(ctx context.Context, name string) (store.TargetSet, error) {
	ts, err := m.w.Store.CreateTargetSet(ctx, m.DocID, name)
	if err != nil {
		return ts, err
	}
	_ = m.w.Store.LogEvent(ctx, "target_set_create", m.DocID, map[string]any{"targetSetId": ts.ID, "name": name})
	return ts, nil
}

// AddToTargetSet adds items (by pointer or index) to an existing set of this
// document; all arguments are checked before anything is stored.
func (m *Manuscript) AddToTargetSet(ctx context.Context, id string, ptrs []document.Pointer, indices []int) (int, error) {
	ts, err := m.w.Store.TargetSet(ctx, id)
	if err != nil {
		return 0, err
	}
	if ts.DocID != m.DocID {
		return 0, fmt.Errorf("%w: target set %s belongs to another document", document.ErrBadInput, id)
	}
	m.mu.Lock()
	d := m.doc
	var members []store.TargetMember
	add := func(i int) {
		it := d.Item(i)
		members = append(members, store.TargetMember{SetID: id, ByteOffset: int64(it.Start), Rev: d.Rev(), Label: d.Label(i),
			Quote: document.Snippet(d.Text(i), memberQuoteLimit), Hash: document.ContentHash(d.Source()[it.Start:it.End])})
	}
	for k, p := range ptrs {
		i, err := d.Resolve(p)
		if err != nil {
			m.mu.Unlock()
			return 0, fmt.Errorf("pointers[%d]: %w", k, err)
		}
		add(i)
	}
	for k, i := range indices {
		if _, err := d.ResolveIndex(i); err != nil {
			m.mu.Unlock()
			return 0, fmt.Errorf("itemIndices[%d]: %w", k, err)
		}
		add(i)
	}
	m.mu.Unlock()
	count, err := m.w.Store.AddTargetMembers(ctx, id, members)
	if err != nil {
		return 0, err
	}
	_ = m.w.Store.LogEvent(ctx, "target_set_add", m.DocID, map[string]any{"targetSetId": id, "added": len(members), "count": count})
	return count, nil
}

// TargetSet returns a set's members as current pointers, in document order.
func (m *Manuscript) TargetSet(ctx context.Context, id string) (TargetSetView, error) {
	return m.targetSet(ctx, id, false)
}

// targetSet is TargetSet, with the Members when members is true.
func (m *Manuscript) targetSet(ctx context.Context, id string, members bool) (TargetSetView, error) {
	ts, err := m.w.Store.TargetSet(ctx, id)
	if err != nil {
		return TargetSetView{}, err
	}
	if ts.DocID != m.DocID {
		return TargetSetView{}, fmt.Errorf("%w: target set %s belongs to another document", document.ErrBadInput, id)
	}
	stored, err := m.w.Store.TargetMembers(ctx, id)
	if err != nil {
		return TargetSetView{}, err
	}
	v := TargetSetView{ID: ts.ID, Name: ts.Name, Pointers: []document.Pointer{}, ItemIndices: []int{}}
	m.mu.Lock()
	defer m.mu.Unlock()
	d := m.doc
	var idx []int
	for _, mem := range stored {
		if mem.DeletedInRev != 0 {
			v.Deleted = append(v.Deleted, DeletedMember{Label: mem.Label, Quote: mem.Quote, Why: mem.Lost, DeletedIn: mem.DeletedInRev})
			continue
		}
		off, err := d.Rebase(mem.Rev, int(mem.ByteOffset))
		if err != nil {
			v.Deleted = append(v.Deleted, DeletedMember{Label: mem.Label, Quote: mem.Quote})
			continue
		}
		if i, ok := d.IndexAt(off); ok {
			idx = append(idx, i)
		} else {
			v.Deleted = append(v.Deleted, DeletedMember{Label: mem.Label, Quote: mem.Quote})
		}
	}
	sort.Ints(idx)
	for k, i := range idx {
		if k > 0 && idx[k-1] == i {
			continue
		}
		v.ItemIndices = append(v.ItemIndices, i)
		v.Pointers = append(v.Pointers, d.PointerTo(i))
		if members {
			if v.Members == nil {
				v.Members = make([]TargetSetMember, 0, len(idx))
			}
			v.Members = append(v.Members, TargetSetMember{Index: i, Pointer: v.Pointers[len(v.Pointers)-1],
				Snippet: document.Snippet(d.Text(i), memberSnippetLimit), Utf16Offset: m.utf16Index(d).Pos(d.Item(i).Start)})
		}
	}
	return v, nil
}

// Cursors returns the document's named cursors with the manuscript locked.
func (m *Manuscript) CreateCursor(ctx context.Context, spec document.CursorSpec) (document.CursorState, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	st, err := m.cursors.Create(spec)
	if err != nil {
		return st, err
	}
	return st, m.saveCursor(ctx, spec.Name)
}

// CursorNext returns the next portion of a named cursor and remembers the position.
func (m *Manuscript) CursorNext(ctx context.Context, name string) (document.Portion, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	p, err := m.cursors.Next(name)
	if _, ok := m.cursors.Get(name); ok {
		if serr := m.saveCursor(ctx, name); serr != nil && err == nil {
			return p, serr
		}
	}
	if err != nil {
		return p, err
	}
	if len(p.Items) > 0 {
		idx := m.utf16Index(m.doc)
		for k := range p.Items {
			p.Items[k].Utf16Offset = idx.Pos(p.Items[k].Pointer.Byte)
		}
	}
	_ = m.w.Store.LogEvent(ctx, "cursor_batch", m.DocID, map[string]any{"cursorName": name, "items": len(p.Items), "hasMore": p.HasMore})
	if !p.HasMore {
		_ = m.w.Store.LogEvent(ctx, "cursor_batch_complete", m.DocID, map[string]any{"cursorName": name})
	}
	return p, nil
}

func (m *Manuscript) saveCursor(ctx context.Context, name string) error {
	st, ok := m.cursors.Get(name)
	if !ok {
		return nil
	}
	off := int64(-1)
	if st.Next >= 0 && st.Next < m.doc.Len() {
		off = int64(m.doc.Item(st.Next).Start)
	}
	return m.w.Store.SaveCursor(ctx, store.CursorState{DocID: m.DocID, Name: name, Forward: st.Forward,
		MaxElements: st.MaxElements, MaxBytes: st.MaxBytes, IncludeContent: st.IncludeContent,
		NextIndex: st.Next, NextOffset: off, Rev: m.doc.Rev(), Complete: st.Complete})
}

// loadCursors restores saved cursors, moving their positions across edits made
// since they were saved.
func (m *Manuscript) loadCursors(ctx context.Context) error {
	saved, err := m.w.Store.Cursors(ctx, m.DocID)
	if err != nil {
		return fmt.Errorf("load cursors of %s: %w", m.Path, err)
	}
	for _, c := range saved {
		spec := document.CursorSpec{Name: c.Name, Forward: c.Forward, MaxElements: c.MaxElements, MaxBytes: c.MaxBytes, IncludeContent: c.IncludeContent}
		if spec.Validate() != nil {
			continue
		}
		st := document.CursorState{CursorSpec: spec, Next: c.NextIndex, Complete: c.Complete}
		if c.NextOffset >= 0 && c.Rev != m.doc.Rev() {
			if off, err := m.doc.Rebase(c.Rev, int(c.NextOffset)); err == nil {
				st.Next = m.doc.IndexContaining(off)
				if i, ok := m.doc.IndexAt(off); ok {
					st.Next = i
				}
			}
		}
		m.cursors.Restore(st)
	}
	return nil
}

// TargetSets lists this document's sets, oldest first.
func (m *Manuscript) TargetSets(ctx context.Context) ([]store.TargetSet, error) {
	return m.w.Store.TargetSets(ctx, m.DocID)
}

// RemoveFromTargetSet takes the item at index out of a set (the item itself is
// not touched).
func (m *Manuscript) RemoveFromTargetSet(ctx context.Context, id string, index int) error {
	ts, err := m.w.Store.TargetSet(ctx, id)
	if err != nil {
		return err
	}
	if ts.DocID != m.DocID {
		return fmt.Errorf("%w: target set %s belongs to another document", document.ErrBadInput, id)
	}
	members, err := m.w.Store.TargetMembers(ctx, id)
	if err != nil {
		return err
	}
	m.mu.Lock()
	var offset int64 = -1
	for _, mem := range members {
		if mem.DeletedInRev != 0 {
			continue
		}
		off, err := m.doc.Rebase(mem.Rev, int(mem.ByteOffset))
		if err != nil {
			continue
		}
		if i, ok := m.doc.IndexAt(off); ok && i == index {
			offset = mem.ByteOffset
			break
		}
	}
	m.mu.Unlock()
	if offset < 0 {
		return fmt.Errorf("%w: item %d is not in the set %q", document.ErrBadInput, index, ts.Name)
	}
	return m.w.Store.RemoveTargetMember(ctx, id, offset)
}

// DeleteTargetSet removes a set of this document (its items stay in the book).
func (m *Manuscript) DeleteTargetSet(ctx context.Context, id string) error {
	ts, err := m.w.Store.TargetSet(ctx, id)
	if err != nil {
		return err
	}
	if ts.DocID != m.DocID {
		return fmt.Errorf("%w: target set %s belongs to another document", document.ErrBadInput, id)
	}
	return m.w.Store.DeleteTargetSet(ctx, id)
}
