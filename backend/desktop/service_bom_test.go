package desktop

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"
)

// TestDesktopBOMBook runs the window's real path on the English War and Peace,
// whose file starts with a byte-order mark: the text the window fetches, typing
// saved at the place typed, a command's change synced into the editor, and
// search highlights — all in the editor's UTF-16 offsets over the text, which
// never holds the file's BOM (it stays on disk).
func TestDesktopBOMBook(t *testing.T) {
	file, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "corpus", "books", "war-and-peace.en.md"))
	if err != nil {
		t.Skip("corpus missing:", err)
	}
	if !bytes.HasPrefix(file, []byte("\uFEFF")) {
		t.Fatal("the corpus book no longer starts with a BOM")
	}
	a, doc := desktopApp(t, string(file))
	srv := httptest.NewServer(http.HandlerFunc(a.serveAsset))
	defer srv.Close()
	info, err := a.ManuscriptInfo()
	if err != nil {
		t.Fatal(err)
	}
	r, err := http.Get(srv.URL + TextPath)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(r.Body)
	r.Body.Close()
	// A browser decodes the body as UTF-8 and drops a leading BOM (Response.text,
	// a default TextDecoder): the served text must not start with one, so that
	// whatever the page does the editor holds exactly the backend's text.
	if bytes.HasPrefix(body, []byte("\uFEFF")) {
		t.Fatal("the served text starts with the file's BOM; the editor would be one character off")
	}
	editor := string(body)
	u16 := func(s string) int { return len(utf16.Encode([]rune(s))) }

	// Type "!" right after `bet on.”`.
	mark := "leave Bruin alone; here’s a bet on.”"
	at := strings.Index(editor, mark) + len(mark)
	res, err := a.TypeEdit(info.Revision, u16(editor[:at]), u16(editor[:at]), "!")
	if err != nil {
		t.Fatal(err)
	}
	editor = editor[:at] + "!" + editor[at:]
	now, _ := os.ReadFile(doc)
	if !bytes.Contains(now, []byte("bet on.”!\n")) || !bytes.HasPrefix(now, []byte("\uFEFF")) || string(now[3:]) != editor {
		t.Fatalf("typed text saved in the wrong place: %q", now[bytes.Index(now, []byte("bet on")):][:20])
	}

	// A command changes the book; the synced delta turns the editor's text into
	// the file's text.
	cmd, err := a.RunCommand(`replace "Bruin" with "the bear"`)
	if err != nil {
		t.Fatalf("command: %v %+v", err, cmd)
	}
	s, err := a.Sync(res.Revision)
	if err != nil || s.Full {
		t.Fatalf("sync: %v %+v", err, s)
	}
	e := utf16.Encode([]rune(editor))
	editor = string(utf16.Decode(e[:s.From])) + s.Insert + string(utf16.Decode(e[s.To:]))
	now, _ = os.ReadFile(doc)
	if string(now[3:]) != editor || !strings.Contains(editor, "“There, leave the bear alone; here’s a bet on.”!") {
		t.Fatalf("the synced change garbles the editor's text (around %q)", editor[strings.Index(editor, "“There, leave"):][:50])
	}

	// Search highlights fall on the word.
	found, err := a.Search("Pierre")
	if err != nil || found.Count == 0 {
		t.Fatalf("search: %v %+v", err, found)
	}
	e = utf16.Encode([]rune(editor))
	for _, m := range found.Matches[:min(len(found.Matches), 20)] {
		if got := string(utf16.Decode(e[m.From:m.To])); !strings.EqualFold(got, "Pierre") {
			t.Fatalf("highlight %d..%d shows %q", m.From, m.To, got)
		}
	}
}
