package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The tests share one headless Chromium (Debian's /usr/bin/chromium); every
// test gets a Session of its own in a fresh browser context through
// Options.ControlURL, so tests never see each other's cookies or pages.
var testProc *BrowserProcess

// Two loopback sites: site serves testdata on 127.0.0.1, cross serves the
// same files on "localhost" (another site, so another origin and, with site
// isolation, another renderer process).
var site, cross *httptest.Server

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	if _, err := FindBin(""); err != nil {
		fmt.Fprintln(os.Stderr, "browser tests need Chromium (apt-get install chromium):", err)
		return 1
	}
	site = httptest.NewServer(fixtureHandler())
	cross = newServerOn("localhost", fixtureHandler())
	defer site.Close()
	defer cross.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p, err := StartBrowser(ctx, Options{Headless: true})
	if err != nil {
		fmt.Fprintln(os.Stderr, "start Chromium:", err)
		return 1
	}
	testProc = p
	defer p.Close()
	return m.Run()
}

// newServerOn starts an httptest server whose URL names host instead of
// 127.0.0.1 (it still listens on loopback).
func newServerOn(host string, h http.Handler) *httptest.Server {
	s := httptest.NewUnstartedServer(h)
	s.Start()
	_, port, _ := net.SplitHostPort(s.Listener.Addr().String())
	s.URL = "http://" + host + ":" + port
	return s
}

// fixtureHandler serves testdata/ plus a few dynamic endpoints: /slow?ms=N
// answers after N ms, /results echoes a search, /login accepts a POST.
func fixtureHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		ms, _ := strconv.Atoi(r.URL.Query().Get("ms"))
		time.Sleep(time.Duration(ms) * time.Millisecond)
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "ok")
	})
	// A long poll that never answers: it ends when the page goes away.
	mux.HandleFunc("/hang", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(60 * time.Second):
		}
	})
	mux.HandleFunc("/results", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		q := r.URL.Query().Get("q")
		fmt.Fprintf(w, `<!doctype html><html><head><meta charset="utf-8"><title>Results for %s</title></head><body><h1>Results for %s</h1><a href="/form.html">First result</a></body></html>`,
			htmlEscape(q), htmlEscape(q))
	})
	mux.HandleFunc("/login", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html><head><meta charset="utf-8"><title>Welcome</title></head><body><h1>Welcome, %s</h1></body></html>`, htmlEscape(r.PostForm.Get("user")))
	})
	mux.HandleFunc("/download", func(w http.ResponseWriter, r *http.Request) {
		size, _ := strconv.Atoi(r.URL.Query().Get("size"))
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Disposition", `attachment; filename="`+strings.ReplaceAll(r.URL.Query().Get("name"), `"`, "")+`"`)
		_, _ = w.Write([]byte(strings.Repeat("x", size)))
	})
	mux.HandleFunc("/never", func(w http.ResponseWriter, r *http.Request) {
		// A download that starts and never ends (until the client goes).
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Disposition", `attachment; filename="endless.bin"`)
		w.Header().Set("Content-Length", "100000000")
		_, _ = w.Write([]byte(strings.Repeat("s", 4096)))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	mux.HandleFunc("/broken", func(w http.ResponseWriter, r *http.Request) {
		// A download whose connection drops a quarter of the way through.
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Disposition", `attachment; filename="broken.bin"`)
		w.Header().Set("Content-Length", "40000")
		_, _ = w.Write([]byte(strings.Repeat("b", 10000)))
		w.(http.Flusher).Flush()
		if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
			_ = conn.Close()
		}
	})
	files := http.FileServer(http.Dir("testdata"))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if serveExtra(w, r) {
			return
		}
		if r.URL.Path == "/frame.html" {
			// The cross-origin frame points at the other loopback site.
			b, err := os.ReadFile("testdata/frame.html")
			if err != nil {
				http.Error(w, err.Error(), 500)
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			other := cross.URL
			if strings.Contains(r.Host, "localhost") {
				other = site.URL
			}
			_, _ = w.Write([]byte(strings.ReplaceAll(string(b), "CROSS", other)))
			return
		}
		files.ServeHTTP(w, r)
	})
	return mux
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}

// newSession opens a Session in its own browser context of the shared
// Chromium; it is closed when the test ends.
func newSession(t testing.TB, opts ...func(*Options)) *Session {
	t.Helper()
	o := Options{Headless: true, ControlURL: testProc.ControlURL(), ScreenshotDir: t.TempDir()}
	for _, f := range opts {
		f(&o)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := Launch(ctx, o)
	if err != nil {
		t.Fatalf("launch session: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func testCtx(t testing.TB) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// open navigates s to path on the main fixture site.
func open(t testing.TB, s *Session, path string) *PageState {
	t.Helper()
	st, err := s.Navigate(testCtx(t), site.URL+path)
	if err != nil {
		t.Fatalf("navigate %s: %v", path, err)
	}
	return st
}

// mustList lists the page and fails the test on error.
func mustList(t testing.TB, s *Session, o ListOptions) *ListResult {
	t.Helper()
	r, err := s.List(testCtx(t), o)
	if err != nil {
		t.Fatalf("list: %v", err)
	}
	return r
}

// numberOf returns the number of the listed item whose name is name.
func numberOf(t testing.TB, r *ListResult, name string) int {
	t.Helper()
	for _, it := range r.Items {
		if it.Name == name {
			return it.Number
		}
	}
	t.Fatalf("no item named %q in list %d: %s", name, r.Generation, names(r))
	return 0
}

func names(r *ListResult) string {
	var b strings.Builder
	for _, it := range r.Items {
		fmt.Fprintf(&b, "[%d %s %q] ", it.Number, it.Role, it.Name)
	}
	return b.String()
}

// evalText returns document.querySelector(sel).textContent in the page's
// main world (test-side inspection only; the product never runs selectors).
func evalText(t testing.TB, s *Session, js string) string {
	t.Helper()
	res, err := s.Page().Context(testCtx(t)).Eval(js)
	if err != nil {
		t.Fatalf("eval %s: %v", js, err)
	}
	if res.Value.Nil() {
		return ""
	}
	if str := res.Value.Str(); str != "" {
		return str
	}
	b, _ := json.Marshal(res.Value.Val())
	return string(b)
}
