package document

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"unicode"
)

// Lost says why an item could not be followed across an edit.
type Lost string

// The reasons an item is not found after an edit.
const (
	// LostDeleted: its text was removed.
	LostDeleted Lost = "deleted"
	// LostRewritten: its text changed so much that no item after the edit
	// is it (another program rewrote it, say).
	LostRewritten Lost = "rewritten"
)

// Followed is where an item of the text before an edit is after it.
type Followed struct {
	Start int    // the item's first byte after the edit (when Lost is "")
	Hash  string // ContentHash of the item after the edit (when Lost is "")
	Lost  Lost
}

// Follow finds, after the edit, each item that started at one of starts
// before it — what TargetSet members do, so that a member is its item
// wherever the edit moved it, and never its neighbour. An item the edit left
// alone keeps its place (moved by the edit's change in length when after it).
// An item the edit replaced (typing that cut a paragraph and pasted it
// elsewhere, two paragraphs swapped, another program's rewrite) is found among
// the items the edit made: by the same Markdown (nearest its old place when
// several have it), else rewritten in place (an item starting where it
// started), else holding its whole text (two paragraphs joined); else it is
// lost. A start that is no item's start is lost as rewritten.
func (e *Edit) Follow(starts []int) []Followed {
	d := e.d
	delta := len(e.New) - (e.OldEnd - e.Start)
	out := make([]Followed, len(starts))
	replaced := map[int]int{} // old start → its position in e.deleted
	for k, i := range e.deleted {
		replaced[d.items[i].Start] = k
	}
	match := e.matchReplaced()
	for k, st := range starts {
		i, ok := d.IndexAt(st)
		if !ok {
			out[k] = Followed{Lost: LostRewritten}
			continue
		}
		r, isReplaced := replaced[st]
		if !isReplaced {
			n := st
			if st >= e.Start {
				n += delta
			}
			out[k] = Followed{Start: n, Hash: ContentHash(d.src[st:d.items[i].End])}
			continue
		}
		switch m := match[r]; {
		case m >= 0:
			it := &e.mid[m]
			out[k] = Followed{Start: it.Start, Hash: ContentHash(e.newBytes(it.Start, it.End))}
		case e.Op == "Delete" || len(e.mid) == 0:
			out[k] = Followed{Lost: LostDeleted}
		default:
			out[k] = Followed{Lost: LostRewritten}
		}
	}
	return out
}

// Replaced returns the first bytes of the items of the text before the edit
// that it replaced (rewrote, removed or moved): the items Follow looks for.
func (e *Edit) Replaced() []int {
	out := make([]int, len(e.deleted))
	for k, i := range e.deleted {
		out[k] = e.d.items[i].Start
	}
	return out
}

// matchReplaced pairs each item the edit replaced (by its position in
// e.deleted) with the item it became (a position in e.mid), or -1.
func (e *Edit) matchReplaced() []int {
	d := e.d
	delta := len(e.New) - (e.OldEnd - e.Start)
	match := make([]int, len(e.deleted))
	claimed := make([]bool, len(e.mid))
	byText := map[string][]int{}
	for m := range e.mid {
		it := &e.mid[m]
		byText[string(e.newBytes(it.Start, it.End))] = append(byText[string(e.newBytes(it.Start, it.End))], m)
	}
	expected := func(st int) int { // where an unmoved item would be now
		if st >= e.Start {
			return st + delta
		}
		return st
	}
	// The same Markdown, nearest where it was.
	for r, i := range e.deleted {
		match[r] = -1
		it := &d.items[i]
		best, bestDist := -1, 0
		for _, m := range byText[string(d.src[it.Start:it.End])] {
			if claimed[m] {
				continue
			}
			dist := e.mid[m].Start - expected(it.Start)
			if dist < 0 {
				dist = -dist
			}
			if best < 0 || dist < bestDist {
				best, bestDist = m, dist
			}
		}
		if best >= 0 {
			match[r], claimed[best] = best, true
		}
	}
	// Rewritten in place: an item the edit made starts where it started.
	for r, i := range e.deleted {
		if match[r] >= 0 {
			continue
		}
		st := d.items[i].Start
		var at []int // where it would start now: before the change, or after it
		if st <= e.Start {
			at = append(at, st)
		}
		if st >= e.OldEnd {
			at = append(at, st+delta)
		}
	inPlace:
		for _, p := range at {
			for m := range e.mid {
				if !claimed[m] && e.mid[m].Start == p {
					match[r], claimed[m] = m, true
					break inPlace
				}
			}
		}
	}
	// Joined into another: one item the edit made holds its whole text.
	for r, i := range e.deleted {
		if match[r] >= 0 {
			continue
		}
		old := bytes.TrimSpace(d.src[d.items[i].Start:d.items[i].End])
		if !Distinctive(old) {
			continue
		}
		found := -1
		for m := range e.mid {
			if bytes.Contains(e.newBytes(e.mid[m].Start, e.mid[m].End), old) {
				if found >= 0 {
					found = -2
					break
				}
				found = m
			}
		}
		if found >= 0 {
			match[r] = found
		}
	}
	return match
}

// Made lists the items the edit made that are no replaced item's
// continuation: new text, where something lost earlier may come back (a
// paragraph cut, then pasted): their starts and content hashes.
func (e *Edit) Made() (starts []int, hashes []string) {
	match := e.matchReplaced()
	taken := make([]bool, len(e.mid))
	for _, m := range match {
		if m >= 0 {
			taken[m] = true
		}
	}
	for m := range e.mid {
		if taken[m] {
			continue
		}
		b := e.newBytes(e.mid[m].Start, e.mid[m].End)
		if Distinctive(b) {
			starts = append(starts, e.mid[m].Start)
			hashes = append(hashes, ContentHash(b))
		}
	}
	return starts, hashes
}

// newBytes returns bytes [s, t) of the text after the edit.
func (e *Edit) newBytes(s, t int) []byte {
	src := e.d.src
	head, mid := e.Start, e.Start+len(e.New)
	var b []byte
	for p := s; p < t; {
		switch {
		case p < head:
			q := min(t, head)
			b = append(b, src[p:q]...)
			p = q
		case p < mid:
			q := min(t, mid)
			b = append(b, e.New[p-head:q-head]...)
			p = q
		default:
			off := e.OldEnd - mid
			b = append(b, src[p+off:t+off]...)
			p = t
		}
	}
	return b
}

// ContentHash names an item's Markdown, so that an item lost by one edit can
// be known again when a later one brings the same text back.
func ContentHash(md []byte) string {
	h := sha256.Sum256(md)
	return hex.EncodeToString(h[:12])
}

// Distinctive tells whether a piece of Markdown says enough to be known
// again by its text alone: eight bytes or more, with letters or digits (not a
// rule, an empty cell or a lone dash).
func Distinctive(md []byte) bool {
	md = bytes.TrimSpace(md)
	if len(md) < 8 {
		return false
	}
	return bytes.IndexFunc(md, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
}
