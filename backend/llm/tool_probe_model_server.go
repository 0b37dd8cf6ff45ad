package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

// ProbeArgs names the model server to try.
type ProbeArgs struct {
	ServerURL string `json:"serverUrl" jsonschema:"the OpenAI-compatible server's address, e.g. http://127.0.0.1:11434/v1"`
	Model     string `json:"model" jsonschema:"the model's name as the server knows it, e.g. llama3.1:8b"`
	APIKey    string `json:"apiKey,omitempty" jsonschema:"the server's key, if it needs one; used for this probe only, never stored"`
	// ContextTokens is the author's context budget (0: the default).
	ContextTokens int `json:"contextTokens,omitempty" jsonschema:"the author's context budget in tokens (0: the default, 8192); the server's window, when smaller, wins"`
}

// Refine: a server and a model are needed.
func (ProbeArgs) Refine(s *jsonschema.Schema) {
	tools.Prop(s, "serverUrl").MinLength = jsonschema.Ptr(1)
	tools.Prop(s, "model").MinLength = jsonschema.Ptr(1)
}

// Check is one line of a probe.
type Check struct {
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

// ProbeReport says what works on a model server.
type ProbeReport struct {
	Server string   `json:"server"`
	Model  string   `json:"model"`
	Models []string `json:"models"`
	// Window is the context window the server runs the model with, and
	// where it was learned; Budget is what a request may hold: the smaller
	// of it and the author's setting (Setting).
	Window     ServerWindow `json:"window"`
	Setting    int          `json:"setting"`
	Budget     int          `json:"budget"`
	Reachable  Check        `json:"reachable"`
	Chat       Check        `json:"chat"`
	ToolCalls  Check        `json:"toolCalls"`
	JSONSchema Check        `json:"jsonSchema"`
	Summary    string       `json:"summary"`
}

// ProbeModelServerRef is the typed handle on the ProbeModelServer tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var ProbeModelServerRef = tools.RefTo[ProbeArgs, ProbeReport]("ProbeModelServer")

func probeModelServerTool() tools.Tool {
	return ProbeModelServerRef.Func("Test a model server: whether it answers and lists the model, and whether plain chat, a tool call (structured, or written as text) and an answer under a JSON schema work. Each check says why it failed.",
		func(ctx context.Context, a ProbeArgs) (ProbeReport, error) { return ProbeModelServer(ctx, a) })
}

// ProbeModelServer asks a model server three small things — plain chat, a
// tool call, and an answer under a JSON schema — and says which work. It
// fails only when the address or model cannot be used at all.
func ProbeModelServer(ctx context.Context, a ProbeArgs) (ProbeReport, error) {
	serverURL, model := strings.TrimSpace(a.ServerURL), strings.TrimSpace(a.Model)
	cfg := DefaultConfig(serverURL, model)
	cfg.APIKey, cfg.MaxRetries, cfg.Timeout, cfg.Stream = a.APIKey, -1, 60*time.Second, false
	cfg.ContextTokens = a.ContextTokens
	c, err := NewClient(cfg)
	if err != nil {
		return ProbeReport{}, err
	}
	r := ProbeReport{Server: c.BaseURL(), Model: model, Models: []string{}}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	r.Window, r.Setting, r.Budget = c.Window(ctx), c.Setting(), c.budget(ctx)
	if names, err := c.ListModels(ctx); err != nil {
		r.Reachable = Check{Detail: err.Error()}
	} else {
		r.Models = names
		r.Reachable = Check{OK: true, Detail: fmt.Sprintf("the server lists %d model(s)", len(names))}
		found := false
		for _, n := range names {
			found = found || n == model
		}
		if !found && len(names) > 0 {
			r.Reachable.Detail += fmt.Sprintf("; %q is not among them (%s)", model, strings.Join(names, ", "))
		}
	}
	if resp, err := c.Complete(ctx, Request{Messages: []Message{{Role: "user", Content: "Reply with the single word: ready"}}, MaxTokens: 64}); err != nil {
		r.Chat = Check{Detail: err.Error()}
	} else {
		r.Chat = Check{OK: strings.TrimSpace(resp.Content) != "" || len(resp.ToolCalls) > 0, Detail: "answered: " + briefLine(resp.Content, 60)}
		if !r.Chat.OK {
			r.Chat.Detail = "the answer was empty"
		}
	}
	echo := ToolSpec{Name: "echo", Description: "Repeat a word back.", Parameters: json.RawMessage(`{"type":"object","properties":{"word":{"type":"string"}},"required":["word"]}`)}
	if resp, err := c.Complete(ctx, Request{Messages: []Message{{Role: "user", Content: "Call the tool echo with the word ping."}}, Tools: []ToolSpec{echo}}); err != nil {
		r.ToolCalls = Check{Detail: err.Error()}
	} else {
		calls := resp.ToolCalls
		how := "structured tool calls"
		if len(calls) == 0 {
			if tc, ok := ParseTextToolCall(resp.Content); ok {
				calls, how = []ToolCall{tc}, "tool calls written as text (the text fallback is used)"
			}
		}
		if len(calls) > 0 && calls[0].Name == "echo" {
			r.ToolCalls = Check{OK: true, Detail: how}
		} else {
			r.ToolCalls = Check{Detail: "the model answered without calling the tool: " + briefLine(resp.Content, 60)}
		}
	}
	schema := &JSONSchema{Name: "answer", Strict: true, Schema: json.RawMessage(`{"type":"object","properties":{"answer":{"type":"string"}},"required":["answer"],"additionalProperties":false}`)}
	if resp, err := c.Complete(ctx, Request{Messages: []Message{{Role: "user", Content: "Answer in JSON: what colour is the sky on a clear day?"}}, JSONSchema: schema}); err != nil {
		r.JSONSchema = Check{Detail: err.Error()}
	} else {
		var v struct {
			Answer *string `json:"answer"`
		}
		if json.Unmarshal([]byte(strings.TrimSpace(resp.Content)), &v) == nil && v.Answer != nil {
			r.JSONSchema = Check{OK: true, Detail: "one JSON object as asked"}
		} else {
			r.JSONSchema = Check{Detail: "the answer did not follow the schema: " + briefLine(resp.Content, 60)}
		}
	}
	var works, fails []string
	for _, c := range []struct {
		name string
		ok   bool
	}{{"chat", r.Chat.OK}, {"tool calling", r.ToolCalls.OK}, {"JSON schema", r.JSONSchema.OK}} {
		if c.ok {
			works = append(works, c.name)
		} else {
			fails = append(fails, c.name)
		}
	}
	switch {
	case len(fails) == 0:
		r.Summary = "Everything works: chat, tool calling and JSON schema."
	case len(works) == 0:
		r.Summary = "Nothing works with this server and model."
	default:
		r.Summary = fmt.Sprintf("Works: %s. Does not work: %s.", strings.Join(works, ", "), strings.Join(fails, ", "))
	}
	if r.Window.Tokens > 0 {
		r.Summary += fmt.Sprintf(" Context window: %d tokens (%s).", r.Window.Tokens, r.Window.Source)
		if r.Budget < r.Setting {
			r.Summary += fmt.Sprintf(" Requests are held to it, not to the setting of %d%s.", r.Setting, raiseHint(r.Window))
		}
	} else if len(works) > 0 {
		r.Summary += fmt.Sprintf(" The server does not tell its context window; requests are held to the setting of %d tokens.", r.Setting)
	}
	return r, nil
}

// briefLine is s on one line, cut to n characters.
func briefLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
