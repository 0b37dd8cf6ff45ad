// Package tools is the one registry of Waymark's capabilities. Every tool has a
// name, a description, a JSON Schema of its input and a handler; the language
// model, the MCP server, the command line and the UI all reach a capability
// through the same registry, so they share validation and error messages.
package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

// Errors of the registry itself; tool handlers return their own.
var (
	ErrUnknownTool = errors.New("unknown tool")
	ErrInvalidArgs = errors.New("invalid arguments")
)

// Call is one invocation of a tool. Underscore properties of the arguments
// (_outputPath, _scopes, …) are meta properties of the agent protocol: they are
// taken out of Args into Meta before validation.
type Call struct {
	ID   string                     `json:"id,omitempty"`
	Name string                     `json:"name"`
	Args json.RawMessage            `json:"arguments,omitempty"`
	Meta map[string]json.RawMessage `json:"meta,omitempty"`
}

// Message is one typed message of an agent's context that a tool may see.
type Message struct {
	Kind string          `json:"kind"` // "data", "error", "user", "assistant", …
	Path string          `json:"path,omitempty"`
	Data json.RawMessage `json:"data,omitempty"`
}

// Context is what a handler sees of the agent's conversation: only the messages its
// call imported through _scopes (none when called from the CLI, MCP or the UI), and
// where to report progress while it runs.
type Context struct {
	Messages []Message
	// Progress receives the events of a long-running tool (an agent's steps, a
	// browsing goal's lines) while it works, so every door can show them: MCP as
	// progress notifications, the window as events, the CLI as JSON lines. Nil
	// when no door listens.
	Progress func(Progress)
}

// Progress is one event of a running tool, in the words a user reads.
type Progress struct {
	// Event says what happened: "command", "step", "tool_call", "tool_result",
	// "tool_error", "answer", "question", … (doors may show only some).
	Event string `json:"event"`
	// Text is a short line for the user, in the language of the request.
	Text string `json:"text,omitempty"`
	// Tool names the tool a tool_call/tool_result event is about (for logs and
	// transcripts, never read aloud).
	Tool string `json:"tool,omitempty"`
	// Data is the event's structured payload (a call's arguments, a result).
	Data json.RawMessage `json:"data,omitempty"`
}

// Report hands p to the listening door, if any.
func (c Context) Report(p Progress) {
	if c.Progress != nil {
		c.Progress(p)
	}
}

// Handler runs a tool: the Activity signature of the agent protocol (call, tool,
// context), with a Go context first for cancellation.
type Handler func(ctx context.Context, call Call, tool *Tool, tc Context) (any, error)

// Tool is one registered capability.
type Tool struct {
	Name        string
	Description string
	InputSchema json.RawMessage
	// OutputSchema is the JSON Schema of the tool's result (nil: the result
	// has no one shape).
	OutputSchema json.RawMessage
	Handler      Handler
	// In and Out are the Go types of the arguments and the result (Func
	// sets them; nil for a tool built by hand), from which the frontend's
	// TypeScript types are generated.
	In, Out reflect.Type

	// gen makes InputSchema (and its parse) and OutputSchema from the Go
	// types (FuncCall). The registry runs it at the tool's first use (Get,
	// Tools, Call, Check), not at Register: generating every tool's schemas
	// cost every process — a one-tool CLI call too — about 25 ms.
	gen func() (*jsonschema.Schema, json.RawMessage, json.RawMessage, error)
	// ready guards the schemas' completion (gen, then the checks of Register).
	ready *readiness
	// lazy is the schema resolved for validation, made at the tool's first
	// call: resolving every tool's schema cost the window's start (and every
	// CLI call) a few milliseconds per tool for tools most runs never call.
	lazy  *resolution
	props []string
}

type readiness struct {
	once sync.Once
	err  error
}

type resolution struct {
	once     sync.Once
	raw      json.RawMessage
	resolved *jsonschema.Resolved
	err      error
}

// prepare completes a registered tool: its schemas generated (if it has
// gen), the input schema checked to be an object's, its property names
// listed.
func (t *Tool) prepare() error {
	var s *jsonschema.Schema
	if t.gen != nil && len(t.InputSchema) == 0 {
		var err error
		if s, t.InputSchema, t.OutputSchema, err = t.gen(); err != nil {
			return fmt.Errorf("register tool %q: %w", t.Name, err)
		}
	}
	if len(t.InputSchema) == 0 {
		t.InputSchema = json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)
	}
	if s == nil {
		s = new(jsonschema.Schema)
		if err := json.Unmarshal(t.InputSchema, s); err != nil {
			return fmt.Errorf("register tool %q: input schema: %w", t.Name, err)
		}
	}
	if s.Type != "object" {
		return fmt.Errorf("register tool %q: input schema must be of type object", t.Name)
	}
	t.lazy = &resolution{raw: t.InputSchema}
	t.props = nil
	for p := range s.Properties {
		t.props = append(t.props, p)
	}
	sort.Strings(t.props)
	return nil
}

// ensure completes the tool once (prepare); every way to a registered tool
// goes through it.
func (t *Tool) ensure() error {
	t.ready.once.Do(func() { t.ready.err = t.prepare() })
	return t.ready.err
}

// resolved is the tool's schema resolved for validation (made once).
func (t *Tool) resolved() (*jsonschema.Resolved, error) {
	l := t.lazy
	l.once.Do(func() {
		// From the JSON, as a client of the tool reads it (a schema built
		// from Go types may share parts between tools).
		var s jsonschema.Schema
		if l.err = json.Unmarshal(l.raw, &s); l.err == nil {
			l.resolved, l.err = s.Resolve(nil)
		}
		if l.err != nil {
			l.err = fmt.Errorf("tool %q: resolve its input schema: %w", t.Name, l.err)
		}
	})
	return l.resolved, l.err
}

// Registry holds the tools by name.
type Registry struct {
	tools map[string]*Tool
}

// New returns an empty registry.
func New() *Registry { return &Registry{tools: map[string]*Tool{}} }

// Register adds a tool; its schema must be a valid JSON Schema of an object.
func (r *Registry) Register(t Tool) error {
	if t.Name == "" || t.Handler == nil {
		return fmt.Errorf("register tool %q: a name and a handler are required", t.Name)
	}
	if _, dup := r.tools[t.Name]; dup {
		return fmt.Errorf("register tool %q: a tool of that name is already registered", t.Name)
	}
	tt := t
	tt.ready = &readiness{}
	if tt.gen == nil { // a schema written by hand is checked now: it costs nothing
		if err := tt.ensure(); err != nil {
			return err
		}
	}
	r.tools[t.Name] = &tt
	return nil
}

// MustRegister is Register for tool tables built into the binary, where a bad
// schema is a programming error.
func (r *Registry) MustRegister(ts ...Tool) {
	for _, t := range ts {
		if err := r.Register(t); err != nil {
			panic(err)
		}
	}
}

// Get returns a tool by name, completed (its schemas made). The error is
// ErrUnknownTool for a name nothing registered, or says why the tool's Go
// types make no schema: a user's first call of such a tool is answered with
// the reason, not a crash.
func (r *Registry) Get(name string) (*Tool, error) {
	t, ok := r.tools[name]
	if !ok {
		return nil, fmt.Errorf("%w %q; known tools: %s", ErrUnknownTool, name, strings.Join(r.Names(), ", "))
	}
	if err := t.ensure(); err != nil {
		return nil, err
	}
	return t, nil
}

// Has reports whether a tool of that name is registered (its schemas are
// not made: a name check costs nothing).
func (r *Registry) Has(name string) bool {
	_, ok := r.tools[name]
	return ok
}

// MustGet is Get for tests and tool tables built into the binary, where a
// missing tool or one that makes no schema is a programming error.
func (r *Registry) MustGet(name string) *Tool {
	t, err := r.Get(name)
	if err != nil {
		panic(err)
	}
	return t
}

// Tools returns every tool, sorted by name, completed; the error names the
// first tool whose Go types make no schema.
func (r *Registry) Tools() ([]*Tool, error) {
	out := make([]*Tool, 0, len(r.tools))
	for _, t := range r.tools {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	for _, t := range out {
		if err := t.ensure(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// MustTools is Tools for tests and tool tables built into the binary.
func (r *Registry) MustTools() []*Tool {
	ts, err := r.Tools()
	if err != nil {
		panic(err)
	}
	return ts
}

// Names lists the tool names, sorted.
func (r *Registry) Names() []string {
	out := make([]string, 0, len(r.tools))
	for name := range r.tools {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// Call validates the arguments against the tool's schema and runs its handler.
func (r *Registry) Call(ctx context.Context, call Call, tc Context) (any, error) {
	t, ok := r.tools[call.Name]
	if !ok {
		return nil, fmt.Errorf("%w %q; known tools: %s", ErrUnknownTool, call.Name, strings.Join(r.Names(), ", "))
	}
	args, meta, err := t.splitArgs(call.Args)
	if err != nil {
		return nil, err
	}
	call.Args = args
	if len(meta) > 0 {
		if call.Meta == nil {
			call.Meta = map[string]json.RawMessage{}
		}
		for k, v := range meta {
			call.Meta[k] = v
		}
	}
	return t.Handler(ctx, call, t, tc)
}

// Check validates arguments for the named tool exactly as Call would, without
// running it (a plan's steps are checked before anything runs).
func (r *Registry) Check(name string, args json.RawMessage) error {
	t, ok := r.tools[name]
	if !ok {
		return fmt.Errorf("%w %q; known tools: %s", ErrUnknownTool, name, strings.Join(r.Names(), ", "))
	}
	_, _, err := t.splitArgs(args)
	return err
}

// splitArgs checks that the arguments are a JSON object valid under the schema and
// separates the underscore meta properties.
func (t *Tool) splitArgs(raw json.RawMessage) (json.RawMessage, map[string]json.RawMessage, error) {
	if err := t.ensure(); err != nil {
		return nil, nil, err
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		raw = json.RawMessage("{}")
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, nil, fmt.Errorf("%w for %s: arguments must be a JSON object such as {%s}; got %s", ErrInvalidArgs, t.Name, t.exampleFields(), brief(raw))
	}
	meta := map[string]json.RawMessage{}
	for k, v := range obj {
		if strings.HasPrefix(k, "_") {
			meta[k] = v
			delete(obj, k)
		}
	}
	clean, err := json.Marshal(obj)
	if err != nil {
		return nil, nil, fmt.Errorf("%w for %s: %v", ErrInvalidArgs, t.Name, err)
	}
	var inst any
	if err := json.Unmarshal(clean, &inst); err != nil {
		return nil, nil, fmt.Errorf("%w for %s: %v", ErrInvalidArgs, t.Name, err)
	}
	// The first unknown field in name order, so the same call always gets the
	// same message.
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !t.hasProp(k) {
			return nil, nil, fmt.Errorf("%w for %s: unknown field %q; allowed fields: %s", ErrInvalidArgs, t.Name, k, t.fieldList())
		}
	}
	rs, err := t.resolved()
	if err != nil {
		return nil, nil, err
	}
	if err := rs.Validate(inst); err != nil {
		return nil, nil, fmt.Errorf("%w for %s: %s; allowed fields: %s", ErrInvalidArgs, t.Name, cleanValidation(err), t.fieldList())
	}
	return clean, meta, nil
}

func (t *Tool) hasProp(k string) bool {
	i := sort.SearchStrings(t.props, k)
	return i < len(t.props) && t.props[i] == k
}

func (t *Tool) fieldList() string {
	if len(t.props) == 0 {
		return "none"
	}
	return strings.Join(t.props, ", ")
}

func (t *Tool) exampleFields() string {
	if len(t.props) == 0 {
		return ""
	}
	return `"` + t.props[0] + `": …`
}

func brief(b []byte) string {
	if len(b) > 60 {
		return string(b[:60]) + "…"
	}
	return string(b)
}

// cleanValidation turns the validator's message into one line a person can act on.
func cleanValidation(err error) string {
	s := err.Error()
	s = strings.ReplaceAll(s, "\n", "; ")
	s = strings.TrimPrefix(s, "validating root: ")
	return s
}

// Decode unmarshals validated arguments into a typed struct.
func Decode[T any](call Call) (T, error) {
	var v T
	dec := json.NewDecoder(bytes.NewReader(call.Args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return v, fmt.Errorf("%w for %s: %w", ErrInvalidArgs, call.Name, err)
	}
	return v, nil
}
