package document

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestPathologicalBooks are issue 32's hostile books and their kin: each
// opens (CheckSource, then the parse) or is refused with where and what is
// allowed, and a parse never builds more than the nesting limit's worth of
// containers. On the old code the first took 25 minutes and 4.3 GB.
func TestPathologicalBooks(t *testing.T) {
	refs := func(n int, blankEvery int) string {
		var b strings.Builder
		b.WriteString("# T\n\n")
		for i := 0; i < n; i++ {
			if blankEvery > 0 && i%blankEvery == 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "[r%d]: /u%d\n", i, i)
		}
		return b.String() + "\n[r1]\n"
	}
	cases := []struct {
		name, src string
		want      string // "" = opens
	}{
		{"100,000 nested list markers", "# T\n\n" + strings.Repeat("- ", 100000) + "deep\n",
			"nests lists and block quotes more than 32 levels deep at line 3, column 65; Waymark opens at most 32 levels"},
		{"100,000 nested quote marks", "# T\n\n" + strings.Repeat("> ", 100000) + "deep\n", "more than 32 levels deep at line 3, column 65"},
		{"ordered lists", "# T\n\n" + strings.Repeat("1. ", 50000) + "deep\n", "more than 32 levels deep at line 3, column 97"},
		{"lists and quotes mixed", "# T\n\n" + strings.Repeat("> - ", 30000) + "deep\n", "more than 32 levels deep at line 3, column 65"},
		{"lists nested by indentation", "# T\n\n" + func() string {
			var b strings.Builder
			for i := 0; i < 300; i++ {
				b.WriteString(strings.Repeat("  ", i) + "- x\n")
			}
			return b.String()
		}(), "more than 32 levels deep at line 35, column 65"},
		{"32 levels open", "# T\n\n" + strings.Repeat("- ", 32) + "deep\n", ""},
		{"long emphasis runs", "# T\n\n" + strings.Repeat("*a **b ", 30000) + "end\n", ""},
		{"100,000 open brackets", "# T\n\n" + strings.Repeat("[", 100000) + "x\n", ""},
		{"unclosed link addresses in one run", "# T\n\n" + strings.Repeat("[a](", 50000) + "x\n",
			"too many unclosed link addresses ](… in long runs of text without spaces, up to line 3"},
		{"unclosed link addresses with spaces", "# T\n\n" + strings.Repeat("[a]( ", 50000) + "x\n", ""},
		{"20,000 link reference definitions in a row", refs(20000, 0),
			"more than 4000 link reference definitions ([label]: address) in a row from line 3, with no blank line between"},
		{"20,000 link reference definitions in groups", refs(20000, 1000), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := CheckSource("book.md", []byte(c.src), 0)
			if err == nil {
				d := Parse([]byte(c.src), 1)
				err = d.NestingError("book.md")
				// A level's prefix is at most 4 bytes ("10. ").
				if n := longestPrefix(d); n > 4*MaxNesting {
					t.Fatalf("an item's container prefix is %d bytes", n)
				}
			}
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, ErrBadFile)):
				t.Fatalf("got %v, want %q", err, c.want)
			}
		})
	}
}

// longestPrefix is the longest container prefix of the document's items.
func longestPrefix(d *Document) int {
	max := 0
	for i := range d.items {
		max = maxInt(max, len(d.items[i].Prefix))
	}
	return max
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// TestEditsDoNotNestTooDeep: an edit whose text would nest past the limit
// is refused, so the book it saves opens again.
func TestEditsDoNotNestTooDeep(t *testing.T) {
	d := Parse([]byte("# T\n\nA paragraph.\n"), 1)
	_, err := d.PlanReplaceText(1, strings.Repeat("- ", 40)+"deep")
	if err == nil || !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "more than 32 levels deep") {
		t.Fatalf("got %v", err)
	}
	if _, err := d.PlanReplaceText(1, strings.Repeat("- ", 10)+"deep"); err != nil {
		t.Fatal(err)
	}
}
