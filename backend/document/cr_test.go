package document

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/testenv"
	"github.com/waymark/waymark/backend/textmatch"
)

// TestCROnlyLineEndings: a book whose lines end in a lone CR (old Mac files)
// is read as CommonMark reads it — CR ends a line — so its headings are
// headings (it was one heading holding the whole book); its bytes are kept,
// and an edit writes CR line breaks.
func TestCROnlyLineEndings(t *testing.T) {
	src := "# Книга\r\r## Глава 1\r\rПервый абзац.\r\r## Глава 2\r\rВторой абзац.\r"
	d := Parse([]byte(src), 1)
	var heads []string
	for i := 0; i < d.Len(); i++ {
		if d.Item(i).Type == Heading {
			heads = append(heads, d.Text(i))
		}
	}
	if strings.Join(heads, "|") != "Книга|Глава 1|Глава 2" || d.Len() != 5 {
		t.Fatalf("headings %q, %d items; want three headings and two paragraphs", heads, d.Len())
	}
	if string(d.Source()) != src || d.Markdown(2) != "Первый абзац." {
		t.Fatalf("bytes changed: %q / %q", d.Source(), d.Markdown(2))
	}
	e, err := d.PlanInsertAfter(2, "Новый\nабзац.")
	if err != nil {
		t.Fatal(err)
	}
	e.Apply()
	if want := strings.Replace(src, "Первый абзац.", "Первый абзац.\r\rНовый\rабзац.", 1); string(d.Source()) != want {
		t.Fatalf("after the insert %q, want %q", d.Source(), want)
	}
	consistent(t, d)
}

// TestCROnlyLineNumbers: in a book whose lines end in a lone CR, every item's
// line (in its pointer) and every Find match's line count the CR line ends, as
// they count LF in the same book with LF; after an edit the later items' lines
// still do, and a pointer taken before the edit resolves. The old code gave
// every item line 0.
func TestCROnlyLineNumbers(t *testing.T) {
	lf := "# Книга\n\n## Глава 1\n\nПервый абзац,\nв две строки.\n\n- один\n- два\n\n## Глава 2\n\nВторой абзац о Наташе.\n"
	for _, nl := range []string{"\r", "\r\n"} {
		src := strings.ReplaceAll(lf, "\n", nl)
		d, want := Parse([]byte(src), 1), Parse([]byte(lf), 1)
		lines := func(d *Document) []int {
			var out []int
			for i := 0; i < d.Len(); i++ {
				out = append(out, d.PointerTo(i).Line)
			}
			return out
		}
		if got, w := lines(d), lines(want); fmt.Sprint(got) != fmt.Sprint(w) {
			t.Fatalf("%q: item lines %v, want %v", nl, got, w)
		}
		q, err := textmatch.Compile("Наташе")
		if err != nil {
			t.Fatal(err)
		}
		if m, w := d.Find(q, FindOptions{After: -1}), want.Find(q, FindOptions{After: -1}); len(m) != 1 || m[0].Line != w[0].Line || m[0].Line != 12 {
			t.Fatalf("%q: Find line %+v, want line 12", nl, m)
		}
		last := d.PointerTo(d.Len() - 1)
		for _, ins := range []string{"Новый\nабзац\nв три строки.", "Одна строка."} {
			e, err := d.PlanInsertAfter(2, ins)
			if err != nil {
				t.Fatal(err)
			}
			e.Apply()
			e2, _ := want.PlanInsertAfter(2, ins)
			e2.Apply()
			consistent(t, d)
			if got, w := lines(d), lines(want); fmt.Sprint(got) != fmt.Sprint(w) {
				t.Fatalf("%q after an insert: item lines %v, want %v", nl, got, w)
			}
		}
		if i, err := d.Resolve(last); err != nil || i != d.Len()-1 {
			t.Fatalf("%q: pointer %s taken before the edits: %d, %v", nl, last, i, err)
		}
	}
}

// TestCROnlyLineNumbersOnTheCorpus: both War and Peace books with CR line ends
// give every item the line it has in the book with LF (the old code: line 0).
func TestCROnlyLineNumbersOnTheCorpus(t *testing.T) {
	testenv.SkipSweepInShortMode(t)
	for _, name := range []string{"war-and-peace.en.md", "war-and-peace.ru.md"} {
		lf, err := os.ReadFile(filepath.Join(corpusDir(t), "books", name))
		if err != nil {
			t.Fatal(err)
		}
		lf = bytes.ReplaceAll(lf, []byte("\r\n"), []byte("\n"))
		d, want := Parse(bytes.ReplaceAll(lf, []byte("\n"), []byte("\r")), 1), Parse(lf, 1)
		if d.Len() != want.Len() {
			t.Fatalf("%s: %d items with CR, %d with LF", name, d.Len(), want.Len())
		}
		for i := 0; i < d.Len(); i++ {
			if d.Item(i).Line != want.Item(i).Line {
				t.Fatalf("%s: item %d on line %d with CR, %d with LF", name, i, d.Item(i).Line, want.Item(i).Line)
			}
		}
	}
}
