package desktop

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/browser/browsertest"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/store"
	"github.com/waymark/waymark/backend/waymark"
)

// The Browser workspace keeps its own place in the list and the text, as
// the terminal does: "more" pages on, help and a typo are short lines, and a
// new tab is said.
func TestBrowserWorkspaceMore(t *testing.T) {
	sites, err := browsertest.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer sites.Close()
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ws := manuscript.NewWorkspace(st)
	first := browser.NewSessions(browser.Options{Headless: true})
	w := waymark.New(waymark.Config{WS: ws, Browser: first})
	a := New(Config{Waymark: w, NewBrowser: func(s Settings) *browser.Sessions {
		return browser.NewSessions(BrowserOptions(browser.Options{Headless: true, ScreenshotDir: dir, DownloadDir: dir}, s))
	}})
	defer func() {
		Shutdown(a)
		_ = first.Close()
	}()
	for _, c := range []struct{ cmd, want string }{
		{"go to " + sites.URL("/links"), "Page: Archive."},
		// The window numbers only by the user's list, as the terminal: a
		// first window numbers a prefix of a long page.
		{"list", "More than 50 elements, 1 to 50:\n1. link Archive"},
		{"more", "5001 elements, 51 to 100:\n51. link Article number 50"},
		// Russian in, Russian out (issue 23, point 6): the terminal's lines.
		{"ещё", "Элементов: 5\u202f001, с 101 по 150:\n101. ссылка Article number 100"},
		{"список 4990", "Элементов: 5\u202f001, с 4990 по 5001:\n4990. ссылка Article number 4989"},
		{"help", "Number commands:\nlist: the numbered elements, 50 at a time;"},
		{"go to " + sites.URL("/guide"), "Page: A walk through Kazan."},
		{"list", "12 elements:\n1. link Travel guide"},
		{"click 7", "Opened a new tab: 2, Map of Kazan. Say tab 2 to go there."},
		{"tabs", "2 tabs:\n1. A walk through Kazan, current\n2. Map of Kazan"},
		{"read page", "Say read more for the rest of the text, or read from heading and its number."},
		{"read more", "End of the text."},
		{"more", "That was the end of the text ("},
	} {
		v, err := a.BrowserCommand(c.cmd)
		if err != nil {
			t.Fatalf("%q: %v", c.cmd, err)
		}
		if !strings.Contains(v.Result, c.want) {
			t.Errorf("%q: the window says\n%s\nwithout\n%s", c.cmd, v.Result, c.want)
		}
	}
	if v, err := a.BrowserCommand("lsit"); err != nil || v.Status != "not_a_command" || v.NeedsModel || v.Result != `Not a command: "lsit". Did you mean "list"? Say help for the commands.` {
		t.Errorf("a typo in the window: %+v %v", v, err)
	}
}
