package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	openai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
)

// Client is the [Model] backed by a local OpenAI-compatible server (Ollama,
// llama.cpp server, LM Studio, vLLM). It uses the official openai-go client
// for the protocol and adds what a desktop app needs on top: per-attempt
// time-outs, its own retries with back-off, streaming with quirk tolerance,
// and error messages a user can act on. A Client is safe for concurrent use.
type Client struct {
	baseURL    string
	model      string
	timeout    time.Duration
	maxRetries int
	stream     bool
	onDelta    func(string)
	onRetry    func(RetryInfo)
	backoff    Backoff
	chat       openai.ChatCompletionService
	models     openai.ModelService
	httpClient *http.Client
	// apiKey is the server's key: the chat and model requests carry it
	// through the SDK, the tokenizer's through tokenize.
	apiKey string
	// contextTokens is the context budget (see budget.go); noTokenizer is set
	// once the server showed it has no /tokenize.
	contextTokens int
	noTokenizer   atomic.Bool
	tokenized     atomic.Int64
	// window is what the server said of its context window (window.go),
	// learned before the first request.
	windowMu   sync.Mutex
	window     ServerWindow
	windowDone bool
	// windowTried is when the server last could not be reached to ask.
	windowTried time.Time
	// maxReplyBytes caps what one answer may take off the wire; deadline
	// bounds one attempt from its start, however the server keeps it alive.
	maxReplyBytes int64
	deadline      time.Duration
	// inflight counts the requests waiting for the server (Waiting).
	inflight atomic.Int32
	countMu  sync.Mutex
	counted  map[uint64]int // the server's counts of the last requests
}

var _ Model = (*Client)(nil)

// NewClient checks cfg and builds a Client. It fails, with a message saying
// what is wrong and what is allowed, when the URL is not http(s) with a host
// or when no model name is given. A full endpoint URL ending in
// /chat/completions is accepted and trimmed to its base.
//
// The OpenAI client is built from services directly rather than with
// openai.NewClient, so ambient OPENAI_API_KEY / OPENAI_BASE_URL / OPENAI_ORG_ID
// variables are never read: a cloud key cannot leak to a local server and the
// configured URL cannot be silently replaced.
func NewClient(cfg Config) (*Client, error) {
	base, err := validateBaseURL(cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	model := strings.TrimSpace(cfg.Model)
	if model == "" {
		return nil, fmt.Errorf("model name is empty; set it to a model installed on the server at %s (e.g. \"llama3.1:8b\" for Ollama; the server lists them at %s/models)", base, base)
	}
	if cfg.Timeout < 0 {
		return nil, fmt.Errorf("model time-out %v is negative; use 0 for the default (%v) or a positive duration", cfg.Timeout, DefaultTimeout)
	}
	c := &Client{
		baseURL:    base,
		model:      model,
		timeout:    cfg.Timeout,
		maxRetries: cfg.MaxRetries,
		stream:     cfg.Stream,
		onDelta:    cfg.OnDelta,
		onRetry:    cfg.OnRetry,
		backoff:    cfg.Backoff,
		apiKey:     strings.TrimSpace(cfg.APIKey),
	}
	switch {
	case cfg.ContextTokens < 0:
		return nil, fmt.Errorf("context budget %d is negative; use 0 for the default (%d tokens) or the model's window in tokens", cfg.ContextTokens, DefaultContextTokens)
	case cfg.ContextTokens == 0:
		c.contextTokens = DefaultContextTokens
	case cfg.ContextTokens < 1024:
		return nil, fmt.Errorf("context budget %d tokens is too small to hold one request; use at least 1024 (default %d)", cfg.ContextTokens, DefaultContextTokens)
	default:
		c.contextTokens = cfg.ContextTokens
	}
	if c.timeout == 0 {
		c.timeout = DefaultTimeout
	}
	switch {
	case cfg.MaxReplyBytes < 0:
		return nil, fmt.Errorf("reply size cap %d is negative; use 0 for the default (%d bytes) or a positive size", cfg.MaxReplyBytes, DefaultMaxReplyBytes)
	case cfg.MaxReplyBytes == 0:
		c.maxReplyBytes = DefaultMaxReplyBytes
	default:
		c.maxReplyBytes = cfg.MaxReplyBytes
	}
	switch {
	case cfg.Deadline < 0:
		return nil, fmt.Errorf("request deadline %v is negative; use 0 for the default (%v) or a positive duration", cfg.Deadline, DefaultDeadline)
	case cfg.Deadline == 0:
		c.deadline = DefaultDeadline
	default:
		c.deadline = cfg.Deadline
	}
	switch {
	case c.maxRetries == 0:
		c.maxRetries = DefaultMaxRetries
	case c.maxRetries < 0:
		c.maxRetries = 0
	}
	if c.backoff.Base <= 0 {
		c.backoff.Base = DefaultBackoffBase
	}
	if c.backoff.Max <= 0 {
		c.backoff.Max = DefaultBackoffMax
	}
	if c.backoff.Max < c.backoff.Base {
		c.backoff.Max = c.backoff.Base
	}
	httpClient := cfg.HTTPClient
	if httpClient == nil {
		httpClient = defaultHTTPClient()
	}
	c.httpClient = httpClient
	c.counted = map[uint64]int{}
	opts := []option.RequestOption{
		option.WithBaseURL(base + "/"),
		option.WithHTTPClient(httpClient),
		option.WithMaxRetries(0), // retries are ours: they must know about our time-outs and the caller's ctx
		option.WithMiddleware(recordResponse),
	}
	if c.apiKey != "" {
		opts = append(opts, option.WithAPIKey(c.apiKey))
	}
	c.chat = openai.NewChatCompletionService(opts...)
	c.models = openai.NewModelService(opts...)
	return c, nil
}

// validateBaseURL returns the normalised base URL (no trailing slash).
func validateBaseURL(raw string) (string, error) {
	const examples = "e.g. http://127.0.0.1:11434/v1 (Ollama), http://127.0.0.1:8080/v1 (llama.cpp), http://127.0.0.1:1234/v1 (LM Studio), http://127.0.0.1:8000/v1 (vLLM)"
	s := strings.TrimSpace(raw)
	if s == "" {
		return "", fmt.Errorf("model URL is empty; set the address of an OpenAI-compatible server, %s", examples)
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", fmt.Errorf("model URL %q is not a valid URL (%v); use http://host:port/v1, %s", s, err, examples)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("model URL %q must start with http:// or https:// (got %q); %s", s, u.Scheme, examples)
	}
	if u.Hostname() == "" {
		return "", fmt.Errorf("model URL %q has no host; use http://host:port/v1, %s", s, examples)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("model URL %q must not contain ?query or #fragment; use http://host:port/v1, %s", s, examples)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.Path = strings.TrimSuffix(u.Path, "/chat/completions")
	u.RawPath = ""
	return strings.TrimRight(u.String(), "/"), nil
}

// defaultHTTPClient talks to the server directly: no proxy (the server is on
// this machine or the LAN, and a proxy from the environment would break an
// offline setup), a short dial time-out so that a stopped server is reported
// quickly, and no overall time-out (ours is per attempt). A redirect to
// another origin goes without the key: it belongs to the server it was
// given for (issue 21; Go itself keeps it for another port of the same host).
func defaultHTTPClient() *http.Client {
	return &http.Client{CheckRedirect: keepKeyHome, Transport: &http.Transport{
		Proxy:                 nil,
		DialContext:           (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:          16,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       90 * time.Second,
		ExpectContinueTimeout: time.Second,
	}}
}

// keepKeyHome drops the Authorization header from a redirect to another
// origin (scheme, host and port) than the first request's.
func keepKeyHome(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	from := via[0].URL
	if !strings.EqualFold(req.URL.Scheme, from.Scheme) || !strings.EqualFold(req.URL.Host, from.Host) {
		req.Header.Del("Authorization")
	}
	return nil
}

// Name returns the configured model name, for logs and the UI.
func (c *Client) Name() string { return c.model }

// BaseURL returns the normalised server URL, for messages and the UI.
func (c *Client) BaseURL() string { return c.baseURL }

// Complete sends req to the server and returns the answer (see [Config] for
// streaming and time-outs). Connection failures, attempt time-outs, 429 and
// 5xx are retried with exponential back-off and jitter (a Retry-After header
// wins); other 4xx and malformed replies are not. Cancelling ctx stops at once, also during a back-off wait.
// Errors from the server are *Error values with a user-readable message.
func (c *Client) Complete(ctx context.Context, req Request) (Response, error) {
	params, err := c.buildParams(req)
	if err != nil {
		return Response{}, &Error{Kind: KindInvalid, URL: c.baseURL, Model: c.model, Err: err}
	}
	c.inflight.Add(1)
	defer c.inflight.Add(-1)
	if err := c.checkBudget(ctx, req); err != nil {
		return Response{}, err
	}
	var lastKey string
	same := 0
	for attempt := 1; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return Response{}, stopped(err)
		}
		resp, e := c.attempt(ctx, params, req)
		if e == nil && resp.FinishReason == "length" {
			// Cut at the length limit: what came is not the answer.
			return Response{Usage: resp.Usage, FinishReason: resp.FinishReason}, &Error{Kind: KindLength, URL: c.baseURL, Model: c.model, Attempts: attempt,
				Err: fmt.Errorf("%d tokens of answer", resp.Usage.CompletionTokens)}
		}
		if e == nil {
			return resp, nil
		}
		if err := ctx.Err(); err != nil {
			return Response{}, stopped(err)
		}
		e.Attempts = attempt
		key := fmt.Sprintf("%s/%d", e.Kind, e.StatusCode)
		if key == lastKey {
			same++
		} else {
			lastKey, same = key, 1
		}
		e.sameCount = same
		if !e.Retryable() || attempt > c.maxRetries {
			return Response{}, e
		}
		wait := c.backoffDelay(attempt - 1)
		if e.hasRetry {
			if e.retryAfter > MaxRetryAfter {
				return Response{}, e
			}
			wait = e.retryAfter
		}
		if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < wait {
			return Response{}, e // the caller's deadline would end the wait anyway
		}
		if c.onRetry != nil {
			c.onRetry(RetryInfo{Attempt: attempt, Err: e, Wait: wait})
		}
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return Response{}, stopped(ctx.Err())
		case <-timer.C:
		}
	}
}

// Waiting tells whether a request of this client is waiting for the server
// now, so a door can say what a long silence is.
func (c *Client) Waiting() bool { return c.inflight.Load() > 0 }

// stopped wraps the caller's cancellation so errors.Is(err, context.Canceled)
// still works while the message says what stopped.
func stopped(err error) error {
	return fmt.Errorf("model request stopped by the caller: %w", err)
}

// backoffDelay is min(Max, Base·2ⁿ) with "equal jitter": half fixed, half
// random, so parallel clients do not retry in lock-step.
func (c *Client) backoffDelay(n int) time.Duration {
	d := c.backoff.Base
	for i := 0; i < n && d < c.backoff.Max; i++ {
		d *= 2
	}
	if d > c.backoff.Max {
		d = c.backoff.Max
	}
	half := d / 2
	return half + rand.N(d-half+1)
}

// attemptInfo collects what the middleware saw of one attempt's response.
type attemptInfo struct {
	stream      bool
	status      int
	contentType string
	header      http.Header
	errBody     []byte // the body of an HTTP error response (≤ 64 KiB)
	jsonBody    []byte // a plain JSON answer to a streaming request
	maxBytes    int64  // the cap on the answer's body
}

// cappedBody ends an answer's body with errReplyTooLarge once it passed its
// cap: a server that sends hundreds of megabytes, or a stream that never
// ends, is stopped there, never kept in memory or shown.
type cappedBody struct {
	io.ReadCloser
	left int64
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, errReplyTooLarge
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	if b.left <= 0 && err == nil {
		// One byte more tells a body of exactly the cap from a longer one.
		var one [1]byte
		if m, _ := b.ReadCloser.Read(one[:]); m > 0 {
			return n, errReplyTooLarge
		}
	}
	return n, err
}

type attemptKey struct{}

// recordResponse is an openai-go middleware: it notes status, headers and
// the body of error responses for our error messages — openai-go itself
// gives up on the status code when an error body is not OpenAI-shaped, e.g.
// {"error":"..."} — and, when a server ignores "stream": true and answers
// with plain JSON, keeps that body so the answer is not lost.
func recordResponse(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	resp, err := next(req)
	info, _ := req.Context().Value(attemptKey{}).(*attemptInfo)
	if info == nil || resp == nil {
		return resp, err
	}
	info.status = resp.StatusCode
	info.contentType = resp.Header.Get("Content-Type")
	info.header = resp.Header
	if resp.StatusCode >= 400 && resp.Body != nil {
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		_ = resp.Body.Close()
		info.errBody = data
		resp.Body = io.NopCloser(bytes.NewReader(data))
		return resp, err
	}
	if resp.Body != nil && info.maxBytes > 0 {
		resp.Body = &cappedBody{ReadCloser: resp.Body, left: info.maxBytes}
	}
	mediaType, _, _ := mime.ParseMediaType(info.contentType)
	if err == nil && info.stream && resp.StatusCode < 300 && resp.Body != nil &&
		(mediaType == "application/json" || strings.HasSuffix(mediaType, "+json")) {
		data, rerr := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if rerr != nil {
			return nil, rerr
		}
		info.jsonBody = data
		resp.Body = io.NopCloser(bytes.NewReader(nil))
	}
	return resp, err
}

// attempt makes one request. The attempt's own context is cancelled with
// errAttemptTimeout when the time-out fires (for streams: when no chunk has
// arrived for that long); the caller's ctx cancels it too.
func (c *Client) attempt(ctx context.Context, params openai.ChatCompletionNewParams, req Request) (Response, *Error) {
	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	timer := time.AfterFunc(c.timeout, func() { cancel(errAttemptTimeout) })
	defer timer.Stop()
	whole := time.AfterFunc(c.deadline, func() { cancel(errAttemptDeadline) })
	defer whole.Stop()
	info := &attemptInfo{stream: c.stream, maxBytes: c.maxReplyBytes}
	rctx := context.WithValue(actx, attemptKey{}, info)
	onDelta := c.onDelta

	var (
		resp Response
		err  error
	)
	if c.stream {
		resp, err = c.streamOnce(rctx, params, req, func() { timer.Reset(c.timeout) }, info, onDelta)
	} else {
		var comp *openai.ChatCompletion
		comp, err = c.chat.New(rctx, params)
		if err == nil {
			resp, err = responseFromCompletion(comp, req)
			if err == nil && onDelta != nil && resp.Content != "" {
				onDelta(resp.Content)
			}
		}
	}
	if err != nil {
		return Response{}, c.classify(err, actx, info)
	}
	return resp, nil
}

// streamOnce reads one streamed answer with openai.ChatCompletionAccumulator,
// after smoothing over local-server quirks chunk by chunk.
func (c *Client) streamOnce(ctx context.Context, params openai.ChatCompletionNewParams, req Request, alive func(), info *attemptInfo, onDelta func(string)) (Response, error) {
	stream := c.chat.NewStreaming(ctx, params)
	defer stream.Close()
	var (
		acc       openai.ChatCompletionAccumulator
		usage     Usage
		haveUsage bool
		chunks    int
		toolSeen  = map[int64]int{} // choice index → tool calls seen, for servers that omit tool-call indices
	)
	for stream.Next() {
		alive()
		chunk := stream.Current()
		chunks++
		if u, ok := serverUsage(chunk.Usage); ok {
			usage, haveUsage = u, true // the last one wins; Ollama sends it with the final choice chunk
		}
		if len(chunk.Choices) == 0 {
			continue // the usage-only final chunk (stream_options.include_usage)
		}
		if acc.ID != "" && chunk.ID != acc.ID {
			chunk.ID = acc.ID // some servers change or drop the id mid-stream; the accumulator would reject the chunk
		}
		for i := range chunk.Choices {
			ch := &chunk.Choices[i]
			fixToolCallIndices(ch.Delta.ToolCalls, toolSeen, ch.Index)
			if ch.Index == 0 && ch.Delta.Content != "" && onDelta != nil {
				onDelta(ch.Delta.Content)
			}
		}
		if !acc.AddChunk(chunk) {
			return Response{}, fmt.Errorf("%w: streamed chunk %d could not be assembled", errEmptyReply, chunks)
		}
	}
	if err := stream.Err(); err != nil {
		return Response{}, err
	}
	if len(acc.Choices) == 0 {
		if len(info.jsonBody) > 0 { // the server ignored "stream": true
			var comp openai.ChatCompletion
			if err := json.Unmarshal(info.jsonBody, &comp); err != nil {
				return Response{}, fmt.Errorf("error parsing response json: %w", err)
			}
			resp, err := responseFromCompletion(&comp, req)
			if err == nil && onDelta != nil && resp.Content != "" {
				onDelta(resp.Content)
			}
			return resp, err
		}
		return Response{}, errEmptyReply
	}
	choice := acc.Choices[0]
	if choice.FinishReason == "" {
		return Response{}, fmt.Errorf("%w (the stream ended after %d chunks with no finish reason)", errStreamCut, chunks)
	}
	resp := Response{
		Content:      choice.Message.Content,
		FinishReason: choice.FinishReason,
	}
	for _, tc := range choice.Message.ToolCalls {
		if tc.Function.Name == "" && tc.Function.Arguments == "" {
			continue // a sparse placeholder
		}
		resp.ToolCalls = append(resp.ToolCalls, toolCallFromWire(tc.ID, tc.Function.Name, tc.Function.Arguments))
	}
	if !haveUsage {
		if u, ok := serverUsage(acc.Usage); ok {
			usage, haveUsage = u, true
		}
	}
	if !haveUsage {
		usage = estimateUsage(req, resp)
	}
	resp.Usage = usage
	return resp, nil
}

// fixToolCallIndices gives tool-call deltas without an "index" one: a delta
// that names a function or carries an id starts a new call, anything else
// continues the last one. Present indices are left alone.
func fixToolCallIndices(calls []openai.ChatCompletionChunkChoiceDeltaToolCall, seen map[int64]int, choice int64) {
	for i := range calls {
		tc := &calls[i]
		if tc.JSON.Index.Raw() != "" {
			if n := int(tc.Index) + 1; n > seen[choice] {
				seen[choice] = n
			}
			continue
		}
		if tc.ID != "" || tc.Function.Name != "" || seen[choice] == 0 {
			tc.Index = int64(seen[choice])
			seen[choice]++
		} else {
			tc.Index = int64(seen[choice] - 1)
		}
	}
}

// responseFromCompletion converts a non-streamed answer.
func responseFromCompletion(comp *openai.ChatCompletion, req Request) (Response, error) {
	if comp == nil || len(comp.Choices) == 0 {
		return Response{}, errEmptyReply
	}
	choice := comp.Choices[0]
	resp := Response{Content: choice.Message.Content, FinishReason: choice.FinishReason}
	for _, tc := range choice.Message.ToolCalls {
		// Not tc.AsAny(): servers that omit "type" would make it nil.
		if tc.Function.Name == "" {
			continue
		}
		resp.ToolCalls = append(resp.ToolCalls, toolCallFromWire(tc.ID, tc.Function.Name, tc.Function.Arguments))
	}
	if u, ok := serverUsage(comp.Usage); ok {
		resp.Usage = u
	} else {
		resp.Usage = estimateUsage(req, resp)
	}
	return resp, nil
}

// toolCallFromWire builds a ToolCall; openai-go already turns an object sent
// as "arguments" (Ollama) into its JSON text, which normalisation keeps.
func toolCallFromWire(id, name, args string) ToolCall {
	if id == "" {
		id = newCallID() // llama.cpp may omit ids
	}
	return ToolCall{ID: id, Name: name, Arguments: argumentsFromString(args)}
}

func serverUsage(u openai.CompletionUsage) (Usage, bool) {
	if u.PromptTokens == 0 && u.CompletionTokens == 0 && u.TotalTokens == 0 {
		return Usage{}, false
	}
	total := int(u.TotalTokens)
	if total == 0 {
		total = int(u.PromptTokens + u.CompletionTokens)
	}
	return Usage{PromptTokens: int(u.PromptTokens), CompletionTokens: int(u.CompletionTokens), TotalTokens: total}, true
}

// EstimateRequestTokens estimates the prompt tokens of req with
// [EstimateTokens]: message contents, tool calls in the history, tool
// declarations and the JSON schema (all of which the server tokenizes).
func EstimateRequestTokens(req Request) int {
	n := 0
	for _, m := range req.Messages {
		n += EstimateTokens(m.Content)
		for _, tc := range m.ToolCalls {
			n += EstimateTokens(tc.Name) + EstimateTokens(string(tc.Arguments))
		}
	}
	for _, t := range req.Tools {
		n += EstimateTokens(t.Name) + EstimateTokens(t.Description) + EstimateTokens(string(t.Parameters))
	}
	if req.JSONSchema != nil {
		n += EstimateTokens(string(req.JSONSchema.Schema))
	}
	return n
}

func estimateUsage(req Request, resp Response) Usage {
	completion := EstimateTokens(resp.Content)
	for _, tc := range resp.ToolCalls {
		completion += EstimateTokens(tc.Name) + EstimateTokens(string(tc.Arguments))
	}
	prompt := EstimateRequestTokens(req)
	return Usage{PromptTokens: prompt, CompletionTokens: completion, TotalTokens: prompt + completion, Estimated: true}
}

// buildParams translates a Request into openai-go parameters, rejecting what
// no server would accept (unknown roles, tool schemas that are not objects).
func (c *Client) buildParams(req Request) (openai.ChatCompletionNewParams, error) {
	params := openai.ChatCompletionNewParams{Model: shared.ChatModel(c.model)}
	if len(req.Messages) == 0 {
		return params, errors.New("no messages to send")
	}
	for i, m := range req.Messages {
		switch m.Role {
		case RoleSystem:
			params.Messages = append(params.Messages, openai.SystemMessage(m.Content))
		case RoleUser:
			params.Messages = append(params.Messages, openai.UserMessage(m.Content))
		case RoleAssistant:
			var a openai.ChatCompletionAssistantMessageParam
			if m.Content != "" || len(m.ToolCalls) == 0 {
				a.Content.OfString = openai.String(m.Content)
			}
			for _, tc := range m.ToolCalls {
				if tc.Name == "" {
					return params, fmt.Errorf("message %d: tool call without a name", i)
				}
				a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
					OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
						ID: tc.ID,
						Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{
							Name:      tc.Name,
							Arguments: argumentsToWire(tc.Arguments),
						},
					},
				})
			}
			params.Messages = append(params.Messages, openai.ChatCompletionMessageParamUnion{OfAssistant: &a})
		case RoleTool:
			params.Messages = append(params.Messages, openai.ToolMessage(m.Content, m.ToolCallID))
		default:
			return params, fmt.Errorf("message %d has role %q; allowed roles: system, user, assistant, tool", i, m.Role)
		}
	}
	for _, t := range req.Tools {
		if strings.TrimSpace(t.Name) == "" {
			return params, errors.New("a tool has no name")
		}
		fn := shared.FunctionDefinitionParam{Name: t.Name}
		if t.Description != "" {
			fn.Description = openai.String(t.Description)
		}
		ps := shared.FunctionParameters{"type": "object", "properties": map[string]any{}}
		if len(bytes.TrimSpace(t.Parameters)) > 0 {
			ps = nil
			if err := json.Unmarshal(t.Parameters, &ps); err != nil || ps == nil {
				return params, fmt.Errorf("tool %q: parameters must be a JSON Schema object", t.Name)
			}
		}
		fn.Parameters = ps
		params.Tools = append(params.Tools, openai.ChatCompletionFunctionTool(fn))
	}
	if js := req.JSONSchema; js != nil {
		schema := bytes.TrimSpace(js.Schema)
		if len(schema) == 0 {
			schema = []byte(`{"type":"object"}`)
		}
		var probe map[string]any
		if err := json.Unmarshal(schema, &probe); err != nil {
			return params, fmt.Errorf("JSON schema %q must be a JSON object: %v", js.Name, err)
		}
		name := js.Name
		if name == "" {
			name = "response"
		}
		params.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{
			OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{
				JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{
					Name:   name,
					Schema: json.RawMessage(schema),
					Strict: openai.Bool(js.Strict),
				},
			},
		}
	}
	if req.Temperature != nil {
		params.Temperature = openai.Float(*req.Temperature)
	}
	if req.MaxTokens > 0 {
		// max_tokens, not max_completion_tokens: every local server knows it.
		params.MaxTokens = openai.Int(int64(req.MaxTokens))
	}
	if c.stream {
		params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
	}
	return params, nil
}

// ListModels asks the server which models it has (GET /models), so Settings
// can offer a choice and "test connection" can say what is wrong. One attempt,
// bounded by the configured time-out.
func (c *Client) ListModels(ctx context.Context) ([]string, error) {
	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	timer := time.AfterFunc(c.timeout, func() { cancel(errAttemptTimeout) })
	defer timer.Stop()
	info := &attemptInfo{}
	page, err := c.models.List(context.WithValue(actx, attemptKey{}, info))
	if err != nil {
		if ctx.Err() != nil {
			return nil, stopped(ctx.Err())
		}
		e := c.classify(err, actx, info)
		e.Attempts = 1
		return nil, e
	}
	names := make([]string, 0, len(page.Data))
	for _, m := range page.Data {
		names = append(names, m.ID)
	}
	return names, nil
}
