package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/llm/llmtest"
	"github.com/waymark/waymark/backend/tools"
)

// A conversation loop whose results pile up past the model's context budget
// goes on to its answer: each request the server receives fits the budget
// (with room for the reply), the newest result of each tool is there whole,
// and every call still has its answer. On the old code the client refused
// the fourth request ("does not fit the model's context budget") and the run
// failed.
func TestConversationKeepsWithinTheBudget(t *testing.T) {
	page := func(kind string, n int) string {
		return fmt.Sprintf("%s %d: ", kind, n) + strings.Repeat(fmt.Sprintf("the text of %s %d. ", kind, n), 200)
	}
	reg := tools.New()
	for _, kind := range []string{"page", "list"} {
		reg.MustRegister(tools.Tool{Name: "Read" + strings.ToUpper(kind[:1]) + kind[1:], Description: "reads a " + kind,
			InputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"number"}},"required":["n"],"additionalProperties":false}`),
			Handler: func(ctx context.Context, call tools.Call, tool *tools.Tool, tc tools.Context) (any, error) {
				a, err := tools.Decode[struct{ N int }](call)
				if err != nil {
					return nil, err
				}
				return map[string]any{"status": "ok", "data": page(kind, a.N)}, nil
			}})
	}
	// Eight steps: a list, then pages 1..7 (each page about 2,500 tokens of
	// the server's count), then the answer.
	const steps = 8
	srv := llmtest.NewWithOptions(t, llmtest.Options{Tokenizer: true}, llmtest.Repeat(llmtest.Handler(func(req llmtest.ChatRequest) llmtest.Reply {
		calls := 0
		for _, m := range req.Messages {
			calls += len(m.ToolCalls)
		}
		if calls >= steps {
			return llmtest.Completion{Content: "read them all"}
		}
		name, n := "ReadPage", calls
		if calls == 0 {
			name = "ReadList"
		}
		b, _ := json.Marshal(map[string]any{"n": n})
		return llmtest.Completion{Content: "reading", ToolCalls: []llm.ToolCall{{ID: fmt.Sprintf("c%d", calls), Name: name, Arguments: b}}}
	})))
	cfg := llm.DefaultConfig(srv.URL(), "test-model")
	cfg.ContextTokens = 8192
	model, err := llm.NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	l := &Loop{Reg: reg, Model: model, Conversation: true, OnePerStep: true, Limits: Limits{Turns: 20, Steps: 20}}
	res, err := l.Run(context.Background(), "", []LoopMessage{{Kind: KindUser, Text: "Read the list, then pages 1 to 7."}})
	if err != nil {
		t.Fatalf("the run failed: %v", err)
	}
	if res.Solution != "read them all" {
		t.Fatalf("the run ended without its answer: %+v", res)
	}
	reqs := srv.Requests()
	if len(reqs) != steps+1 {
		t.Fatalf("%d requests, want %d", len(reqs), steps+1)
	}
	for i, r := range reqs {
		if r.ServerTokens+llm.ReplyTokens > cfg.ContextTokens {
			t.Errorf("request %d holds %d tokens and %d for the reply: over the budget of %d", i+1, r.ServerTokens, llm.ReplyTokens, cfg.ContextTokens)
		}
	}
	last := reqs[len(reqs)-1].Messages
	var results []string
	calls := 0
	for _, m := range last {
		calls += len(m.ToolCalls)
		if m.Role == llm.RoleTool {
			results = append(results, m.Content)
		}
	}
	if calls != steps || len(results) != steps {
		t.Fatalf("the last request has %d calls and %d results, want %d of each", calls, len(results), steps)
	}
	newest := string(mustJSON(map[string]any{"status": "ok", "data": page("page", steps-1)}))
	if results[steps-1] != newest {
		t.Errorf("the newest page is not whole in the last request: %.200q…", results[steps-1])
	}
	if list := string(mustJSON(map[string]any{"status": "ok", "data": page("list", 0)})); results[0] != list {
		t.Errorf("the list (the newest of its tool) was left out or cut: %.200q…", results[0])
	}
	if !strings.Contains(results[1], "left out to keep within the model's context") {
		t.Errorf("the oldest page, replaced by newer ones, is still there: %.200q…", results[1])
	}
	if last[1].Content != "Read the list, then pages 1 to 7." {
		t.Errorf("the goal is not the request's first user message: %q", last[1].Content)
	}
}
