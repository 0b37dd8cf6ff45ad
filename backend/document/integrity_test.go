package document

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

const warAndPeaceEN = "../../../shared/corpus/books/war-and-peace.en.md"

// TestBOMIsNotText: a file that starts with a byte-order mark keeps it on disk but
// the mark is never text: the first "# Title" is a heading at byte, line and
// character 0, and every offset is of the text after the mark.
func TestBOMIsNotText(t *testing.T) {
	d := Parse([]byte("\uFEFF# Title\n\nFirst line.\n"), 1)
	if d.Len() != 2 || d.Item(0).Type != Heading || d.Text(0) != "Title" {
		t.Fatalf("items: %d, first %v %q; want the heading \"Title\"", d.Len(), d.Item(0).Type, d.Text(0))
	}
	if p := d.PointerTo(0); p.Byte != 0 || p.Char != 0 || p.Line != 0 {
		t.Fatalf("heading pointer %s, want b0 c0 l0", p)
	}
	if !bytes.Equal(d.FileBOM(), BOM) || bytes.HasPrefix(d.Source(), BOM) {
		t.Fatalf("BOM %x, source starts %q", d.FileBOM(), d.Source()[:3])
	}
	e, err := d.PlanReplaceText(1, "Changed.")
	if err != nil {
		t.Fatal(err)
	}
	e.Apply()
	if got := string(d.Source()); got != "# Title\n\nChanged.\n" {
		t.Fatalf("after edit %q", got)
	}
	consistent(t, d)

	file, err := os.ReadFile(warAndPeaceEN)
	if err != nil {
		t.Skip("corpus missing:", err)
	}
	if !bytes.HasPrefix(file, BOM) {
		t.Fatalf("%s no longer starts with a BOM", warAndPeaceEN)
	}
	w := Parse(file, 1)
	if !bytes.Equal(w.Source(), file[3:]) || w.FileBOM() == nil {
		t.Fatal("the book's text must be the file without its BOM")
	}
	at := bytes.Index(w.Source(), []byte("leave Bruin alone; here’s a bet on.”"))
	i := w.IndexContaining(at)
	if i < 0 || !strings.Contains(w.Text(i), "leave Bruin alone") || w.Item(i).Start > at || w.Item(i).End < at {
		t.Fatalf("item at byte %d is %d %q", at, i, w.Text(i))
	}
	for k := range w.Items() {
		it := w.Item(k)
		if it.Start < 0 || it.End > len(w.Source()) || bytes.HasPrefix(w.Source()[it.Start:], BOM) {
			t.Fatalf("item %d [%d,%d) is off the text", k, it.Start, it.End)
		}
	}
	// The stored index round-trips on the BOM file.
	x, err := ParseWithIndex(file, 1, w.MarshalIndex())
	if err != nil || x.Len() != w.Len() || x.Item(i).Start != w.Item(i).Start || x.FileBOM() == nil {
		t.Fatalf("index of the BOM book: %v", err)
	}
}

// TestPointerPartsMustAgree: a pointer whose byte offset names one item and whose
// line, character or index names another is refused.
func TestPointerPartsMustAgree(t *testing.T) {
	d := mustParse(t, "# Title\n\nAlpha.\n\nBeta.\n\nGamma ü.\n")
	good := d.PointerTo(2).Serialize()
	cases := []struct {
		ptr  string
		want string // "" = resolves to item 2
	}{
		{good, ""},
		{"r1:b17", ""},                                    // byte only: checked as far as given
		{"r1:l0:c0:b0:i3", "index 3"},                     // the forged b0 of the issue
		{"r1:l6:c24:b0:i3", "line 6"},                     // all but b name item 3
		{"r1:l4:c17:b17:i1", "index 1"},                   // index forged
		{"r1:l5:c17:b17:i2", "line 5"},                    // line forged
		{"r1:l4:c16:b17:i2", "character offset 16"},       // char forged
		{"r1:l0:c0:b1:i0", "no item starts at byte 1"},    // not an item start
		{strings.Replace(good, "b17", "b0", 1), "line 4"}, // taken from a real pointer
	}
	for _, c := range cases {
		p, err := ParsePointer(c.ptr)
		if err != nil {
			t.Fatal(err)
		}
		i, err := d.Resolve(p)
		switch {
		case c.want == "" && (err != nil || i != 2):
			t.Errorf("%s: %d, %v; want item 2", c.ptr, i, err)
		case c.want != "" && (err == nil || !errors.Is(err, ErrPointer) || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %d, %v; want an error saying %q", c.ptr, i, err, c.want)
		}
	}
	// An old pointer's line and character are re-based with its byte offset.
	old := d.PointerTo(3) // Gamma, rev 1
	e, _ := d.PlanInsertBefore(1, "New ёж paragraph\nover two lines.")
	e.Apply()
	if i, err := d.Resolve(old); err != nil || d.Text(i) != "Gamma ü." {
		t.Fatalf("old pointer after an insert: %d %v", i, err)
	}
	forged := old
	forged.Line++
	if _, err := d.Resolve(forged); err == nil {
		t.Fatal("an old pointer with a wrong line was accepted")
	}
}

// TestTableCellEditsOfAnyLength: every cell takes text of any length, byte-exact,
// and nothing else in the table moves.
func TestTableCellEditsOfAnyLength(t *testing.T) {
	src := "# T\n\n| Name | Age | City |\n|------|-----|------|\n| Pierre | 20 | Moscow |\n| Natasha | 13 | |\n\nAfter.\n"
	for _, md := range []string{"", "x", "Андрей Болконский", "a much longer text than the cell had", "a \\| b"} {
		d := mustParse(t, src)
		cells := 0
		for i := 0; i < d.Len(); i++ {
			if d.Item(i).Type != TableCell {
				continue
			}
			cells++
			d := mustParse(t, src)
			before, start := d.Markdown(i), d.Item(i).Start
			e, err := d.PlanReplaceText(i, md)
			if err != nil {
				t.Fatalf("cell %d %q → %q: %v", i, before, md, err)
			}
			e.Apply()
			consistent(t, d)
			want := src[:start] + md + src[start+len(before):]
			if string(d.Source()) != want || d.Markdown(i) != md {
				t.Fatalf("cell %d → %q:\n%s\nwant\n%s", i, md, d.Source(), want)
			}
		}
		if cells != 9 {
			t.Fatalf("%d cells", cells)
		}
	}
}

// TestInsertHeadingAfterHeading: a heading inserted after a heading goes after the
// whole section (the section keeps its content) and the edit says so.
func TestInsertHeadingAfterHeading(t *testing.T) {
	cases := []struct {
		name, src string
		item      int
		md, want  string
		note      string
	}{
		{"before next heading", "# Book\n\n## One\n\nText one.\n\nMore one.\n\n## Two\n\nText two.\n", 1, "## New",
			"# Book\n\n## One\n\nText one.\n\nMore one.\n\n## New\n\n## Two\n\nText two.\n", "before the next heading \"Two\""},
		{"subsections stay", "## One\n\nA.\n\n### Sub\n\nB.\n\n## Two\n", 0, "## New\n\nIts text.",
			"## One\n\nA.\n\n### Sub\n\nB.\n\n## New\n\nIts text.\n\n## Two\n", "after the whole section of \"One\""},
		{"last section", "# Book\n\n## One\n\nText one.\n", 1, "## New",
			"# Book\n\n## One\n\nText one.\n\n## New\n", "at the end of the book"},
		{"last section no newline", "## One\n\nText one.", 0, "## New",
			"## One\n\nText one.\n\n## New", "at the end of the book"},
		{"empty section", "## One\n\n## Two\n", 0, "## New", "## One\n\n## New\n\n## Two\n", "its section is empty"},
		{"paragraph stays in section", "## One\n\nA.\n", 0, "First.", "## One\n\nFirst.\n\nA.\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := mustParse(t, c.src)
			e, err := d.PlanInsertAfter(c.item, c.md)
			if err != nil {
				t.Fatal(err)
			}
			e.Apply()
			consistent(t, d)
			if got := string(d.Source()); got != c.want {
				t.Fatalf("got\n%q\nwant\n%q", got, c.want)
			}
			if !strings.Contains(e.Note, c.note) || (c.note == "") != (e.Note == "") {
				t.Fatalf("note %q, want %q", e.Note, c.note)
			}
		})
	}
}

// TestEmptyBook: an empty file (or only a BOM) is a book with no items, and
// deleting the only paragraph leaves one that parses again.
func TestEmptyBook(t *testing.T) {
	for _, src := range []string{"", "\uFEFF"} {
		d := Parse([]byte(src), 1)
		if d.Len() != 0 || len(d.Source()) != 0 {
			t.Fatalf("%q: %d items", src, d.Len())
		}
	}
	d := mustParse(t, "Only paragraph.\n")
	e, err := d.PlanDelete(0)
	if err != nil {
		t.Fatal(err)
	}
	e.Apply()
	if len(d.Source()) != 0 || d.Len() != 0 {
		t.Fatalf("left %q", d.Source())
	}
	consistent(t, d)
}

// TestReadRefusesSpecialFiles: devices and FIFOs are refused before reading (a
// read would never end or never start), quickly and clearly.
func TestReadRefusesSpecialFiles(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe.md")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ path, want string }{
		{"/dev/zero", "character device"},
		{fifo, "named pipe"},
	}
	for _, c := range cases {
		done := make(chan error, 1)
		go func() { _, err := ReadFile(c.path, 0); done <- err }()
		select {
		case err := <-done:
			if !errors.Is(err, ErrBadFile) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("%s: %v", c.path, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: reading hangs", c.path)
		}
	}
}
