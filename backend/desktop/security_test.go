package desktop

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/waymark/waymark/app/sample"
	"github.com/waymark/waymark/backend/agent/author"
	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/browser/browsertest"
	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/llm/llmtest"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/store"
)

// browserApp is the window's services with a headless browser, on a profile
// database at db.
func browserApp(t *testing.T, db string) *App {
	t.Helper()
	dir := filepath.Dir(db)
	doc := filepath.Join(dir, "book.md")
	if _, err := os.Stat(doc); err != nil {
		if err := os.WriteFile(doc, sample.Manuscript, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ws := manuscript.NewWorkspace(st)
	if _, err := ws.Open(context.Background(), doc); err != nil {
		t.Fatal(err)
	}
	ss := browser.NewSessions(browser.Options{Headless: true, ScreenshotDir: filepath.Join(dir, "shots")})
	t.Cleanup(func() { ss.Close() })
	w := testParts(ws, author.Builtin{}, ss)
	return New(Config{Waymark: w, NewBrowser: func(Settings) *browser.Sessions { return ss }})
}

// TestBrowserTranscriptKeepsNoSecrets: "type N PASSWORD" in the Browser
// workspace and a goal stating a password are never stored; after a restart
// the transcript shows neither (issue 13: both were stored and shown again).
func TestBrowserTranscriptKeepsNoSecrets(t *testing.T) {
	sites, err := browsertest.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer sites.Close()
	db := filepath.Join(t.TempDir(), "w.db")
	a := browserApp(t, db)
	srv := llmtest.New(t, llmtest.Repeat(llmtest.Handler(func(req llmtest.ChatRequest) llmtest.Reply {
		for _, m := range req.Messages {
			if m.Role == "tool" {
				return llmtest.Completion{Content: "Done.", ToolCalls: []llm.ToolCall{{ID: "d", Name: "assistant_done", Arguments: json.RawMessage(`{"reason":"looked"}`)}}}
			}
		}
		return llmtest.Completion{Content: "Reading the page.", ToolCalls: []llm.ToolCall{{ID: "x", Name: "browser_extract", Arguments: json.RawMessage(`{}`)}}}
	})))
	s, _ := a.Settings()
	s.ModelURL, s.Model = srv.URL(), "test"
	if _, err := a.SaveSettings(s); err != nil {
		t.Fatal(err)
	}
	if _, err := a.BrowserCommand("go to " + sites.URL("/login")); err != nil {
		t.Fatal(err)
	}
	v, err := a.BrowserCommand("list")
	if err != nil {
		t.Fatal(err)
	}
	pw := 0
	for _, it := range v.Items {
		if it.Name == "Пароль" {
			pw = it.Number
		}
	}
	if pw == 0 {
		t.Fatalf("no password field in %+v", v.Items)
	}
	if v, err := a.BrowserCommand("type " + itoa(pw) + " hunter2"); err != nil || v.Status != "ok" {
		t.Fatalf("type: %v %+v", err, v)
	}
	if _, err := a.BrowserGoal("sign in as anna, my password is tr0ub4dor"); err != nil {
		t.Fatal(err)
	}

	// Restart: a new window on the same profile.
	b := browserApp(t, db)
	st, err := b.BrowserSessionState()
	if err != nil {
		t.Fatal(err)
	}
	all, _ := json.Marshal(st.Transcript)
	for _, secret := range []string{"hunter2", "tr0ub4dor"} {
		if strings.Contains(string(all), secret) {
			t.Errorf("the transcript after a restart holds %q: %s", secret, all)
		}
	}
	for _, want := range []string{"type " + itoa(pw) + " (typed text not kept)", "sign in as anna, my password is •••"} {
		if !strings.Contains(string(all), want) {
			t.Errorf("the transcript lacks %q: %s", want, all)
		}
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
