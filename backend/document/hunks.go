package document

import (
	"time"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// LineHunks splits a change made as a whole — bytes old at start of the text
// before revision rev became new, by another program or a restore — into the
// runs of lines that really changed, so that pointers to the unchanged items
// between them are re-based instead of refused. Each hunk removes the items in
// it (an item inside another program's rewrite is never moved onto a
// neighbour). The hunks follow one another: each one's offsets are in the text
// after the ones before it. Without a line diff (too slow to find), it is one
// hunk: the whole change.
func LineHunks(rev int64, start int, old, new []byte) []Change {
	whole := []Change{{Rev: rev, Start: start, OldEnd: start + len(old), NewEnd: start + len(new), Removes: true,
		DLines: LineBreaks(new) - LineBreaks(old), DRunes: countRunes(new) - countRunes(old)}}
	if len(old) == 0 || len(new) == 0 {
		return whole
	}
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 250 * time.Millisecond
	a, b, lines := dmp.DiffLinesToRunes(string(old), string(new))
	diffs := dmp.DiffCharsToLines(dmp.DiffMainRunes(a, b, false), lines)
	var out []Change
	at := start // in the text after the hunks so far
	var del, ins []byte
	flush := func() {
		if len(del) == 0 && len(ins) == 0 {
			return
		}
		out = append(out, Change{Rev: rev, Start: at, OldEnd: at + len(del), NewEnd: at + len(ins), Removes: true,
			DLines: LineBreaks(ins) - LineBreaks(del), DRunes: countRunes(ins) - countRunes(del)})
		at += len(ins)
		del, ins = del[:0], ins[:0]
	}
	for _, d := range diffs {
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			flush()
			at += len(d.Text)
		case diffmatchpatch.DiffDelete:
			del = append(del, d.Text...)
		case diffmatchpatch.DiffInsert:
			ins = append(ins, d.Text...)
		}
	}
	flush()
	if at != start+len(new) || len(out) == 0 {
		return whole
	}
	return out
}

// RefineLastChange replaces the last change (of the revision the hunks
// belong to) by its hunks (LineHunks).
func (d *Document) RefineLastChange(hunks []Change) {
	n := len(d.changes)
	if n == 0 || len(hunks) == 0 || d.changes[n-1].Rev != hunks[0].Rev {
		return
	}
	d.changes = append(d.changes[:n-1], hunks...)
}
