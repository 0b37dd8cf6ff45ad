// Package llmtest is a real HTTP server speaking the OpenAI chat-completions
// protocol, scripted by tests. Waymark's model client, the agents and the
// browser assistant are tested against it over loopback HTTP — the same bytes
// a local Ollama, llama.cpp server, LM Studio or vLLM would exchange — so
// there is no in-process fake of the client anywhere.
//
// It serves POST /v1/chat/completions (plain JSON and SSE streaming ending in
// "data: [DONE]") and GET /v1/models, records every request, counts prompt
// tokens with llm.EstimateTokens for token-economy assertions, fills usage
// like a real server, and can imitate Ollama's and llama.cpp's quirks.
package llmtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/waymark/waymark/backend/llm"
)

// Quirks makes the server imitate a particular local server's deviations
// from the OpenAI wire format, so the client's tolerance is tested for real.
type Quirks struct {
	ObjectArguments  bool // tool-call "arguments" sent as a JSON object, each call whole in one chunk (Ollama)
	UsageInLastChunk bool // streamed usage rides on the final choice chunk, no usage-only chunk (Ollama)
	NoToolCallIDs    bool // tool calls carry no "id" (llama.cpp)
	NoStreamUsage    bool // usage only in non-streamed responses (llama.cpp)
}

// Presets for the servers Waymark supports. vLLM and LM Studio behave like
// the zero Quirks (OpenAI's own format).
var (
	Ollama   = Quirks{ObjectArguments: true, UsageInLastChunk: true}
	LlamaCpp = Quirks{NoToolCallIDs: true, NoStreamUsage: true}
)

// Options tune a [Server] beyond its script.
type Options struct {
	Quirks Quirks
	// OmitUsage never sends usage, so the client has to estimate it.
	OmitUsage bool
	// Models are listed at GET /v1/models (default: "llmtest"). When set
	// explicitly, a chat request for any other model gets Ollama's 404
	// without consuming a reply.
	Models []string
	// ChunkBytes is the size of streamed content and argument pieces
	// (default 4), so that arguments always arrive split across chunks.
	ChunkBytes int
	// Tokenizer serves llama.cpp's POST /tokenize with a tokenizer denser
	// than llm.EstimateTokens (one token per two bytes: see Tokens), so a
	// client that sizes requests by its own estimate would pass a budget.
	Tokenizer bool
	// Server makes the server also behave like a real one (KindOllama,
	// KindLlamaCpp, KindVLLM, KindLMStudio; see servers.go): its own
	// endpoints, and what it does with a prompt longer than its window.
	Server string
	// Window is the context window the server runs the model with (0:
	// none for llama.cpp, vLLM and LM Studio; for Ollama its num_ctx or its
	// default of 4,096 tokens).
	Window int
	// Trained is the model's own maximum (Ollama's model_info, LM Studio's
	// max_context_length); default 131072.
	Trained int
	// NumCtx is an Ollama model's num_ctx parameter (its Modelfile).
	NumCtx int
	// Loaded starts with the models loaded (Ollama's /api/ps, LM Studio's
	// loaded_context_length); else a chat request or Ollama's
	// /api/generate loads a model.
	Loaded bool
	// APIKey, when set, is required as "Authorization: Bearer APIKey" on
	// every request, as llama.cpp started with --api-key requires it: a
	// request without it gets 401.
	APIKey string
}

// Tokens is the test tokenizer's count of s: one token per two bytes,
// rounded up.
func Tokens(s string) int { return (len(s) + 1) / 2 }

// ChatRequest is one request as the server received it.
type ChatRequest struct {
	Model          string
	Messages       []llm.Message
	Tools          []llm.ToolSpec
	ResponseFormat json.RawMessage // "response_format" verbatim; nil when absent
	ToolChoice     json.RawMessage
	Stream         bool
	IncludeUsage   bool // stream_options.include_usage
	Temperature    *float64
	MaxTokens      int
	PromptTokens   int // llm.EstimateTokens over all message contents
	// ServerTokens is the test tokenizer's count (Tokens) of every message's
	// content, the tools and the response format: what a server with that
	// tokenizer would hold in its context.
	ServerTokens int
	// WindowTokens is what counts against the server's window (see
	// Options.Server); Truncated is set when the server cut the prompt to
	// fit it, silently, as Ollama does.
	WindowTokens int
	Truncated    bool
	Body         json.RawMessage
	Header       http.Header
}

// LastMessage returns the final message of the request (zero if none); a
// Handler usually answers it.
func (r ChatRequest) LastMessage() llm.Message {
	if len(r.Messages) == 0 {
		return llm.Message{}
	}
	return r.Messages[len(r.Messages)-1]
}

// Server is the scripted model server. Create it with [New] or
// [NewWithOptions]; it is closed by t.Cleanup.
type Server struct {
	t         testing.TB
	opts      Options
	srv       *httptest.Server
	mu        sync.Mutex
	replies   []Reply
	requests  []ChatRequest
	seq       int
	tokenized int
	loaded    map[string]bool
	loads     int
}

// New starts a server that answers chat requests with replies, in order.
// A request beyond the script fails the test and gets a 500.
func New(t testing.TB, replies ...Reply) *Server {
	return NewWithOptions(t, Options{}, replies...)
}

// NewWithOptions is [New] with quirks, usage omission or a model list.
func NewWithOptions(t testing.TB, opts Options, replies ...Reply) *Server {
	t.Helper()
	if opts.ChunkBytes <= 0 {
		opts.ChunkBytes = 4
	}
	s := &Server{t: t, opts: opts, replies: slices.Clone(replies), loaded: map[string]bool{}}
	if opts.Loaded {
		for _, m := range s.modelNames() {
			s.loaded[m] = true
		}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.chat)
	mux.HandleFunc("GET /v1/models", s.models)
	s.registerKind(mux)
	if opts.Tokenizer {
		mux.HandleFunc("POST /tokenize", s.tokenize)
	}
	var h http.Handler = mux
	if opts.APIKey != "" {
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") != "Bearer "+opts.APIKey {
				http.Error(w, `{"error":{"code":401,"message":"Invalid API Key","type":"authentication_error"}}`, http.StatusUnauthorized)
				return
			}
			mux.ServeHTTP(w, r)
		})
	}
	s.srv = httptest.NewServer(h)
	t.Cleanup(s.srv.Close)
	return s
}

// URL is the OpenAI base URL of the server, ending in /v1.
func (s *Server) URL() string { return s.srv.URL + "/v1" }

// Requests returns a copy of the chat requests received so far, in order.
func (s *Server) Requests() []ChatRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// PromptTokens is the sum of the requests' PromptTokens: what a conversation
// cost in prompt tokens, for token-economy assertions.
func (s *Server) PromptTokens() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, r := range s.requests {
		n += r.PromptTokens
	}
	return n
}

// Push appends replies to the script.
func (s *Server) Push(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.replies = append(s.replies, replies...)
}

// Remaining is the number of scripted replies not yet used.
func (s *Server) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.replies)
}

// Close stops the server (also done by t.Cleanup); later requests fail to
// connect, which is how a test stops a server mid-conversation.
func (s *Server) Close() { s.srv.Close() }

// UnreachableURL returns the base URL of a loopback port nobody listens on
// (it was bound and released), for "server is down" tests.
func UnreachableURL(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("llmtest: %v", err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return "http://" + addr + "/v1"
}

func (s *Server) modelNames() []string {
	if len(s.opts.Models) > 0 {
		return s.opts.Models
	}
	return []string{"llmtest"}
}

func (s *Server) models(w http.ResponseWriter, _ *http.Request) {
	var data []map[string]any
	for _, m := range s.modelNames() {
		data = append(data, s.modelEntry(m))
	}
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": data})
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req, err := parseChatRequest(body)
	if err != nil {
		s.t.Errorf("llmtest: request is not a valid chat completion request: %v\n%s", err, body)
		writeJSON(w, http.StatusBadRequest, errorBody(err.Error(), "invalid_request_error"))
		return
	}
	req.Header = r.Header.Clone()
	for _, m := range req.Messages {
		req.ServerTokens += Tokens(m.Content)
		for _, tc := range m.ToolCalls {
			req.ServerTokens += Tokens(tc.Name) + Tokens(string(tc.Arguments))
		}
	}
	for _, t := range req.Tools {
		req.ServerTokens += Tokens(t.Name) + Tokens(t.Description) + Tokens(string(t.Parameters))
	}
	req.ServerTokens += Tokens(string(req.ResponseFormat))
	req.WindowTokens = s.windowTokens(req)
	known := len(s.opts.Models) == 0 || slices.Contains(s.opts.Models, req.Model)
	if known && s.opts.Server != "" {
		s.load(req.Model) // a chat request loads the model
	}
	if known && s.overWindow(w, &req) {
		s.mu.Lock()
		s.requests = append(s.requests, req)
		s.seq++
		s.mu.Unlock()
		return
	}

	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.seq++
	seq := s.seq
	if len(s.opts.Models) > 0 && !slices.Contains(s.opts.Models, req.Model) {
		s.mu.Unlock()
		s.write(w, r, req, seq, ModelNotFound(req.Model))
		return
	}
	var reply Reply
	if len(s.replies) > 0 {
		reply = s.replies[0]
		if rep, ok := reply.(repeat); ok {
			reply = rep.r
		} else {
			s.replies = s.replies[1:]
		}
	}
	s.mu.Unlock()
	if reply == nil {
		s.t.Errorf("llmtest: unexpected chat request #%d: no scripted reply left (last message: %q)", seq, req.LastMessage().Content)
		writeJSON(w, http.StatusInternalServerError, errorBody("llmtest: no scripted reply left", "server_error"))
		return
	}
	s.write(w, r, req, seq, reply)
}

// tokenize is llama.cpp's POST /tokenize: {"content": …} → {"tokens": […]}.
func (s *Server) tokenize(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Content string `json:"content"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		writeJSON(w, http.StatusBadRequest, errorBody(err.Error(), "invalid_request_error"))
		return
	}
	s.mu.Lock()
	s.tokenized++
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"tokens": make([]int, Tokens(in.Content))})
}

// Tokenized is how many times /tokenize was asked.
func (s *Server) Tokenized() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tokenized
}

// write resolves handlers and delays, then sends the reply.
func (s *Server) write(w http.ResponseWriter, r *http.Request, req ChatRequest, seq int, reply Reply) {
	for {
		switch x := reply.(type) {
		case Handler:
			reply = x(req)
			continue
		case repeat:
			reply = x.r
			continue
		case delayed:
			timer := time.NewTimer(x.d)
			select {
			case <-r.Context().Done():
				timer.Stop()
				return
			case <-timer.C:
			}
			reply = x.then
			continue
		case nil:
			s.t.Errorf("llmtest: a Handler returned a nil Reply for request #%d", seq)
			writeJSON(w, http.StatusInternalServerError, errorBody("llmtest: nil reply", "server_error"))
			return
		case HTTPError:
			for k, vs := range x.Header {
				for _, v := range vs {
					w.Header().Add(k, v)
				}
			}
			if json.Valid([]byte(x.Body)) {
				w.Header().Set("Content-Type", "application/json")
			} else {
				w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			}
			w.WriteHeader(x.Status)
			_, _ = io.WriteString(w, x.Body)
			return
		case malformed:
			if req.Stream {
				w.Header().Set("Content-Type", "text/event-stream")
				w.WriteHeader(http.StatusOK)
				_, _ = fmt.Fprintf(w, "data: %s\n\ndata: [DONE]\n\n", x.body)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusOK)
			_, _ = io.WriteString(w, x.body)
			return
		case closeConn:
			hj, ok := w.(http.Hijacker)
			if !ok {
				s.t.Errorf("llmtest: cannot hijack the connection to close it")
				return
			}
			conn, _, err := hj.Hijack()
			if err == nil {
				_ = conn.Close()
			}
			return
		case Completion:
			id := fmt.Sprintf("chatcmpl-llmtest-%d", seq)
			if req.Stream {
				s.writeStream(w, req, id, x)
			} else {
				s.writeJSONCompletion(w, req, id, x)
			}
			return
		default:
			s.t.Errorf("llmtest: unknown reply type %T", reply)
			return
		}
	}
}

type wireUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

func (s *Server) usage(req ChatRequest, c Completion) wireUsage {
	if c.Usage != nil {
		return wireUsage{c.Usage.PromptTokens, c.Usage.CompletionTokens, c.Usage.TotalTokens}
	}
	completion := llm.EstimateTokens(c.Content)
	for _, tc := range c.ToolCalls {
		completion += llm.EstimateTokens(tc.Name) + llm.EstimateTokens(string(tc.Arguments))
	}
	prompt := req.PromptTokens
	if req.Truncated {
		prompt = min(prompt, s.window()) // what Ollama reports of a cut prompt
	}
	return wireUsage{prompt, completion, prompt + completion}
}

func finishReason(c Completion) string {
	if c.FinishReason != "" {
		return c.FinishReason
	}
	if len(c.ToolCalls) > 0 {
		return "tool_calls"
	}
	return "stop"
}

// wireArguments is a tool call's "arguments": a JSON string normally, the
// object itself with the Ollama quirk.
func (s *Server) wireArguments(a json.RawMessage) any {
	if len(bytes.TrimSpace(a)) == 0 {
		a = json.RawMessage(`{}`)
	}
	if s.opts.Quirks.ObjectArguments && json.Valid(a) {
		return a
	}
	return string(a)
}

func (s *Server) wireToolCall(i int, tc llm.ToolCall, withArgs bool) map[string]any {
	m := map[string]any{"index": i, "type": "function"}
	if !s.opts.Quirks.NoToolCallIDs {
		m["id"] = tc.ID
	}
	fn := map[string]any{"name": tc.Name}
	if withArgs {
		fn["arguments"] = s.wireArguments(tc.Arguments)
	} else {
		fn["arguments"] = ""
	}
	m["function"] = fn
	return m
}

func (s *Server) writeJSONCompletion(w http.ResponseWriter, req ChatRequest, id string, c Completion) {
	msg := map[string]any{"role": "assistant", "content": nil}
	if c.Content != "" || len(c.ToolCalls) == 0 {
		msg["content"] = c.Content
	}
	if len(c.ToolCalls) > 0 {
		var calls []map[string]any
		for i, tc := range c.ToolCalls {
			m := s.wireToolCall(i, tc, true)
			delete(m, "index")
			calls = append(calls, m)
		}
		msg["tool_calls"] = calls
	}
	out := map[string]any{
		"id": id, "object": "chat.completion", "created": time.Now().Unix(), "model": req.Model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finishReason(c)}},
	}
	if !s.opts.OmitUsage {
		out["usage"] = s.usage(req, c)
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) writeStream(w http.ResponseWriter, req ChatRequest, id string, c Completion) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	created := time.Now().Unix()
	send := func(choices []any, usage *wireUsage) {
		chunk := map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": req.Model, "choices": choices}
		if usage != nil {
			chunk["usage"] = usage
		}
		data, _ := json.Marshal(chunk)
		_, _ = fmt.Fprintf(w, "data: %s\n\n", data)
		if flusher != nil {
			flusher.Flush()
		}
	}
	delta := func(d map[string]any) []any {
		return []any{map[string]any{"index": 0, "delta": d, "finish_reason": nil}}
	}

	send(delta(map[string]any{"role": "assistant", "content": ""}), nil)
	for _, piece := range split(c.Content, s.opts.ChunkBytes) {
		send(delta(map[string]any{"content": piece}), nil)
	}
	for i, tc := range c.ToolCalls {
		if s.opts.Quirks.ObjectArguments {
			send(delta(map[string]any{"content": nil, "tool_calls": []any{s.wireToolCall(i, tc, true)}}), nil)
			continue
		}
		send(delta(map[string]any{"content": nil, "tool_calls": []any{s.wireToolCall(i, tc, false)}}), nil)
		args := string(tc.Arguments)
		if strings.TrimSpace(args) == "" {
			args = "{}"
		}
		for _, piece := range split(args, s.opts.ChunkBytes) {
			send(delta(map[string]any{"tool_calls": []any{map[string]any{"index": i, "function": map[string]any{"arguments": piece}}}}), nil)
		}
	}
	var usage *wireUsage
	if !s.opts.OmitUsage && !s.opts.Quirks.NoStreamUsage && (req.IncludeUsage || s.opts.Quirks.UsageInLastChunk) {
		u := s.usage(req, c)
		usage = &u
	}
	final := []any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": finishReason(c)}}
	if usage != nil && s.opts.Quirks.UsageInLastChunk {
		send(final, usage)
	} else {
		send(final, nil)
		if usage != nil {
			send([]any{}, usage)
		}
	}
	_, _ = io.WriteString(w, "data: [DONE]\n\n")
	if flusher != nil {
		flusher.Flush()
	}
}

// split cuts s into pieces of about n bytes without breaking UTF-8.
func split(s string, n int) []string {
	var out []string
	for len(s) > 0 {
		cut := min(n, len(s))
		for cut < len(s) && !utf8.RuneStart(s[cut]) {
			cut++
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	return out
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func errorBody(msg, typ string) map[string]any {
	return map[string]any{"error": map[string]any{"message": msg, "type": typ}}
}

// parseChatRequest reads the wire request into a ChatRequest.
func parseChatRequest(body []byte) (ChatRequest, error) {
	var wire struct {
		Model    string `json:"model"`
		Messages []struct {
			Role       string          `json:"role"`
			Content    json.RawMessage `json:"content"`
			ToolCallID string          `json:"tool_call_id"`
			ToolCalls  []struct {
				ID       string `json:"id"`
				Function struct {
					Name      string          `json:"name"`
					Arguments json.RawMessage `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"messages"`
		Tools []struct {
			Function struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				Parameters  json.RawMessage `json:"parameters"`
			} `json:"function"`
		} `json:"tools"`
		ResponseFormat json.RawMessage `json:"response_format"`
		ToolChoice     json.RawMessage `json:"tool_choice"`
		Stream         bool            `json:"stream"`
		StreamOptions  struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
		Temperature         *float64 `json:"temperature"`
		MaxTokens           int      `json:"max_tokens"`
		MaxCompletionTokens int      `json:"max_completion_tokens"`
	}
	if err := json.Unmarshal(body, &wire); err != nil {
		return ChatRequest{}, err
	}
	if wire.Model == "" {
		return ChatRequest{}, fmt.Errorf("no model")
	}
	if len(wire.Messages) == 0 {
		return ChatRequest{}, fmt.Errorf("no messages")
	}
	req := ChatRequest{
		Model:          wire.Model,
		ResponseFormat: wire.ResponseFormat,
		ToolChoice:     wire.ToolChoice,
		Stream:         wire.Stream,
		IncludeUsage:   wire.StreamOptions.IncludeUsage,
		Temperature:    wire.Temperature,
		MaxTokens:      max(wire.MaxTokens, wire.MaxCompletionTokens),
		Body:           slices.Clone(body),
	}
	for _, m := range wire.Messages {
		content, err := flattenContent(m.Content)
		if err != nil {
			return ChatRequest{}, fmt.Errorf("message %q: %v", m.Role, err)
		}
		msg := llm.Message{Role: m.Role, Content: content, ToolCallID: m.ToolCallID}
		for _, tc := range m.ToolCalls {
			msg.ToolCalls = append(msg.ToolCalls, llm.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: unwrapArguments(tc.Function.Arguments)})
		}
		req.Messages = append(req.Messages, msg)
		req.PromptTokens += llm.EstimateTokens(content)
	}
	for _, t := range wire.Tools {
		req.Tools = append(req.Tools, llm.ToolSpec{Name: t.Function.Name, Description: t.Function.Description, Parameters: t.Function.Parameters})
	}
	return req, nil
}

// flattenContent accepts a string, null, or an array of {"type":"text"} parts.
func flattenContent(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if raw[0] == '"' {
		err := json.Unmarshal(raw, &s)
		return s, err
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", err
	}
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String(), nil
}

// unwrapArguments turns the wire form (a string of JSON) into raw JSON.
func unwrapArguments(raw json.RawMessage) json.RawMessage {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if json.Valid([]byte(s)) {
			return json.RawMessage(s)
		}
		quoted, _ := json.Marshal(s)
		return quoted
	}
	return raw
}

// Client is a real OpenAI-compatible client of the server at url (a Server's
// URL), retrying quickly and giving up after 2 s, for the agents' tests.
func Client(t testing.TB, url string) *llm.Client {
	t.Helper()
	cfg := llm.DefaultConfig(url, "test-model")
	cfg.Backoff = llm.Backoff{Base: time.Millisecond, Max: 5 * time.Millisecond}
	cfg.MaxRetries = 2
	cfg.Timeout = 2 * time.Second
	c, err := llm.NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
