// Package llm is Waymark's only door to a language model.
//
// Waymark is offline: the model runs on the user's machine (or LAN) behind a
// server that speaks the OpenAI chat-completions protocol — Ollama, the
// llama.cpp server, LM Studio or vLLM. The agents (SPEC §3–§5) never talk HTTP
// themselves; they call the small [Model] interface defined here, which is
// implemented by [Client] (a real server, through the official openai-go
// client), by the built-in deterministic engine, and by tests.
//
// The package also carries the tolerance for local-server quirks that the
// agents would otherwise have to repeat: tool-call arguments sent as JSON
// objects, missing tool-call ids, usage that never arrives (see
// [EstimateTokens]) and tool calls written as plain text (see
// [ParseTextToolCall]).
package llm

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// Message is one entry of the conversation sent to the model. The agents
// rebuild the whole context for every request (SPEC §4), so a Message is a
// plain value that can be stored, logged and replayed.
type Message struct {
	Role       string     `json:"role"`                 // "system", "user", "assistant", "tool"
	Content    string     `json:"content"`              // text; may be empty for assistant messages with tool calls
	ToolCalls  []ToolCall `json:"toolCalls,omitempty"`  // assistant messages
	ToolCallID string     `json:"toolCallId,omitempty"` // tool messages: the id of the call answered
}

// Role names accepted in [Message.Role]; anything else is rejected before a
// request is sent, so a typo cannot silently turn into a user message.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// ToolCall is one structured call of a declared tool made by the model. The
// id links the later tool message (its result) to the call; Arguments is
// always valid JSON (an object in practice), whatever the server sent.
type ToolCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// ToolSpec declares a tool the model may call. Parameters is a JSON Schema
// object; underscore properties (SPEC §4 meta) are passed through untouched.
type ToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

// JSONSchema asks the server to constrain the answer to one JSON document
// (response_format json_schema). The cursor sub-agent uses it so that every
// turn is exactly one JSON action (SPEC §3).
type JSONSchema struct {
	Name   string          `json:"name"`
	Schema json.RawMessage `json:"schema"`
	Strict bool            `json:"strict"`
}

// Request is everything one model turn needs. It is protocol-neutral so that
// the built-in engine and tests can implement [Model] without HTTP.
type Request struct {
	Messages    []Message
	Tools       []ToolSpec  // tool calling (the command agent, the browser assistant)
	JSONSchema  *JSONSchema // response_format json_schema (the cursor sub-agent: one JSON action)
	Temperature *float64    // nil: the server's default
	MaxTokens   int         // 0: the server's default
}

// Usage counts tokens of one turn; the agents enforce token limits (SPEC §4
// loop) and show the cost. Estimated is true when the server sent no usage
// and the numbers come from [EstimateTokens].
type Usage struct {
	PromptTokens     int  `json:"promptTokens"`
	CompletionTokens int  `json:"completionTokens"`
	TotalTokens      int  `json:"totalTokens"`
	Estimated        bool `json:"estimated"`
}

// Response is the model's answer to one [Request]. A text fallback tool call
// (`function_call: name=... args={...}`) stays in Content; callers use
// [ParseTextToolCall] on it when ToolCalls is empty.
type Response struct {
	Content      string
	ToolCalls    []ToolCall
	Usage        Usage
	FinishReason string // as sent by the server: "stop", "tool_calls", "length", ...
}

// Model is what the agents call. [Client], the built-in engine and test
// doubles implement it, so the agents do not care where answers come from.
type Model interface {
	// Complete runs one model turn. It honours ctx cancellation at once.
	Complete(ctx context.Context, req Request) (Response, error)
	// Name identifies the model in logs and in the UI.
	Name() string
}

// Offline is the capability of a [Model] that understands no language: a
// built-in engine that answers a fixed set of commands by rules, with no
// model server behind it. The doors ask [Understands] what a model can do,
// never its concrete type.
type Offline interface {
	Model
	// Offline marks the engine; it is never called.
	Offline()
}

// Understands reports whether m understands language (a model server is
// behind it): false for nil and for an [Offline] engine, whose doors offer
// only what its rules read (goals in plain words, free-form commands and
// plans need a model server).
func Understands(m Model) bool {
	if m == nil {
		return false
	}
	_, off := m.(Offline)
	return !off
}

// Defaults used when the corresponding [Config] field is zero.
const (
	DefaultTimeout     = 120 * time.Second
	DefaultMaxRetries  = 4
	DefaultBackoffBase = 500 * time.Millisecond
	DefaultBackoffMax  = 8 * time.Second
	// DefaultMaxReplyBytes caps what one answer may take off the wire
	// (a long answer of a local model is well under 1 MiB).
	DefaultMaxReplyBytes = 8 << 20
	// DefaultDeadline bounds one request from its start, even while a
	// stream keeps flowing (a slow CPU model writes 1,024 tokens in a few
	// minutes).
	DefaultDeadline = 10 * time.Minute
	// MaxRetryAfter caps a server's Retry-After so that a misconfigured server
	// cannot park the assistant for hours; a longer demand ends the retries.
	MaxRetryAfter = 60 * time.Second
)

// Backoff shapes the waits between retries: attempt n waits a random time
// between half and all of min(Max, Base·2ⁿ). Tests set tiny values; zero
// fields fall back to [DefaultBackoffBase] and [DefaultBackoffMax]. A
// server's Retry-After header overrides it.
type Backoff struct {
	Base time.Duration
	Max  time.Duration
}

// RetryInfo describes a retry about to happen; [Config.OnRetry] receives it
// so the UI can say "model busy, retrying…" and discard partial streamed text
// (the next attempt starts the answer again).
type RetryInfo struct {
	Attempt int           // the attempt that failed, 1-based
	Err     error         // why it failed (an *Error)
	Wait    time.Duration // how long Complete waits before the next attempt
}

// Config says which server and model to use and how patient to be. Use
// [DefaultConfig] or [ConfigFromEnv] to get the documented defaults (notably
// Stream=true); the zero value of Stream means "do not stream".
type Config struct {
	BaseURL string // OpenAI-compatible base URL, e.g. http://127.0.0.1:11434/v1
	Model   string // model name as the server knows it, e.g. "qwen2.5:7b"
	APIKey  string // optional; local servers usually ignore it

	// Timeout bounds one attempt; 0 means 120 s. When streaming it is an idle
	// time-out: it restarts whenever a chunk arrives, so a long answer that
	// keeps flowing is never cut, while a server that stalls is.
	Timeout time.Duration
	// MaxRetries is the number of retries after the first attempt; 0 means
	// the default 4, a negative value means no retries at all.
	MaxRetries int
	// Stream asks for server-sent events; OnDelta then receives text as it
	// arrives. Without streaming OnDelta receives the whole text once.
	// OnDelta runs on the goroutine calling Complete (so concurrently when
	// Complete is).
	Stream  bool
	OnDelta func(text string)

	// Backoff shapes the waits between retries (tests make them tiny).
	Backoff Backoff
	// OnRetry, when set, is told about each retry before its wait.
	OnRetry func(RetryInfo)
	// HTTPClient replaces the default client (no proxy: the server is local).
	HTTPClient *http.Client
	// ContextTokens is the model's context budget: no request (prompt and
	// the room left for the answer) is sent over it; 0 means the default,
	// 8192 tokens (see budget.go).
	ContextTokens int
	// MaxReplyBytes caps the bytes of one answer; 0 means
	// DefaultMaxReplyBytes. A larger answer is an error that says so.
	MaxReplyBytes int64
	// Deadline bounds one attempt from its start, however the server keeps
	// it alive; 0 means DefaultDeadline.
	Deadline time.Duration
}

// DefaultConfig returns a Config for baseURL and model with every default
// filled in, so callers need not know them.
func DefaultConfig(baseURL, model string) Config {
	return Config{
		BaseURL:    baseURL,
		Model:      model,
		Timeout:    DefaultTimeout,
		MaxRetries: DefaultMaxRetries,
		Stream:     true,
		Backoff:    Backoff{Base: DefaultBackoffBase, Max: DefaultBackoffMax},
	}
}

// Environment variables read by [ConfigFromEnv].
const (
	EnvModelURL    = "WAYMARK_MODEL_URL"
	EnvModel       = "WAYMARK_MODEL"
	EnvModelKey    = "WAYMARK_MODEL_KEY"
	EnvModelStream = "WAYMARK_MODEL_STREAM" // optional: "0", "false", "no" or "off" disables streaming
)

// ConfigFromEnv builds a Config from WAYMARK_MODEL_URL, WAYMARK_MODEL and
// WAYMARK_MODEL_KEY (plus the optional WAYMARK_MODEL_STREAM), so a developer
// or a packaged install can point Waymark at a server without the Settings
// UI. ok is false when no URL is set: the app then uses the built-in engine.
// The values are not validated here; [NewClient] does that with clear errors.
func ConfigFromEnv() (Config, bool) {
	url := strings.TrimSpace(os.Getenv(EnvModelURL))
	if url == "" {
		return Config{}, false
	}
	cfg := DefaultConfig(url, strings.TrimSpace(os.Getenv(EnvModel)))
	cfg.APIKey = strings.TrimSpace(os.Getenv(EnvModelKey))
	switch strings.ToLower(strings.TrimSpace(os.Getenv(EnvModelStream))) {
	case "0", "false", "no", "off":
		cfg.Stream = false
	}
	if v := strings.TrimSpace(os.Getenv(EnvContextTokens)); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			n = -1 // NewClient says what is allowed
		}
		cfg.ContextTokens = n
	}
	return cfg, true
}
