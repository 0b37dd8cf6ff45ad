package manuscript_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/tools"
)

// BenchmarkTextChanges measures bringing an editor up to date after one edit
// of the 6 MB Russian War and Peace: with the text of the editor's revision
// in the tool's cache (the window's usual case), and rebuilt from SQLite (the
// first sync after a start). Compare the two in one run.
func BenchmarkTextChanges(b *testing.B) {
	book, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "corpus", "books", "war-and-peace.ru.md"))
	if err != nil {
		b.Skipf("the corpus is not beside the repository: %v", err)
	}
	e := newEnv(b, string(book))
	if err := e.call("ReplaceText", `{"index": 3, "newMarkdown": "Новый абзац."}`, nil); err != nil {
		b.Fatal(err)
	}
	call := func(r *tools.Registry) {
		if _, err := r.Call(context.Background(), tools.Call{Name: "TextChanges", Args: json.RawMessage(`{"knownRevision": 1}`)}, tools.Context{}); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("from the history", func(b *testing.B) {
		for b.Loop() {
			fresh := tools.New()
			manuscript.RegisterTools(fresh, e.ws)
			call(fresh)
		}
	})
	b.Run("cached", func(b *testing.B) {
		if err := e.call("TextChanges", `{"knownRevision": 2}`, nil); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if err := e.call("TextChanges", `{"knownRevision": 2}`, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}
