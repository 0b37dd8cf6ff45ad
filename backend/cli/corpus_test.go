package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/waymark/waymark/backend/testenv"
	"os"
	"path/filepath"
	"testing"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/textmatch"
)

// TestCLIRunCursorAgentOnBooks is the acceptance call of the agents issue: with no
// model configured, `waymark call RunCursorAgent --doc <book>` returns success,
// firstItemIndex, a semanticPointer object and the item's markdown, for phrases
// across both books; the item is the matcher's first mention.
func TestCLIRunCursorAgentOnBooks(t *testing.T) {
	testenv.SkipSweepInShortMode(t)
	t.Setenv("WAYMARK_MODEL_URL", "")
	books := filepath.Join("..", "..", "..", "shared", "corpus", "books")
	if _, err := os.Stat(books); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the corpus is not beside the repository (%v): CI lays ../shared/corpus out", err)
		}
		t.Skipf("CORPUS TIER SKIPPED: %s is absent", books)
	}
	cases := map[string][]string{
		"ru": {"Анна Павловна", "Бородино", "Кутузов", "князь Андрей", "Наташа"},
		"en": {"Anna Pavlovna", "Borodino", "Kutuzov", "Prince Andrew", "Natasha"},
	}
	db := filepath.Join(t.TempDir(), "w.db")
	for lang, phrases := range cases {
		path := filepath.Join(books, "war-and-peace."+lang+".md")
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		d := document.Parse(src, 1)
		for _, p := range phrases {
			// A name is found in any of its word forms («Кутузова» for «Кутузов»).
			q, _ := textmatch.CompileWith(p, textmatch.Options{Forms: true})
			want := d.Find(q, document.FindOptions{After: -1})[0].Index
			var out bytes.Buffer
			args := fmt.Sprintf(`{"forward":true,"maxElements":20,"maxBytes":8192,"includeContent":true,"mode":"FirstMatch","taskDescription":"Find the first mention of \"%s\""}`, p)
			if code := run(context.Background(), []string{"call", "RunCursorAgent", "--doc", path, "--db", db, args}, nil, &out, &out); code != 0 {
				t.Fatalf("%s %q: exit %d %s", lang, p, code, out.String())
			}
			var r struct {
				Success         bool           `json:"success"`
				FirstItemIndex  int            `json:"firstItemIndex"`
				SemanticPointer map[string]any `json:"semanticPointer"`
				Markdown        string         `json:"markdown"`
			}
			if err := json.Unmarshal(out.Bytes(), &r); err != nil {
				t.Fatal(err)
			}
			if !r.Success || r.FirstItemIndex != want || r.Markdown != d.Markdown(want) || r.SemanticPointer["serialized"] == nil || r.SemanticPointer["label"] != d.Label(want) {
				t.Errorf("%s %q: got index %d (%v), want %d", lang, p, r.FirstItemIndex, r.SemanticPointer["label"], want)
			}
		}
	}
}
