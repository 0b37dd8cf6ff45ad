package desktop

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/store"
	"github.com/waymark/waymark/backend/waymark"
)

// insertPage is a page whose first link inserts a link at the top (every
// number after it moves) and whose second goes to a form.
const insertPage = `<!doctype html><html lang="en"><head><title>Library</title></head><body>
<main id="m"><h1>Library</h1>
<p><a href="#" id="ins" onclick="event.preventDefault(); const a = document.createElement('a'); a.href = '/gone'; a.textContent = 'New arrival ' + document.querySelectorAll('.new').length; a.className = 'new'; document.getElementById('m').prepend(a); return false;">Insert a link at the top</a></p>
<p><a href="/form">Go to the form</a></p></main></body></html>`

// windowWithPages is the window's services with a headless browser of
// their own, and a loopback site with the insert page and a form.
func windowWithPages(t *testing.T) (*App, string) {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, insertPage) })
	mux.HandleFunc("GET /form", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><html lang="en"><head><title>Library card form</title></head><body><h1>Form</h1><label>Name <input name="n"></label></body></html>`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	first := browser.NewSessions(browser.Options{Headless: true})
	w := waymark.New(waymark.Config{WS: manuscript.NewWorkspace(st), Browser: first})
	a := New(Config{Waymark: w, NewBrowser: func(s Settings) *browser.Sessions {
		return browser.NewSessions(BrowserOptions(browser.Options{Headless: true, ScreenshotDir: dir, DownloadDir: dir}, s))
	}})
	t.Cleanup(func() {
		Shutdown(a)
		_ = first.Close()
	})
	return a, srv.URL
}

// A number made stale by the page is refused in the window as in the
// terminal (issue 33 point 4): the window used to number the page again
// after every step, so "click 2" after "click 1" inserted a link at the top
// clicked the insert link again ("Done: click 2 (Insert a link at the
// top)") where the terminal refuses. Nothing is clicked; the mirrored list
// says it is out of date; after "list" the new numbers act.
func TestWindowRefusesAStaleNumber(t *testing.T) {
	a, site := windowWithPages(t)
	for _, c := range []struct{ cmd, want, not string }{
		{"go to " + site, "Page: Library.", ""},
		// Before any list of this page no number acts (the terminal's answer).
		{"click 1", "There are no numbers yet: say list first.", "Done"},
		{"list", "1. link Insert a link at the top\n2. link Go to the form", ""},
		{"click 1", "Done: click 1", ""},
		{"click 2", "Error: Element 2 (link “Go to the form”) has moved: it is number 3 now. Say list for the new numbers.", "Done"},
		{"click 2", "has moved", "Done"},
		{"нажми 2", "Элемент 2 (ссылка «Go to the form») сдвинулся: теперь это номер 3. Скажите «список», чтобы услышать новые номера.", "say"},
		{"list", "1. link New arrival 0\n2. link Insert a link at the top\n3. link Go to the form", ""},
		{"click 3", "Library card form", ""},
		// Another page: the old numbers are refused, said in words.
		{"click 1", "The page changed since the last list. Say list for the new numbers.", "Done"},
		{"нажми 1", "Страница изменилась после последнего списка. Скажите «список», чтобы услышать новые номера.", "Готово"},
	} {
		v, err := a.BrowserCommand(c.cmd)
		if err != nil {
			t.Fatalf("%q: %v", c.cmd, err)
		}
		heard := v.Say + "\n" + v.Result
		if !strings.Contains(heard, c.want) || (c.not != "" && strings.Contains(heard, c.not)) {
			t.Errorf("%q: the window says\n%s\nwant %q", c.cmd, heard, c.want)
		}
		t.Logf("%s → %s (mirror: %d items, stale %v)", c.cmd, strings.ReplaceAll(v.Result, "\n", " / "), len(v.Items), v.Stale)
	}
	// The mirrored list is the last list heard, marked stale once the page moved on.
	v, err := a.BrowserCommand("go to " + site)
	if err != nil {
		t.Fatal(err)
	}
	if !v.Stale || len(v.Items) != 0 {
		t.Errorf("after going to another page the mirror holds %d items, stale %v: want none, stale", len(v.Items), v.Stale)
	}
	if v, _ = a.BrowserCommand("list"); v.Stale || len(v.Items) != 2 || v.Items[1].Name != "Go to the form" {
		t.Errorf("after list the mirror is %+v, stale %v", v.Items, v.Stale)
	}
	if v, _ = a.BrowserCommand("click 1"); !v.Stale || len(v.Items) != 2 {
		t.Errorf("after the page inserted a link the mirror: %d items, stale %v; want the 2 heard, stale", len(v.Items), v.Stale)
	}
}

// A command while the page's question waits (the window's dialog was
// closed without an answer) brings the question back, in words and in the
// command's language, instead of a refusal naming the tool's arguments
// ("answer with your answer (accept=true for OK …)") with no dialog to
// answer it by (issue 33 point 2); the answer then lets the page go on.
func TestWindowCommandWhileThePageAsks(t *testing.T) {
	a, _ := windowWithPages(t)
	srv := httptest.NewServer(http.FileServer(http.Dir(filepath.Join("..", "..", "build", "a11y", "pages"))))
	defer srv.Close()
	for _, cmd := range []string{"go to " + srv.URL + "/index.html", "list"} {
		if _, err := a.BrowserCommand(cmd); err != nil {
			t.Fatal(err)
		}
	}
	v, err := a.BrowserCommand("click 1")
	if err != nil || v.Dialog == nil || v.DialogText != "The page asks: Forget the city?" || !strings.HasSuffix(v.Result, "\nThe page asks: Forget the city?") {
		t.Fatalf("click 1 on a confirm: %+v %v", v, err)
	}
	for _, c := range []struct{ cmd, want string }{
		{"list", "Error: The page waits for an answer first.\nThe page asks: Forget the city?"},
		{"прочитай страницу", "Ошибка: Страница сначала ждёт ответа.\nСтраница спрашивает: Forget the city?"},
	} {
		v, err := a.BrowserCommand(c.cmd)
		if err != nil || v.Result != c.want || v.Dialog == nil || v.Dialog.Type != "confirm" || len(v.Items) != 5 {
			t.Errorf("%q while the page asks: %q, dialog %+v, %d items listed, %v; want %q, the dialog again, the 5 listed", c.cmd, v.Result, v.Dialog, len(v.Items), err, c.want)
		}
	}
	if v, err = a.BrowserAnswerDialog(false, ""); err != nil || v.Dialog != nil || !strings.Contains(v.Result, "Kept") {
		t.Errorf("declined: %+v %v", v, err)
	}
	if v, err = a.BrowserCommand("list"); err != nil || !strings.Contains(v.Result, "5 elements:") {
		t.Errorf("list after the answer: %q %v", v.Result, err)
	}
}
