package manuscript_test

import (
	"runtime"
	"strings"
	"testing"
)

// TestPlacesInTheEditorDoNotCopyTheBook: a tool that gives an editor's
// places (Find's first match, an item's UTF-16 offset) reads the book where
// it is. It used to copy the whole text and count all of it to answer for
// one match near the start: 6 MB more on every revision of a novel, and a
// third of a warm `waymark call Find`.
func TestPlacesInTheEditorDoNotCopyTheBook(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Том 1\n\nНаташа вошла.\n\n")
	for b.Len() < 4<<20 {
		b.WriteString("Князь Андрей молчал. Пьер 😀 смотрел в окно, и «ничего» не говорил.\n\n")
	}
	e := newEnv(t, b.String())
	for _, c := range []struct{ tool, args string }{
		{"Find", `{"query":"Наташа"}`},
		{"Find", `{"query":"Наташа"}`}, // the same revision again
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		var out struct {
			Matches []struct {
				FromUtf16 int `json:"fromUtf16"`
			} `json:"matches"`
		}
		if err := e.call(c.tool, c.args, &out); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		if len(out.Matches) != 1 || out.Matches[0].FromUtf16 != len("# Том 1\n\n")-3 {
			t.Fatalf("%s %s: %+v, want one match at UTF-16 offset %d", c.tool, c.args, out.Matches, len("# Том 1\n\n")-3)
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
			t.Errorf("%s %s allocated %.1f MB on a %.1f MB book; a match near the start needs far less than the book", c.tool, c.args, float64(got)/(1<<20), float64(b.Len())/(1<<20))
		}
	}
}
