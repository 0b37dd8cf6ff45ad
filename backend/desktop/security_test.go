package desktop

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
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
	for _, want := range []string{"type " + itoa(pw) + " •••", "sign in as anna, my password is •••"} {
		if !strings.Contains(string(all), want) {
			t.Errorf("the transcript lacks %q: %s", want, all)
		}
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestBrowserTranscriptKeepsNoTypedValues drives the Browser workspace as
// issue 21's probe did: a PIN typed into a plain text field, a password
// shown with "Show password", then "read page" and "list"; with a model
// set, a misspelled type command and goals naming a password. No value
// typed into a field, and no secret-looking part of a goal, is stored in
// the transcript (checked after a restart) or said back in the window; the
// transcript says how many characters were typed into which field (issue
// 21: it stored PIN code (textbox) = "SECRET" and the goals word for word).
func TestBrowserTranscriptKeepsNoTypedValues(t *testing.T) {
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><title>Bank</title><h1>Sign in</h1><form onsubmit="return false">
<label>PIN code <input id="pin" inputmode="numeric"></label>
<label>Password <input id="pw" type="password"></label>
<label><input type="checkbox" onclick="pw.type = this.checked ? 'text' : 'password'"> Show password</label>
<button>Go</button></form>`)
	}))
	defer page.Close()
	db := filepath.Join(t.TempDir(), "w.db")
	a := browserApp(t, db)
	srv := llmtest.New(t, llmtest.Repeat(llmtest.Handler(func(req llmtest.ChatRequest) llmtest.Reply {
		return llmtest.Completion{Content: "Done.", ToolCalls: []llm.ToolCall{{ID: "d", Name: "assistant_done", Arguments: json.RawMessage(`{"reason":"nothing to do"}`)}}}
	})))
	s, _ := a.Settings()
	s.ModelURL, s.Model = srv.URL(), "test"
	if _, err := a.SaveSettings(s); err != nil {
		t.Fatal(err)
	}
	secrets := []string{"27182818", "Tr0ub4dor&3", "qz7-typo-secret", "alice-slash-secret", "pw-colon-secret", "парольСекрет9", "код-7731"}
	var said []string
	run := func(cmd string) BrowserView {
		t.Helper()
		v, err := a.BrowserCommand(cmd)
		if err != nil {
			said = append(said, err.Error())
		}
		said = append(said, v.Say, v.Result)
		for _, it := range v.Items {
			said = append(said, it.Value)
		}
		return v
	}
	number := func(v BrowserView, name string) string {
		for _, it := range v.Items {
			if it.Name == name {
				return itoa(it.Number)
			}
		}
		t.Fatalf("no %q in %+v", name, v.Items)
		return ""
	}
	run("go to " + page.URL)
	v := run("list")
	run("type " + number(v, "PIN code") + " " + secrets[0])
	run("read page")
	run("list")
	run("type " + number(v, "Password") + " " + secrets[1])
	run("click " + number(v, "Show password"))
	run("read page")
	v = run("list")
	// With a model: a misspelled type command and goals naming secrets go
	// to the assistant as goals.
	typo := "tpye " + number(v, "PIN code") + " " + secrets[2]
	run(typo)
	// Not a command: the window gives it to the assistant as a goal.
	if _, err := a.BrowserGoal(typo); err != nil {
		t.Fatal(err)
	}
	for _, goal := range []string{"sign in as user alice / " + secrets[3], "log in, pw: " + secrets[4], "войди, пароль " + secrets[5], "введи код " + secrets[6]} {
		if _, err := a.BrowserGoal(goal); err != nil {
			t.Fatalf("goal %q: %v", goal, err)
		}
	}
	for _, l := range said {
		for _, sec := range secrets[:2] {
			if strings.Contains(l, sec) {
				t.Errorf("the window said a typed value back: %q", l)
			}
		}
	}
	b := browserApp(t, db) // a restart on the same profile
	st, err := b.BrowserSessionState()
	if err != nil {
		t.Fatal(err)
	}
	all, _ := json.Marshal(st.Transcript)
	for _, sec := range secrets {
		if strings.Contains(string(all), sec) {
			t.Errorf("the transcript holds %q", sec)
		}
	}
	for _, want := range []string{"typed 8 characters into PIN code", "typed 11 characters into Password", "sign in as user alice / •••", "log in, pw: •••"} {
		if !strings.Contains(string(all), want) {
			t.Errorf("the transcript lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("transcript: %s", all)
	}
}
