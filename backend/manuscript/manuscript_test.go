package manuscript

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/store"

	_ "github.com/mattn/go-sqlite3"
)

const book = `# Book

## One

First paragraph about Natasha.

Second paragraph.

- item a
- item b

## Two

Third paragraph.
`

type fixture struct {
	dir, path, db string
	st            *store.Store
	ws            *Workspace
	m             *Manuscript
}

func setup(t *testing.T, content string) *fixture {
	t.Helper()
	f := &fixture{dir: t.TempDir()}
	f.path = filepath.Join(f.dir, "book.md")
	f.db = filepath.Join(f.dir, "waymark.db")
	if err := os.WriteFile(f.path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	f.reopen(t)
	return f
}

func (f *fixture) reopen(t *testing.T) {
	t.Helper()
	if f.st != nil {
		f.st.Close()
	}
	st, err := store.Open(f.db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f.st = st
	f.ws = NewWorkspace(st)
	m, err := f.ws.Open(context.Background(), f.path)
	if err != nil {
		t.Fatal(err)
	}
	f.m = m
}

func (f *fixture) file(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(f.path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func (f *fixture) replace(t *testing.T, i int, md string) Outcome {
	t.Helper()
	out, err := f.m.Edit(context.Background(), func(d *document.Document) (*document.Edit, error) { return d.PlanReplaceText(i, md) })
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestEditSavesAndRecords(t *testing.T) {
	ctx := context.Background()
	f := setup(t, book)
	var ptr document.Pointer
	_ = f.m.Do(func(d *document.Document) error { ptr = d.PointerTo(7); return nil }) // "Third paragraph."
	out := f.replace(t, 2, "First paragraph, rewritten.")
	want := strings.Replace(book, "First paragraph about Natasha.", "First paragraph, rewritten.", 1)
	if got := f.file(t); got != want {
		t.Fatalf("file after edit:\n%s", got)
	}
	if out.Rev != 2 || !strings.Contains(out.Context, "[Current] Paragraph H2.p2: \"First paragraph, rewritten.\"") {
		t.Fatalf("outcome %+v", out)
	}
	// Undo, redo, and undo again restore the exact bytes.
	if _, err := f.m.Undo(ctx); err != nil {
		t.Fatal(err)
	}
	if got := f.file(t); got != book {
		t.Fatalf("after undo:\n%s", got)
	}
	if _, err := f.m.Redo(ctx); err != nil {
		t.Fatal(err)
	}
	if got := f.file(t); got != want {
		t.Fatalf("after redo:\n%s", got)
	}
	if _, err := f.m.Undo(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := f.m.Undo(ctx); err == nil || !strings.Contains(err.Error(), "nothing to undo") {
		t.Fatalf("second undo: %v", err)
	}
	// A new edit clears redo.
	f.replace(t, 3, "Second, changed.")
	if _, err := f.m.Redo(ctx); err == nil || !strings.Contains(err.Error(), "nothing to redo") {
		t.Fatalf("redo after a new edit: %v", err)
	}
	// A pointer taken before all of it still finds its item, also after a reload.
	f.reopen(t)
	_ = f.m.Do(func(d *document.Document) error {
		i, err := d.Resolve(ptr)
		if err != nil || d.Markdown(i) != "Third paragraph." {
			t.Fatalf("old pointer after reload: %v %v", i, err)
		}
		return nil
	})
	if err := f.st.IntegrityCheck(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestUndoInsertAndDelete(t *testing.T) {
	ctx := context.Background()
	f := setup(t, book)
	steps := []func(d *document.Document) (*document.Edit, error){
		func(d *document.Document) (*document.Edit, error) { return d.PlanInsertAfter(3, "Inserted.") },
		func(d *document.Document) (*document.Edit, error) { return d.PlanDelete(6) },
		func(d *document.Document) (*document.Edit, error) { return d.PlanInsertBefore(5, "- item 0") },
	}
	versions := []string{f.file(t)}
	for _, s := range steps {
		if _, err := f.m.Edit(ctx, s); err != nil {
			t.Fatal(err)
		}
		versions = append(versions, f.file(t))
	}
	for k := len(versions) - 2; k >= 0; k-- {
		if _, err := f.m.Undo(ctx); err != nil {
			t.Fatal(err)
		}
		if got := f.file(t); got != versions[k] {
			t.Fatalf("undo to version %d:\n%s", k, got)
		}
	}
	for k := 1; k < len(versions); k++ {
		if _, err := f.m.Redo(ctx); err != nil {
			t.Fatal(err)
		}
		if got := f.file(t); got != versions[k] {
			t.Fatalf("redo to version %d:\n%s", k, got)
		}
	}
}

func TestTargetSetsSurviveEditsAndReload(t *testing.T) {
	ctx := context.Background()
	f := setup(t, book)
	ts, err := f.m.CreateTargetSet(ctx, "natasha")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.m.AddToTargetSet(ctx, ts.ID, nil, []int{7, 2, 5}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.m.AddToTargetSet(ctx, "ts_missing", nil, []int{1}); err == nil || !strings.Contains(err.Error(), "ts_missing") {
		t.Fatalf("add to a missing set: %v", err)
	}
	if _, err := f.m.AddToTargetSet(ctx, ts.ID, nil, []int{99}); err == nil {
		t.Fatal("out-of-range index accepted")
	}
	// Insert before everything, delete one member.
	if _, err := f.m.Edit(ctx, func(d *document.Document) (*document.Edit, error) {
		return d.PlanInsertAfter(1, "A new opening paragraph.")
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.m.Edit(ctx, func(d *document.Document) (*document.Edit, error) { return d.PlanDelete(6) }); err != nil { // "- item b" (was 5)
		t.Fatal(err)
	}
	f.reopen(t)
	v, err := f.m.TargetSet(ctx, ts.ID)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	_ = f.m.Do(func(d *document.Document) error {
		for _, i := range v.ItemIndices {
			texts = append(texts, d.Markdown(i))
		}
		return nil
	})
	if fmt.Sprint(texts) != "[First paragraph about Natasha. Third paragraph.]" || len(v.Deleted) != 1 || v.Deleted[0].DeletedIn != 3 {
		t.Fatalf("target set after edits and reload: %v deleted=%+v", texts, v.Deleted)
	}
}

func TestRefusesToOverwriteChangedFile(t *testing.T) {
	f := setup(t, book)
	time.Sleep(10 * time.Millisecond)
	other := strings.Replace(book, "Third", "Changed by another editor", 1)
	if err := os.WriteFile(f.path, []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	// The other editor's version is taken in first (a revision of its own),
	// and the edit goes on top of it: nothing is overwritten or lost.
	if _, err := f.m.Edit(context.Background(), func(d *document.Document) (*document.Edit, error) { return d.PlanReplaceText(3, "mine") }); err != nil {
		t.Fatalf("edit after an outside change: %v", err)
	}
	if got := f.file(t); !strings.Contains(got, "Changed by another editor") || !strings.Contains(got, "\nmine\n") {
		t.Fatalf("after the edit: %q", got)
	}
	f.reopen(t)
	f.replace(t, 2, "mine again")
	if !strings.Contains(f.file(t), "Changed by another editor") {
		t.Fatal("external change lost")
	}
}

func TestOpenBadFiles(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ws := NewWorkspace(st)
	ws.MaxSize = 1024
	cases := map[string][]byte{
		"binary.md": []byte("PK\x03\x04\x00\x00"),
		"latin1.md": []byte("caf\xe9\n"),
		"big.md":    []byte(strings.Repeat("x", 2000)),
	}
	for name, content := range cases {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, content, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ws.Open(context.Background(), p); !errors.Is(err, document.ErrBadFile) {
			t.Errorf("%s: %v", name, err)
		}
		if b, _ := os.ReadFile(p); string(b) != string(content) {
			t.Errorf("%s changed on disk", name)
		}
	}
	if _, err := ws.Open(context.Background(), filepath.Join(dir, "missing.md")); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing file: %v", err)
	}
	if _, err := ws.Current(); !errors.Is(err, ErrNoManuscript) {
		t.Errorf("current after failed opens: %v", err)
	}
}

// TestKillDuringEdits kills a process with SIGKILL at random moments while it runs
// edit-and-save cycles: the file is always a complete version and the database
// passes its integrity check, and the manuscript opens again.
func TestKillDuringEdits(t *testing.T) {
	if testing.Short() {
		t.Skip("kill test is not short")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "book.md")
	db := filepath.Join(dir, "w.db")
	if err := os.WriteFile(path, []byte(book), 0o644); err != nil {
		t.Fatal(err)
	}
	valid := regexp.MustCompile(`^` + regexp.QuoteMeta(book[:strings.Index(book, "First paragraph")]) + `(First paragraph about Natasha\.|Version \d+ of the first paragraph\.)` + regexp.QuoteMeta(book[strings.Index(book, "First paragraph about Natasha.")+len("First paragraph about Natasha."):]) + `$`)
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	kills := 0
	for round := 0; round < 12; round++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestKillHelper$")
		cmd.Env = append(os.Environ(), "WAYMARK_KILL_HELPER=1", "WAYMARK_KILL_DOC="+path, "WAYMARK_KILL_DB="+db, "WAYMARK_KILL_START="+strconv.Itoa(round*100))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-time.After(time.Duration(20+rng.Intn(400)) * time.Millisecond):
			_ = cmd.Process.Signal(syscall.SIGKILL)
			<-done
			kills++
		case err := <-done:
			if err != nil {
				t.Fatalf("helper failed: %v", err)
			}
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !valid.Match(b) {
			t.Fatalf("round %d: damaged manuscript:\n%s", round, b)
		}
		st, err := store.Open(db)
		if err != nil {
			t.Fatalf("round %d: database does not open: %v", round, err)
		}
		if err := st.IntegrityCheck(context.Background()); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		ws := NewWorkspace(st)
		if _, err := ws.Open(context.Background(), path); err != nil {
			t.Fatalf("round %d: reopen: %v", round, err)
		}
		st.Close()
	}
	t.Logf("killed the editing process %d times during 100-edit runs; the file was always a whole version and the database passed integrity_check", kills)
}

// TestKillHelper is the process TestKillDuringEdits kills: 100 edit-and-save cycles.
func TestKillHelper(t *testing.T) {
	if os.Getenv("WAYMARK_KILL_HELPER") != "1" {
		t.Skip("helper process of TestKillDuringEdits")
	}
	st, err := store.Open(os.Getenv("WAYMARK_KILL_DB"))
	if err != nil {
		t.Fatal(err)
	}
	ws := NewWorkspace(st)
	m, err := ws.Open(context.Background(), os.Getenv("WAYMARK_KILL_DOC"))
	if err != nil {
		t.Fatal(err)
	}
	start, _ := strconv.Atoi(os.Getenv("WAYMARK_KILL_START"))
	for k := 0; k < 100; k++ {
		text := fmt.Sprintf("Version %d of the first paragraph.", start+k)
		if _, err := m.Edit(context.Background(), func(d *document.Document) (*document.Edit, error) { return d.PlanReplaceText(2, text) }); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOpenFromStoredIndex: the second open of an unchanged file uses the stored
// linear index; a damaged index falls back to parsing; both give the same items.
func TestOpenFromStoredIndex(t *testing.T) {
	f := setup(t, book)
	var first []string
	_ = f.m.Do(func(d *document.Document) error {
		for i := 0; i < d.Len(); i++ {
			first = append(first, d.Markdown(i))
		}
		return nil
	})
	raw, err := sql.Open("sqlite3", f.db)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var n int
	if err := raw.QueryRow("SELECT COUNT(*) FROM document_cache").Scan(&n); err != nil || n != 1 {
		t.Fatalf("index rows: %d %v", n, err)
	}
	check := func(label string) {
		f.reopen(t)
		var again []string
		_ = f.m.Do(func(d *document.Document) error {
			for i := 0; i < d.Len(); i++ {
				again = append(again, d.Markdown(i))
			}
			return nil
		})
		if fmt.Sprint(first) != fmt.Sprint(again) {
			t.Fatalf("%s: items differ:\n%q\n%q", label, first, again)
		}
		f.replace(t, 2, "Edited after "+label+".")
		if _, err := f.m.Undo(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	check("an open from the index")
	// Reopened after the edits above: the cache was made again for the text
	// now, and reopening the unchanged file again uses it and writes nothing.
	f.reopen(t)
	version := func() (v int64) {
		if err := raw.QueryRow("PRAGMA data_version").Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	v := version()
	check2 := func() {
		f.reopen(t)
		if got := version(); got != v {
			t.Fatal("opening an unchanged book from its cached index wrote to the database")
		}
	}
	check2()
	check2()
	if _, err := raw.Exec("UPDATE document_cache SET data = x'0102030405'"); err != nil {
		t.Fatal(err)
	}
	check("an open with a damaged index")
	if err := raw.QueryRow("SELECT COUNT(*) FROM document_cache").Scan(&n); err != nil || n != 1 {
		t.Fatalf("after edits the cache holds %d rows (%v), want 1: it must not grow with the history", n, err)
	}
}
