package document

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// ContextWidth is how many elements before and after the cursor a context shows.
const ContextWidth = 2

// contextTextLimit is the number of characters of an element's text shown in a
// context line before it is cut with "...".
const contextTextLimit = 50

// element is one entry of a cursor context: an item, or a whole table shown as one.
type element struct {
	first, last int // item range (a table spans its cells)
}

// CursorContext describes the surroundings of the cursor after item cur (-1 = the
// document start) in the format of SPEC §1, so that a model or a screen-reader
// user knows where an edit landed.
func (d *Document) CursorContext(cur int) string {
	var sb strings.Builder
	if len(d.items) == 0 {
		return "Cursor: at empty document start"
	}
	if cur >= len(d.items) {
		cur = len(d.items) - 1
	}
	if cur >= 0 && d.items[cur].Type == TableCell {
		return d.cellContext(cur)
	}
	// Elements: items, with each table collapsed into one.
	elemAt := func(i int) element {
		it := &d.items[i]
		if it.Type != TableCell {
			return element{i, i}
		}
		f, l := i, i
		for f > 0 && d.items[f-1].Type == TableCell && d.items[f-1].Group == it.Group {
			f--
		}
		for l+1 < len(d.items) && d.items[l+1].Type == TableCell && d.items[l+1].Group == it.Group {
			l++
		}
		return element{f, l}
	}
	if cur < 0 {
		sb.WriteString("Cursor: at document start\nContext:\n  [-1] [Document Start]\n")
	} else {
		fmt.Fprintf(&sb, "Cursor: after %s %s\nContext:\n", d.items[cur].Type, d.Label(cur))
		var before []element
		for i := cur - 1; i >= 0 && len(before) < ContextWidth; {
			e := elemAt(i)
			before = append(before, e)
			i = e.first - 1
		}
		if len(before) < ContextWidth {
			fmt.Fprintf(&sb, "  [-%d] [Document Start]\n", len(before)+1)
		}
		for k := len(before) - 1; k >= 0; k-- {
			fmt.Fprintf(&sb, "  [-%d] %s\n", k+1, d.describe(before[k]))
		}
		fmt.Fprintf(&sb, "  [Current] %s\n", d.describe(element{cur, cur}))
	}
	n := 0
	for i := cur + 1; i < len(d.items) && n < ContextWidth; {
		e := elemAt(i)
		n++
		fmt.Fprintf(&sb, "  [+%d] %s\n", n, d.describe(e))
		i = e.last + 1
	}
	if n < ContextWidth {
		fmt.Fprintf(&sb, "  [+%d] [Document End]\n", n+1)
	}
	return strings.TrimRight(sb.String(), "\n")
}

func (d *Document) cellContext(cur int) string {
	it := &d.items[cur]
	var sb strings.Builder
	fmt.Fprintf(&sb, "Cursor: after TableCell %s\nParent: Cell (%d,%d)\nContext:\n", d.Label(cur), it.Row, it.Col)
	inTable := func(i int) bool {
		return i >= 0 && i < len(d.items) && d.items[i].Type == TableCell && d.items[i].Group == it.Group
	}
	for k := ContextWidth; k >= 1; k-- {
		i := cur - k
		if !inTable(i) {
			if !inTable(i + 1) {
				continue
			}
			fmt.Fprintf(&sb, "  [-%d] [Table Start]\n", k)
			continue
		}
		fmt.Fprintf(&sb, "  [-%d] %s\n", k, d.describe(element{i, i}))
	}
	fmt.Fprintf(&sb, "  [Current] %s\n", d.describe(element{cur, cur}))
	for k := 1; k <= ContextWidth; k++ {
		i := cur + k
		if !inTable(i) {
			fmt.Fprintf(&sb, "  [+%d] [Table End]\n", k)
			break
		}
		fmt.Fprintf(&sb, "  [+%d] %s\n", k, d.describe(element{i, i}))
	}
	return strings.TrimRight(sb.String(), "\n")
}

func (d *Document) describe(e element) string {
	it := &d.items[e.first]
	if it.Type == TableCell && e.last > e.first {
		return fmt.Sprintf("Table %s: %q", d.Label(e.first), fmt.Sprintf("Table (%dx%d)", it.Rows, it.Cols))
	}
	typ := it.Type.String()
	if it.Type == TableCell {
		typ = fmt.Sprintf("TableCell(%d,%d)", it.Row, it.Col)
	}
	return fmt.Sprintf("%s %s: \"%s\"", typ, d.Label(e.first), Snippet(d.Text(e.first), contextTextLimit))
}

// Snippet shortens text to limit characters with "..." and shows line breaks as
// spaces, for one-line context and summary displays.
func Snippet(s string, limit int) string {
	s = strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' }), " ")
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	n := 0
	for i := range s {
		if n == limit {
			return strings.TrimRight(s[:i], " ") + "..."
		}
		n++
	}
	return s
}
