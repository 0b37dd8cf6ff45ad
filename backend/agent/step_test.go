package agent

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/llm/llmtest"
)

// The one model turn of every agent, over real HTTP: native calls and the two
// text fallbacks, tools not offered, one tool per step, limits, cancellation.
func TestStepperOneModelTurn(t *testing.T) {
	offered := []llm.ToolSpec{{Name: "Find", Parameters: json.RawMessage(`{"type":"object"}`)}, {Name: "Read", Parameters: json.RawMessage(`{"type":"object"}`)}}
	two := llmtest.ToolCalls(call("Find", map[string]any{"query": "a"}), call("Read", map[string]any{"index": 1}))
	cases := []struct {
		name      string
		reply     llmtest.Reply
		one       bool
		maxTokens int
		text      string
		calls     []string // name, "!" prefix: not offered
		dropped   int
		err       string
	}{
		{"native call", llmtest.Tool("Find", map[string]any{"query": "a"}), false, 0, "", []string{"Find"}, 0, ""},
		{"text fallback line", llmtest.Text(`Looking for it.` + "\n" + `function_call: name=Find args={"query":"a"}`), false, 0, "Looking for it.", []string{"Find"}, 0, ""},
		{"text fallback JSON", llmtest.Text(`{"name":"Read","arguments":{"index":2}}`), false, 0, `{"name":"Read","arguments":{"index":2}}`, []string{"Read"}, 0, ""},
		{"tool not offered", llmtest.Tool("Delete", map[string]any{"index": 1}), false, 0, "", []string{"!Delete"}, 0, ""},
		{"two calls, all kept", two, false, 0, "", []string{"Find", "Read"}, 0, ""},
		{"two calls, one per step", two, true, 0, "", []string{"Find"}, 1, ""},
		{"an answer", llmtest.Text("Done."), false, 0, "Done.", nil, 0, ""},
		{"token limit", llmtest.Text("Done."), false, 1, "Done.", nil, 0, "token limit reached"},
		{"server error", llmtest.Repeat(llmtest.Status(500, "boom")), false, 0, "", nil, 0, "boom"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := llmtest.New(t, c.reply)
			s := &Stepper{Model: llmtest.Client(t, srv.URL()), Tools: offered, One: c.one, MaxTurns: 1, MaxTokens: c.maxTokens}
			got, err := s.Step(context.Background(), []llm.Message{{Role: "user", Content: "go"}}, nil)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, k := range got.Calls {
				n := k.Name
				if !k.Offered {
					n = "!" + n
				}
				names = append(names, n)
			}
			if got.Text != c.text || strings.Join(names, ",") != strings.Join(c.calls, ",") || got.Dropped != c.dropped {
				t.Fatalf("turn %+v, calls %v", got, names)
			}
			// The turn limit: a second turn is refused before the model is asked.
			if _, err := s.Step(context.Background(), nil, nil); err == nil || !strings.Contains(err.Error(), "turn limit reached (1)") || len(srv.Requests()) != 1 {
				t.Fatalf("second turn: %v, %d requests", err, len(srv.Requests()))
			}
		})
	}
	// Cancelled: the model is not asked.
	srv := llmtest.New(t, llmtest.Text("never"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s := &Stepper{Model: llmtest.Client(t, srv.URL())}
	if _, err := s.Step(ctx, nil, nil); !errors.Is(err, context.Canceled) || len(srv.Requests()) != 0 {
		t.Fatalf("cancelled: %v, %d requests", err, len(srv.Requests()))
	}
}

// The loop's Guard refuses, answers or stops a call; the model reads the
// answer as the call's result (Conversation), and a tool not offered is
// refused with the list of those that are.
func TestLoopConversationGuard(t *testing.T) {
	f := newLoopFixture(t)
	srv := llmtest.New(t,
		llmtest.Tool("Double", map[string]any{"x": 3}),
		llmtest.Tool("Double", map[string]any{"x": 7}),
		llmtest.Tool("Explode", map[string]any{}),
		llmtest.Text("no call"),
		llmtest.Tool("finish", map[string]any{"why": "done"}))
	var lines []string
	l := &Loop{Reg: f.reg, Model: llmtest.Client(t, srv.URL()), Activities: []string{"Double"}, Conversation: true, OnePerStep: true,
		Extra:    []llm.ToolSpec{{Name: "finish", Parameters: json.RawMessage(`{"type":"object"}`)}},
		NeedCall: "Call a tool.", OnText: func(s string) { lines = append(lines, s) },
		Guard: func(ctx context.Context, g *Guarded) error {
			switch {
			case g.Call.Name == "finish":
				g.Answer, g.Stop, g.Solution = "ok", true, "finished"
			case g.Args["x"] == float64(7):
				g.Refuse = map[string]string{"error": "seven is not allowed"}
			}
			return nil
		}}
	res, err := l.Run(context.Background(), "", []LoopMessage{{Kind: KindUser, Text: "go"}})
	if err != nil || res.Solution != "finished" || res.Turns != 5 {
		t.Fatalf("%+v %v", res, err)
	}
	reqs := srv.Requests()
	tool := func(i int) string { return reqs[i].LastMessage().Content }
	if tool(1) != "6" || !strings.Contains(tool(2), "seven is not allowed") || !strings.Contains(tool(3), `unknown tool \"Explode\"; available: Double, finish`) || tool(4) != "Call a tool." {
		t.Fatalf("the model read: %q, %q, %q, %q", tool(1), tool(2), tool(3), tool(4))
	}
	if strings.Join(lines, "|") != "no call" {
		t.Fatalf("progress lines %q", lines)
	}
}
