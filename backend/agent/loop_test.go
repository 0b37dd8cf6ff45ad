package agent

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/llm/llmtest"
	"github.com/waymark/waymark/backend/store"
	"github.com/waymark/waymark/backend/tools"
)

type loopFixture struct {
	reg      *tools.Registry
	notified atomic.Int32
	scopes   atomic.Int32
	st       *store.Store
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
	st, err := store.Open(filepath.Join(t.TempDir(), "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f.st = st
	return f
}

func call(name string, args map[string]any) llm.ToolCall {
	b, _ := json.Marshal(args)
	return llm.ToolCall{ID: "c_" + name, Name: name, Arguments: b}
}

func TestLoopEager(t *testing.T) {
	f := newLoopFixture(t)
	var second llmtest.ChatRequest
	turn := 0
	srv := llmtest.New(t, llmtest.Repeat(llmtest.Handler(func(req llmtest.ChatRequest) llmtest.Reply {
		turn++
		switch turn {
		case 1:
			return llmtest.ToolCalls(
				call("Double", map[string]any{"x": "†state.a", "_outputPath": "†state.b", "_scopes": []string{"†state.a"}}), // waits for a
				call("Double", map[string]any{"x": 2, "_outputPath": "†state.a"}),
				call("Notify", map[string]any{"text": "started"}),                                               // fire-and-forget
				call("think", map[string]any{"_output": "b should be 8"}),                                       // ephemeral
				call("guess", map[string]any{"_output": map[string]int{"b": 8}, "_outputPath": "†state.guess"}), // latent, stored
				call("Weather", map[string]any{"_outputPath": "†state.sunny || †state.rainy"}),
				call("Double", map[string]any{"x": -1, "_outputPath": "†state.neg"}),          // fails: the model sees the error
				call("Double", map[string]any{"x": "†state.nope", "_outputPath": "†state.c"}), // never resolves
			)
		case 2:
			second = req
			return llmtest.Text("b is 8")
		}
		return llmtest.Text("unexpected")
	})))
	l := &Loop{Reg: f.reg, Model: llmtest.Client(t, srv.URL()), Store: f.st, Latent: []LatentTool{{Name: "think"}, {Name: "guess"}}}
	res, err := l.Run(context.Background(), "s1", []LoopMessage{{Kind: KindUser, Text: "double 2 twice"}, {Kind: KindPlan, Plan: &Plan{Mode: "eager"}}})
	if err != nil {
		t.Fatal(err)
	}
	l.wg.Wait()
	if res.Solution != "b is 8" || string(res.State["a"]) != "4" || string(res.State["b"]) != "8" || string(res.State["guess"]) != `{"b":8}` {
		t.Fatalf("result %+v", res)
	}
	if _, ok := res.State["rainy"]; ok || !strings.Contains(string(res.State["sunny"]), `"celsius":24`) {
		t.Fatalf("branch: %v", res.State)
	}
	if f.notified.Load() != 1 {
		t.Fatal("fire-and-forget activity did not run")
	}
	if f.scopes.Load() != 1 {
		t.Fatalf("scoped messages: %d", f.scopes.Load())
	}
	var text []string
	for _, m := range second.Messages {
		text = append(text, m.Content)
	}
	all := strings.Join(text, "\n")
	for _, want := range []string{"Data †state.a = 4", "Thought: think", "Error: Double: x must not be negative", "waits for †state.nope"} {
		if !strings.Contains(all, want) {
			t.Errorf("second request lacks %q:\n%s", want, all)
		}
	}
	if _, ok := res.State["think"]; ok {
		t.Error("an ephemeral latent call was stored")
	}
	// The session's State persists: a new run sees it.
	srv2 := llmtest.New(t, llmtest.Handler(func(req llmtest.ChatRequest) llmtest.Reply {
		for _, m := range req.Messages {
			if strings.Contains(m.Content, "Data †state.b = 8") {
				return llmtest.Text("remembered")
			}
		}
		return llmtest.Text("forgot")
	}))
	l2 := &Loop{Reg: f.reg, Model: llmtest.Client(t, srv2.URL()), Store: f.st}
	res2, err := l2.Run(context.Background(), "s1", []LoopMessage{{Kind: KindUser, Text: "what was b?"}, {Kind: KindPlan}})
	if err != nil || res2.Solution != "remembered" {
		t.Fatalf("persisted state: %+v %v", res2, err)
	}
}

func TestLoopLimitsAndLazy(t *testing.T) {
	f := newLoopFixture(t)
	srv := llmtest.New(t, llmtest.Repeat(llmtest.ToolCalls(call("Double", map[string]any{"x": 1, "_outputPath": "†state.a"}))))
	l := &Loop{Reg: f.reg, Model: llmtest.Client(t, srv.URL()), Limits: Limits{Turns: 3}}
	res, err := l.Run(context.Background(), "", []LoopMessage{{Kind: KindUser, Text: "loop forever"}})
	if err != nil || res.Stopped != "turn limit reached (3)" {
		t.Fatalf("turn limit: %+v %v", res, err)
	}

	planJSON := `{"steps":[{"id":"s2","tool":"Double","args":{"x":"†state.a"},"outputPath":"†state.b"},{"id":"s1","tool":"Double","args":{"x":3},"outputPath":"†state.a"}]}`
	cases := []struct {
		name     string
		plan     string
		decision Decision
		edit     string
		wantB    string
		wantErr  string
		stopped  string
	}{
		{"approved", planJSON, Approve, "", "12", "", ""},
		{"edited", planJSON, Edit, `{"steps":[{"id":"s1","tool":"Double","args":{"x":5},"outputPath":"†state.b"}]}`, "10", "", ""},
		{"rejected", planJSON, Reject, "", "", "", "plan rejected"},
		{"cycle", `{"steps":[{"id":"s1","tool":"Double","args":{"x":"†state.b"},"outputPath":"†state.a"},{"id":"s2","tool":"Double","args":{"x":"†state.a"},"outputPath":"†state.b"}]}`, Approve, "", "", "not acyclic: steps s1, s2", ""},
		{"dangling", `{"steps":[{"id":"s1","tool":"Double","args":{"x":"†state.zz"},"outputPath":"†state.a"}]}`, Approve, "", "", "no step produces", ""},
		{"unknown tool", `{"steps":[{"id":"s1","tool":"Explode","args":{},"outputPath":"†state.a"}]}`, Approve, "", "", `unknown tool "Explode"`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Text(c.plan))
			var shown Plan
			l := &Loop{Reg: f.reg, Model: llmtest.Client(t, srv.URL()), ApprovePlan: func(ctx context.Context, p Plan) (Decision, Plan, error) {
				shown = p
				var e Plan
				_ = json.Unmarshal([]byte(c.edit), &e)
				return c.decision, e, nil
			}}
			res, err := l.Run(context.Background(), "", []LoopMessage{{Kind: KindUser, Text: "compute"}, {Kind: KindPlan, Plan: &Plan{Mode: "lazy"}}})
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(shown.Steps) == 0 {
				t.Fatal("the plan was not shown for approval")
			}
			if res.Stopped != c.stopped || string(res.State["b"]) != c.wantB {
				t.Fatalf("%+v", res)
			}
			// Nothing ran before approval: the model got no tools in lazy mode.
			if len(srv.Requests()) != 1 || len(srv.Requests()[0].Tools) != 0 {
				t.Fatalf("lazy planning request: %d requests", len(srv.Requests()))
			}
		})
	}
}
