package desktop

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/waymark/waymark/backend/agent/author"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/store"
)

// TestDesktopServesText fetches the manuscript's text the way the window does
// (plain and zipped, over real HTTP), checks bad requests are refused with a
// reason, and that typing against the fetched revision is saved.
func TestDesktopServesText(t *testing.T) {
	text := "# Глава\n\nНаташа вошла. 😀\n\n" + strings.Repeat("Pierre stayed. ", 2000) + "\n"
	a, doc := desktopApp(t, text)
	srv := httptest.NewServer(http.HandlerFunc(a.serveAsset))
	defer srv.Close()

	get := func(t *testing.T, method, path string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+path, nil)
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		b, err := io.ReadAll(r.Body)
		if err != nil {
			t.Fatal(err)
		}
		return r, b
	}
	cases := []struct {
		name, method, path string
		status             int
		zipped             bool
		errWords           string
	}{
		{"plain", http.MethodGet, TextPath, 200, false, ""},
		{"zipped", http.MethodGet, TextPath + "?encoding=gzip", 200, true, ""},
		{"unknown encoding", http.MethodGet, TextPath + "?encoding=br", 400, false, "unknown encoding \"br\""},
		{"not a read", http.MethodPost, TextPath, 405, false, "only GET"},
		{"other path", http.MethodGet, "/waymark/secret", 404, false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, body := get(t, c.method, c.path)
			if r.StatusCode != c.status {
				t.Fatalf("status %d, want %d: %s", r.StatusCode, c.status, body)
			}
			if c.status != 200 {
				if !strings.Contains(string(body), c.errWords) {
					t.Fatalf("error %q does not say %q", body, c.errWords)
				}
				return
			}
			if got := r.Header.Get("X-Waymark-Encoding") == "gzip"; got != c.zipped {
				t.Fatalf("zipped = %v, want %v", got, c.zipped)
			}
			if c.zipped {
				zr, err := gzip.NewReader(bytes.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				if body, err = io.ReadAll(zr); err != nil {
					t.Fatal(err)
				}
			}
			if string(body) != text {
				t.Fatalf("served %d bytes that differ from the file's %d", len(body), len(text))
			}
			if rev, _ := strconv.ParseInt(r.Header.Get("X-Waymark-Revision"), 10, 64); rev <= 0 {
				t.Fatalf("no revision: %q", r.Header.Get("X-Waymark-Revision"))
			}
		})
	}

	// The fetched text is what the editor holds: typing against it is saved.
	r, _ := get(t, http.MethodGet, TextPath+"?encoding=gzip")
	rev, _ := strconv.ParseInt(r.Header.Get("X-Waymark-Revision"), 10, 64)
	at := len(utf16.Encode([]rune(text[:strings.Index(text, "вошла")])))
	res, err := a.TypeEdit(rev, at, at+5, "ушла")
	if err != nil {
		t.Fatalf("typing against the served revision: %v", err)
	}
	if res.Revision <= rev {
		t.Fatalf("revision %d after typing on %d", res.Revision, rev)
	}
	disk, _ := os.ReadFile(doc)
	if !strings.Contains(string(disk), "Наташа ушла.") {
		t.Fatalf("the typed word did not reach the file: %.60q", disk)
	}
	// A new revision is zipped anew, not served from the old one.
	r, body := get(t, http.MethodGet, TextPath+"?encoding=gzip")
	zr, _ := gzip.NewReader(bytes.NewReader(body))
	now, _ := io.ReadAll(zr)
	if !strings.Contains(string(now), "Наташа ушла.") || r.Header.Get("X-Waymark-Revision") != strconv.FormatInt(res.Revision, 10) {
		t.Fatalf("after typing the text served is stale (revision %s)", r.Header.Get("X-Waymark-Revision"))
	}
}

// TestDesktopOpensWhileWindowStarts is the window's start: the book is opened
// while the window loads, and what it asks first waits for it; a book that
// cannot be opened is said, not hung on.
func TestDesktopOpensWhileWindowStarts(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "book.md")
	bad := filepath.Join(dir, "bad.md")
	if err := os.WriteFile(good, []byte("# One\n\nText.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("# One\n\n\xff\xfe broken\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, path, errWords string
	}{
		{"readable", good, ""},
		{"not UTF-8", bad, "UTF-8"},
	} {
		t.Run(c.name, func(t *testing.T) {
			st, err := store.Open(filepath.Join(t.TempDir(), "w.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			ws := manuscript.NewWorkspace(st)
			w := testParts(ws, author.Builtin{}, nil)
			a := New(Config{Waymark: w})
			OpenWhileStarting(a, func() error { _, err := ws.Open(context.Background(), c.path); return err })
			v, err := a.ManuscriptInfo()
			if c.errWords != "" {
				if err == nil || !strings.Contains(err.Error(), c.errWords) {
					t.Fatalf("error %v, want one saying %q", err, c.errWords)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if v.Markdown != "" || !strings.HasPrefix(v.TextURL, TextPath) || v.Outline.TotalWords != 2 || len(v.Headings) != 1 {
				t.Fatalf("info: %+v", v)
			}
		})
	}
}
