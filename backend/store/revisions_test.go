package store

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

// book is a test document whose current content is tracked alongside the store.
type book struct {
	t       *testing.T
	s       *Store
	doc     int64
	content []byte
}

func newBook(t *testing.T, s *Store, path, text string) *book {
	t.Helper()
	ctx := context.Background()
	d, err := s.EnsureDocument(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	c := []byte(text)
	r, err := s.AppendRevision(ctx, Revision{DocID: d.ID, Op: OpOpen, Snapshot: c, SHA256: hashOf(c), Size: int64(len(c)), Summary: "open"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Rev != 1 {
		t.Fatalf("first revision is %d", r.Rev)
	}
	return &book{t: t, s: s, doc: d.ID, content: c}
}

// splice returns the revision (not yet stored) replacing [start, start+oldLen) by text.
func (b *book) splice(op string, start, oldLen int, text string, undoOf int64) (Revision, []byte) {
	old := append([]byte(nil), b.content[start:start+oldLen]...)
	after := append(append(append([]byte(nil), b.content[:start]...), text...), b.content[start+oldLen:]...)
	return Revision{DocID: b.doc, Op: op, Start: int64(start), Old: old, New: []byte(text),
		SHA256: hashOf(after), Size: int64(len(after)), UndoOf: undoOf, Summary: op}, after
}

// edit stores a splice and returns the stored revision.
func (b *book) edit(op string, start, oldLen int, text string) Revision {
	b.t.Helper()
	r, after := b.splice(op, start, oldLen, text, 0)
	got, err := b.s.AppendRevision(context.Background(), r)
	if err != nil {
		b.t.Fatalf("%s: %v", op, err)
	}
	b.content = after
	return got
}

func TestRevisionNumbering(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	a := newBook(t, s, "/a.md", "Hello world\n")
	b := newBook(t, s, "/b.md", "Other\n")
	var last int64
	for i := 0; i < 5; i++ {
		ra := a.edit(OpInsertAfter, len(a.content), 0, "more\n")
		rb := b.edit(OpInsertBefore, 0, 0, "x")
		if ra.Rev != int64(i+2) || rb.Rev != int64(i+2) {
			t.Fatalf("step %d: revisions %d and %d, want %d", i, ra.Rev, rb.Rev, i+2)
		}
		if ra.CreatedAt.IsZero() || ra.DocID != a.doc {
			t.Errorf("stored revision %+v", ra)
		}
		last = ra.Rev
	}
	head, ok, err := s.LatestRevision(ctx, a.doc)
	if err != nil || !ok || head.Rev != last || head.SHA256 != hashOf(a.content) || head.Size != int64(len(a.content)) {
		t.Errorf("LatestRevision = %+v %v %v", head, ok, err)
	}
	if _, ok, err := s.LatestRevision(ctx, 999); err != nil || ok {
		t.Errorf("LatestRevision(unknown doc) = %v %v", ok, err)
	}

	// An explicit Rev must be the next one: a stale caller gets ErrConflict.
	r, _ := a.splice(OpDelete, 0, 1, "", 0)
	r.Rev = last
	if _, err := s.AppendRevision(ctx, r); !errors.Is(err, ErrConflict) {
		t.Errorf("stale Rev: err = %v, want ErrConflict", err)
	}
	r.Rev = last + 1
	if got, err := s.AppendRevision(ctx, r); err != nil || got.Rev != last+1 {
		t.Errorf("explicit next Rev: %+v %v", got, err)
	}
}

func TestAppendRevisionValidation(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	b := newBook(t, s, "/v.md", "abcdef")
	b.edit(OpReplaceText, 0, 1, "A") // rev 2
	empty, err := s.EnsureDocument(ctx, "/empty.md")
	if err != nil {
		t.Fatal(err)
	}
	good, _ := b.splice(OpReplaceText, 1, 1, "B", 0)
	snap := []byte("new text")
	tests := []struct {
		name   string
		mutate func(r *Revision)
		want   error
	}{
		{"unknown op", func(r *Revision) { r.Op = "Frobnicate" }, ErrInvalid},
		{"short hash", func(r *Revision) { r.SHA256 = "abc" }, ErrInvalid},
		{"uppercase hash", func(r *Revision) { r.SHA256 = strings.ToUpper(r.SHA256) }, ErrInvalid},
		{"splice beyond content", func(r *Revision) { r.Start = 100 }, ErrInvalid},
		{"size does not add up", func(r *Revision) { r.Size++ }, ErrInvalid},
		{"open without snapshot", func(r *Revision) { r.Op = OpOpen }, ErrInvalid},
		{"snapshot hash mismatch", func(r *Revision) { r.Op, r.Snapshot, r.Size = OpExternal, snap, int64(len(snap)) }, ErrInvalid},
		{"snapshot size mismatch", func(r *Revision) { r.Op, r.Snapshot, r.SHA256 = OpExternal, snap, hashOf(snap) }, ErrInvalid},
		{"undo without UndoOf", func(r *Revision) { r.Op = OpUndo }, ErrInvalid},
		{"UndoOf on an edit", func(r *Revision) { r.UndoOf = 2 }, ErrInvalid},
		{"undo of open", func(r *Revision) { r.Op, r.UndoOf = OpUndo, 1 }, ErrInvalid},
		{"undo of a missing revision", func(r *Revision) { r.Op, r.UndoOf = OpUndo, 50 }, ErrNotFound},
		{"redo of a non-undo", func(r *Revision) { r.Op, r.UndoOf = OpRedo, 2 }, ErrInvalid},
		{"unknown document", func(r *Revision) { r.DocID = 12345 }, ErrNotFound},
		{"edit as first revision", func(r *Revision) { r.DocID = empty.ID }, ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := good
			tt.mutate(&r)
			if _, err := s.AppendRevision(ctx, r); !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
		})
	}
	if head, _, _ := s.LatestRevision(ctx, b.doc); head.Rev != 2 {
		t.Errorf("a refused revision was stored: head %d", head.Rev)
	}
	if got, err := s.AppendRevision(ctx, good); err != nil || got.Rev != 3 {
		t.Errorf("valid revision after refusals: %+v %v", got, err)
	}
}

func TestRevisionsAndSnapshots(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	b := newBook(t, s, "/s.md", "one\n") // 1 open (snapshot)
	b.edit(OpInsertAfter, 4, 0, "two\n") // 2
	b.edit(OpReplaceText, 0, 3, "ONE")   // 3
	withSnap, after := b.splice(OpInsertAfter, 8, 0, "three\n", 0)
	withSnap.Snapshot = after // 4: an edit with a periodic snapshot
	if _, err := s.AppendRevision(ctx, withSnap); err != nil {
		t.Fatal(err)
	}
	b.content = after
	b.edit(OpDelete, 0, 4, "") // 5
	empty := []byte{}
	if _, err := s.AppendRevision(ctx, Revision{DocID: b.doc, Op: OpExternal, Snapshot: empty, SHA256: hashOf(empty)}); err != nil {
		t.Fatal(err) // 6: the file was emptied outside Waymark
	}

	revs, err := s.Revisions(ctx, b.doc, 0)
	if err != nil {
		t.Fatal(err)
	}
	wantOps := []string{OpOpen, OpInsertAfter, OpReplaceText, OpInsertAfter, OpDelete, OpExternal}
	wantSnap := []bool{true, false, false, true, false, true}
	if len(revs) != len(wantOps) {
		t.Fatalf("%d revisions, want %d", len(revs), len(wantOps))
	}
	for i, r := range revs {
		if r.Rev != int64(i+1) || r.Op != wantOps[i] || r.Snapshot != nil || r.HasSnapshot != wantSnap[i] {
			t.Errorf("revision %d: rev %d op %s snapshot %v has %v", i, r.Rev, r.Op, r.Snapshot != nil, r.HasSnapshot)
		}
	}
	if revs[2].Start != 0 || string(revs[2].Old) != "one" || string(revs[2].New) != "ONE" {
		t.Errorf("splice of revision 3 = %d %q %q", revs[2].Start, revs[2].Old, revs[2].New)
	}
	if later, err := s.Revisions(ctx, b.doc, 4); err != nil || len(later) != 2 || later[0].Rev != 5 {
		t.Errorf("Revisions after 4 = %v %v", later, err)
	}

	full, err := s.Revision(ctx, b.doc, 1)
	if err != nil || string(full.Snapshot) != "one\n" {
		t.Errorf("Revision(1) snapshot = %q %v", full.Snapshot, err)
	}
	if r, err := s.Revision(ctx, b.doc, 2); err != nil || r.Snapshot != nil {
		t.Errorf("Revision(2) = %+v %v", r, err)
	}
	if r, err := s.Revision(ctx, b.doc, 6); err != nil || r.Snapshot == nil || len(r.Snapshot) != 0 {
		t.Errorf("empty snapshot must be non-nil and empty: %#v %v", r.Snapshot, err)
	}
	if _, err := s.Revision(ctx, b.doc, 99); !errors.Is(err, ErrNotFound) {
		t.Errorf("Revision(99): err = %v", err)
	}

	for _, tt := range []struct{ at, want int64 }{{1, 1}, {3, 1}, {4, 4}, {5, 4}, {6, 6}, {100, 6}} {
		r, ok, err := s.LatestSnapshotAtOrBefore(ctx, b.doc, tt.at)
		if err != nil || !ok || r.Rev != tt.want || r.Snapshot == nil {
			t.Errorf("LatestSnapshotAtOrBefore(%d) = rev %d ok %v err %v", tt.at, r.Rev, ok, err)
		}
	}
	if _, ok, err := s.LatestSnapshotAtOrBefore(ctx, b.doc, 0); err != nil || ok {
		t.Errorf("LatestSnapshotAtOrBefore(0) = %v %v", ok, err)
	}
	if rev, ok, err := s.LatestSnapshotRev(ctx, b.doc); err != nil || !ok || rev != 6 {
		t.Errorf("LatestSnapshotRev = %d %v %v", rev, ok, err)
	}
	wantText := []string{"one\n", "one\ntwo\n", "ONE\ntwo\n", "ONE\ntwo\nthree\n", "two\nthree\n", ""}
	for i, w := range wantText {
		got, err := s.ContentAt(ctx, b.doc, int64(i+1))
		if err != nil || string(got) != w {
			t.Errorf("ContentAt(%d) = %q %v, want %q", i+1, got, err, w)
		}
	}
}

func TestLatestRevisionWithSHA(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	b := newBook(t, s, "/h.md", "alpha")
	shaA := hashOf(b.content)
	b.edit(OpReplaceText, 0, 5, "beta") // 2
	shaB := hashOf(b.content)
	b.edit(OpReplaceText, 0, 4, "alpha") // 3: back to the first content
	tests := []struct {
		sha  string
		rev  int64
		okay bool
	}{
		{shaA, 3, true},
		{strings.ToUpper(shaA), 3, true},
		{shaB, 2, true},
		{hashOf([]byte("never")), 0, false},
	}
	for _, tt := range tests {
		r, ok, err := s.LatestRevisionWithSHA(ctx, b.doc, tt.sha)
		if err != nil || ok != tt.okay || r.Rev != tt.rev {
			t.Errorf("LatestRevisionWithSHA(%s…) = rev %d %v %v, want %d %v", tt.sha[:8], r.Rev, ok, err, tt.rev, tt.okay)
		}
		if r.Snapshot != nil {
			t.Error("snapshot loaded")
		}
	}
}

// TestUndoRedoProtocol walks the protocol documented on LastRevisionWhere:
// edit, edit, undo, undo, redo, new edit → nothing left to redo.
func TestUndoRedoProtocol(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	b := newBook(t, s, "/u.md", "abc") // 1

	// edit appends a normal edit and clears redo, in one transaction.
	edit := func(op string, start, oldLen int, text string) int64 {
		t.Helper()
		r, after := b.splice(op, start, oldLen, text, 0)
		var rev int64
		if err := s.Tx(ctx, func(tx *Tx) error {
			got, err := tx.AppendRevision(ctx, r)
			if err != nil {
				return err
			}
			rev = got.Rev
			return tx.ClearRedo(ctx, b.doc)
		}); err != nil {
			t.Fatal(err)
		}
		b.content = after
		return rev
	}
	undo := func() (int64, bool) {
		t.Helper()
		r, ok, err := s.LastRevisionWhere(ctx, b.doc, EditOps, false)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return 0, false
		}
		if !bytes.Equal(b.content[r.Start:r.Start+int64(len(r.New))], r.New) {
			t.Fatalf("revision %d's text is not there", r.Rev)
		}
		inv, after := b.splice(OpUndo, int(r.Start), len(r.New), string(r.Old), r.Rev)
		if err := s.Tx(ctx, func(tx *Tx) error {
			if _, err := tx.AppendRevision(ctx, inv); err != nil {
				return err
			}
			return tx.SetUndone(ctx, b.doc, r.Rev, true)
		}); err != nil {
			t.Fatal(err)
		}
		b.content = after
		return r.Rev, true
	}
	redo := func() (int64, bool) {
		t.Helper()
		u, ok, err := s.LastUnconsumedUndo(ctx, b.doc)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return 0, false
		}
		orig, err := s.Revision(ctx, b.doc, u.UndoOf)
		if err != nil {
			t.Fatal(err)
		}
		re, after := b.splice(OpRedo, int(orig.Start), len(orig.Old), string(orig.New), u.Rev)
		if err := s.Tx(ctx, func(tx *Tx) error {
			if _, err := tx.AppendRevision(ctx, re); err != nil {
				return err
			}
			return tx.MarkConsumed(ctx, b.doc, u.Rev)
		}); err != nil {
			t.Fatal(err)
		}
		b.content = after
		return orig.Rev, true
	}
	expect := func(step, want string) {
		t.Helper()
		if string(b.content) != want {
			t.Fatalf("%s: content %q, want %q", step, b.content, want)
		}
		head, _, err := s.LatestRevision(ctx, b.doc)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.ContentAt(ctx, b.doc, head.Rev)
		if err != nil || string(got) != want {
			t.Fatalf("%s: stored content %q %v, want %q", step, got, err, want)
		}
	}

	e1 := edit(OpReplaceText, 0, 1, "A") // 2: Abc
	e2 := edit(OpInsertAfter, 3, 0, "d") // 3: Abcd
	expect("two edits", "Abcd")
	if _, ok, _ := s.LastUnconsumedUndo(ctx, b.doc); ok {
		t.Error("redo offered before any undo")
	}
	if got, ok := undo(); !ok || got != e2 { // 4
		t.Fatalf("first undo reverted %d, want %d", got, e2)
	}
	expect("undo", "Abc")
	if got, ok := undo(); !ok || got != e1 { // 5
		t.Fatalf("second undo reverted %d, want %d", got, e1)
	}
	expect("undo undo", "abc")
	if _, ok := undo(); ok {
		t.Fatal("a third undo found something (only the open is left)")
	}
	if got, ok := redo(); !ok || got != e1 { // 6
		t.Fatalf("redo re-applied %d, want %d", got, e1)
	}
	expect("redo", "Abc")
	if u, ok, _ := s.LastUnconsumedUndo(ctx, b.doc); !ok || u.UndoOf != e2 {
		t.Fatalf("after one redo the undo of %d should remain redoable, got %+v %v", e2, u, ok)
	}
	e3 := edit(OpReplaceText, 1, 1, "B") // 7: ABc, clears redo
	expect("new edit", "ABc")
	if _, ok := redo(); ok {
		t.Fatal("redo offered after a new edit")
	}
	// Undo now reverts the new edit, then the Redo revision, never e1 twice.
	if got, _ := undo(); got != e3 {
		t.Errorf("undo after new edit reverted %d, want %d", got, e3)
	}
	if got, _ := undo(); got != 6 {
		t.Errorf("next undo reverted %d, want the Redo revision 6", got)
	}
	expect("undo twice more", "abc")
	if _, ok := undo(); ok {
		t.Error("nothing should be left to undo")
	}
	// Redo goes forward in the reverse order of the undos.
	if got, _ := redo(); got != 6 {
		t.Errorf("redo re-applied %d, want 6", got)
	}
	if got, _ := redo(); got != e3 {
		t.Errorf("redo re-applied %d, want %d", got, e3)
	}
	expect("redo twice", "ABc")

	r, err := s.Revision(ctx, b.doc, e1)
	if err != nil || !r.Undone {
		t.Errorf("revision %d should stay undone: %+v %v", e1, r, err)
	}
	if err := s.MarkConsumed(ctx, b.doc, e1); !errors.Is(err, ErrInvalid) {
		t.Errorf("MarkConsumed on an edit: err = %v", err)
	}
	if err := s.SetUndone(ctx, b.doc, 999, true); !errors.Is(err, ErrNotFound) {
		t.Errorf("SetUndone on a missing revision: err = %v", err)
	}
	if _, _, err := s.LastRevisionWhere(ctx, b.doc, nil, false); !errors.Is(err, ErrInvalid) {
		t.Errorf("LastRevisionWhere without ops: err = %v", err)
	}
}

func TestTxIsAtomic(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	b := newBook(t, s, "/t.md", "abc")
	ts, err := s.CreateTargetSet(ctx, b.doc, "all")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddTargetMembers(ctx, ts.ID, []TargetMember{{ByteOffset: 2, Rev: 1}}); err != nil {
		t.Fatal(err)
	}
	r, _ := b.splice(OpInsertBefore, 0, 0, "xx", 0)
	boom := errors.New("boom")

	err = s.Tx(ctx, func(tx *Tx) error {
		if _, err := tx.AppendRevision(ctx, r); err != nil {
			return err
		}
		if err := tx.FollowTargetMembers(ctx, b.doc, 2, 0, 0, 2, nil, nil); err != nil {
			return err
		}
		if err := tx.LogEvent(ctx, "edit", b.doc, nil); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Tx err = %v, want the callback's", err)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("panic was swallowed")
			}
		}()
		_ = s.Tx(ctx, func(tx *Tx) error {
			if _, err := tx.AppendRevision(ctx, r); err != nil {
				return err
			}
			panic("in callback")
		})
	}()
	if head, _, _ := s.LatestRevision(ctx, b.doc); head.Rev != 1 {
		t.Errorf("rolled back revision stored: head %d", head.Rev)
	}
	if ms, _ := s.TargetMembers(ctx, ts.ID); len(ms) != 1 || ms[0].ByteOffset != 2 || ms[0].Rev != 1 {
		t.Errorf("rolled back rebase stored: %+v", ms)
	}
	if evs, _ := s.Events(ctx, "edit", 0); len(evs) != 0 {
		t.Errorf("rolled back event stored: %+v", evs)
	}

	// A method that fails inside a Tx leaves nothing behind (its savepoint is
	// rolled back) even if the caller carries on and commits.
	err = s.Tx(ctx, func(tx *Tx) error {
		if _, err := tx.AppendRevision(ctx, r); err != nil {
			return err
		}
		if err := tx.atomic(ctx, func(q querier) error {
			if _, err := q.ExecContext(ctx, "INSERT INTO settings (key, value, updated_at) VALUES ('partial', '1', '')"); err != nil {
				return err
			}
			return boom
		}); !errors.Is(err, boom) {
			t.Errorf("atomic err = %v", err)
		}
		if _, err := tx.AddTargetMembers(ctx, "ts_000000000000", []TargetMember{{ByteOffset: 0}}); !errors.Is(err, ErrNotFound) {
			t.Errorf("AddTargetMembers(unknown) in Tx: %v", err)
		}
		if head, _, err := tx.LatestRevision(ctx, b.doc); err != nil || head.Rev != 2 {
			t.Errorf("Tx does not see its own write: %d %v", head.Rev, err)
		}
		return tx.FollowTargetMembers(ctx, b.doc, 2, 0, 0, 2, nil, nil)
	})
	if err != nil {
		t.Fatal(err)
	}
	if ms, _ := s.TargetMembers(ctx, ts.ID); len(ms) != 1 || ms[0].ByteOffset != 4 || ms[0].Rev != 2 {
		t.Errorf("committed rebase: %+v", ms)
	}
	if _, ok, err := s.Setting(ctx, "partial"); err != nil || ok {
		t.Errorf("write of a failed method survived: %v %v", ok, err)
	}
}
