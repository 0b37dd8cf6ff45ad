package document

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Pointer addresses one item at one revision. The semantic part (nearest heading,
// line, character offset) is what a person or a model reads; the revision and byte
// offset let Waymark re-base a pointer taken before later edits, so a pointer stays
// valid while the book changes elsewhere.
type Pointer struct {
	Rev          int64  // revision the offsets refer to
	Byte         int    // byte offset of the item's first byte
	Line         int    // 0-based line of the item's first byte
	Char         int    // 0-based character (rune) offset of the item's first byte
	Index        int    // linear index; -1 for a purely semantic pointer
	Heading      string // text of the nearest heading at or before the item ("" if none)
	HeadingLevel int    // its level, 0 if none
	Label        string // pointerLabel, e.g. "H2.p42"
}

// Serialize returns the compact form "r<rev>:l<line>:c<char>:b<byte>[:i<index>]",
// which ParsePointer reads back.
func (p Pointer) Serialize() string {
	s := "r" + strconv.FormatInt(p.Rev, 10)
	if p.Line >= 0 {
		s += ":l" + strconv.Itoa(p.Line)
	}
	if p.Char >= 0 {
		s += ":c" + strconv.Itoa(p.Char)
	}
	s += ":b" + strconv.Itoa(p.Byte)
	if p.Index >= 0 {
		s += ":i" + strconv.Itoa(p.Index)
	}
	return s
}

// String is Serialize, so pointers print usefully in logs and errors.
func (p Pointer) String() string { return p.Serialize() }

// pointerForm describes the accepted forms in every pointer error.
const pointerForm = `a pointer is "r<revision>:l<line>:c<char>:b<byte>[:i<index>]" (e.g. "r3:l120:c5310:b9876:i42") or a JSON object {"serialized": "...", ...} as returned by Read, Find and CursorNext`

// ParsePointer reads the compact form. The r and b parts are required; a missing
// l, c or i part is -1 (not checked). Resolve checks every part given.
func ParsePointer(s string) (Pointer, error) {
	p := Pointer{Index: -1, Line: -1, Char: -1}
	s = strings.TrimSpace(s)
	if s == "" {
		return p, fmt.Errorf("%w: empty pointer; %s", ErrPointer, pointerForm)
	}
	seen := map[byte]bool{}
	for _, part := range strings.Split(s, ":") {
		if len(part) < 2 {
			return p, fmt.Errorf("%w: malformed pointer %q (part %q); %s", ErrPointer, s, part, pointerForm)
		}
		k := part[0]
		v, err := strconv.ParseInt(part[1:], 10, 64)
		if err != nil || v < 0 {
			return p, fmt.Errorf("%w: malformed pointer %q (part %q is not a non-negative number); %s", ErrPointer, s, part, pointerForm)
		}
		if seen[k] {
			return p, fmt.Errorf("%w: malformed pointer %q (%q given twice); %s", ErrPointer, s, string(k), pointerForm)
		}
		seen[k] = true
		switch k {
		case 'r':
			p.Rev = v
		case 'l':
			p.Line = int(v)
		case 'c':
			p.Char = int(v)
		case 'b':
			p.Byte = int(v)
		case 'i':
			p.Index = int(v)
		default:
			return p, fmt.Errorf("%w: malformed pointer %q (unknown part %q); %s", ErrPointer, s, part, pointerForm)
		}
	}
	for _, k := range []byte{'r', 'b'} {
		if !seen[k] {
			return p, fmt.Errorf("%w: malformed pointer %q (missing %q part); %s", ErrPointer, s, string(k), pointerForm)
		}
	}
	return p, nil
}

// PointerJSON is the JSON shape of a pointer in every tool result.
type PointerJSON struct {
	Serialized   string  `json:"serialized"`
	Heading      *string `json:"heading"`
	HeadingLevel int     `json:"headingLevel,omitempty"`
	LineIndex    int     `json:"lineIndex"`
	CharOffset   int     `json:"charOffset"`
	ByteOffset   int     `json:"byteOffset"`
	Revision     int64   `json:"revision"`
	Index        *int    `json:"index,omitempty"`
	Label        string  `json:"label"`
}

// MarshalJSON writes the pointer object of the CLI/MCP contract.
func (p Pointer) MarshalJSON() ([]byte, error) {
	j := PointerJSON{Serialized: p.Serialize(), HeadingLevel: p.HeadingLevel, LineIndex: p.Line,
		CharOffset: p.Char, ByteOffset: p.Byte, Revision: p.Rev, Label: p.Label}
	if p.HeadingLevel > 0 {
		h := p.Heading
		j.Heading = &h
	}
	if p.Index >= 0 {
		i := p.Index
		j.Index = &i
	}
	return json.Marshal(j)
}

// UnmarshalJSON accepts the serialized string or the object form.
func (p *Pointer) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		q, err := ParsePointer(s)
		if err != nil {
			return err
		}
		*p = q
		return nil
	}
	var j PointerJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return fmt.Errorf("%w: %s", ErrPointer, pointerForm)
	}
	if j.Serialized == "" {
		return fmt.Errorf("%w: pointer object has no \"serialized\" field; %s", ErrPointer, pointerForm)
	}
	q, err := ParsePointer(j.Serialized)
	if err != nil {
		return err
	}
	*p = q
	return nil
}

// Label returns the pointerLabel of item i: "H<level>.p<index>" under a heading,
// "p<index>" before the first heading.
func (d *Document) Label(i int) string {
	if h := d.HeadingOf(i); h >= 0 {
		return "H" + strconv.Itoa(d.items[h].Level) + ".p" + strconv.Itoa(i)
	}
	return "p" + strconv.Itoa(i)
}

// PointerTo returns the current pointer of item i.
func (d *Document) PointerTo(i int) Pointer {
	it := &d.items[i]
	p := Pointer{Rev: d.rev, Byte: it.Start, Line: it.Line, Char: it.Rune, Index: i, Label: d.Label(i)}
	if h := d.HeadingOf(i); h >= 0 {
		p.Heading = d.Text(h)
		p.HeadingLevel = d.items[h].Level
	}
	return p
}

// Rebase maps a byte offset taken at revision rev to the current source. It fails
// when the item there was deleted (naming the revision) or rewritten.
func (d *Document) Rebase(rev int64, off int) (int, error) {
	off, _, _, err := d.rebase(rev, off, 0, 0)
	return off, err
}

// rebase is Rebase that also carries the line and character offset of the same
// position across the changes.
func (d *Document) rebase(rev int64, off, line, char int) (int, int, int, error) {
	fail := func(err error) (int, int, int, error) { return 0, 0, 0, err }
	if rev > d.rev {
		return fail(fmt.Errorf("%w: pointer is from revision %d but the document is at revision %d; it does not belong to this document's history", ErrPointer, rev, d.rev))
	}
	if rev < d.baseRev {
		return fail(fmt.Errorf("%w: pointer is from revision %d, older than the history kept for this document (from revision %d); find the item again", ErrPointer, rev, d.baseRev))
	}
	for _, c := range d.changes {
		if c.Rev <= rev {
			continue
		}
		delta := c.NewEnd - c.OldEnd
		switch {
		case c.OldEnd == c.Start: // a pure insertion: whatever starts at or after it moves
			if off >= c.Start {
				off, line, char = off+delta, line+c.DLines, char+c.DRunes
			}
		case off < c.Start:
		case off >= c.OldEnd:
			off, line, char = off+delta, line+c.DLines, char+c.DRunes
		case c.Removes:
			return fail(fmt.Errorf("%w: the item this pointer addressed was deleted in revision %d", ErrDeleted, c.Rev))
		case off == c.Start:
			// The item itself was rewritten in place; it keeps its start.
		default:
			return fail(fmt.Errorf("%w: the item this pointer addressed was rewritten in revision %d", ErrDeleted, c.Rev))
		}
	}
	return off, line, char, nil
}

// RebaseRange maps the byte range [start, end) of the text at revision rev to
// the current text, so an edit made at rev can be undone after later edits
// elsewhere. It fails when a later change touched the range (an insertion at
// either edge leaves it whole) or rev is older than the history kept.
func (d *Document) RebaseRange(rev int64, start, end int) (int, int, error) {
	if rev > d.rev || rev < d.baseRev {
		return 0, 0, fmt.Errorf("%w: revision %d is outside the history kept (%d..%d)", ErrPointer, rev, d.baseRev, d.rev)
	}
	for _, c := range d.changes {
		if c.Rev <= rev {
			continue
		}
		delta := c.NewEnd - c.OldEnd
		switch {
		case c.OldEnd <= start:
			start, end = start+delta, end+delta
		case c.Start >= end:
		default:
			return 0, 0, fmt.Errorf("%w: revision %d changed the same text", ErrDeleted, c.Rev)
		}
	}
	return start, end, nil
}

// SpanSince maps the byte range [start, end) of the text at revision rev to
// the current text, widened over every later change that touched it, so that
// what became of a paragraph since then can be shown whole.
func (d *Document) SpanSince(rev int64, start, end int) (int, int) {
	for _, c := range d.changes {
		if c.Rev <= rev {
			continue
		}
		delta := c.NewEnd - c.OldEnd
		switch {
		case c.OldEnd <= start && !(c.OldEnd == start && c.Start == start && c.Start == end):
			start, end = start+delta, end+delta
		case c.Start >= end:
		default:
			start, end = min(start, c.Start), max(end+delta, c.NewEnd)
		}
	}
	return start, end
}

// Resolve returns the current index of the item a pointer addresses. Every part
// the pointer gives must agree: its byte offset must be an item's start, its line
// and character offset (re-based like the byte offset) that item's, and its index
// — when the pointer is of the current revision — that item's index. A pointer
// whose parts disagree (edited by hand, or forged) is refused, never guessed at.
func (d *Document) Resolve(p Pointer) (int, error) {
	off, line, char, err := d.rebase(p.Rev, p.Byte, p.Line, p.Char)
	if err != nil {
		return 0, err
	}
	i, ok := d.IndexAt(off)
	if !ok {
		return 0, fmt.Errorf("%w: no item starts at byte %d (pointer %s re-based to revision %d); %s", ErrPointer, off, p.Serialize(), d.rev, pointerForm)
	}
	it := &d.items[i]
	var bad []string
	if p.Line >= 0 && line != it.Line {
		bad = append(bad, fmt.Sprintf("line %d (the item at byte %d is on line %d)", p.Line, p.Byte, p.Line+it.Line-line))
	}
	if p.Char >= 0 && char != it.Rune {
		bad = append(bad, fmt.Sprintf("character offset %d (the item at byte %d starts at character %d)", p.Char, p.Byte, p.Char+it.Rune-char))
	}
	if p.Index >= 0 && p.Rev == d.rev && p.Index != i {
		bad = append(bad, fmt.Sprintf("index %d (the item at byte %d is item %d)", p.Index, p.Byte, i))
	}
	if len(bad) > 0 {
		return 0, fmt.Errorf("%w: the parts of pointer %s disagree: byte offset %d names %s %s, but the pointer says %s; nothing was done — use a pointer exactly as Read, Find or CursorNext returned it", ErrPointer, p.Serialize(), p.Byte, it.Type, d.Label(i), strings.Join(bad, " and "))
	}
	return i, nil
}

// ResolveIndex checks a linear index given directly.
func (d *Document) ResolveIndex(i int) (int, error) {
	if i < 0 || i >= len(d.items) {
		if len(d.items) == 0 {
			return 0, fmt.Errorf("%w: item index %d: the document has no items", ErrPointer, i)
		}
		return 0, fmt.Errorf("%w: item index %d is out of range; the document has items 0..%d", ErrPointer, i, len(d.items)-1)
	}
	return i, nil
}
