package mcp

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/tools"
)

// Every MCP session gets its own browser: started by its first browser tool
// call, separate from other sessions' pages, and closed when it ends.
func TestBrowserSessionPerMCPSession(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>Page %s</title><h1>Page %s</h1>`, r.URL.Path[1:], r.URL.Path[1:])
	}))
	defer srv.Close()
	proc, err := browser.StartBrowser(ctx, browser.Options{Headless: true})
	if err != nil {
		t.Fatal(err)
	}
	defer proc.Close()
	opts := browser.Options{Headless: true, ControlURL: proc.ControlURL()}
	var mu sync.Mutex
	var made []*browser.Sessions
	reg := tools.New()
	def := browser.NewSessions(opts)
	browser.Register(reg, def)
	server := serverOf(reg, "test", Options{NewScope: func() Scope {
		ss := browser.NewSessions(opts)
		mu.Lock()
		made = append(made, ss)
		mu.Unlock()
		return ss
	}})
	call := func(cs *sdk.ClientSession, name string, args map[string]any) string {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", name, err, res)
		}
		return res.Content[0].(*sdk.TextContent).Text
	}
	a, b := connect(t, ctx, server, nil), connect(t, ctx, server, nil)
	call(a, "browser_navigate", map[string]any{"url": srv.URL + "/a"})
	call(b, "browser_navigate", map[string]any{"url": srv.URL + "/b"})
	if got := call(a, "browser_extract", map[string]any{}); !strings.Contains(got, "Page a") || strings.Contains(got, "Page b") {
		t.Fatalf("session a sees %s", got)
	}
	if got := call(b, "browser_extract", map[string]any{}); !strings.Contains(got, "Page b") {
		t.Fatalf("session b sees %s", got)
	}
	mu.Lock()
	n := len(made)
	mu.Unlock()
	if n != 2 || def.Current() != nil {
		t.Fatalf("%d per-session browsers were made (want 2); default used: %v", n, def.Current() != nil)
	}
	if made[0].Current() == nil {
		t.Fatal("session a's browser is not running")
	}
	_ = a.Close()
	deadline := time.Now().Add(10 * time.Second)
	for made[0].Current() != nil && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if made[0].Current() != nil {
		t.Fatal("session a's browser was not closed when the MCP session ended")
	}
	if _, err := made[0].Get(ctx); err == nil {
		t.Fatal("a closed session's browser could be started again")
	}
	// b is unaffected.
	if got := call(b, "browser_extract", map[string]any{}); !strings.Contains(got, "Page b") {
		t.Fatalf("session b after a closed: %s", got)
	}
	_ = b.Close()
}
