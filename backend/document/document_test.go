package document

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

const sample = `# War and Peace

## Chapter One

Well, Prince, so Genoa and Lucca are now just family estates.
It was in July, 1805.

- Anna Pávlovna
  - Prince Vasíli
    - his son
- Pierre

> "Heavens! what a virulent attack!"
>
> replied the prince.

| Name | Age |
|------|-----|
| Pierre | 20 |
| Natasha |  |

` + "```go\nfmt.Println(\"Natasha\")\n```" + `

![Moscow burning](moscow.png "The fire")

***

## Chapter Two

1. first
2. second

Setext
------

Last paragraph[^1].

[^1]: A footnote about Natasha.
`

func mustParse(t *testing.T, src string) *Document {
	t.Helper()
	return Parse([]byte(src), 1)
}

// consistent checks the incrementally maintained view against a full re-parse.
func consistent(t *testing.T, d *Document) {
	t.Helper()
	full := Parse(d.Source(), d.Rev())
	if len(full.items) != len(d.items) {
		t.Fatalf("incremental view has %d items, full parse %d\n%s", len(d.items), len(full.items), d.Source())
	}
	for i := range full.items {
		a, b := &d.items[i], &full.items[i]
		if !sameItem(a, b, 0) || a.Line != b.Line || a.Rune != b.Rune {
			t.Fatalf("item %d differs: incremental %+v, full %+v", i, *a, *b)
		}
	}
	if fmt.Sprint(full.roots) != fmt.Sprint(d.roots) {
		t.Fatalf("roots differ: incremental %v, full %v", d.roots, full.roots)
	}
	if fmt.Sprint(full.heads) != fmt.Sprint(d.heads) {
		t.Fatalf("heads differ")
	}
}

func TestLinearize(t *testing.T) {
	d := mustParse(t, sample)
	want := []struct {
		typ   ItemType
		level int
		md    string
	}{
		{Heading, 1, "# War and Peace"},
		{Heading, 2, "## Chapter One"},
		{Paragraph, 0, "Well, Prince, so Genoa and Lucca are now just family estates.\nIt was in July, 1805."},
		{ListItem, 1, "- Anna Pávlovna"},
		{ListItem, 2, "- Prince Vasíli"},
		{ListItem, 3, "- his son"},
		{ListItem, 1, "- Pierre"},
		{Quote, 1, `"Heavens! what a virulent attack!"`},
		{Quote, 1, "replied the prince."},
		{TableCell, 0, "Name"},
		{TableCell, 0, "Age"},
		{TableCell, 0, "Pierre"},
		{TableCell, 0, "20"},
		{TableCell, 0, "Natasha"},
		{TableCell, 0, ""},
		{CodeBlock, 0, "```go\nfmt.Println(\"Natasha\")\n```"},
		{Image, 0, `![Moscow burning](moscow.png "The fire")`},
		{ThematicBreak, 0, "***"},
		{Heading, 2, "## Chapter Two"},
		{ListItem, 1, "1. first"},
		{ListItem, 1, "2. second"},
		{Heading, 2, "Setext\n------"},
		{Paragraph, 0, "Last paragraph[^1]."},
		{Paragraph, 0, "A footnote about Natasha."},
	}
	if d.Len() != len(want) {
		for i := range d.items {
			t.Logf("%d %s %q", i, d.items[i].Type, d.Markdown(i))
		}
		t.Fatalf("got %d items, want %d", d.Len(), len(want))
	}
	for i, w := range want {
		it := d.Item(i)
		if it.Type != w.typ || it.Level != w.level || d.Markdown(i) != w.md {
			t.Errorf("item %d = %s/%d %q, want %s/%d %q", i, it.Type, it.Level, d.Markdown(i), w.typ, w.level, w.md)
		}
	}
	if got := d.Text(16); got != "Moscow burning — The fire" {
		t.Errorf("image caption = %q", got)
	}
	if got := d.Text(2); got != "Well, Prince, so Genoa and Lucca are now just family estates. It was in July, 1805." {
		t.Errorf("paragraph text = %q", got)
	}
	if c := d.Item(13); c.Row != 2 || c.Col != 0 || c.Rows != 3 || c.Cols != 2 {
		t.Errorf("cell position = %+v", c)
	}
	if d.Label(2) != "H2.p2" || d.Label(0) != "H1.p0" {
		t.Errorf("labels %q %q", d.Label(2), d.Label(0))
	}
	if d.Item(23).Footnote != "1" {
		t.Errorf("footnote paragraph not marked: %+v", d.Item(23))
	}
	p := d.PointerTo(2)
	if p.Line != 4 || p.Heading != "Chapter One" || p.HeadingLevel != 2 || p.Index != 2 {
		t.Errorf("pointer %+v", p)
	}
	consistent(t, d)
}

// TestReplaceOwnMarkdownIsIdentity: every item replaced by its own Markdown
// leaves the source byte for byte, an empty table cell (replaced by empty
// text) among them.
func TestReplaceOwnMarkdownIsIdentity(t *testing.T) {
	d := mustParse(t, sample)
	emptyCells := 0
	for i := 0; i < d.Len(); i++ {
		e, err := d.PlanReplaceText(i, d.Markdown(i))
		if d.Item(i).Type == TableCell && d.Markdown(i) == "" {
			emptyCells++
		}
		if err != nil {
			t.Fatalf("item %d (%s %q): %v", i, d.Item(i).Type, d.Markdown(i), err)
		}
		e.Apply()
		if string(d.Source()) != sample {
			t.Fatalf("item %d: source changed:\n%s", i, d.Source())
		}
		consistent(t, d)
	}
	if emptyCells == 0 {
		t.Fatal("the sample has no empty table cell, so replacing one by empty text is not tested")
	}
}

func TestEdits(t *testing.T) {
	type step struct {
		op   string
		item int
		md   string
	}
	cases := []struct {
		name  string
		src   string
		steps []step
		want  string
	}{
		{"replace paragraph", "# T\n\nold text\n\nnext\n", []step{{"ReplaceText", 1, "new text"}}, "# T\n\nnew text\n\nnext\n"},
		{"replace paragraph with two", "# T\n\nold\n\nnext\n", []step{{"ReplaceText", 1, "one\n\ntwo"}}, "# T\n\none\n\ntwo\n\nnext\n"},
		{"replace heading keeps level", "# T\n\n## Old\n\ntext\n", []step{{"ReplaceText", 1, "New"}}, "# T\n\n## New\n\ntext\n"},
		{"replace setext heading", "Title\n=====\n\ntext\n", []step{{"ReplaceText", 0, "Other"}}, "Other\n=====\n\ntext\n"},
		{"replace list item keeps marker", "- a\n- b\n- c\n", []step{{"ReplaceText", 1, "B"}}, "- a\n- B\n- c\n"},
		{"replace nested list item", "- a\n  - b\n- c\n", []step{{"ReplaceText", 1, "B\nmore"}}, "- a\n  - B\n    more\n- c\n"},
		{"replace quote line", "> a\n> b\n\nx\n", []step{{"ReplaceText", 0, "one\ntwo"}}, "> one\n> two\n\nx\n"},
		{"replace cell", "| a | b |\n|---|---|\n| 1 | 2 |\n", []step{{"ReplaceText", 3, "22"}}, "| a | b |\n|---|---|\n| 1 | 22 |\n"},
		{"clear cell", "| a | b |\n|---|---|\n| 1 | 2 |\n", []step{{"ReplaceText", 3, ""}}, "| a | b |\n|---|---|\n| 1 |  |\n"},
		{"insert after paragraph", "a\n\nb\n", []step{{"InsertAfter", 0, "new"}}, "a\n\nnew\n\nb\n"},
		{"insert after last, no final newline", "a\n\nb", []step{{"InsertAfter", 1, "new"}}, "a\n\nb\n\nnew"},
		{"insert before first", "a\n\nb\n", []step{{"InsertBefore", 0, "new"}}, "new\n\na\n\nb\n"},
		{"insert list item after subtree", "- a\n  - a1\n- b\n", []step{{"InsertAfter", 0, "- new"}}, "- a\n  - a1\n- new\n- b\n"},
		{"insert nested list item", "- a\n  - a1\n- b\n", []step{{"InsertAfter", 1, "- a2"}}, "- a\n  - a1\n  - a2\n- b\n"},
		{"insert before nested", "- a\n  - a1\n- b\n", []step{{"InsertBefore", 1, "- a0"}}, "- a\n  - a0\n  - a1\n- b\n"},
		{"insert in quote", "> a\n\nx\n", []step{{"InsertAfter", 0, "b"}}, "> a\n>\n> b\n\nx\n"},
		{"insert before in quote", "> a\n\nx\n", []step{{"InsertBefore", 0, "b"}}, "> b\n>\n> a\n\nx\n"},
		{"insert heading next to same level", "# T\n\n## A\n\ntext\n", []step{{"InsertBefore", 1, "## Z\n\nintro"}}, "# T\n\n## Z\n\nintro\n\n## A\n\ntext\n"},
		{"delete paragraph", "a\n\nb\n\nc\n", []step{{"Delete", 1, ""}}, "a\n\nc\n"},
		{"delete last paragraph", "a\n\nb\n", []step{{"Delete", 1, ""}}, "a\n"},
		{"delete first", "a\n\nb\n", []step{{"Delete", 0, ""}}, "b\n"},
		{"delete list item with children", "- a\n  - a1\n- b\n", []step{{"Delete", 0, ""}}, "- b\n"},
		{"delete nested list item", "- a\n  - a1\n  - a2\n- b\n", []step{{"Delete", 1, ""}}, "- a\n  - a2\n- b\n"},
		{"delete quote paragraph", "> a\n>\n> b\n\nx\n", []step{{"Delete", 1, ""}}, "> a\n\nx\n"},
		{"delete only quote paragraph", "p\n\n> a\n\nx\n", []step{{"Delete", 1, ""}}, "p\n\nx\n"},
		{"crlf insert", "a\r\n\r\nb\r\n", []step{{"InsertAfter", 0, "new\nline"}}, "a\r\n\r\nnew\r\nline\r\n\r\nb\r\n"},
		{"sequence", "# T\n\na\n\nb\n", []step{{"InsertAfter", 1, "a2"}, {"Delete", 3, ""}, {"ReplaceText", 1, "A"}}, "# T\n\nA\n\na2\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := mustParse(t, c.src)
			for _, s := range c.steps {
				var e *Edit
				var err error
				switch s.op {
				case "ReplaceText":
					e, err = d.PlanReplaceText(s.item, s.md)
				case "InsertAfter":
					e, err = d.PlanInsertAfter(s.item, s.md)
				case "InsertBefore":
					e, err = d.PlanInsertBefore(s.item, s.md)
				case "Delete":
					e, err = d.PlanDelete(s.item)
				}
				if err != nil {
					t.Fatalf("%s %d: %v", s.op, s.item, err)
				}
				before := string(d.Source())
				e.Apply()
				// Bytes outside the splice are untouched.
				if !strings.HasPrefix(string(d.Source()), before[:e.Start]) || !strings.HasSuffix(string(d.Source()), before[e.OldEnd:]) {
					t.Fatalf("bytes outside the splice changed")
				}
				consistent(t, d)
			}
			if got := string(d.Source()); got != c.want {
				t.Fatalf("got\n%q\nwant\n%q", got, c.want)
			}
		})
	}
}

func TestEditsRefused(t *testing.T) {
	cases := []struct {
		name string
		src  string
		op   string
		item int
		md   string
		want string
	}{
		{"paragraph to heading", "# T\n\ntext\n", "ReplaceText", 1, "## New", "would add a heading"},
		{"heading level change", "# T\n\n## A\n", "ReplaceText", 1, "### A", "headings keep their level"},
		{"insert heading after paragraph", "# T\n\ntext\n", "InsertAfter", 1, "# New", "would add a heading"},
		{"insert other-level heading", "# T\n\n## A\n", "InsertAfter", 1, "# B", "headings keep their level"},
		{"unclosed fence", "a\n\nb\n\nc\n", "ReplaceText", 1, "```\ncode", "would change the elements around it"},
		{"setext swallow", "a\n\nb\n", "InsertBefore", 1, "x\n---\nmore", ""},
		{"cell line break", "| a | b |\n|---|---|\n| 1 | 2 |\n", "ReplaceText", 2, "x\ny", "holds one line"},
		{"cell insert", "| a | b |\n|---|---|\n| 1 | 2 |\n", "InsertAfter", 2, "x", "cannot insert next to a table cell"},
		{"cell delete", "| a | b |\n|---|---|\n| 1 | 2 |\n", "Delete", 2, "", "cannot delete a table cell"},
		{"delete heading", "# T\n\ntext\n", "Delete", 0, "", "would merge its section"},
		{"empty replace", "a\n", "ReplaceText", 0, "  ", "use Delete"},
		{"empty insert", "a\n", "InsertAfter", 0, "\n\n", "nothing to insert"},
		{"index out of range", "a\n", "ReplaceText", 5, "x", "out of range"},
		{"non-list next to list item", "- a\n- b\n", "InsertAfter", 0, "para\n\n# H", ""},
		{"link ref only", "a\n\nb\n", "ReplaceText", 0, "[x]: /url", "makes no element"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := mustParse(t, c.src)
			var err error
			switch c.op {
			case "ReplaceText":
				_, err = d.PlanReplaceText(c.item, c.md)
			case "InsertAfter":
				_, err = d.PlanInsertAfter(c.item, c.md)
			case "Delete":
				_, err = d.PlanDelete(c.item)
			case "InsertBefore":
				_, err = d.PlanInsertBefore(c.item, c.md)
			}
			if err == nil {
				t.Fatalf("edit was accepted")
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q does not say %q", err, c.want)
			}
			if string(d.Source()) != c.src {
				t.Fatalf("source changed by a refused edit")
			}
		})
	}
}

func TestPointers(t *testing.T) {
	d := mustParse(t, "# T\n\na\n\nb\n\nc\n")
	pb := d.PointerTo(2) // "b"
	pc := d.PointerTo(3) // "c"
	s := pb.Serialize()
	back, err := ParsePointer(s)
	if err != nil || back.Byte != pb.Byte || back.Rev != pb.Rev || back.Index != 2 || back.Line != pb.Line || back.Char != pb.Char {
		t.Fatalf("round trip %q -> %+v, %v", s, back, err)
	}
	e, _ := d.PlanInsertBefore(1, "new paragraph with ü")
	e.Apply() // rev 2
	if i, err := d.Resolve(pb); err != nil || d.Markdown(i) != "b" {
		t.Fatalf("pointer to b after insert: %v %v", i, err)
	}
	e, _ = d.PlanDelete(3) // delete "b" (now index 3)
	e.Apply()              // rev 3
	if _, err := d.Resolve(pb); !errors.Is(err, ErrDeleted) || !strings.Contains(err.Error(), "deleted in revision 3") {
		t.Fatalf("pointer to deleted item: %v", err)
	}
	if i, err := d.Resolve(pc); err != nil || d.Markdown(i) != "c" {
		t.Fatalf("pointer to c: %v %v", i, err)
	}
	cur := d.PointerTo(1)
	e, _ = d.PlanReplaceText(1, "rewritten")
	e.Apply()
	if i, err := d.Resolve(cur); err != nil || d.Markdown(i) != "rewritten" {
		t.Fatalf("pointer to rewritten item: %v %v", i, err)
	}
	for _, bad := range []string{"", "garbage", "r1", "b5", "r1:b-3", "r1:b2:b3", "r1:b2:x9", "r:b2"} {
		if _, err := ParsePointer(bad); !errors.Is(err, ErrPointer) {
			t.Errorf("ParsePointer(%q) = %v, want ErrPointer", bad, err)
		}
	}
	future := Pointer{Rev: 99, Byte: 0, Index: -1}
	if _, err := d.Resolve(future); !errors.Is(err, ErrPointer) {
		t.Errorf("future pointer: %v", err)
	}
	mid := Pointer{Rev: d.Rev(), Byte: 1, Index: -1}
	if _, err := d.Resolve(mid); !errors.Is(err, ErrPointer) || !strings.Contains(err.Error(), "no item starts at byte 1") {
		t.Errorf("pointer into the middle of an item: %v", err)
	}
}

func TestCursorContext(t *testing.T) {
	d := mustParse(t, "## Chapter Two\n\nHello\n\nWorld\n\n| a | b |\n|---|---|\n| 1 | 2 |\n")
	got := d.CursorContext(2)
	want := `Cursor: after Paragraph H2.p2
Context:
  [-2] Heading H2.p0: "Chapter Two"
  [-1] Paragraph H2.p1: "Hello"
  [Current] Paragraph H2.p2: "World"
  [+1] Table H2.p3: "Table (2x2)"
  [+2] [Document End]`
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	got = d.CursorContext(0)
	if !strings.Contains(got, "[-1] [Document Start]") || strings.Contains(got, "[-2]") {
		t.Fatalf("start context:\n%s", got)
	}
	got = d.CursorContext(5) // cell (1,0)
	wantCell := `Cursor: after TableCell H2.p5
Parent: Cell (1,0)
Context:
  [-2] TableCell(0,0) H2.p3: "a"
  [-1] TableCell(0,1) H2.p4: "b"
  [Current] TableCell(1,0) H2.p5: "1"
  [+1] TableCell(1,1) H2.p6: "2"
  [+2] [Table End]`
	if got != wantCell {
		t.Fatalf("cell context got\n%s\nwant\n%s", got, wantCell)
	}
	long := mustParse(t, strings.Repeat("word ", 20)+"\nline two\n")
	if got := long.CursorContext(0); !strings.Contains(got, `"word word word word word word word word word word...`) {
		t.Fatalf("truncation:\n%s", got)
	}
	empty := &Document{}
	if got := empty.CursorContext(-1); got != "Cursor: at empty document start" {
		t.Fatalf("empty: %q", got)
	}
}

func TestCursors(t *testing.T) {
	d := mustParse(t, sample)
	c := NewCursors(d)
	p, err := c.Next(CursorForward)
	if err != nil || p.Items[0].Index != 0 || !p.HasMore || p.Items[0].Markdown != "# War and Peace" {
		t.Fatalf("first portion: %+v %v", p, err)
	}
	total := len(p.Items)
	for p.HasMore {
		if p, err = c.Next(CursorForward); err != nil {
			t.Fatal(err)
		}
		total += len(p.Items)
	}
	if total != d.Len() {
		t.Fatalf("forward cursor handed out %d items, document has %d", total, d.Len())
	}
	if _, err := c.Next(CursorForward); !errors.Is(err, ErrCursorComplete) || err.Error() != "Cursor 'CUR_WHOLE_BOOK_FORWARD' is complete, reset it before requesting more portions." {
		t.Fatalf("complete error: %v", err)
	}
	if _, err := c.Next("nope"); !errors.Is(err, ErrCursorNotDefined) || err.Error() != "Cursor 'nope' is not defined" {
		t.Fatalf("undefined error: %v", err)
	}
	// Re-creating resets; a 1-byte limit still yields one item per portion.
	if _, err := c.Create(CursorSpec{Name: CursorForward, Forward: true, MaxElements: 200, MaxBytes: 1}); err != nil {
		t.Fatal(err)
	}
	p, _ = c.Next(CursorForward)
	if len(p.Items) != 1 || p.Items[0].Markdown != "" || p.Items[0].Text != "" {
		t.Fatalf("byte-limited portion without content: %+v", p)
	}
	p, _ = c.Next(CursorBackward)
	if p.Items[0].Index != d.Len()-1 {
		t.Fatalf("backward cursor starts at %d", p.Items[0].Index)
	}
	bad := []CursorSpec{
		{Name: "", MaxElements: 1, MaxBytes: 1},
		{Name: strings.Repeat("я", 97), MaxElements: 1, MaxBytes: 1},
		{Name: "x", MaxElements: 0, MaxBytes: 1},
		{Name: "x", MaxElements: 201, MaxBytes: 1},
		{Name: "x", MaxElements: 1, MaxBytes: 0},
		{Name: "x", MaxElements: 1, MaxBytes: 65537},
	}
	for _, s := range bad {
		if _, err := c.Create(s); !errors.Is(err, ErrBadInput) {
			t.Errorf("Create(%+v) = %v", s, err)
		}
	}
	if _, err := c.Create(CursorSpec{Name: strings.Repeat("я", 96), MaxElements: 200, MaxBytes: 65536}); err != nil {
		t.Errorf("96-character name refused: %v", err)
	}
}

func TestCheckSource(t *testing.T) {
	cases := []struct {
		name string
		src  []byte
		max  int64
		want string
	}{
		{"nul", []byte("abc\x00def"), 0, "NUL byte at offset 3"},
		{"bad utf8", []byte("ok\n\xff\xfe"), 0, "bad byte 0xff at offset 3 (line 2)"},
		{"too big", []byte("12345"), 4, "over the limit of 4 bytes"},
	}
	for _, c := range cases {
		err := CheckSource("book.md", c.src, c.max)
		if !errors.Is(err, ErrBadFile) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	for _, ok := range [][]byte{[]byte("# fine\n"), nil, BOM} { // an empty book is a book
		if err := CheckSource("ok.md", ok, 0); err != nil {
			t.Error(err)
		}
	}
}

func TestCountRunes(t *testing.T) {
	for _, s := range []string{"", "a", "abcdefghij", "Наташа Ростова", "ё́", strings.Repeat("日本語x", 7)} {
		if got, want := countRunes([]byte(s)), utf8.RuneCountInString(s); got != want {
			t.Errorf("countRunes(%q) = %d, want %d", s, got, want)
		}
	}
}
