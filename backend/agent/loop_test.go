package agent

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/llm/llmtest"
	"github.com/waymark/waymark/backend/tools"
)

type loopFixture struct {
	reg      *tools.Registry
	notified atomic.Int32
	scopes   atomic.Int32
}

func newLoopFixture(t *testing.T) *loopFixture {
	f := &loopFixture{reg: tools.New()}
	num := json.RawMessage(`{"type":"object","properties":{"x":{"type":"number"}},"required":["x"],"additionalProperties":false}`)
	f.reg.MustRegister(
		tools.Tool{Name: "Double", Description: "doubles x", InputSchema: num,
			Handler: func(ctx context.Context, call tools.Call, tool *tools.Tool, tc tools.Context) (any, error) {
				a, err := tools.Decode[struct{ X float64 }](call)
				if err != nil {
					return nil, err
				}
				if a.X < 0 {
					return nil, errors.New("x must not be negative")
				}
				if a.X == 4 { // the call that imported †state.a through _scopes
					f.scopes.Store(int32(len(tc.Messages)))
				}
				return a.X * 2, nil
			}},
		tools.Tool{Name: "Weather", Description: "today's weather; chooses the branch",
			Handler: func(ctx context.Context, call tools.Call, tool *tools.Tool, tc tools.Context) (any, error) {
				var out string
				_ = json.Unmarshal(call.Meta["_outputPath"], &out)
				if !strings.Contains(out, "†state.sunny") {
					return nil, errors.New("expected a sunny branch")
				}
				return map[string]any{"_branch": "†state.sunny", "celsius": 24}, nil
			}},
		tools.Tool{Name: "Notify", Description: "logs a line",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"additionalProperties":false}`),
			Handler: func(ctx context.Context, call tools.Call, tool *tools.Tool, tc tools.Context) (any, error) {
				f.notified.Add(1)
				return nil, nil
			}},
	)
	return f
}

func call(name string, args map[string]any) llm.ToolCall {
	b, _ := json.Marshal(args)
	return llm.ToolCall{ID: "c_" + name, Name: name, Arguments: b}
}

// TestLoopState: one tool a step; a result lands in State at the call's
// _outputPath (a branching path takes the tool's choice), a later call's
// "†state.x" resolves to it, _scopes give the tool the values it may see,
// and a failure or an unresolved reference is the answer the model reads.
func TestLoopState(t *testing.T) {
	f := newLoopFixture(t)
	srv := llmtest.New(t,
		llmtest.ToolCalls(call("Double", map[string]any{"x": 2, "_outputPath": "†state.a"})),
		llmtest.ToolCalls(call("Double", map[string]any{"x": "†state.a", "_outputPath": "†state.b", "_scopes": []string{"†state.a"}})),
		llmtest.ToolCalls(call("Weather", map[string]any{"_outputPath": "†state.sunny || †state.rainy"})),
		llmtest.ToolCalls(call("Double", map[string]any{"x": -1, "_outputPath": "†state.neg"})),
		llmtest.ToolCalls(call("Double", map[string]any{"x": "†state.nope", "_outputPath": "†state.c"}), call("Notify", map[string]any{"text": "two at once"})),
		llmtest.Text("b is 8"))
	l := &Loop{Reg: f.reg, Model: llmtest.Client(t, srv.URL())}
	res, err := l.Run(context.Background(), []LoopMessage{{Kind: KindUser, Text: "double 2 twice"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Solution != "b is 8" || string(res.State["a"]) != "4" || string(res.State["b"]) != "8" || res.Steps != 5 {
		t.Fatalf("result %+v", res)
	}
	if _, ok := res.State["rainy"]; ok || !strings.Contains(string(res.State["sunny"]), `"celsius":24`) {
		t.Fatalf("branch: %v", res.State)
	}
	if f.scopes.Load() != 1 {
		t.Fatalf("scoped messages: %d", f.scopes.Load())
	}
	if f.notified.Load() != 0 {
		t.Fatal("a second call of one step ran: one tool per step")
	}
	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	var text []string
	for _, m := range last.Messages {
		text = append(text, m.Content)
	}
	all := strings.Join(text, "\n")
	for _, want := range []string{"Data †state.a = 4", "Double: x must not be negative", "waits for †state.nope", "Only the first tool call was run"} {
		if !strings.Contains(all, want) {
			t.Errorf("the last request lacks %q:\n%s", want, all)
		}
	}
}

// TestLoopLimitsAndPlans: the turn limit stops a loop that never answers;
// a lazy plan is drafted with no tool offered, validated (a cycle, a
// dangling reference or an unknown tool is refused, naming the steps) and
// run in dependency order, as the author's plans are.
func TestLoopLimitsAndPlans(t *testing.T) {
	f := newLoopFixture(t)
	srv := llmtest.New(t, llmtest.Repeat(llmtest.ToolCalls(call("Double", map[string]any{"x": 1, "_outputPath": "†state.a"}))))
	l := &Loop{Reg: f.reg, Model: llmtest.Client(t, srv.URL()), Limits: Limits{Turns: 3}}
	res, err := l.Run(context.Background(), []LoopMessage{{Kind: KindUser, Text: "loop forever"}})
	if err != nil || res.Stopped != "turn limit reached (3)" {
		t.Fatalf("turn limit: %+v %v", res, err)
	}

	planJSON := `{"steps":[{"id":"s2","tool":"Double","args":{"x":"†state.a"},"outputPath":"†state.b"},{"id":"s1","tool":"Double","args":{"x":3},"outputPath":"†state.a"}]}`
	cases := []struct {
		name, plan, wantB, wantErr string
	}{
		{"in dependency order", planJSON, "12", ""},
		{"cycle", `{"steps":[{"id":"s1","tool":"Double","args":{"x":"†state.b"},"outputPath":"†state.a"},{"id":"s2","tool":"Double","args":{"x":"†state.a"},"outputPath":"†state.b"}]}`, "", "not acyclic: steps s1, s2"},
		{"dangling", `{"steps":[{"id":"s1","tool":"Double","args":{"x":"†state.zz"},"outputPath":"†state.a"}]}`, "", "no step produces"},
		{"unknown tool", `{"steps":[{"id":"s1","tool":"Explode","args":{},"outputPath":"†state.a"}]}`, "", `unknown tool "Explode"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Text(c.plan))
			l := &Loop{Reg: f.reg, Model: llmtest.Client(t, srv.URL())}
			steps, _, _, err := l.DraftPlan(context.Background(), []LoopMessage{{Kind: KindUser, Text: "compute"}})
			if err != nil {
				t.Fatal(err)
			}
			// Nothing ran while planning: the model got no tools.
			if len(srv.Requests()) != 1 || len(srv.Requests()[0].Tools) != 0 {
				t.Fatalf("lazy planning request: %d requests", len(srv.Requests()))
			}
			order, err := l.ValidatePlan(steps, nil)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			res, err := l.RunSteps(context.Background(), steps, order, LoopResult{State: map[string]json.RawMessage{}})
			if err != nil || res.Stopped != "" || string(res.State["b"]) != c.wantB {
				t.Fatalf("%+v %v", res, err)
			}
		})
	}
}

// jsonCalls is a Protocol in the cursor sub-agent's style: each turn is one
// JSON document {"do":"Tool",...}, the rest its arguments.
type jsonCalls struct{}

func (jsonCalls) Schema() *llm.JSONSchema {
	return &llm.JSONSchema{Name: "call", Schema: json.RawMessage(`{"type":"object","properties":{"do":{"type":"string"}},"required":["do"]}`)}
}

func (jsonCalls) Read(raw string) (llm.ToolCall, error) {
	var args map[string]any
	if json.Unmarshal([]byte(raw), &args) != nil || args["do"] == nil {
		return llm.ToolCall{}, errors.New("Return one JSON call.")
	}
	name, _ := args["do"].(string)
	delete(args, "do")
	b, _ := json.Marshal(args)
	return llm.ToolCall{Name: name, Arguments: b}, nil
}

// lastStep is a context policy that keeps only the latest step, as the
// cursor sub-agent keeps only the portion it shows.
type lastStep struct {
	recorded [][]llm.Message
}

func (p *lastStep) Request(context.Context) []llm.Message {
	req := []llm.Message{{Role: llm.RoleSystem, Content: "policy prompt"}, {Role: llm.RoleUser, Content: "double"}}
	if n := len(p.recorded); n > 0 {
		req = append(req, p.recorded[n-1]...)
	}
	return req
}

func (p *lastStep) Record(exchange ...llm.Message) { p.recorded = append(p.recorded, exchange) }

// TestLoopProtocolAndContextPolicy: a loop whose model answers in one JSON
// document a turn (the cursor sub-agent's protocol) runs the document as its
// call, answers it in a user message, reminds the model of a document that
// is not a call Retries times in a row, then stops with a NoCallError; its
// context policy decides each request; After can end the run.
func TestLoopProtocolAndContextPolicy(t *testing.T) {
	f := newLoopFixture(t)
	srv := llmtest.New(t,
		llmtest.Text(`{"do":"Double","x":2}`),
		llmtest.Text("four"),
		llmtest.Text(`{"do":"Double","x":4}`),
		llmtest.Text("nope"), llmtest.Text("nope"), llmtest.Text("still nope"))
	p := &lastStep{}
	l := &Loop{Reg: f.reg, Model: llmtest.Client(t, srv.URL()), Activities: []string{"Double"}, Protocol: jsonCalls{}, Context: p, Retries: 2}
	res, err := l.Run(context.Background(), nil)
	var nc *NoCallError
	if !errors.As(err, &nc) || nc.Retries != 2 || nc.Last != "still nope" || res.Turns != 6 || res.Steps != 2 {
		t.Fatalf("%+v %v", res, err)
	}
	reqs := srv.Requests()
	for i, r := range reqs {
		if len(r.Tools) != 0 || !strings.Contains(string(r.ResponseFormat), `"do"`) || r.Messages[0].Content != "policy prompt" {
			t.Fatalf("request %d: tools %v, response_format %s, messages %+v", i, r.Tools, r.ResponseFormat, r.Messages)
		}
	}
	// The call is answered in a user message; the request holds only the
	// step the policy keeps; a reminder follows a reply that is not a call.
	want := [][]string{
		{`{"do":"Double","x":2}`, "4"},
		{"four", "Return one JSON call."},
		{`{"do":"Double","x":4}`, "8"},
	}
	for i, w := range want {
		m := reqs[i+1].Messages
		if len(m) != 4 || m[2].Role != llm.RoleAssistant || len(m[2].ToolCalls) != 0 || m[2].Content != w[0] || m[3].Role != llm.RoleUser || m[3].Content != w[1] {
			t.Errorf("request %d: %+v, want the exchange %q", i+1, m, w)
		}
	}

	// After ends the run: the cursor's finishing actions.
	srv = llmtest.New(t, llmtest.Text(`{"do":"Double","x":3}`), llmtest.Text(`{"do":"Double","x":4}`))
	l = &Loop{Reg: f.reg, Model: llmtest.Client(t, srv.URL()), Protocol: jsonCalls{}, Context: &lastStep{},
		After: func(_ context.Context, g *Guarded, out any, _ error) error {
			if out == 8.0 {
				g.Stop, g.Solution = true, "eight"
			}
			return nil
		}}
	res, err = l.Run(context.Background(), nil)
	if err != nil || res.Solution != "eight" || res.Steps != 2 || res.Usage.TotalTokens == 0 {
		t.Fatalf("%+v %v", res, err)
	}
}
