package document

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// undoSplice reverses an applied edit as Undo does: the inverse splice by its
// neighbours, or — when it reaches past them — by re-reading the whole source.
func undoSplice(d *Document, r EditResult, old []byte) error {
	e, err := d.PlanSplice("Undo", r.Change.Start, r.Change.NewEnd, old, false)
	if err != nil {
		e, err = d.PlanSpliceWide("Undo", r.Change.Start, r.Change.NewEnd, old, false)
	}
	if err != nil {
		return err
	}
	e.Apply()
	return nil
}

// TestCommonMarkEditsAreUndone is the undo property of issue 19 (point 5) on
// every CommonMark example: random edits of their items, each reversed by its
// inverse splice, give back the exact bytes and the items of a full parse.
func TestCommonMarkEditsAreUndone(t *testing.T) {
	ex := loadCommonMark(t)
	rng := rand.New(rand.NewPCG(19, 5))
	mds := []string{"x", "", "a | b", "- item", "two\nlines", "> q", "```", "# h", "[^1]", "<div>"}
	accepted, failed := 0, 0
	for _, x := range ex {
		d := Parse([]byte(x.Markdown), 1)
		for k := 0; k < 4 && d.Len() > 0; k++ {
			i := rng.IntN(d.Len())
			md := mds[rng.IntN(len(mds))]
			var e *Edit
			var err error
			op := rng.IntN(4)
			switch op {
			case 0:
				e, err = d.PlanReplaceText(i, md)
			case 1:
				e, err = d.PlanInsertAfter(i, md)
			case 2:
				e, err = d.PlanInsertBefore(i, md)
			default:
				e, err = d.PlanDelete(i)
			}
			if err != nil {
				continue
			}
			accepted++
			before := string(d.Source())
			old := append([]byte(nil), e.Old...)
			r := e.Apply()
			if err := undoSplice(d, r, old); err != nil || string(d.Source()) != before {
				failed++
				t.Errorf("example %d, edit %d of item %d with %q: undo: %v", x.Example, op, i, md, err)
				d = Parse([]byte(before), 1)
				continue
			}
			if !t.Run(fmt.Sprintf("example %d", x.Example), func(t *testing.T) { consistent(t, d) }) {
				t.Logf("example %d %q, edit %d of item %d with %q", x.Example, x.Markdown, op, i, md)
				d = Parse(d.Source(), 1)
			}
		}
	}
	t.Logf("%d edits of CommonMark examples accepted, %d not undone", accepted, failed)
	if accepted < 500 {
		t.Fatal(fmt.Sprintf("only %d edits accepted: the property was hardly tried", accepted))
	}
}
