package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark/waymark/backend/agent/author"
	"github.com/waymark/waymark/backend/agent/web"
	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/llm/llmtest"
	"github.com/waymark/waymark/backend/tools"
)

// An MCP client gives the browser assistant a goal (BrowserGoal) and hears
// each step's line as it comes, as notifications/progress; the number
// commands (BrowseCommand) answer in the command's language (issue 24,
// point 2; issue 23, point 9). A real model client talks HTTP to a scripted
// OpenAI-compatible server; a real Chromium opens the page.
func TestBrowserGoalReportsProgressOverMCP(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><html lang="en"><title>Library hours</title><main><h1>Opening hours</h1><p>Open 9 to 18.</p><a href="/more">More</a></main>`)
	}))
	defer site.Close()
	call := func(id, say, name string, args map[string]any) llmtest.Reply {
		b, _ := json.Marshal(args)
		return llmtest.Completion{Content: say, ToolCalls: []llm.ToolCall{{ID: id, Name: name, Arguments: b}}}
	}
	model := llmtest.New(t,
		call("c1", "Opening the library page.", "browser_navigate", map[string]any{"url": site.URL}),
		call("c2", "Reading the page.", "browser_extract", map[string]any{"mode": "summary"}),
		call("c3", "The library is open 9 to 18.", "assistant_done", map[string]any{"reason": "the page says it is open 9 to 18"}),
	)
	cfg := llm.DefaultConfig(model.URL(), "scripted")
	cfg.Timeout = 10 * time.Second
	client, err := llm.NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ss := browser.NewSessions(browser.Options{Headless: true})
	defer ss.Close()
	reg := tools.New()
	browser.Register(reg, ss)
	web.RegisterBrowsing(reg, &author.Runtime{Model: client})

	var mu sync.Mutex
	var heard []string
	cs := connect(t, ctx, serverOf(reg, "test"), &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *sdk.ProgressNotificationClientRequest) {
			mu.Lock()
			heard = append(heard, r.Params.Message)
			mu.Unlock()
		}})
	// The goal names the site: an IP address no one named waits for the
	// user's yes (issue 21), which this client does not give.
	p := &sdk.CallToolParams{Name: "BrowserGoal", Arguments: map[string]any{"goal": "find when the library is open on " + site.URL}}
	p.SetProgressToken("goal-1")
	res, err := cs.CallTool(ctx, p)
	if err != nil || res.IsError {
		t.Fatalf("BrowserGoal: %v %+v", err, res)
	}
	var out web.AssistantResult
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil || !out.Done {
		t.Fatalf("BrowserGoal result: %s", b)
	}
	// Notifications may arrive just after the result: wait for the last
	// line (the test's deadline bounds the wait).
	for ctx.Err() == nil {
		mu.Lock()
		got := strings.Join(heard, "\n")
		mu.Unlock()
		if strings.Contains(got, "Goal reached:") {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	mu.Lock()
	got := strings.Join(heard, "\n")
	mu.Unlock()
	for _, want := range []string{"find when the library is open", "Opening the library page.", "Reading the page.", "Goal reached: the page says it is open 9 to 18"} {
		if !strings.Contains(got, want) {
			t.Errorf("the client did not hear %q; it heard:\n%s", want, got)
		}
	}

	// The number commands through the same door, in Russian.
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "BrowseCommand", Arguments: map[string]any{"command": "список"}})
	if err != nil || res.IsError {
		t.Fatalf("BrowseCommand: %v %+v", err, res)
	}
	var ans web.BrowseAnswer
	b, _ = json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &ans); err != nil || ans.Lang != web.Russian || ans.Lines() != "Список элементов.\nЭлементов: 1.\n1. ссылка More" {
		t.Errorf("список over MCP: %s", b)
	}
}
