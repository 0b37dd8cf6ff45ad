package manuscript_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/store"
	"github.com/waymark/waymark/backend/testenv"
)

// russianBook is the 6 MB Russian War and Peace of the corpus.
var russianBook = filepath.Join("..", "..", "..", "shared", "corpus", "books", "war-and-peace.ru.md")

// keystrokePlaces are where the keystroke saves type: the end of a paragraph
// (the place that stored the whole book twice) and the middle of others.
var keystrokePlaces = []string{"обратилась она к гостье.", "Наташа, оторвав на минуту", "Между тем все это молодое поколение", "— Видите?.. Кукла… Мими"}

// databaseBytes is the size of a database with its write-ahead log.
func databaseBytes(t testing.TB, path string) int64 {
	t.Helper()
	var n int64
	for _, p := range []string{path, path + "-wal"} {
		if fi, err := os.Stat(p); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// keystrokeSaves types saves letters, one TypeText save each, into a copy of
// the book, and returns how many bytes the database grew by (measured after
// the store is closed, its log checkpointed).
func keystrokeSaves(t testing.TB, saves int) int64 {
	t.Helper()
	src, err := os.ReadFile(russianBook)
	if err != nil {
		t.Skipf("the corpus is not beside the repository: %v", err)
	}
	dir := t.TempDir()
	doc, db := filepath.Join(dir, "book.md"), filepath.Join(dir, "w.db")
	if err := os.WriteFile(doc, src, 0o644); err != nil {
		t.Fatal(err)
	}
	open := func() (*store.Store, *env) {
		st, err := store.Open(db)
		if err != nil {
			t.Fatal(err)
		}
		ws := manuscript.NewWorkspace(st)
		if _, err := ws.Open(context.Background(), doc); err != nil {
			t.Fatal(err)
		}
		return st, newEnvOn(t, ws, doc)
	}
	st, _ := open()
	st.Close()
	before := databaseBytes(t, db)
	st, e := open()
	var rev int64 = 1
	text := string(src)
	for k := 0; k < saves; k++ {
		place := keystrokePlaces[k%len(keystrokePlaces)]
		at := strings.Index(text, place)
		if k%len(keystrokePlaces) == 0 {
			at += strings.IndexByte(text[at:], '\n') // the end of the paragraph
		} else {
			at += len(place) / 2
			for !strings.HasPrefix(text[at:], " ") && at < len(text) {
				at++
			}
		}
		pos := len(utf16.Encode([]rune(text[:at])))
		var out manuscript.TypeTextResult
		if err := e.callArgs("TypeText", manuscript.TypeTextArgs{BaseRevision: rev, FromUtf16: pos, ToUtf16: pos, Text: "ж"}, &out); err != nil {
			t.Fatalf("save %d: %v", k, err)
		}
		rev = out.Revision
		text = text[:at] + "ж" + text[at:]
	}
	st.Close()
	if got, _ := os.ReadFile(doc); string(got) != text {
		t.Fatal("the book on disk is not the typed text")
	}
	return databaseBytes(t, db) - before
}

// BenchmarkKeystrokeSaves reports how many bytes 100 keystroke saves (the
// window saves through TypeText at every typing pause) add to the database
// on the 6 MB Russian book. Target: less than 1 MB.
func BenchmarkKeystrokeSaves(b *testing.B) {
	for b.Loop() {
		grew := keystrokeSaves(b, 100)
		b.ReportMetric(float64(grew)/1e6, "MB/100saves")
	}
}

// TestTypingStoresOnlyWhatWasTyped: a letter typed at the end of a paragraph,
// at its start and in its middle is stored as that letter (the end of a
// paragraph stored the whole book twice); the 100 keystroke saves of the
// bench on the 6 MB book add less than 1 MB (316 MB before).
func TestTypingStoresOnlyWhatWasTyped(t *testing.T) {
	const text = "# Глава\n\nОбратилась она к гостье.\n\nВторой абзац.\n"
	e := newEnv(t, text)
	ctx := context.Background()
	// Where to type: after a phrase (the end of a paragraph), before one (the
	// start of a paragraph), inside a paragraph.
	for _, at := range []struct {
		phrase string
		after  bool
	}{{"гостье.", true}, {"Второй", false}, {"Обратилась", true}} {
		cur := e.file()
		i := strings.Index(cur, at.phrase)
		if at.after {
			i += len(at.phrase)
		}
		var out manuscript.TypeTextResult
		pos := len(utf16.Encode([]rune(cur[:i])))
		m, _ := e.ws.Current()
		var rev int64
		_ = m.Do(func(d *document.Document) error { rev = d.Rev(); return nil })
		if err := e.callArgs("TypeText", manuscript.TypeTextArgs{BaseRevision: rev, FromUtf16: pos, ToUtf16: pos, Text: "ж"}, &out); err != nil {
			t.Fatal(err)
		}
		r, err := e.ws.Store.Revision(ctx, m.DocID, out.Revision)
		if err != nil {
			t.Fatal(err)
		}
		if string(r.Old) != "" || string(r.New) != "ж" || r.HasSnapshot {
			t.Fatalf("typing at %q stored old %d bytes, new %d bytes, snapshot %v; want only the letter", at.phrase, len(r.Old), len(r.New), r.HasSnapshot)
		}
	}
	testenv.SkipSweepInShortMode(t)
	if grew := keystrokeSaves(t, 100); grew >= 1<<20 {
		t.Fatalf("100 keystroke saves grew the database by %d bytes; want less than 1 MB", grew)
	} else {
		t.Logf("100 keystroke saves on the 6 MB book grew the database by %d bytes", grew)
	}
}
