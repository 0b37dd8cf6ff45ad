package tools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

type echoArgs struct {
	Text  string `json:"text" jsonschema:"what to say back"`
	Times int    `json:"times,omitempty" jsonschema:"how many times, 1..3"`
	Mode  string `json:"mode,omitempty"`
}

func (echoArgs) Refine(s *jsonschema.Schema) {
	Range(Prop(s, "times"), 1, 3)
	Enum(Prop(s, "mode"), "loud", "quiet")
}

func TestFuncGeneratesSchemaFromGoType(t *testing.T) {
	r := New()
	r.MustRegister(Func("Echo", "say it back", func(_ context.Context, a echoArgs) (any, error) {
		return strings.Repeat(a.Text, max(a.Times, 1)), nil
	}))
	tool, _ := r.Get("Echo")
	var s struct {
		Required   []string                  `json:"required"`
		Properties map[string]map[string]any `json:"properties"`
	}
	if err := json.Unmarshal(tool.InputSchema, &s); err != nil {
		t.Fatal(err)
	}
	if len(s.Required) != 1 || s.Required[0] != "text" {
		t.Errorf("required = %v, want [text]", s.Required)
	}
	if s.Properties["text"]["description"] != "what to say back" {
		t.Errorf("description of text = %v", s.Properties["text"]["description"])
	}
	cases := []struct {
		args, want, err string
	}{
		{`{"text":"a","times":2}`, "aa", ""},
		{`{"text":"a"}`, "a", ""},
		{`{"times":2}`, "", "text"},
		{`{"text":"a","times":4}`, "", "maximum"},
		{`{"text":"a","mode":"shout"}`, "", "mode"},
		{`{"text":"a","colour":"red"}`, "", `unknown field "colour"; allowed fields: mode, text, times`},
	}
	for _, c := range cases {
		got, err := r.Call(context.Background(), Call{Name: "Echo", Args: json.RawMessage(c.args)}, Context{})
		if c.err != "" {
			if err == nil || !errors.Is(err, ErrInvalidArgs) || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: err = %v, want invalid arguments naming %q", c.args, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s: got %v, %v; want %q", c.args, got, err, c.want)
		}
	}
}

type place string

func TestDefineSchemaAppliesToFieldsOfThatType(t *testing.T) {
	DefineSchema[place](&jsonschema.Schema{Type: "string", MinLength: jsonschema.Ptr(2)})
	type args struct {
		At place `json:"at"`
	}
	r := New()
	r.MustRegister(Func("Go", "go", func(_ context.Context, a args) (any, error) { return string(a.At), nil }))
	if _, err := r.Call(context.Background(), Call{Name: "Go", Args: json.RawMessage(`{"at":"x"}`)}, Context{}); err == nil {
		t.Error("a one-letter place passed a schema with minLength 2")
	}
	if got, err := r.Call(context.Background(), Call{Name: "Go", Args: json.RawMessage(`{"at":"xy"}`)}, Context{}); err != nil || got != "xy" {
		t.Errorf("got %v, %v", got, err)
	}
}
