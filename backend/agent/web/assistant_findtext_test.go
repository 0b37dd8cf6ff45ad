package web_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/waymark/waymark/backend/agent/web"
	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/llm/llmtest"
)

// TestAssistantSearchesThePageText: the assistant is offered the page-text
// search (not only the numbered elements' find), and its answer reaches the
// model: a goal about a sentence of the page can find it.
func TestAssistantSearchesThePageText(t *testing.T) {
	r := newRig(t)
	site := startSteerSite(t)
	var mu sync.Mutex
	var offered []string
	var toolReplies []string
	turns := []struct {
		tool, args string
	}{{"browser_navigate", `{"url":"` + site.URL + `/hours"}`}, {"browser_find_text", `{"text":"Saturday"}`}}
	srv := llmtest.New(t, llmtest.Repeat(llmtest.Handler(func(req llmtest.ChatRequest) llmtest.Reply {
		mu.Lock()
		defer mu.Unlock()
		offered = offered[:0]
		for _, tl := range req.Tools {
			offered = append(offered, tl.Name)
		}
		toolReplies = toolReplies[:0]
		done := 0
		for _, m := range req.Messages {
			if m.Role == "tool" {
				toolReplies = append(toolReplies, m.Content)
			}
			if m.Role == "assistant" && len(m.ToolCalls) > 0 {
				done++
			}
		}
		if done >= len(turns) {
			return llmtest.Completion{Content: "Done.", ToolCalls: []llm.ToolCall{{ID: "end", Name: "assistant_done", Arguments: json.RawMessage(`{"reason":"read it"}`)}}}
		}
		return llmtest.Completion{Content: "Step.", ToolCalls: []llm.ToolCall{{ID: fmt.Sprintf("t%d", done), Name: turns[done].tool, Arguments: json.RawMessage(turns[done].args)}}}
	})))
	var asked []string
	a := &web.Assistant{Reg: r.reg, Model: modelClient(t, srv.URL()), MaxSteps: 6, AskTimeout: 5 * time.Second, Ask: answering(&asked, nil)}
	if _, err := a.Run(ctxFor(t), "when does the library open on Saturday? "+site.URL+"/hours"); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(strings.Join(offered, " "), "browser_find_text") || !strings.Contains(strings.Join(offered, " "), "browser_table") {
		t.Fatalf("the model was offered %v: no page-text search or tables", offered)
	}
	found := false
	for _, c := range toolReplies {
		if strings.Contains(c, "Saturday 10:00") {
			found = true
		}
	}
	if !found {
		t.Fatalf("the page-text search's answer did not reach the model: %q", toolReplies)
	}
}
