package document

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func sameDocs(t *testing.T, name string, a, b *Document) {
	t.Helper()
	if len(a.items) != len(b.items) {
		t.Fatalf("%s: %d items vs %d", name, len(a.items), len(b.items))
	}
	for i := range a.items {
		x, y := a.items[i], b.items[i]
		if len(x.Segs) == 0 && len(y.Segs) == 0 {
			x.Segs, y.Segs = nil, nil
		}
		if !reflect.DeepEqual(x, y) {
			t.Fatalf("%s: item %d differs:\n%+v\n%+v", name, i, x, y)
		}
	}
	if !reflect.DeepEqual(a.roots, b.roots) || !reflect.DeepEqual(a.heads, b.heads) || len(a.refs) != len(b.refs) || a.newline != b.newline {
		t.Fatalf("%s: roots, heads, refs or newline differ", name)
	}
	for i := 0; i < a.Len(); i++ {
		if a.Text(i) != b.Text(i) {
			t.Fatalf("%s: text of item %d differs", name, i)
		}
	}
}

// TestIndexRoundTrip: a document rebuilt from its stored index equals the parse.
func TestIndexRoundTrip(t *testing.T) {
	srcs := map[string][]byte{"sample": []byte(sample), "crlf": []byte("# T\r\n\r\n[x]: /u\r\n\r\n| a | b |\r\n|---|---|\r\n| [x] | 2 |\r\n")}
	for _, e := range loadCommonMark(t) {
		srcs[e.Section+e.Markdown] = []byte(e.Markdown)
	}
	for name, src := range srcs {
		roundTrip(t, name, src)
	}
	// The two 6 MB books: no goroutine of this package meets another, so the
	// race step (-short) leaves them to the go test step.
	t.Run("War and Peace", func(t *testing.T) {
		if testing.Short() {
			t.Skip("the two 6 MB books: not with -short")
		}
		for _, lang := range []string{"ru", "en"} {
			b, err := os.ReadFile(filepath.Join(corpusDir(t), "books", "war-and-peace."+lang+".md"))
			if err != nil {
				t.Fatal(err)
			}
			roundTrip(t, lang, b)
		}
	})
	// Damaged or foreign indexes are refused, never trusted.
	d := Parse([]byte(sample), 1)
	idx := d.MarshalIndex()
	for name, bad := range map[string][]byte{
		"truncated":   idx[:len(idx)/2],
		"other text":  nil,
		"trailing":    append(append([]byte(nil), idx...), 1),
		"bad version": append([]byte{99}, idx[1:]...),
	} {
		src := []byte(sample)
		if name == "other text" {
			src = []byte(sample + "more")
			bad = idx
		}
		if _, err := ParseWithIndex(src, 1, bad); !errors.Is(err, ErrIndex) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// roundTrip parses src, writes its index and parses it again with the
// index: the two documents must be the same.
func roundTrip(t *testing.T, name string, src []byte) {
	t.Helper()
	d := Parse(src, 7)
	idx := d.MarshalIndex()
	e, err := ParseWithIndex(append([]byte(nil), src...), 7, idx)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	sameDocs(t, name, d, e)
	if len(src) > 1<<20 {
		t.Logf("%s: %d bytes, index %d bytes for %d items", name, len(src), len(idx), d.Len())
	}
}

func BenchmarkOpenFromIndex(b *testing.B) {
	src := loadBook(b, "ru")
	idx := Parse(src, 1).MarshalIndex()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := ParseWithIndex(src, 1, idx); err != nil {
			b.Fatal(err)
		}
	}
}
