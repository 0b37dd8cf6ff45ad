package manuscript

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/waymark/waymark/backend/document"
)

const followBook = `# One

Alpha paragraph.

Bravo is a much longer paragraph than the first.

Charlie paragraph, the third one.

Delta, the last paragraph of the chapter.
`

// setTexts is the Markdown of a set's live members, in document order, and
// the quotes and reasons of its lost ones.
func setTexts(t *testing.T, f *fixture, id string) (alive []string, lost []string) {
	t.Helper()
	v, err := f.m.TargetSet(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	_ = f.m.Do(func(d *document.Document) error {
		for _, i := range v.ItemIndices {
			alive = append(alive, d.Markdown(i))
		}
		return nil
	})
	for _, dm := range v.Deleted {
		lost = append(lost, dm.Why+": "+dm.Quote)
	}
	return alive, lost
}

// typeOver is the editor saving typing that replaced bytes old (found in the
// text) by new, in one splice.
func typeOver(t *testing.T, f *fixture, old, new string) {
	t.Helper()
	var base []byte
	var rev int64
	_ = f.m.Do(func(d *document.Document) error {
		base, rev = append([]byte(nil), d.Source()...), d.Rev()
		return nil
	})
	at := bytes.Index(base, []byte(old))
	if at < 0 {
		t.Fatalf("%q is not in the text", old)
	}
	if _, err := f.m.ApplySplice(context.Background(), rev, base, at, at+len(old), []byte(new)); err != nil {
		t.Fatal(err)
	}
}

// TestTargetMembersFollowTheirItems: a TargetSet member is its item wherever
// an edit moves it (issue 19 point 6): two members swapped by typing are both
// kept, each on its own paragraph; a paragraph moved past its neighbour takes
// its member along (the member never lands on the neighbour); a member whose
// item was deleted is reported with its quote and why; a paragraph cut and
// pasted comes back into its set. On the old code the swap dropped Bravo
// (its offset fell inside Alpha) and the moved Charlie's member pointed at
// Delta.
func TestTargetMembersFollowTheirItems(t *testing.T) {
	ctx := context.Background()
	f := setup(t, followBook)
	ts, err := f.m.CreateTargetSet(ctx, "picked")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.m.AddToTargetSet(ctx, ts.ID, nil, []int{1, 2, 3}); err != nil { // Alpha, Bravo, Charlie
		t.Fatal(err)
	}
	alpha, bravo := "Alpha paragraph.", "Bravo is a much longer paragraph than the first."
	charlie, delta := "Charlie paragraph, the third one.", "Delta, the last paragraph of the chapter."

	typeOver(t, f, alpha+"\n\n"+bravo, bravo+"\n\n"+alpha)
	if got, lost := setTexts(t, f, ts.ID); strings.Join(got, "|") != bravo+"|"+alpha+"|"+charlie || len(lost) != 0 {
		t.Fatalf("after swapping Alpha and Bravo: %q lost %q", got, lost)
	}
	typeOver(t, f, charlie+"\n\n"+delta, delta+"\n\n"+charlie)
	if got, lost := setTexts(t, f, ts.ID); strings.Join(got, "|") != bravo+"|"+alpha+"|"+charlie || len(lost) != 0 {
		t.Fatalf("after moving Charlie past Delta: %q lost %q", got, lost)
	}
	// Cut Charlie: lost as deleted, named by its words; pasted back at the
	// top: in the set again.
	typeOver(t, f, "\n\n"+charlie, "")
	if got, lost := setTexts(t, f, ts.ID); strings.Join(got, "|") != bravo+"|"+alpha || strings.Join(lost, "|") != "deleted: "+charlie {
		t.Fatalf("after cutting Charlie: %q lost %q", got, lost)
	}
	typeOver(t, f, "# One\n", "# One\n\n"+charlie+"\n")
	if got, lost := setTexts(t, f, ts.ID); strings.Join(got, "|") != charlie+"|"+bravo+"|"+alpha || len(lost) != 0 {
		t.Fatalf("after pasting Charlie back: %q lost %q", got, lost)
	}
	f.reopen(t)
	if got, _ := setTexts(t, f, ts.ID); strings.Join(got, "|") != charlie+"|"+bravo+"|"+alpha {
		t.Fatalf("after reopening: %q", got)
	}
}

// TestOutsideChangeKeepsPointersAndUndo: another program rewrites the first
// and the last paragraph (one splice from the first byte it changed to the
// last); a pointer taken before it to a paragraph in between still resolves,
// Waymark's own earlier edit of that paragraph can still be undone, and a
// TargetSet member on it stays (issue 19 point 6). On the old code the
// pointer was refused ("older than the history kept" / inside the change)
// and Undo said the text was no longer there.
func TestOutsideChangeKeepsPointersAndUndo(t *testing.T) {
	ctx := context.Background()
	f := setup(t, followBook)
	f.replace(t, 3, "Charlie, edited by Waymark.")
	ts, _ := f.m.CreateTargetSet(ctx, "c")
	if _, err := f.m.AddToTargetSet(ctx, ts.ID, nil, []int{3}); err != nil {
		t.Fatal(err)
	}
	var ptr document.Pointer
	_ = f.m.Do(func(d *document.Document) error { ptr = d.PointerTo(3); return nil })

	time.Sleep(20 * time.Millisecond)
	other := strings.Replace(f.file(t), "Alpha paragraph.", "Alpha, rewritten by another editor at some length.", 1)
	other = strings.Replace(other, "Delta, the last", "Delta, the final", 1)
	if err := os.WriteFile(f.path, []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := f.m.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	err := f.m.Do(func(d *document.Document) error {
		i, err := d.Resolve(ptr)
		if err != nil {
			return err
		}
		if got := d.Markdown(i); got != "Charlie, edited by Waymark." {
			t.Errorf("the pointer names %q", got)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("a pointer to a paragraph the other program left alone: %v", err)
	}
	if got, lost := setTexts(t, f, ts.ID); strings.Join(got, "|") != "Charlie, edited by Waymark." || len(lost) != 0 {
		t.Fatalf("the set after the outside change: %q lost %q", got, lost)
	}
	if _, err := f.m.Undo(ctx); err != nil {
		t.Fatalf("undo of Waymark's own edit after the outside change: %v", err)
	}
	want := strings.Replace(other, "Charlie, edited by Waymark.", "Charlie paragraph, the third one.", 1)
	if got := f.file(t); got != want {
		t.Fatalf("after undo:\n%s\nwant\n%s", got, want)
	}
}
