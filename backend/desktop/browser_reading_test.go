package desktop

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/store"
	"github.com/waymark/waymark/backend/waymark"
)

// The Browser workspace reads a page as the terminal does (issue 33, points
// 8, 11, 12, 13): the page's text searched, a table by row and column, the
// menu passed, Russian numbers grouped; on PostgreSQL's manual (Debian's
// postgresql-doc-15, served on loopback).
func TestBrowserWorkspaceReadsAPage(t *testing.T) {
	const docs = "/usr/share/doc/postgresql-doc-15/html"
	if _, err := os.Stat(docs); err != nil {
		t.Skipf("SKIPPED: %s is missing: install the Debian package postgresql-doc-15 (build/setup.sh does)", docs)
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(docs)))
	defer srv.Close()
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	first := browser.NewSessions(browser.Options{Headless: true})
	w := waymark.New(waymark.Config{WS: manuscript.NewWorkspace(st), Browser: first})
	a := New(Config{Waymark: w, NewBrowser: func(s Settings) *browser.Sessions {
		return browser.NewSessions(BrowserOptions(browser.Options{Headless: true, ScreenshotDir: dir, DownloadDir: dir}, s))
	}})
	defer func() {
		Shutdown(a)
		_ = first.Close()
	}()
	for _, c := range []struct{ cmd, want string }{
		{"go to " + srv.URL + "/datatype-numeric.html", "Page: 8.1. Numeric Types"},
		{"прочитай страницу", "Пропущены меню сайта перед первым заголовком ("},
		{"прочитай страницу", "):\n8.1. Numeric Types\n"},
		{"найди в тексте bigint", "«bigint», вхождение 1 из "},
		{"следующее вхождение", "«bigint», вхождение 2 из "},
		{"table", "Table 1 of 1: Table 8.2. Numeric Types. 10 rows, 4 columns: Name, Storage Size, Description, Range."},
		{"строка 3", "Строка 3 из 10, bigint; Name (столбец 1 из 4): bigint"},
		{"next column", "Row 3 of 10, bigint; Storage Size (column 2 of 4): 8 bytes"},
	} {
		v, err := a.BrowserCommand(c.cmd)
		if err != nil {
			t.Fatalf("%q: %v", c.cmd, err)
		}
		if !strings.Contains(v.Result, c.want) {
			t.Errorf("%q: the window says\n%s\nwithout\n%s", c.cmd, v.Result, c.want)
		}
	}
}
