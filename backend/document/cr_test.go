package document

import (
	"strings"
	"testing"
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
