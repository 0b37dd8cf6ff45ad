package document

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusDir is ../shared/corpus seen from the repository root.
func corpusDir(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("CORPUS TIER SKIPPED: %s is absent (%v); the corpus tier did not run", dir, err)
	}
	return dir
}

type cmExample struct {
	Markdown string `json:"markdown"`
	Example  int    `json:"example"`
	Section  string `json:"section"`
}

func loadCommonMark(t testing.TB) []cmExample {
	b, err := os.ReadFile(filepath.Join(corpusDir(t), "commonmark", "spec.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ex []cmExample
	if err := json.Unmarshal(b, &ex); err != nil {
		t.Fatal(err)
	}
	return ex
}

// TestCommonMarkTier runs every CommonMark example through the model: parse keeps
// the bytes, replacing every item with its own Markdown is the identity, and a real
// replacement changes only the item's bytes (or is refused with nothing changed).
func TestCommonMarkTier(t *testing.T) {
	ex := loadCommonMark(t)
	var identical, items, selfOK, edited, refused int
	for _, e := range ex {
		src := []byte(e.Markdown)
		d := Parse(src, 1)
		if string(d.Source()) != e.Markdown {
			t.Fatalf("example %d: parse changed the bytes", e.Example)
		}
		identical++
		consistent(t, d)
		for i := 0; i < d.Len(); i++ {
			items++
			pe, err := d.PlanReplaceText(i, d.Markdown(i))
			if err != nil {
				if d.Item(i).Type != TableCell && strings.TrimSpace(d.Markdown(i)) == "" {
					selfOK++ // an item with blank Markdown (e.g. an empty list item) cannot be "replaced" by nothing
					continue
				}
				t.Errorf("example %d (%s) item %d %s %q: replace with own markdown refused: %v", e.Example, e.Section, i, d.Item(i).Type, d.Markdown(i), err)
				continue
			}
			pe.Apply()
			if string(d.Source()) != e.Markdown {
				t.Errorf("example %d item %d: self-replacement changed the file:\n%q\n%q", e.Example, i, e.Markdown, d.Source())
				d = Parse(src, 1)
				continue
			}
			selfOK++
		}
		consistent(t, d)
		// One real edit per item, each on a fresh copy.
		for i := 0; i < d.Len(); i++ {
			fresh := Parse(src, 1)
			it := *fresh.Item(i)
			pe, err := fresh.PlanReplaceText(i, "Waymark edit")
			if err != nil {
				refused++
				if string(fresh.Source()) != e.Markdown {
					t.Fatalf("example %d: refused edit changed the source", e.Example)
				}
				continue
			}
			pe.Apply()
			out := string(fresh.Source())
			if !strings.HasPrefix(out, e.Markdown[:it.Start]) || !strings.HasSuffix(out, e.Markdown[it.End:]) {
				t.Errorf("example %d item %d: bytes outside the item changed", e.Example, i)
			}
			consistent(t, fresh)
			edited++
		}
	}
	t.Logf("CommonMark tier: %d examples byte-identical after parse; %d items, %d self-replacements identical; %d real edits applied (only the item changed), %d refused with nothing changed",
		identical, items, selfOK, edited, refused)
	if identical != len(ex) || selfOK != items {
		t.Fatalf("CommonMark tier failed: %d/%d identical, %d/%d self-replacements", identical, len(ex), selfOK, items)
	}
}
