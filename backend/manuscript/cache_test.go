package manuscript

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/store"
	"github.com/waymark/waymark/backend/tools"
)

// cacheFixture is a book opened once (its index cached), with the database
// also open directly, to look at and tamper with the cache's row.
type cacheFixture struct {
	*fixture
	raw *sql.DB
}

func newCacheFixture(t *testing.T) *cacheFixture {
	t.Helper()
	f := setup(t, book)
	raw, err := sql.Open("sqlite3", f.db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { raw.Close() })
	return &cacheFixture{f, raw}
}

func (f *cacheFixture) exec(t *testing.T, q string, args ...any) {
	t.Helper()
	if _, err := f.raw.Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func (f *cacheFixture) rows(t *testing.T) int {
	t.Helper()
	var n int
	if err := f.raw.QueryRow("SELECT COUNT(*) FROM document_cache").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// rewrite puts other bytes of the same size in the book, as another program
// would, and gives the file back its modification time.
func (f *cacheFixture) rewrite(t *testing.T, old, new string) {
	t.Helper()
	if len(old) != len(new) {
		t.Fatalf("%q and %q differ in size", old, new)
	}
	fi, err := os.Stat(f.path)
	if err != nil {
		t.Fatal(err)
	}
	text := f.file(t)
	if !strings.Contains(text, old) {
		t.Fatalf("the book has no %q", old)
	}
	if err := os.WriteFile(f.path, []byte(strings.Replace(text, old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(f.path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
}

// find runs the Find tool on the open book, as every door does, and returns
// how many matches of q it reports.
func (f *cacheFixture) find(t *testing.T, q string) int {
	t.Helper()
	r := tools.New()
	RegisterTools(r, f.ws)
	res, err := r.Call(context.Background(), tools.Call{Name: "Find", Args: json.RawMessage(fmt.Sprintf(`{"query":%q,"all":true,"exact":true}`, q))}, tools.Context{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res)
	var out struct{ Count int }
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out.Count
}

// sameAsParsed fails unless the open document's items are those a parse of
// the file gives.
func (f *cacheFixture) sameAsParsed(t *testing.T) {
	t.Helper()
	want := document.Parse([]byte(f.file(t)), 0)
	_ = f.m.Do(func(d *document.Document) error {
		if d.Len() != want.Len() {
			t.Fatalf("the open book has %d items, a parse of the file %d", d.Len(), want.Len())
		}
		for i := 0; i < d.Len(); i++ {
			if d.Markdown(i) != want.Markdown(i) {
				t.Fatalf("item %d is %q, the file's is %q", i, d.Markdown(i), want.Markdown(i))
			}
		}
		return nil
	})
}

// TestOpenFromCacheOnlyForTheSameBytes: a book opens from its cached index
// only when the file holds the very bytes the index was made from; its size,
// times and inode decide nothing. A row of another index version, a damaged
// row, a database where the cache cannot be written and a read-only book all
// open correctly: the cache is only ever a saving.
func TestOpenFromCacheOnlyForTheSameBytes(t *testing.T) {
	cases := []struct {
		name string
		// change is done to the book (opened once, its index cached) before
		// it is opened again.
		change func(t *testing.T, f *cacheFixture)
		parse  bool   // the reopen must parse the book (else use the cache)
		word   string // found in the reopened book …
		gone   string // … and this no more
	}{
		{"unchanged", func(*testing.T, *cacheFixture) {}, false, "Natasha", ""},
		{"read-only book", func(t *testing.T, f *cacheFixture) {
			if err := os.Chmod(f.path, 0o444); err != nil {
				t.Fatal(err)
			}
		}, false, "Natasha", ""},
		{"same size, other bytes, modification time put back", func(t *testing.T, f *cacheFixture) {
			f.rewrite(t, "Natasha", "Andrei!")
		}, true, "Andrei", "Natasha"},
		{"same size, other bytes, every status the cache kept put back", func(t *testing.T, f *cacheFixture) {
			// Another program writing within one tick of the file system's
			// clock: size, times and inode all as the cache knew them.
			f.rewrite(t, "Natasha", "Andrei!")
			fi, err := os.Stat(f.path)
			if err != nil {
				t.Fatal(err)
			}
			ino, ctime := fileID(fi)
			f.exec(t, "UPDATE document_cache SET file_size = ?, file_mtime_ns = ?, file_ino = ?, file_ctime_ns = ?",
				fi.Size(), fi.ModTime().UnixNano(), int64(ino), ctime)
		}, true, "Andrei", "Natasha"},
		{"a row of another index version", func(t *testing.T, f *cacheFixture) {
			f.exec(t, "UPDATE document_cache SET version = ?", document.IndexVersion+1)
		}, true, "Natasha", ""},
		{"a damaged row", func(t *testing.T, f *cacheFixture) {
			f.exec(t, "UPDATE document_cache SET data = x'0102030405'")
		}, true, "Natasha", ""},
		{"the cache cannot be written", func(t *testing.T, f *cacheFixture) {
			f.exec(t, "CREATE TRIGGER no_cache_insert BEFORE INSERT ON document_cache BEGIN SELECT RAISE(ABORT, 'read-only'); END")
			f.exec(t, "CREATE TRIGGER no_cache_update BEFORE UPDATE ON document_cache BEGIN SELECT RAISE(ABORT, 'read-only'); END")
			f.rewrite(t, "Natasha", "Andrei!")
		}, true, "Andrei", "Natasha"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newCacheFixture(t)
			if n := f.rows(t); n != 1 {
				t.Fatalf("after the first open the cache holds %d rows, want 1", n)
			}
			c.change(t, f)
			before := parses.Load()
			f.reopen(t)
			if parsed := parses.Load() != before; parsed != c.parse {
				t.Errorf("the reopen parsed the book: %v, want %v", parsed, c.parse)
			}
			f.sameAsParsed(t)
			if n := f.find(t, c.word); n != 1 {
				t.Errorf("Find %q: %d matches, want 1", c.word, n)
			}
			if c.gone != "" {
				if n := f.find(t, c.gone); n != 0 {
					t.Errorf("Find %q: %d matches of a word the file no longer has", c.gone, n)
				}
				head, _, err := f.st.LatestRevision(context.Background(), f.m.DocID)
				if err != nil || head.Op != store.OpExternal {
					t.Errorf("the outside change is not in the history: head %+v, %v", head, err)
				}
			}
			if n := f.rows(t); n != 1 {
				t.Errorf("the cache holds %d rows, want 1", n)
			}
			// Opened once more, unchanged since: from the cache, whatever
			// the row was (it was replaced), unless it cannot be written.
			before = parses.Load()
			f.reopen(t)
			if parsed := parses.Load() != before; parsed != (c.name == "the cache cannot be written") {
				t.Errorf("the second reopen of the unchanged book parsed it: %v", parsed)
			}
			f.sameAsParsed(t)
		})
	}
}

// TestCacheStaysOneRowPerBook: 100 edits, each followed by an open of the
// changed book in a new workspace (which caches its index anew), and 100
// changes by another program, leave one row per book in the cache.
func TestCacheStaysOneRowPerBook(t *testing.T) {
	f := newCacheFixture(t)
	other := f.dir + "/other.md"
	if err := os.WriteFile(other, []byte(book), 0o644); err != nil {
		t.Fatal(err)
	}
	for k := 0; k < 100; k++ {
		f.replace(t, 2, fmt.Sprintf("Edit %d of the first paragraph.", k))
		f.reopen(t)
		if err := os.WriteFile(other, []byte(strings.Replace(book, "Natasha", fmt.Sprintf("Natasha %d", k), 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := f.ws.Open(context.Background(), other); err != nil {
			t.Fatal(err)
		}
	}
	if n := f.rows(t); n != 2 {
		t.Fatalf("after 100 edits and 100 outside changes of two books the cache holds %d rows, want 2", n)
	}
	var size int64
	if err := f.raw.QueryRow("SELECT SUM(length(data)) FROM document_cache").Scan(&size); err != nil {
		t.Fatal(err)
	}
	if size > 4*int64(len(book)) {
		t.Errorf("the cache holds %d bytes for two books of %d", size, len(book))
	}
}
