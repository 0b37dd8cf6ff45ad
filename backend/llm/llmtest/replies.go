package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/waymark/waymark/backend/llm"
)

// Reply is one scripted answer of the [Server]: text, tool calls, a JSON
// action, an HTTP error, a delay, a malformed body, a dropped connection, or
// a [Handler] that decides per request. Each request consumes one Reply, in
// order (except [Repeat]).
type Reply interface{ isReply() }

// Completion is a successful chat completion. Content and ToolCalls may both
// be set (a progress line plus a call, as the browser assistant does).
// FinishReason defaults to "tool_calls" when there are calls, else "stop".
// Usage, when set, replaces the server's own count.
type Completion struct {
	Content      string
	ToolCalls    []llm.ToolCall
	FinishReason string
	Usage        *llm.Usage
}

func (Completion) isReply() {}

// Text answers with plain text content.
func Text(s string) Reply { return Completion{Content: s} }

// JSON answers with v marshalled as the content — the cursor sub-agent's
// one-JSON-action turns. A string, []byte or json.RawMessage is sent as is.
func JSON(v any) Reply {
	switch x := v.(type) {
	case string:
		return Completion{Content: x}
	case []byte:
		return Completion{Content: string(x)}
	case json.RawMessage:
		return Completion{Content: string(x)}
	}
	data, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("llmtest.JSON: %v", err))
	}
	return Completion{Content: string(data)}
}

// Tool answers with one structured call of name; args is a JSON string,
// []byte/json.RawMessage, or any value to marshal. The id is "call_1".
func Tool(name string, args any) Reply {
	return Completion{ToolCalls: []llm.ToolCall{{ID: "call_1", Name: name, Arguments: rawArgs(args)}}}
}

// ToolCalls answers with the given structured calls (ids are invented for
// calls without one).
func ToolCalls(calls ...llm.ToolCall) Reply {
	out := make([]llm.ToolCall, len(calls))
	for i, c := range calls {
		if c.ID == "" {
			c.ID = "call_" + strconv.Itoa(i+1)
		}
		if len(c.Arguments) == 0 {
			c.Arguments = json.RawMessage(`{}`)
		}
		out[i] = c
	}
	return Completion{ToolCalls: out}
}

func rawArgs(args any) json.RawMessage {
	switch x := args.(type) {
	case nil:
		return json.RawMessage(`{}`)
	case string:
		return json.RawMessage(x)
	case []byte:
		return json.RawMessage(x)
	case json.RawMessage:
		return x
	}
	data, err := json.Marshal(args)
	if err != nil {
		panic(fmt.Sprintf("llmtest.Tool: %v", err))
	}
	return data
}

// HTTPError answers with a status, a body and optional headers.
type HTTPError struct {
	Status int
	Body   string
	Header http.Header
}

func (HTTPError) isReply() {}

// Status answers with an HTTP status and body (e.g. 500, 400). A body that is
// not JSON is sent as text/plain, like a crashed proxy would.
func Status(code int, body string) Reply { return HTTPError{Status: code, Body: body} }

// RateLimited answers 429 with Retry-After: seconds, as vLLM or a proxy
// in front of a busy server does.
func RateLimited(retryAfterSeconds int) Reply {
	return HTTPError{
		Status: http.StatusTooManyRequests,
		Body:   `{"error":{"message":"too many requests, slow down","type":"rate_limit_error"}}`,
		Header: http.Header{"Retry-After": {strconv.Itoa(retryAfterSeconds)}},
	}
}

// ModelNotFound answers 404 the way Ollama does for a model that is not
// pulled.
func ModelNotFound(model string) Reply {
	body, _ := json.Marshal(map[string]any{"error": map[string]any{
		"message": fmt.Sprintf("model %q not found, try pulling it first", model),
		"type":    "api_error",
	}})
	return HTTPError{Status: http.StatusNotFound, Body: string(body)}
}

type delayed struct {
	d    time.Duration
	then Reply
}

func (delayed) isReply() {}

// Delay waits d before answering with then — or gives up silently when the
// client goes away first, which is what a time-out test needs.
func Delay(d time.Duration, then Reply) Reply { return delayed{d: d, then: then} }

type malformed struct{ body string }

func (malformed) isReply() {}

// Malformed answers 200 with a body that is not valid JSON; for a streaming
// request it is sent as the data of one event. An empty body uses a
// truncated chat completion.
func Malformed(body string) Reply {
	if body == "" {
		body = `{"id":"chatcmpl-broken","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"trunc`
	}
	return malformed{body: body}
}

type closeConn struct{}

func (closeConn) isReply() {}

// CloseConnection drops the TCP connection without answering, as a crashing
// server does; the client sees EOF.
func CloseConnection() Reply { return closeConn{} }

// Handler computes the reply from the request, for dynamic conversations
// (e.g. answer the tool result with the next step).
type Handler func(req ChatRequest) Reply

func (Handler) isReply() {}

type repeat struct{ r Reply }

func (repeat) isReply() {}

// Repeat answers every remaining request with r (usually a [Handler]); it is
// never consumed, so it belongs at the end of the script.
func Repeat(r Reply) Reply { return repeat{r: r} }
