package document

import (
	"strings"
	"testing"
)

// TestTableCellText: a '|' in a table cell's new text is escaped, so the text
// stays in its cell (the old code took "a | b" in the last cell as a third
// column, dropped from a two-column table); and a cell a row leaves out — the
// trailing empty cell of "| x |" in a two-column table — is an item that can
// be given text (the old code had no item for it). After each edit the book
// parses as the incremental view says.
func TestTableCellText(t *testing.T) {
	cells := func(d *Document) []string {
		var out []string
		for i := 0; i < d.Len(); i++ {
			if it := d.Item(i); it.Type == TableCell {
				out = append(out, d.Text(i))
			}
		}
		return out
	}
	cases := []struct {
		name, src string
		cell      int // index of the item to replace
		md        string
		want      string // the book after
		cells     string // every cell's text after, joined by "/"
	}{
		{"pipe in the last cell", "| a | b |\n|---|---|\n| x | z |\n", 3, "1 | 2", "| a | b |\n|---|---|\n| x | 1 \\| 2 |\n", "a/b/x/1 | 2"},
		{"pipe in the first cell", "| a | b |\n|---|---|\n| x | z |\n", 2, "|x|", "| a | b |\n|---|---|\n| \\|x\\| | z |\n", "a/b/|x|/z"},
		{"pipe already escaped, and in code", "| a | b |\n|---|---|\n| x | z |\n", 2, "`a\\|b` or c|d", "| a | b |\n|---|---|\n| `a\\|b` or c\\|d | z |\n", "a/b/a\\|b or c|d/z"}, // (the text of a code span shows its escape)
		{"left-out cell of a row with a closing pipe", "| a | b |\n|---|---|\n| x |\n", 3, "y", "| a | b |\n|---|---|\n| x | y |\n", "a/b/x/y"},
		{"left-out cell of a row without pipes", "a | b\n--|--\nx\n", 3, "y", "a | b\n--|--\nx | y\n", "a/b/x/y"},
		{"two left out: the first, then the next", "| a | b | c |\n|---|---|---|\n| x |\n", 4, "y|z", "| a | b | c |\n|---|---|---|\n| x | y\\|z |\n", "a/b/c/x/y|z/"},
		{"an empty cell written out", "| a | b |\n|---|---|\n| x | |\n", 3, "y", "| a | b |\n|---|---|\n| x | y|\n", "a/b/x/y"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := mustParse(t, c.src)
			if it := d.Item(c.cell); it.Type != TableCell {
				t.Fatalf("item %d is a %s; cells %q", c.cell, it.Type, cells(d))
			}
			e, err := d.PlanReplaceText(c.cell, c.md)
			if err != nil {
				t.Fatal(err)
			}
			e.Apply()
			consistent(t, d)
			if string(d.Source()) != c.want {
				t.Fatalf("book %q, want %q", d.Source(), c.want)
			}
			if got := strings.Join(cells(d), "/"); got != c.cells {
				t.Fatalf("cells %q, want %q", got, c.cells)
			}
		})
	}
	// The next left-out cell is addressable once the one before has text.
	d := mustParse(t, "| a | b | c |\n|---|---|---|\n| x |\n")
	for _, md := range []string{"y", "z"} {
		e, err := d.PlanReplaceText(d.Len()-1, md)
		if err != nil {
			t.Fatal(err)
		}
		e.Apply()
		consistent(t, d)
	}
	if got := string(d.Source()); got != "| a | b | c |\n|---|---|---|\n| x | y | z |\n" {
		t.Fatalf("row filled cell by cell: %q", got)
	}
	if _, err := d.PlanReplaceText(d.Len()-1, "w"); err != nil {
		t.Fatal(err) // the last cell, now with text, is an ordinary cell
	}
}
