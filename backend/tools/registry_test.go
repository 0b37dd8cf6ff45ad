package tools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func echoRegistry(t *testing.T) *Registry {
	t.Helper()
	r := New()
	err := r.Register(Tool{Name: "Echo", Description: "echo",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string","minLength":1},"times":{"type":"integer","minimum":1,"maximum":3}},"required":["text"],"additionalProperties":false}`),
		Handler: func(ctx context.Context, call Call, tool *Tool, tc Context) (any, error) {
			a, err := Decode[struct {
				Text  string `json:"text"`
				Times int    `json:"times"`
			}](call)
			if err != nil {
				return nil, err
			}
			return map[string]any{"text": strings.Repeat(a.Text, max(a.Times, 1)), "meta": len(call.Meta), "tool": tool.Name, "messages": len(tc.Messages)}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRegistryValidation(t *testing.T) {
	r := echoRegistry(t)
	cases := []struct {
		name, tool, args string
		want             string // "" = success
		is               error
	}{
		{"ok", "Echo", `{"text":"a","times":2}`, "", nil},
		{"meta split off", "Echo", `{"text":"a","_outputPath":"†state.x","_scopes":["a"]}`, "", nil},
		{"unknown tool", "Nope", `{}`, `unknown tool "Nope"; known tools: Echo`, ErrUnknownTool},
		{"array", "Echo", `[1]`, "arguments must be a JSON object", ErrInvalidArgs},
		{"not json", "Echo", `{`, "arguments must be a JSON object", ErrInvalidArgs},
		{"unknown field", "Echo", `{"text":"a","colour":1}`, `unknown field "colour"; allowed fields: text, times`, ErrInvalidArgs},
		{"wrong type", "Echo", `{"text":5}`, "invalid arguments for Echo", ErrInvalidArgs},
		{"missing", "Echo", `{}`, "text", ErrInvalidArgs},
		{"too big", "Echo", `{"text":"a","times":9}`, "invalid arguments for Echo", ErrInvalidArgs},
		{"empty string", "Echo", `{"text":""}`, "invalid arguments for Echo", ErrInvalidArgs},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := r.Call(context.Background(), Call{Name: c.tool, Args: json.RawMessage(c.args)}, Context{})
			if c.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				m := res.(map[string]any)
				if c.name == "meta split off" && m["meta"] != 2 {
					t.Fatalf("meta not split: %v", m)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, c.is) {
				t.Fatalf("error %v, want %q (%v)", err, c.want, c.is)
			}
		})
	}
}

func TestRegisterRejects(t *testing.T) {
	r := echoRegistry(t)
	h := func(context.Context, Call, *Tool, Context) (any, error) { return nil, nil }
	for _, bad := range []Tool{
		{Name: "Echo", Handler: h},
		{Name: "", Handler: h},
		{Name: "X"},
		{Name: "Y", Handler: h, InputSchema: json.RawMessage(`{"type":"string"}`)},
		{Name: "Z", Handler: h, InputSchema: json.RawMessage(`{not json`)},
	} {
		if err := r.Register(bad); err == nil {
			t.Errorf("Register(%q) accepted", bad.Name)
		}
	}
	if got := strings.Join(r.Names(), ","); got != "Echo" {
		t.Fatalf("names %q", got)
	}
}

// TestUnknownFieldMessageIsStable: with two unknown fields the message names
// the same one every time (it once depended on map order, and a test that
// expected one of them failed now and then).
func TestUnknownFieldMessageIsStable(t *testing.T) {
	r := New()
	r.MustRegister(Tool{Name: "Echo", Handler: func(context.Context, Call, *Tool, Context) (any, error) { return nil, nil },
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)})
	for range 50 {
		_, err := r.Call(context.Background(), Call{Name: "Echo", Args: json.RawMessage(`{"zeta":1,"alpha":2,"mid":3}`)}, Context{})
		if err == nil || !strings.Contains(err.Error(), `unknown field "alpha"`) {
			t.Fatalf("err = %v, want the first unknown field in name order, \"alpha\"", err)
		}
	}
}
