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
	tool := r.MustGet("Echo")
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

// spot is given as a string or as {"name": …}, like a manuscript pointer.
type spot struct{ Name string }

func (p *spot) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &p.Name); err == nil {
		return nil
	}
	var o struct{ Name string }
	err := json.Unmarshal(b, &o)
	p.Name = o.Name
	return err
}

// TestNullIsRefused: a pointer or slice field is optional by being left out,
// as in the hand-written schemas; null is refused (it would otherwise pass as
// "not given"), and a DefineSchema'd anyOf behind a pointer stays satisfiable.
func TestNullIsRefused(t *testing.T) {
	DefineSchema[spot](AnyOf("a spot: a name or {\"name\": …}",
		&jsonschema.Schema{Type: "string", MinLength: jsonschema.Ptr(1)},
		&jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{"name": {Type: "string"}}, Required: []string{"name"}}))
	type args struct {
		Count *int   `json:"count,omitempty"`
		Tags  []int  `json:"tags,omitempty"`
		At    *spot  `json:"at,omitempty"`
		All   []spot `json:"all,omitempty"`
	}
	r := New()
	r.MustRegister(Func("Null", "null", func(_ context.Context, a args) (any, error) { return "ok", nil }))
	for _, c := range []struct {
		args string
		ok   bool
	}{
		{`{}`, true},
		{`{"count": 2, "tags": [1], "at": "home", "all": ["a", {"name": "b"}]}`, true},
		{`{"at": {"name": "home"}}`, true},
		{`{"count": null}`, false},
		{`{"tags": null}`, false},
		{`{"at": null}`, false},
		{`{"at": ""}`, false},
		{`{"all": [null]}`, false},
	} {
		_, err := r.Call(context.Background(), Call{Name: "Null", Args: json.RawMessage(c.args)}, Context{})
		if c.ok != (err == nil) {
			t.Errorf("%s: err = %v, want accepted=%v", c.args, err, c.ok)
		}
	}
	tool := r.MustGet("Null")
	if strings.Contains(string(tool.InputSchema), "null") {
		t.Errorf("the schema still names null: %s", tool.InputSchema)
	}
}

type bounded struct {
	N    int    `json:"n,omitempty"`
	Name string `json:"name,omitempty"`
}

func (bounded) Refine(s *jsonschema.Schema) {
	Min(Prop(s, "n"), 1)
	MinLength(Prop(s, "name"), 2)
}

type embedsBounded struct {
	bounded
	Extra bool `json:"extra,omitempty"`
}

// TestMinAndMinLength, also through a Refine promoted from an embedded struct.
func TestMinAndMinLength(t *testing.T) {
	r := New()
	r.MustRegister(Func("B", "b", func(_ context.Context, a embedsBounded) (any, error) { return a.N, nil }))
	for _, c := range []struct{ args, err string }{
		{`{"n": 1, "name": "ab", "extra": true}`, ""},
		{`{"n": 0}`, "minimum"},
		{`{"name": "a"}`, "minLength"},
	} {
		_, err := r.Call(context.Background(), Call{Name: "B", Args: json.RawMessage(c.args)}, Context{})
		if (c.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%s: err = %v, want %q", c.args, err, c.err)
		}
	}
}

// TestSchemasAreMadeAtFirstUse: registering a tool built from Go types makes
// no schema (a one-tool CLI call pays for one tool, not all); its first use
// does, whichever way it comes (Get, Tools, Call, Check). A tool whose
// argument type makes no schema shows it: registering and listing its name
// succeed; calling, getting or listing it returns an error that says why (a
// user's first call is answered, never crashed); only MustGet and MustTools,
// for tests, panic.
func TestSchemasAreMadeAtFirstUse(t *testing.T) {
	bad := Func("Bad", "arguments that are no object", func(_ context.Context, n int) (any, error) { return n, nil })
	uses := []struct {
		name string
		use  func(r *Registry)
	}{
		{"Get", func(r *Registry) { _, _ = r.Get("Echo") }},
		{"Tools", func(r *Registry) { _, _ = r.Tools() }},
		{"Call", func(r *Registry) {
			_, _ = r.Call(context.Background(), Call{Name: "Echo", Args: json.RawMessage(`{"text":"a"}`)}, Context{})
		}},
		{"Check", func(r *Registry) { _ = r.Check("Echo", json.RawMessage(`{"text":"a"}`)) }},
	}
	for _, u := range uses {
		t.Run(u.name, func(t *testing.T) {
			r := New()
			r.MustRegister(Func("Echo", "say it back", func(_ context.Context, a echoArgs) (string, error) { return a.Text, nil }))
			if tool := r.tools["Echo"]; len(tool.InputSchema) != 0 || len(tool.OutputSchema) != 0 {
				t.Fatalf("Register made the schemas: %s %s", tool.InputSchema, tool.OutputSchema)
			}
			u.use(r)
			tool := r.tools["Echo"]
			if !strings.Contains(string(tool.InputSchema), `"text"`) || !strings.Contains(string(tool.OutputSchema), `"string"`) {
				t.Fatalf("after %s the schemas are %s and %s", u.name, tool.InputSchema, tool.OutputSchema)
			}
		})
	}
	r := New()
	r.MustRegister(bad)
	if names := r.Names(); len(names) != 1 || names[0] != "Bad" {
		t.Fatalf("Names = %v", names)
	}
	if _, err := r.Call(context.Background(), Call{Name: "Bad", Args: json.RawMessage(`{}`)}, Context{}); err == nil || !strings.Contains(err.Error(), `"Bad"`) {
		t.Fatalf("calling a tool with no schema: %v", err)
	}
	if _, err := r.Get("Bad"); err == nil || !strings.Contains(err.Error(), `"Bad"`) {
		t.Fatalf("Get of a tool with no schema: %v, want an error naming it", err)
	}
	if _, err := r.Tools(); err == nil || !strings.Contains(err.Error(), `"Bad"`) {
		t.Fatalf("Tools with a tool that has no schema: %v, want an error naming it", err)
	}
	if _, err := r.Get("Nope"); !errors.Is(err, ErrUnknownTool) {
		t.Fatalf("Get of an unknown name: %v, want ErrUnknownTool", err)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("MustGet of a tool with no schema did not panic")
		}
	}()
	r.MustGet("Bad")
}
