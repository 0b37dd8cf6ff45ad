package manuscript

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/store"
)

const warAndPeaceEN = "../../../shared/corpus/books/war-and-peace.en.md"

func edit(m *Manuscript, plan func(d *document.Document) (*document.Edit, error)) (Outcome, error) {
	return m.Edit(context.Background(), plan)
}

// TestBOMBookEditsAndHistory: the English War and Peace starts with a BOM. An
// edit lands exactly where it was aimed, the BOM stays on disk, the revision log
// holds the text and the file's hash, and the book reopens at the same revision.
func TestBOMBookEditsAndHistory(t *testing.T) {
	orig, err := os.ReadFile(warAndPeaceEN)
	if err != nil {
		t.Skip("corpus missing:", err)
	}
	f := setup(t, string(orig))
	ctx := context.Background()
	var target int
	_ = f.m.Do(func(d *document.Document) error {
		target = d.IndexContaining(bytes.Index(d.Source(), []byte("“There, leave Bruin alone")))
		return nil
	})
	out, err := edit(f.m, func(d *document.Document) (*document.Edit, error) {
		return d.PlanReplaceText(target, "“There, leave Bruin alone; here’s a bet on.”!")
	})
	if err != nil {
		t.Fatal(err)
	}
	file := []byte(f.file(t))
	if !bytes.HasPrefix(file, document.BOM) || bytes.Count(file, document.BOM) != 1 {
		t.Fatal("the BOM must stay, once, at the start of the file")
	}
	if !bytes.Contains(file, []byte("\n“There, leave Bruin alone; here’s a bet on.”!\n")) {
		t.Fatal("the edit is not where it was aimed")
	}
	if want := append(append([]byte{}, orig[:bytes.Index(orig, []byte("“There, leave Bruin"))]...), file[bytes.Index(file, []byte("“There, leave Bruin")):]...); !bytes.Equal(want, file) {
		t.Fatal("bytes before the edit changed")
	}
	text, err := f.st.ContentAt(ctx, f.m.DocID, out.Rev)
	if err != nil || !bytes.Equal(text, file[3:]) {
		t.Fatalf("history text at %d differs from the file's text: %v", out.Rev, err)
	}
	f.reopen(t)
	var rev int64
	_ = f.m.Do(func(d *document.Document) error { rev = d.Rev(); return nil })
	if rev != out.Rev {
		t.Fatalf("reopened at revision %d, want %d (the BOM file must match its own history)", rev, out.Rev)
	}
	if _, err := f.m.Undo(ctx); err != nil {
		t.Fatal(err)
	}
	if f.file(t) != string(orig) {
		t.Fatal("undo did not give back the original file byte for byte")
	}
}

// TestSameSizeRewriteIsNotOverwritten: another program rewrites the book with
// text of the same size and puts the modification time back; a save must notice
// it (the status-change time, then the content) and take it in first: the other
// program's version becomes a revision, and the edit goes on top of it.
func TestSameSizeRewriteIsNotOverwritten(t *testing.T) {
	f := setup(t, book)
	fi, _ := os.Stat(f.path)
	other := strings.Replace(book, "Third paragraph.", "Fourth paragraph", 1)
	if len(other) != len(book) {
		t.Fatal("test text must keep the size")
	}
	if err := os.WriteFile(f.path, []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(f.path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if _, err := edit(f.m, func(d *document.Document) (*document.Edit, error) { return d.PlanReplaceText(2, "mine") }); err != nil {
		t.Fatalf("edit after a same-size rewrite: %v", err)
	}
	if want := strings.Replace(other, "First paragraph about Natasha.", "mine", 1); f.file(t) != want {
		t.Fatalf("the other program's version was overwritten: %q", f.file(t))
	}
	h, _ := f.m.History(context.Background(), 0)
	if len(h) < 3 || h[1].Op != "external" {
		t.Fatalf("the other program's version is not in the history: %+v", h)
	}
}

// TestSymlinkAndReadOnly: a book opened through a link is saved into the file it
// points to (the link stays a link); a read-only book is refused clearly.
func TestSymlinkAndReadOnly(t *testing.T) {
	f := setup(t, book)
	link := filepath.Join(f.dir, "link.md")
	if err := os.Symlink(f.path, link); err != nil {
		t.Fatal(err)
	}
	ws := NewWorkspace(f.st)
	m, err := ws.Open(context.Background(), link)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := edit(m, func(d *document.Document) (*document.Edit, error) { return d.PlanReplaceText(3, "Through the link.") }); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", fi.Mode(), err)
	}
	if !strings.Contains(f.file(t), "Through the link.") {
		t.Fatal("the edit did not reach the file the link points to")
	}

	ro := setup(t, book)
	if err := os.Chmod(ro.path, 0o444); err != nil {
		t.Fatal(err)
	}
	_, err = edit(ro.m, func(d *document.Document) (*document.Edit, error) { return d.PlanReplaceText(3, "mine") })
	if err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Fatalf("edit of a read-only book: %v", err)
	}
	if ro.file(t) != book {
		t.Fatal("a read-only book was overwritten")
	}
	if fi, _ := os.Stat(ro.path); fi.Mode().Perm() != 0o444 {
		t.Fatalf("permissions changed to %v", fi.Mode().Perm())
	}
}

// TestEditSizeLimitAndEmptyBook: an edit may not grow the book past the limit
// opening allows; deleting the only paragraph leaves an empty book that opens,
// and Undo brings the paragraph back.
func TestEditSizeLimitAndEmptyBook(t *testing.T) {
	f := setup(t, book)
	f.ws.MaxSize = int64(len(book)) + 100
	big := strings.Repeat("x", 200)
	for name, plan := range map[string]func(d *document.Document) (*document.Edit, error){
		"ReplaceText": func(d *document.Document) (*document.Edit, error) { return d.PlanReplaceText(3, big) },
		"InsertAfter": func(d *document.Document) (*document.Edit, error) { return d.PlanInsertAfter(3, big) },
	} {
		_, err := edit(f.m, plan)
		if !errors.Is(err, document.ErrBadInput) || !strings.Contains(err.Error(), "over the size limit") {
			t.Errorf("%s past the limit: %v", name, err)
		}
	}
	if f.file(t) != book {
		t.Fatal("a refused edit changed the file")
	}

	one := setup(t, "Only paragraph.\n")
	if _, err := edit(one.m, func(d *document.Document) (*document.Edit, error) { return d.PlanDelete(0) }); err != nil {
		t.Fatal(err)
	}
	if one.file(t) != "" {
		t.Fatalf("left %q", one.file(t))
	}
	one.reopen(t) // the empty book opens
	if _, err := one.m.Undo(context.Background()); err != nil {
		t.Fatal(err)
	}
	if one.file(t) != "Only paragraph.\n" {
		t.Fatalf("after undo %q", one.file(t))
	}
	for _, special := range []string{"/dev/zero"} {
		if _, err := f.ws.Open(context.Background(), special); !errors.Is(err, document.ErrBadFile) {
			t.Errorf("%s: %v", special, err)
		}
	}
}

// TestTargetSetsFollowOutsideEdit: another program inserts text at the start and
// rewrites one member; on reopening (and on reload in the window) the members
// follow their items and only the one really gone is reported deleted.
func TestTargetSetsFollowOutsideEdit(t *testing.T) {
	for _, how := range []string{"reopen", "reload"} {
		t.Run(how, func(t *testing.T) {
			ctx := context.Background()
			f := setup(t, book)
			ts, err := f.m.CreateTargetSet(ctx, "set")
			if err != nil {
				t.Fatal(err)
			}
			// "First paragraph about Natasha.", "Second paragraph.", "- item b", "Third paragraph."
			if _, err := f.m.AddToTargetSet(ctx, ts.ID, nil, []int{2, 3, 5, 7}); err != nil {
				t.Fatal(err)
			}
			other := strings.Replace(book, "# Book\n", "# Book\n\nA preface by the other editor.\n", 1)
			other = strings.Replace(other, "Second paragraph.\n\n", "", 1)
			other = strings.Replace(other, "## Two\n\nThird paragraph.\n", "## Two\n\nAn inserted one.\n\nThird paragraph.\n", 1)
			if err := os.WriteFile(f.path, []byte(other), 0o644); err != nil {
				t.Fatal(err)
			}
			if how == "reopen" {
				f.reopen(t)
			} else if _, err := f.m.ReloadFromDisk(ctx); err != nil {
				t.Fatal(err)
			}
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
			if got := strings.Join(texts, "|"); got != "First paragraph about Natasha.|- item b|Third paragraph." {
				t.Fatalf("members after the outside edit: %q", got)
			}
			if len(v.Deleted) != 1 || v.Deleted[0].DeletedIn == 0 {
				t.Fatalf("deleted: %+v; want only \"Second paragraph.\", with the revision that removed it", v.Deleted)
			}
		})
	}
}

// Two real OS processes edit one book over one database at the same moment, 100
// rounds. Every edit must be saved and in the file (the second writer takes in
// the first one's revision and saves on top of it), and the file must always
// be the history's newest text.
const writerEnv = "WAYMARK_TEST_WRITER"

func TestTwoProcessWriters(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "book.md")
	db := filepath.Join(dir, "w.db")
	if err := os.WriteFile(path, append(append([]byte{}, document.BOM...), book...), 0o644); err != nil {
		t.Fatal(err)
	}
	start := func(name string) (*exec.Cmd, *bufio.Scanner, *os.File) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestWriterHelper$", "-test.count=1")
		cmd.Env = append(os.Environ(), writerEnv+"=1", "WAYMARK_W_DOC="+path, "WAYMARK_W_DB="+db, "WAYMARK_W_NAME="+name)
		in, w, _ := os.Pipe()
		cmd.Stdin = in
		out, _ := cmd.StdoutPipe()
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		in.Close()
		return cmd, bufio.NewScanner(out), w
	}
	a, aOut, aIn := start("A")
	b, bOut, bIn := start("B")
	defer func() { aIn.Close(); bIn.Close(); a.Wait(); b.Wait() }()
	expect := func(sc *bufio.Scanner, prefix string) string {
		if !sc.Scan() {
			t.Fatalf("a writer stopped (waiting for %q)", prefix)
		}
		line := sc.Text()
		if !strings.HasPrefix(line, prefix) {
			t.Fatalf("writer said %q, want %q…", line, prefix)
		}
		return strings.TrimPrefix(line, prefix)
	}
	expect(aOut, "ready")
	expect(bOut, "ready")
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	var saved []string
	wins, losses := 0, 0
	for round := 0; round < 100; round++ {
		// Both writers (re)open the book, so both hold the same text; then both
		// are told at once to edit it.
		fmt.Fprintf(aIn, "open %d\n", round)
		fmt.Fprintf(bIn, "open %d\n", round)
		expect(aOut, "opened")
		expect(bOut, "opened")
		fmt.Fprintf(aIn, "edit %d\n", round)
		fmt.Fprintf(bIn, "edit %d\n", round)
		for _, r := range []struct {
			name string
			sc   *bufio.Scanner
		}{{"A", aOut}, {"B", bOut}} {
			res := expect(r.sc, "")
			switch {
			case strings.HasPrefix(res, "saved "):
				saved = append(saved, strings.TrimPrefix(res, "saved "))
				wins++
			case strings.HasPrefix(res, "refused "):
				if !strings.Contains(res, "changed by another program") && !strings.Contains(res, "another Waymark process") {
					t.Fatalf("round %d: %s refused unclearly: %s", round, r.name, res)
				}
				t.Logf("REFUSED round %d: %s", round, res)
				losses++
			default:
				t.Fatalf("round %d: %s: %s", round, r.name, res)
			}
		}
		file, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range saved {
			if !bytes.Contains(file, []byte(s)) {
				t.Fatalf("round %d: the edit %q was reported saved but is not in the file", round, s)
			}
		}
		// File and history agree: the newest revision's hash is the file's, and
		// its text (rebuilt from the log) is the file's text.
		doc, ok, err := st.DocumentByPath(ctx, path)
		if err != nil || !ok {
			t.Fatal(err)
		}
		head, ok, err := st.LatestRevision(ctx, doc.ID)
		if err != nil || !ok {
			t.Fatal(err)
		}
		if head.SHA256 != hashParts(file[3:]) {
			t.Fatalf("round %d: the file is not the history's newest revision %d", round, head.Rev)
		}
		text, err := st.ContentAt(ctx, doc.ID, head.Rev)
		if err != nil || !bytes.Equal(append(append([]byte{}, document.BOM...), text...), file) {
			t.Fatalf("round %d: history text at %d differs from the file: %v", round, head.Rev, err)
		}
	}
	if wins != 200 || losses != 0 {
		t.Fatalf("%d edits saved and %d refused in 100 rounds; both writers read the same text each round, and the one that saves second must take in the first one's edit and save too", wins, losses)
	}
	t.Logf("100 rounds of two processes editing at once: %d edits saved (all in the file), %d refused", wins, losses)
}

// TestWriterHelper is one writer process of TestTwoProcessWriters: for every
// line on stdin it opens the book (a fresh workspace, as a CLI call does) and
// inserts a paragraph naming itself and the round.
func TestWriterHelper(t *testing.T) {
	if os.Getenv(writerEnv) != "1" {
		t.Skip("helper process of TestTwoProcessWriters")
	}
	st, err := store.Open(os.Getenv("WAYMARK_W_DB"))
	if err != nil {
		t.Fatal(err)
	}
	name := os.Getenv("WAYMARK_W_NAME")
	fmt.Println("ready")
	in := bufio.NewScanner(os.Stdin)
	var m *Manuscript
	for in.Scan() {
		cmd, round, _ := strings.Cut(in.Text(), " ")
		if cmd == "open" {
			ws := NewWorkspace(st)
			m, err = ws.Open(context.Background(), os.Getenv("WAYMARK_W_DOC"))
			if err != nil {
				fmt.Println("error open:", strings.ReplaceAll(err.Error(), "\n", " "))
			}
			fmt.Println("opened")
			continue
		}
		if m == nil {
			fmt.Println("error: not open")
			continue
		}
		text := fmt.Sprintf("Round %s by writer %s.", round, name)
		_, err = m.Edit(context.Background(), func(d *document.Document) (*document.Edit, error) {
			return d.PlanInsertAfter(2, text)
		})
		if err != nil {
			fmt.Println("refused", strings.ReplaceAll(err.Error(), "\n", " "))
		} else {
			fmt.Println("saved", text)
		}
		m = nil
	}
}
