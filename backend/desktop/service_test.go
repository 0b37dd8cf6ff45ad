package desktop

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/waymark/waymark/app/sample"
	"github.com/waymark/waymark/backend/agent/author"
	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/testenv"
	"github.com/waymark/waymark/backend/tools"
	"github.com/waymark/waymark/backend/waymark"
)

// testParts are the parts the app assembles (waymark.New).
func testParts(ws *manuscript.Workspace, model llm.Model, ss *browser.Sessions) *waymark.App {
	return waymark.New(waymark.Config{WS: ws, Model: model, Browser: ss})
}

// desktopApp opens the window's services on a copy of text (no window, no browser).
func desktopApp(t *testing.T, text string) (*App, string) {
	t.Helper()
	doc, st := testenv.BookAndStore(t, text)
	ws := manuscript.NewWorkspace(st)
	if _, err := ws.Open(context.Background(), doc); err != nil {
		t.Fatal(err)
	}
	w := testParts(ws, author.Builtin{}, nil)
	return New(Config{Waymark: w}), doc
}

// TestDesktopTypeEditAndSync saves typed text, refuses a stale or broken
// change without touching the file, and sends backend changes as one delta.
func TestDesktopTypeEditAndSync(t *testing.T) {
	a, doc := desktopApp(t, string(sample.Manuscript))
	v, err := a.Manuscript()
	if err != nil {
		t.Fatal(err)
	}
	at := strings.Index(v.Markdown, "Mira signed")
	u := len(utf16.Encode([]rune(v.Markdown[:at])))
	r, err := a.TypeEdit(v.Revision, u, u+4, "Мира 😀")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(doc)
	if !strings.Contains(string(b), "Мира 😀 signed") || r.Revision != v.Revision+1 || !strings.Contains(r.Summary, "typed in the editor in “Chapter One: The Ledger”") || len(r.Changes) != 0 {
		t.Fatalf("typed edit: %+v\n%s", r, b)
	}
	// A change against a revision the book does not have yet, or splitting a
	// character, writes nothing.
	if _, err := a.TypeEdit(r.Revision+5, 0, 1, "x"); err == nil || !strings.Contains(err.Error(), "nothing was written") {
		t.Fatalf("change from the future: %v", err)
	}
	emoji := u + len(utf16.Encode([]rune("Мира ")))
	if _, err := a.TypeEdit(r.Revision, emoji+1, emoji+2, "x"); err == nil || !strings.Contains(err.Error(), "inside a character") {
		t.Fatalf("a change inside a surrogate pair: %v", err)
	}
	if _, err := a.TypeEdit(r.Revision, 0, len(utf16.Encode([]rune(string(b)))), ""); err == nil || !strings.Contains(err.Error(), "cannot become empty") {
		t.Fatalf("emptying the book: %v", err)
	}
	if after, _ := os.ReadFile(doc); string(after) != string(b) {
		t.Fatal("a refused change touched the file")
	}
	// A command changes the book; Sync gives the editor exactly that change.
	res, err := a.RunCommand(`replace "brass telescope" with "copper telescope"`)
	if err != nil || len(res.Edits) != 1 {
		t.Fatalf("command: %v %+v", err, res)
	}
	if d := res.Edits[0]; !strings.Contains(d.Before, "brass telescope") || !strings.Contains(d.After, "copper telescope") || !strings.Contains(d.Description, "Chapter Two") {
		t.Errorf("edit diff: %+v", d)
	}
	s, err := a.Sync(r.Revision)
	if err != nil || s.Full {
		t.Fatalf("sync: %v %+v", err, s)
	}
	editor := utf16.Encode([]rune(string(b)))
	next := string(utf16.Decode(editor[:s.From])) + s.Insert + string(utf16.Decode(editor[s.To:]))
	if now, _ := os.ReadFile(doc); next != string(now) {
		t.Fatal("the synced delta does not turn the editor's text into the file's")
	}
	// Undoing a revision that is not the newest edit is refused.
	if _, err := a.UndoEdit(r.Revision); err == nil || !strings.Contains(err.Error(), "undo that first") {
		t.Fatalf("undo of an older edit: %v", err)
	}
	if _, err := a.UndoEdit(res.Edits[0].Revision); err != nil {
		t.Fatal(err)
	}
}

// TestDesktopExternalChange: a change by another program is taken in (a
// revision of its own) and announced in one line; reload takes theirs.
func TestDesktopExternalChange(t *testing.T) {
	a, doc := desktopApp(t, "# Title\n\nOne.\n\nTwo.\n")
	if _, err := a.Manuscript(); err != nil {
		t.Fatal(err)
	}
	if s, _ := a.CheckDisk(); s.Changed {
		t.Fatal("an untouched file reported as changed")
	}
	if err := os.WriteFile(doc, []byte("# Title\n\nOne, changed.\n\nTwo.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The change is taken in and announced; nothing to resolve.
	if s, _ := a.CheckDisk(); s.Changed || len(s.Merged) != 1 || s.Note != "Another program changed “Title”; your text is kept." {
		t.Fatalf("the change on disk was not taken in: %+v", s)
	}
	c, err := a.ResolveExternalChange("compare")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range c.Diff {
		if l.Kind == "mine" || l.Kind == "disk" {
			t.Fatalf("compare after the change was taken in: %+v", c.Diff)
		}
	}
	h, _ := a.History()
	if len(h) < 2 || h[0].Op != "external" {
		t.Fatalf("history after the outside change: %+v", h)
	}
	if _, err := a.ResolveExternalChange("merge"); err == nil || !strings.Contains(err.Error(), "any of: [reload keep compare]") {
		t.Fatalf("unknown choice: %v", err)
	}
	if err := os.WriteFile(doc, []byte("# Title\n\nTheirs.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := a.ResolveExternalChange("reload"); err != nil {
		t.Fatal(err)
	}
	one := 1
	item, err := call(a, context.Background(), manuscript.ReadRef, manuscript.ReadArgs{ItemAddress: manuscript.ItemAddress{Index: &one}}, tools.Context{})
	if err != nil || item.Text != "Theirs." {
		t.Fatalf("after reload: %q %v", item.Text, err)
	}
}

// TestDesktopSettingsAndExport: bad settings are refused with what is allowed;
// good ones are stored; export refuses to overwrite the manuscript and says
// when pandoc is missing.
func TestDesktopSettingsAndExport(t *testing.T) {
	a, doc := desktopApp(t, string(sample.Manuscript))
	s, _ := a.Settings()
	s.Theme, s.FontSize, s.ModelURL = "purple", 99, "ftp://x"
	_, err := a.SaveSettings(s)
	for _, want := range []string{`theme "purple": light, dark, contrast`, "font size 99: from 10 to 40", "give an http(s) address"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("settings error lacks %q: %v", want, err)
		}
	}
	s, _ = a.Settings()
	s.Theme, s.ModelKey = "dark", "secret"
	out, err := a.SaveSettings(s)
	if err != nil || out.ModelKey != "" || !out.ModelKeySet {
		t.Fatalf("save: %v %+v", err, out)
	}
	if again := New(Config{Waymark: a.w}); again.settings.Theme != "dark" || again.settings.ModelKey != "secret" {
		t.Fatalf("settings not stored: %+v", again.settings)
	}
	if _, err := a.Call("Export", `{"format":"markdown","path":"`+doc+`"}`); err == nil || !strings.Contains(err.Error(), "the manuscript itself") {
		t.Fatalf("export over the manuscript: %v", err)
	}
	if _, err := a.Call("Export", `{"format":"html","path":"relative.html"}`); err == nil || !strings.Contains(err.Error(), "must be absolute") {
		t.Fatalf("relative export path: %v", err)
	}
	// The author's name in Settings goes with the books (one line only).
	s, _ = a.Settings()
	s.Author = "Mira\nEllison"
	if _, err := a.SaveSettings(s); err == nil || !strings.Contains(err.Error(), "author: one line") {
		t.Fatalf("an author of two lines: %v", err)
	}
	s.Author = "  Mira Ellison "
	if out, err := a.SaveSettings(s); err != nil || out.Author != "Mira Ellison" {
		t.Fatalf("save the author: %v %q", err, out.Author)
	}
	if again := New(Config{Waymark: a.w}); again.settings.Author != "Mira Ellison" {
		t.Fatalf("the author was not stored: %q", again.settings.Author)
	}
	res, err := a.Call("Export", `{"format":"html","path":"`+filepath.Join(filepath.Dir(doc), "b.html")+`"}`)
	if err != nil || !strings.Contains(res, `"author":"Mira Ellison"`) || !strings.Contains(res, `"title":"The Lighthouse Keeper's Ledger"`) {
		t.Fatalf("export after saving the author: %v %s", err, res)
	}
	// Without pandoc, DOCX and EPUB say exactly what to install.
	t.Setenv("PATH", t.TempDir())
	for _, f := range []string{"docx", "epub"} {
		_, err := a.Call("Export", `{"format":"`+f+`","path":"`+filepath.Join(filepath.Dir(doc), "b."+f)+`"}`)
		if err == nil || !strings.Contains(err.Error(), strings.ToUpper(f)+" export needs pandoc, which is not installed: install it with sudo apt install pandoc") {
			t.Fatalf("%s without pandoc: %v", f, err)
		}
	}
	if c := a.Capabilities(); c.Pandoc != "" || strings.Contains(strings.Join(c.Formats, " "), "docx") {
		t.Errorf("without pandoc the window still offers DOCX: %+v", c.Formats)
	}
}

// TestDesktopCommandLanguage: a command's edits are described, and its
// result marked, in the command's language, whatever the book's.
func TestDesktopCommandLanguage(t *testing.T) {
	const ru = "# Роман\n\n## Глава 1\n\nПьер вошёл. Все смотрели на него.\n"
	const en = "# Novel\n\n## Chapter 1\n\nPierre came in. Everyone looked at him.\n"
	for _, tc := range []struct {
		name, book, command, description string
		russian                          bool
	}{
		{"a Russian command on a Russian book", ru, "замени «Пьер» на «Петр»", "Замена «Пьер вошёл.…» на «Петр вошёл.…» — Роман, Глава 1", true},
		{"an English command on a Russian book", ru, `replace "Пьер" with "Петр"`, "Replace «Пьер вошёл.…» with «Петр вошёл.…» in Роман, Глава 1", false},
		{"a Russian command on an English book", en, "замени «Pierre» на «Peter»", "Замена «Pierre came…» на «Peter came…» — Novel, Chapter 1", true},
		{"an English command on an English book", en, `replace "Pierre" with "Peter"`, "Replace «Pierre came…» with «Peter came…» in Novel, Chapter 1", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, _ := desktopApp(t, tc.book)
			res, err := a.RunCommand(tc.command)
			if err != nil || len(res.Edits) != 1 {
				t.Fatalf("%v %+v", err, res)
			}
			if res.Russian != tc.russian || res.Edits[0].Description != tc.description {
				t.Errorf("russian %v, the edit described as %q; want %v, %q", res.Russian, res.Edits[0].Description, tc.russian, tc.description)
			}
		})
	}
}
