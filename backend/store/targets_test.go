package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

func TestTargetSets(t *testing.T) {
	s, path := openTest(t)
	ctx := context.Background()
	b := newBook(t, s, "/ts.md", strings.Repeat("x", 100))
	other := newBook(t, s, "/other.md", "o")

	ts, err := s.CreateTargetSet(ctx, b.doc, "Anna")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^ts_[0-9a-f]{12}$`).MatchString(ts.ID) || ts.DocID != b.doc || ts.Name != "Anna" || ts.CreatedAt.IsZero() {
		t.Errorf("created %+v", ts)
	}
	ts2, err := s.CreateTargetSet(ctx, b.doc, "Ben")
	if err != nil || ts2.ID == ts.ID {
		t.Fatalf("second set %+v %v", ts2, err)
	}
	if _, err := s.CreateTargetSet(ctx, 4242, "x"); !errors.Is(err, ErrNotFound) {
		t.Errorf("set for unknown document: err = %v", err)
	}
	if got, err := s.TargetSet(ctx, ts.ID); err != nil || got != ts {
		t.Errorf("TargetSet = %+v %v, want %+v", got, err, ts)
	}
	if sets, err := s.TargetSets(ctx, b.doc); err != nil || len(sets) != 2 || sets[0].ID != ts.ID || sets[1].ID != ts2.ID {
		t.Errorf("TargetSets = %+v %v", sets, err)
	}

	// Unknown ids: the error wraps ErrNotFound and names the id.
	for _, id := range []string{"ts_deadbeef0000", "nonsense"} {
		_, err := s.TargetSet(ctx, id)
		if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), id) {
			t.Errorf("TargetSet(%q): err = %v", id, err)
		}
		if _, err := s.AddTargetMembers(ctx, id, []TargetMember{{ByteOffset: 1}}); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), id) {
			t.Errorf("AddTargetMembers(%q): err = %v", id, err)
		}
		if _, err := s.TargetMembers(ctx, id); !errors.Is(err, ErrNotFound) {
			t.Errorf("TargetMembers(%q): err = %v", id, err)
		}
		if err := s.DeleteTargetSet(ctx, id); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), id) {
			t.Errorf("DeleteTargetSet(%q): err = %v", id, err)
		}
	}

	// Add out of order and with duplicates: members come back ordered, once.
	n, err := s.AddTargetMembers(ctx, ts.ID, []TargetMember{
		{ByteOffset: 40, Rev: 1, Label: "p4"}, {ByteOffset: 0, Rev: 1, Label: "p0"}, {ByteOffset: 20, Rev: 1, Label: "p2"},
		{ByteOffset: 40, Rev: 1, Label: "p4 again"},
	})
	if err != nil || n != 3 {
		t.Fatalf("AddTargetMembers = %d %v, want 3", n, err)
	}
	n, err = s.AddTargetMembers(ctx, ts.ID, []TargetMember{{SetID: ts.ID, ByteOffset: 20, Rev: 1}, {ByteOffset: 10, Rev: 1, Label: "p1"}})
	if err != nil || n != 4 {
		t.Fatalf("second AddTargetMembers = %d %v, want 4", n, err)
	}
	if _, err := s.AddTargetMembers(ctx, ts.ID, []TargetMember{{SetID: ts2.ID, ByteOffset: 1}}); !errors.Is(err, ErrInvalid) {
		t.Errorf("member of another set: err = %v", err)
	}
	if _, err := s.AddTargetMembers(ctx, ts.ID, []TargetMember{{ByteOffset: 5}, {ByteOffset: -1}}); !errors.Is(err, ErrInvalid) {
		t.Errorf("negative offset: err = %v", err)
	}
	if n, err := s.AddTargetMembers(ctx, ts2.ID, []TargetMember{{ByteOffset: 40, Rev: 1, Label: "p4"}}); err != nil || n != 1 {
		t.Errorf("same offset in another set: %d %v", n, err)
	}
	want := []TargetMember{
		{SetID: ts.ID, ByteOffset: 0, Rev: 1, Label: "p0"}, {SetID: ts.ID, ByteOffset: 10, Rev: 1, Label: "p1"},
		{SetID: ts.ID, ByteOffset: 20, Rev: 1, Label: "p2"}, {SetID: ts.ID, ByteOffset: 40, Rev: 1, Label: "p4"},
	}
	if got, err := s.TargetMembers(ctx, ts.ID); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("TargetMembers = %+v %v\nwant %+v", got, err, want)
	}

	// Sets of another document are not touched by this document's edits.
	ots, err := s.CreateTargetSet(ctx, other.doc, "o")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddTargetMembers(ctx, ots.ID, []TargetMember{{ByteOffset: 50, Rev: 1}}); err != nil {
		t.Fatal(err)
	}
	if err := s.FollowTargetMembers(ctx, b.doc, 2, 0, 0, 5, nil, nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.TargetMembers(ctx, ots.ID); got[0].ByteOffset != 50 || got[0].Rev != 1 {
		t.Errorf("other document's member moved: %+v", got)
	}

	// Members survive Close/Open.
	before, _ := s.TargetMembers(ctx, ts.ID)
	s.Close()
	s2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if after, err := s2.TargetMembers(ctx, ts.ID); err != nil || !reflect.DeepEqual(after, before) {
		t.Errorf("after reopen %+v %v, want %+v", after, err, before)
	}
	if got, err := s2.TargetSet(ctx, ts.ID); err != nil || got != ts {
		t.Errorf("set after reopen %+v %v", got, err)
	}

	// Remove and delete.
	if err := s2.RemoveTargetMember(ctx, ts.ID, 5); err != nil {
		t.Errorf("RemoveTargetMember: %v", err)
	}
	if err := s2.RemoveTargetMember(ctx, ts.ID, 5); !errors.Is(err, ErrNotFound) {
		t.Errorf("removing twice: err = %v", err)
	}
	if got, _ := s2.TargetMembers(ctx, ts.ID); len(got) != 3 || got[0].ByteOffset != 15 {
		t.Errorf("after remove %+v", got)
	}
	if err := s2.DeleteTargetSet(ctx, ts.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s2.TargetSet(ctx, ts.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("deleted set still there: %v", err)
	}
	var left int
	if err := s2.db.QueryRow("SELECT count(*) FROM target_members WHERE set_id = ?", ts.ID).Scan(&left); err != nil || left != 0 {
		t.Errorf("%d members of the deleted set left (%v)", left, err)
	}
	if sets, _ := s2.TargetSets(ctx, b.doc); len(sets) != 1 || sets[0].ID != ts2.ID {
		t.Errorf("TargetSets after delete %+v", sets)
	}
}

// lostAt is the moves of a revision that deleted the items at offs.
func lostAt(offs []int64) []ItemMove {
	var mv []ItemMove
	for _, o := range offs {
		mv = append(mv, ItemMove{Old: o, Lost: "deleted"})
	}
	return mv
}

func TestFollowTargetMembers(t *testing.T) {
	// Members at 0, 10, 20, 30, 40 (revision 1); revision 2 is the splice.
	type m struct{ off, rev, deleted int64 }
	tests := []struct {
		name                  string
		start, oldEnd, newEnd int64
		deleted               []int64
		want                  []m
	}{
		{"replace inside item 20 (shrinks)", 20, 30, 25, nil,
			[]m{{0, 2, 0}, {10, 2, 0}, {20, 2, 0}, {25, 2, 0}, {35, 2, 0}}},
		{"replace inside item 20 (grows)", 22, 25, 29, nil,
			[]m{{0, 2, 0}, {10, 2, 0}, {20, 2, 0}, {34, 2, 0}, {44, 2, 0}}},
		{"insert before item 20", 20, 20, 27, nil,
			[]m{{0, 2, 0}, {10, 2, 0}, {27, 2, 0}, {37, 2, 0}, {47, 2, 0}}},
		{"insert at the end", 50, 50, 60, nil,
			[]m{{0, 2, 0}, {10, 2, 0}, {20, 2, 0}, {30, 2, 0}, {40, 2, 0}}},
		{"delete items 20 and 30", 20, 40, 20, []int64{20, 30},
			[]m{{0, 2, 0}, {10, 2, 0}, {20, 1, 2}, {20, 2, 0}, {30, 1, 2}}},
		{"replace item 10 by two items", 10, 20, 35, []int64{10},
			[]m{{0, 2, 0}, {10, 1, 2}, {35, 2, 0}, {45, 2, 0}, {55, 2, 0}}},
		{"delete the first item", 0, 10, 0, []int64{0},
			[]m{{0, 1, 2}, {0, 2, 0}, {10, 2, 0}, {20, 2, 0}, {30, 2, 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := openTest(t)
			ctx := context.Background()
			b := newBook(t, s, "/r.md", strings.Repeat("x", 50))
			ts, err := s.CreateTargetSet(ctx, b.doc, "all")
			if err != nil {
				t.Fatal(err)
			}
			var add []TargetMember
			for _, off := range []int64{0, 10, 20, 30, 40} {
				add = append(add, TargetMember{ByteOffset: off, Rev: 1})
			}
			if _, err := s.AddTargetMembers(ctx, ts.ID, add); err != nil {
				t.Fatal(err)
			}
			if err := s.FollowTargetMembers(ctx, b.doc, 2, tt.start, tt.oldEnd, tt.newEnd, lostAt(tt.deleted), nil); err != nil {
				t.Fatal(err)
			}
			got, err := s.TargetMembers(ctx, ts.ID)
			if err != nil {
				t.Fatal(err)
			}
			var gm []m
			for _, x := range got {
				gm = append(gm, m{x.ByteOffset, x.Rev, x.DeletedInRev})
			}
			if !reflect.DeepEqual(gm, tt.want) {
				t.Errorf("members %v\nwant    %v", gm, tt.want)
			}
			// A later edit moves only alive members; deleted ones stay as they were.
			if err := s.FollowTargetMembers(ctx, b.doc, 3, 0, 0, 1, nil, nil); err != nil {
				t.Fatal(err)
			}
			again, _ := s.TargetMembers(ctx, ts.ID)
			for i, x := range again {
				if x.DeletedInRev != 0 && (x.ByteOffset != got[i].ByteOffset || x.Rev != got[i].Rev) {
					t.Errorf("deleted member moved: %+v → %+v", got[i], x)
				}
				if x.DeletedInRev == 0 && x.Rev != 3 {
					t.Errorf("alive member not at revision 3: %+v", x)
				}
			}
		})
	}

	t.Run("members landing on the same offset merge", func(t *testing.T) {
		s, _ := openTest(t)
		ctx := context.Background()
		b := newBook(t, s, "/r.md", strings.Repeat("x", 50))
		ts, _ := s.CreateTargetSet(ctx, b.doc, "all")
		if _, err := s.AddTargetMembers(ctx, ts.ID, []TargetMember{{ByteOffset: 15, Label: "first"}, {ByteOffset: 25, Label: "second"}}); err != nil {
			t.Fatal(err)
		}
		// [10,20) shrinks to nothing: 15 is kept, 25 moves to 15.
		if err := s.FollowTargetMembers(ctx, b.doc, 2, 10, 20, 10, nil, nil); err != nil {
			t.Fatal(err)
		}
		got, _ := s.TargetMembers(ctx, ts.ID)
		if len(got) != 1 || got[0].ByteOffset != 15 || got[0].Label != "first" {
			t.Errorf("members %+v", got)
		}
	})
	t.Run("two members swapped, one cut and pasted back", func(t *testing.T) {
		s, _ := openTest(t)
		ctx := context.Background()
		b := newBook(t, s, "/r.md", strings.Repeat("x", 50))
		ts, _ := s.CreateTargetSet(ctx, b.doc, "all")
		if _, err := s.AddTargetMembers(ctx, ts.ID, []TargetMember{{ByteOffset: 10, Label: "A", Hash: "ha"}, {ByteOffset: 20, Label: "B", Hash: "hb"}, {ByteOffset: 30, Label: "C", Hash: "hc"}}); err != nil {
			t.Fatal(err)
		}
		// Revision 2 swaps A and B ([10,30) rewritten), revision 3 cuts C,
		// revision 4 pastes C's text at 0.
		if err := s.FollowTargetMembers(ctx, b.doc, 2, 10, 30, 30, []ItemMove{{Old: 10, New: 20, Hash: "ha"}, {Old: 20, New: 10, Hash: "hb"}}, nil); err != nil {
			t.Fatal(err)
		}
		if err := s.FollowTargetMembers(ctx, b.doc, 3, 30, 40, 30, []ItemMove{{Old: 30, Lost: "deleted"}}, nil); err != nil {
			t.Fatal(err)
		}
		if err := s.FollowTargetMembers(ctx, b.doc, 4, 0, 0, 10, nil, []MadeItem{{Start: 0, Hash: "hc"}, {Start: 5, Hash: "unknown"}}); err != nil {
			t.Fatal(err)
		}
		got, _ := s.TargetMembers(ctx, ts.ID)
		var gm []string
		for _, x := range got {
			gm = append(gm, fmt.Sprintf("%s@%d r%d d%d", x.Label, x.ByteOffset, x.Rev, x.DeletedInRev))
		}
		if strings.Join(gm, " ") != "C@0 r4 d0 B@20 r4 d0 A@30 r4 d0" {
			t.Errorf("members %v", gm)
		}
	})
	t.Run("bad splice", func(t *testing.T) {
		s, _ := openTest(t)
		if err := s.FollowTargetMembers(context.Background(), 1, 2, 10, 5, 10, nil, nil); !errors.Is(err, ErrInvalid) {
			t.Errorf("err = %v", err)
		}
	})
}

func TestCursors(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	b := newBook(t, s, "/c.md", "text")
	c := CursorState{DocID: b.doc, Name: "pass1", Forward: true, MaxElements: 20, MaxBytes: 4000, IncludeContent: true, NextIndex: 0, NextOffset: 0, Rev: 1}
	if err := s.SaveCursor(ctx, c); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveCursor(ctx, CursorState{DocID: b.doc, Name: "back", MaxElements: 5, NextIndex: 9, NextOffset: -1}); err != nil {
		t.Fatal(err)
	}
	c.NextIndex, c.NextOffset, c.Rev, c.Complete = 20, 3, 2, true
	if err := s.SaveCursor(ctx, c); err != nil { // upsert
		t.Fatal(err)
	}
	got, ok, err := s.Cursor(ctx, b.doc, "pass1")
	if err != nil || !ok || got.UpdatedAt.IsZero() {
		t.Fatalf("Cursor = %+v %v %v", got, ok, err)
	}
	got.UpdatedAt = c.UpdatedAt
	if got != c {
		t.Errorf("Cursor = %+v, want %+v", got, c)
	}
	if _, ok, err := s.Cursor(ctx, b.doc, "nope"); err != nil || ok {
		t.Errorf("unknown cursor: %v %v", ok, err)
	}
	all, err := s.Cursors(ctx, b.doc)
	if err != nil || len(all) != 2 || all[0].Name != "back" || all[1].Name != "pass1" || all[0].NextOffset != -1 {
		t.Errorf("Cursors = %+v %v", all, err)
	}
	if err := s.SaveCursor(ctx, CursorState{DocID: 777, Name: "x"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("cursor of unknown document: err = %v", err)
	}
	if err := s.SaveCursor(ctx, CursorState{DocID: b.doc}); !errors.Is(err, ErrInvalid) {
		t.Errorf("cursor without name: err = %v", err)
	}
}

func TestEvents(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	b := newBook(t, s, "/e.md", "e")
	steps := []struct {
		kind string
		doc  int64
		data any
	}{
		{"document_open", b.doc, map[string]any{"path": "/e.md"}},
		{"edit", b.doc, map[string]any{"op": "ReplaceText", "revision": 2}},
		{"app_start", 0, nil},
		{"edit", b.doc, map[string]any{"op": "Delete", "revision": 3}},
		{"edit", 99, []int{1, 2}}, // a document id that does not exist is still logged
	}
	for _, st := range steps {
		if err := s.LogEvent(ctx, st.kind, st.doc, st.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.LogEvent(ctx, "bad", 0, func() {}); err == nil {
		t.Error("unmarshalable data accepted")
	}
	all, err := s.Events(ctx, "", 0)
	if err != nil || len(all) != len(steps) {
		t.Fatalf("Events = %d %v", len(all), err)
	}
	for i, e := range all {
		if e.Kind != steps[i].kind || e.DocID != steps[i].doc || e.CreatedAt.IsZero() || (i > 0 && e.ID <= all[i-1].ID) {
			t.Errorf("event %d = %+v", i, e)
		}
	}
	if string(all[2].Data) != "null" {
		t.Errorf("nil data stored as %s", all[2].Data)
	}
	edits, err := s.Events(ctx, "edit", 2) // the newest two, newest last
	if err != nil || len(edits) != 2 {
		t.Fatalf("Events(edit, 2) = %v %v", edits, err)
	}
	var d map[string]any
	if err := json.Unmarshal(edits[0].Data, &d); err != nil || d["op"] != "Delete" || edits[1].DocID != 99 {
		t.Errorf("edits = %s, %+v", edits[0].Data, edits[1])
	}
}

func TestSettingsAndAgentState(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	if _, ok, err := s.Setting(ctx, "model"); err != nil || ok {
		t.Errorf("unset setting: %v %v", ok, err)
	}
	for _, v := range []string{"small", "large", ""} {
		if err := s.SetSetting(ctx, "model", v); err != nil {
			t.Fatal(err)
		}
		if got, ok, err := s.Setting(ctx, "model"); err != nil || !ok || got != v {
			t.Errorf("Setting = %q %v %v, want %q", got, ok, err, v)
		}
	}
	if err := s.SetSetting(ctx, "", "x"); !errors.Is(err, ErrInvalid) {
		t.Errorf("empty key: err = %v", err)
	}

	_, err := s.AgentState(ctx, "task-42")
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "task-42") {
		t.Errorf("unknown task: err = %v", err)
	}
	if err := s.SaveAgentState(ctx, "task-42", "rewrite", map[string]int{"step": 1}); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveAgentState(ctx, "task-42", "rewrite", map[string]int{"step": 2}); err != nil {
		t.Fatal(err)
	}
	a, err := s.AgentState(ctx, "task-42")
	if err != nil || a.Kind != "rewrite" || string(a.Data) != `{"step":2}` || a.UpdatedAt.IsZero() {
		t.Errorf("AgentState = %+v (%s) %v", a, a.Data, err)
	}
}
