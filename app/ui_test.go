package main

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/waymark/waymark/app/sample"
	"github.com/waymark/waymark/backend/agent"
	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/store"
)

// bindingShim is what Wails puts into the window: window.go.main.DesktopApp
// with one promise-returning function per bound method. Here each call goes
// over HTTP to the real DesktopApp (real SQLite, real document).
const bindingShim = `<script>
window.go = { main: { DesktopApp: new Proxy({}, { get: (_, method) => async (...args) => {
  const r = await fetch('/bind/' + method, { method: 'POST', body: JSON.stringify(args) });
  const body = await r.json();
  if (!r.ok) throw body.error;
  return body.result;
} }) } };
</script>`

// uiServer serves the built frontend with the shim, bound to app.
func uiServer(t *testing.T, app *DesktopApp) *httptest.Server {
	dist := filepath.Join("..", "frontend", "dist")
	index, err := os.ReadFile(filepath.Join(dist, "index.html"))
	if err != nil {
		t.Fatalf("the UI tier needs the built frontend (bash build/test.sh builds it; or cd frontend && npm run build): %v", err)
	}
	page := strings.Replace(string(index), "<head>", "<head>"+bindingShim, 1)
	files := http.FileServer(http.Dir(dist))
	mux := http.NewServeMux()
	mux.HandleFunc("/bind/", func(w http.ResponseWriter, r *http.Request) {
		var args []json.RawMessage
		_ = json.NewDecoder(r.Body).Decode(&args)
		var result any
		var err error
		switch strings.TrimPrefix(r.URL.Path, "/bind/") {
		case "Manuscript":
			result, err = app.Manuscript()
		case "Call":
			var tool, a string
			if len(args) == 2 && json.Unmarshal(args[0], &tool) == nil && json.Unmarshal(args[1], &a) == nil {
				result, err = app.Call(tool, a)
			} else {
				err = errors.New("Call needs a tool name and JSON arguments")
			}
		default:
			err = errors.New("no such bound method")
		}
		w.Header().Set("Content-Type", "application/json")
		if err != nil {
			w.WriteHeader(http.StatusBadRequest)
			_ = json.NewEncoder(w).Encode(map[string]string{"error": err.Error()})
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"result": result})
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" || r.URL.Path == "/index.html" {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write([]byte(page))
			return
		}
		files.ServeHTTP(w, r)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// TestUIManuscriptByNumbers opens the real frontend on the sample
// manuscript, bound to the real services, and drives it the way a blind user
// would: Waymark's own browser tools, by numbers.
func TestUIManuscriptByNumbers(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "manuscript.md")
	if err := os.WriteFile(doc, sample.Manuscript, 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(dir, "ui.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ws := manuscript.NewWorkspace(st)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	if _, err := ws.Open(ctx, doc); err != nil {
		t.Fatal(err)
	}
	reg, _ := newRegistry(ws, agent.Builtin{})
	srv := uiServer(t, &DesktopApp{ws: ws, reg: reg})

	s, err := browser.Launch(ctx, browser.Options{Headless: true, ScreenshotDir: dir, DownloadDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Navigate(ctx, srv.URL); err != nil {
		t.Fatal(err)
	}
	// The window's first paint: the title, the outline and the status line.
	var sum *browser.Summary
	for i := 0; i < 50; i++ {
		if sum, err = s.Extract(ctx, ""); err == nil && strings.Contains(sum.Text, "Opened manuscript.md") {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	for _, want := range []string{"Level 1: Waymark — manuscript.md", "Level 2: Outline", "Chapter One: The Ledger", "Opened manuscript.md", "navigation \"Outline\"", "search"} {
		if !strings.Contains(sum.Text, want) {
			t.Errorf("the window lacks %q:\n%s", want, sum.Text)
		}
	}
	// Search by numbers: type into the search field, press Enter.
	l, err := s.Find(ctx, browser.FindOptions{Text: "Find in the manuscript"})
	if err != nil || len(l.Matches) == 0 {
		t.Fatalf("search field: %v %+v", err, l)
	}
	if _, err := s.Act(ctx, browser.ActOptions{Index: l.Matches[0].Number, Action: "type", Text: "ledger"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Press(ctx, "Enter"); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 50; i++ {
		if sum, err = s.Extract(ctx, ""); err == nil && strings.Contains(sum.Text, "Level 2: Results") {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !strings.Contains(sum.Text, "Level 2: Results") || !strings.Contains(sum.Text, "H2.p3 The ledger arrived on a Tuesday") || !strings.Contains(sum.Text, "matches for “ledger”.") {
		t.Fatalf("no results after searching:\n%s", sum.Text)
	}
	// A bad call through the binding comes back as the error region's text.
	if _, err := (&DesktopApp{ws: ws, reg: reg}).Call("NoSuchTool", "{}"); err == nil {
		t.Fatal("an unknown tool was accepted by the binding")
	}
}
