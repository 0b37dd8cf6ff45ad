package manuscript

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/waymark/waymark/backend/document"
)

func revOf(m *Manuscript) (rev int64) {
	_ = m.Do(func(d *document.Document) error { rev = d.Rev(); return nil })
	return rev
}

// TestApplySplice is typing from the editor: applied against the revision the
// editor holds, refused (with nothing written) when out of range.
func TestApplySplice(t *testing.T) {
	ctx := context.Background()
	f := setup(t, book)
	rev := revOf(f.m)
	at := strings.Index(book, "Second")
	cases := []struct {
		name       string
		base       int64
		start, end int
		text       string
		words      string
	}{
		{"past the end", rev, len(book) - 1, len(book) + 5, "x", ""},
		{"backwards", rev, at + 6, at, "x", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := f.m.ApplySplice(ctx, c.base, nil, c.start, c.end, []byte(c.text)); err == nil || !strings.Contains(err.Error(), c.words) {
				t.Fatalf("ApplySplice: %v, want an error saying %q", err, c.words)
			}
			if got := f.file(t); got != book {
				t.Fatalf("a refused splice changed the file: %q", got)
			}
		})
	}
	out, err := f.m.ApplySplice(ctx, rev, nil, at, at+len("Second"), []byte("Другой"))
	if err != nil {
		t.Fatal(err)
	}
	if out.Rev <= rev || !strings.Contains(f.file(t), "Другой paragraph.") {
		t.Fatalf("splice: %+v, file %q", out, f.file(t))
	}
	// Typing may cross items and change the outline (the author typed it).
	at = strings.Index(f.file(t), "## Two")
	if _, err := f.m.ApplySplice(ctx, out.Rev, nil, at, at+2, []byte("#")); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(f.file(t), "\n# Two\n") {
		t.Fatalf("heading level typed: %q", f.file(t))
	}
}

// TestHistoryRestore lists revisions newest first and restores an old text as
// a new revision, so nothing is lost.
func TestHistoryRestore(t *testing.T) {
	ctx := context.Background()
	f := setup(t, book)
	first := revOf(f.m)
	f.replace(t, 1, "Changed once.")
	f.replace(t, 1, "Changed twice.")
	revs, err := f.m.History(ctx, 0)
	if err != nil || len(revs) < 3 {
		t.Fatalf("history: %v %v", revs, err)
	}
	for i := 1; i < len(revs); i++ {
		if revs[i-1].Rev <= revs[i].Rev {
			t.Fatalf("not newest first: %+v", revs)
		}
	}
	if two, _ := f.m.History(ctx, 2); len(two) != 2 {
		t.Fatalf("limit 2 gave %d", len(two))
	}
	if _, err := f.m.Restore(ctx, 12345); err == nil {
		t.Fatal("an unknown revision was restored")
	}
	out, err := f.m.Restore(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	if f.file(t) != book || out.Rev <= revs[0].Rev {
		t.Fatalf("restore of %d: %+v, file %q", first, out, f.file(t))
	}
	// The restore is one more revision: the edited texts stay in the history.
	if after, _ := f.m.History(ctx, 0); len(after) != len(revs)+1 {
		t.Fatalf("the restore is not a revision: %d then %d", len(revs), len(after))
	}
}

// TestExternalChange: another program writes the file; Waymark notices, and
// either takes their text (reload) or writes its own back (keep mine) — both
// versions stay in the history.
func TestExternalChange(t *testing.T) {
	ctx := context.Background()
	for _, choice := range []string{"reload", "keep mine"} {
		t.Run(choice, func(t *testing.T) {
			f := setup(t, book)
			if st := f.m.CheckDisk(); st.Changed {
				t.Fatalf("fresh file reported changed: %+v", st)
			}
			theirs := strings.Replace(book, "Third paragraph.", "Their paragraph.", 1)
			time.Sleep(10 * time.Millisecond) // a later modification time
			if err := os.WriteFile(f.path, []byte(theirs), 0o644); err != nil {
				t.Fatal(err)
			}
			before, _ := f.m.History(ctx, 0)
			// The look takes the other program's version in and says so.
			st := f.m.CheckDisk()
			if st.Changed || st.Missing || len(st.Merged) != 1 || !st.Merged[0].Outside || st.Note != "Another program changed “Two”; your text is kept." {
				t.Fatalf("external write not taken in: %+v", st)
			}
			if d, err := f.m.DiskText(); err != nil || string(d) != theirs {
				t.Fatalf("disk text: %v", err)
			}
			var err error
			want := theirs
			if choice == "reload" {
				_, err = f.m.ReloadFromDisk(ctx)
			} else {
				// Keeping Waymark's version is a restore of the revision before.
				_, err = f.m.Restore(ctx, before[0].Rev)
				want = book
			}
			if err != nil {
				t.Fatal(err)
			}
			if f.file(t) != want {
				t.Fatalf("file after %s: %q", choice, f.file(t))
			}
			if st := f.m.CheckDisk(); st.Changed || len(st.Merged) != 0 {
				t.Fatalf("still reported changed after %s: %+v", choice, st)
			}
			after, _ := f.m.History(ctx, 0)
			if len(after) <= len(before) {
				t.Fatalf("%s left no revision", choice)
			}
			// Their version is in the history either way.
			found := false
			for _, r := range after {
				if r.Op == "external" {
					found = true
				}
			}
			if !found {
				t.Fatalf("their version is not in the history: %+v", after)
			}
		})
	}
	t.Run("file removed, keep mine writes it back", func(t *testing.T) {
		f := setup(t, book)
		if err := os.Remove(f.path); err != nil {
			t.Fatal(err)
		}
		if st := f.m.CheckDisk(); !st.Missing {
			t.Fatalf("removal not noticed: %+v", st)
		}
		if _, err := f.m.KeepMine(ctx); err != nil {
			t.Fatal(err)
		}
		if f.file(t) != book {
			t.Fatalf("not written back: %q", f.file(t))
		}
	})
}

// TestTargetSetRemoveDelete trims and deletes a set; bad ids and indices are
// clear errors that leave the set as it was.
func TestTargetSetRemoveDelete(t *testing.T) {
	ctx := context.Background()
	f := setup(t, book)
	ts, err := f.m.CreateTargetSet(ctx, "paras")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.m.AddToTargetSet(ctx, ts.ID, nil, []int{1, 2}); err != nil {
		t.Fatal(err)
	}
	if err := f.m.RemoveFromTargetSet(ctx, ts.ID, 5); err == nil {
		t.Fatal("an index not in the set was removed")
	}
	if err := f.m.RemoveFromTargetSet(ctx, "nope", 1); err == nil {
		t.Fatal("an unknown set was trimmed")
	}
	if v, _ := f.m.TargetSet(ctx, ts.ID); len(v.ItemIndices) != 2 {
		t.Fatalf("refused removals changed the set: %+v", v)
	}
	if err := f.m.RemoveFromTargetSet(ctx, ts.ID, 1); err != nil {
		t.Fatal(err)
	}
	if v, _ := f.m.TargetSet(ctx, ts.ID); len(v.ItemIndices) != 1 || v.ItemIndices[0] != 2 {
		t.Fatalf("after removing 1: %+v", v)
	}
	if err := f.m.DeleteTargetSet(ctx, "nope"); err == nil {
		t.Fatal("an unknown set was deleted")
	}
	if err := f.m.DeleteTargetSet(ctx, ts.ID); err != nil {
		t.Fatal(err)
	}
	if sets, _ := f.m.TargetSets(ctx); len(sets) != 0 {
		t.Fatalf("sets after delete: %+v", sets)
	}
	if f.file(t) != book {
		t.Fatal("set operations changed the manuscript")
	}
}
