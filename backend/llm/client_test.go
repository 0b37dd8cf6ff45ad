package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/llm/llmtest"
)

// retries records OnRetry calls.
type retries struct {
	mu   sync.Mutex
	list []llm.RetryInfo
}

func (r *retries) add(i llm.RetryInfo) { r.mu.Lock(); r.list = append(r.list, i); r.mu.Unlock() }
func (r *retries) all() []llm.RetryInfo {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]llm.RetryInfo(nil), r.list...)
}

// newClient builds a client with tiny back-off for url; mut adjusts the config.
func newClient(t *testing.T, url string, stream bool, mut func(*llm.Config)) (*llm.Client, *retries, *[]string) {
	t.Helper()
	cfg := llm.DefaultConfig(url, "llmtest")
	cfg.Stream = stream
	cfg.Timeout = 5 * time.Second
	cfg.Backoff = llm.Backoff{Base: 5 * time.Millisecond, Max: 20 * time.Millisecond}
	rs := &retries{}
	cfg.OnRetry = rs.add
	var deltas []string
	cfg.OnDelta = func(s string) { deltas = append(deltas, s) }
	if mut != nil {
		mut(&cfg)
	}
	c, err := llm.NewClient(cfg)
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	return c, rs, &deltas
}

func userReq(text string) llm.Request {
	return llm.Request{Messages: []llm.Message{
		{Role: llm.RoleSystem, Content: "You are Waymark's assistant."},
		{Role: llm.RoleUser, Content: text},
	}}
}

func modes() []struct {
	name   string
	stream bool
} {
	return []struct {
		name   string
		stream bool
	}{{"stream", true}, {"plain", false}}
}

func jsonEqual(t *testing.T, what string, got, want []byte) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("%s: got invalid JSON %s: %v", what, got, err)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatalf("%s: want invalid JSON %s: %v", what, want, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s:\n got  %s\n want %s", what, got, want)
	}
}

func asError(t *testing.T, err error) *llm.Error {
	t.Helper()
	var e *llm.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not an *llm.Error", err, err)
	}
	return e
}

func TestCompleteText(t *testing.T) {
	const answer = "Hello! The first mention is in H2.p42 — «Ада Лавлейс»."
	for _, m := range modes() {
		t.Run(m.name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Text(answer))
			c, _, deltas := newClient(t, srv.URL(), m.stream, nil)
			resp, err := c.Complete(context.Background(), userReq("find Ada"))
			if err != nil {
				t.Fatal(err)
			}
			if resp.Content != answer || resp.FinishReason != "stop" || len(resp.ToolCalls) != 0 {
				t.Errorf("resp = %+v", resp)
			}
			if got := strings.Join(*deltas, ""); got != answer {
				t.Errorf("OnDelta text = %q, want %q", got, answer)
			}
			if m.stream && len(*deltas) < 2 {
				t.Errorf("streaming delivered %d deltas, want several", len(*deltas))
			}
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("server got %d requests", len(reqs))
			}
			r := reqs[0]
			if r.Stream != m.stream || r.IncludeUsage != m.stream || r.Model != "llmtest" {
				t.Errorf("request stream=%v include_usage=%v model=%q", r.Stream, r.IncludeUsage, r.Model)
			}
			if len(r.Messages) != 2 || r.Messages[1].Content != "find Ada" || r.Messages[0].Role != "system" {
				t.Errorf("messages = %+v", r.Messages)
			}
			if resp.Usage.Estimated || resp.Usage.PromptTokens != r.PromptTokens || resp.Usage.CompletionTokens != llm.EstimateTokens(answer) {
				t.Errorf("usage = %+v, server prompt tokens %d", resp.Usage, r.PromptTokens)
			}
			if got := resp.Usage.PromptTokens + resp.Usage.CompletionTokens; resp.Usage.TotalTokens != got {
				t.Errorf("total %d != %d", resp.Usage.TotalTokens, got)
			}
		})
	}
}

var browserTools = []llm.ToolSpec{
	{Name: "browser_navigate", Description: "Open a URL.", Parameters: json.RawMessage(`{"type":"object","properties":{"url":{"type":"string"}},"required":["url"]}`)},
	{Name: "browser_wait", Description: "Wait.", Parameters: json.RawMessage(`{"type":"object","properties":{"ms":{"type":"integer"}}}`)},
}

func TestCompleteToolCalls(t *testing.T) {
	calls := []llm.ToolCall{
		{ID: "call_a", Name: "browser_navigate", Arguments: json.RawMessage(`{"url":"http://127.0.0.1:8080/shop?q=ноутбук&page=2"}`)},
		{ID: "call_b", Name: "browser_wait", Arguments: json.RawMessage(`{"ms":500}`)},
	}
	cases := []struct {
		name    string
		stream  bool
		quirks  llmtest.Quirks
		keepIDs bool
	}{
		{"openai stream (arguments split across chunks)", true, llmtest.Quirks{}, true},
		{"openai plain", false, llmtest.Quirks{}, true},
		{"ollama stream (object arguments)", true, llmtest.Ollama, true},
		{"ollama plain (object arguments)", false, llmtest.Ollama, true},
		{"llama.cpp stream (no ids)", true, llmtest.LlamaCpp, false},
		{"llama.cpp plain (no ids)", false, llmtest.LlamaCpp, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewWithOptions(t, llmtest.Options{Quirks: tc.quirks},
				llmtest.Completion{Content: "Opening the shop.", ToolCalls: calls})
			c, _, _ := newClient(t, srv.URL(), tc.stream, nil)
			req := userReq("buy a laptop")
			req.Tools = browserTools
			resp, err := c.Complete(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if resp.Content != "Opening the shop." || resp.FinishReason != "tool_calls" {
				t.Errorf("content=%q finish=%q", resp.Content, resp.FinishReason)
			}
			if len(resp.ToolCalls) != len(calls) {
				t.Fatalf("got %d tool calls: %+v", len(resp.ToolCalls), resp.ToolCalls)
			}
			ids := map[string]bool{}
			for i, got := range resp.ToolCalls {
				if got.Name != calls[i].Name {
					t.Errorf("call %d name = %q", i, got.Name)
				}
				jsonEqual(t, "arguments", got.Arguments, calls[i].Arguments)
				if tc.keepIDs && got.ID != calls[i].ID {
					t.Errorf("call %d id = %q, want %q", i, got.ID, calls[i].ID)
				}
				if got.ID == "" || ids[got.ID] {
					t.Errorf("call %d id %q is empty or repeated", i, got.ID)
				}
				ids[got.ID] = true
			}
			r := srv.Requests()[0]
			if len(r.Tools) != len(browserTools) {
				t.Fatalf("server got %d tools", len(r.Tools))
			}
			for i, tool := range r.Tools {
				if tool.Name != browserTools[i].Name || tool.Description != browserTools[i].Description {
					t.Errorf("tool %d = %+v", i, tool)
				}
				jsonEqual(t, "tool parameters", tool.Parameters, browserTools[i].Parameters)
			}
		})
	}
}

func TestToolHistoryIsSentBack(t *testing.T) {
	srv := llmtest.New(t, llmtest.Text("Done."))
	c, _, _ := newClient(t, srv.URL(), true, nil)
	req := llm.Request{Tools: browserTools, Messages: []llm.Message{
		{Role: "user", Content: "open the shop"},
		{Role: "assistant", ToolCalls: []llm.ToolCall{{ID: "call_1", Name: "browser_navigate", Arguments: json.RawMessage(`{"url":"http://x"}`)}}},
		{Role: "tool", ToolCallID: "call_1", Content: `{"status":"ok"}`},
	}}
	if _, err := c.Complete(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	got := srv.Requests()[0].Messages
	if len(got) != 3 {
		t.Fatalf("messages = %+v", got)
	}
	if a := got[1]; a.Role != "assistant" || len(a.ToolCalls) != 1 || a.ToolCalls[0].ID != "call_1" || a.ToolCalls[0].Name != "browser_navigate" {
		t.Errorf("assistant message = %+v", a)
	} else {
		jsonEqual(t, "history arguments", a.ToolCalls[0].Arguments, []byte(`{"url":"http://x"}`))
	}
	if tm := got[2]; tm.Role != "tool" || tm.ToolCallID != "call_1" || tm.Content != `{"status":"ok"}` {
		t.Errorf("tool message = %+v", tm)
	}
}

func TestJSONSchemaRequestBody(t *testing.T) {
	schema := `{"type":"object","properties":{"action":{"type":"string","enum":["cursor_next","agent_finish_success"]},"pointers":{"type":"array","items":{"type":"string"}}},"required":["action"],"additionalProperties":false}`
	action := map[string]any{"action": "agent_finish_success", "pointers": []string{"H2.p42"}, "summary": "H2.p42 Ada Lovelace: biography"}
	for _, m := range modes() {
		t.Run(m.name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.JSON(action))
			c, _, _ := newClient(t, srv.URL(), m.stream, nil)
			temp := 0.0
			req := userReq("portion 1")
			req.JSONSchema = &llm.JSONSchema{Name: "cursor_action", Schema: json.RawMessage(schema), Strict: true}
			req.Temperature = &temp
			req.MaxTokens = 256
			resp, err := c.Complete(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(action)
			jsonEqual(t, "content", []byte(resp.Content), want)
			r := srv.Requests()[0]
			jsonEqual(t, "response_format", r.ResponseFormat,
				[]byte(`{"type":"json_schema","json_schema":{"name":"cursor_action","schema":`+schema+`,"strict":true}}`))
			if r.Temperature == nil || *r.Temperature != 0 || r.MaxTokens != 256 {
				t.Errorf("temperature=%v max_tokens=%d", r.Temperature, r.MaxTokens)
			}
			if len(r.Tools) != 0 {
				t.Errorf("unexpected tools %+v", r.Tools)
			}
		})
	}
}

func TestUsageFromServerOrEstimated(t *testing.T) {
	const answer = "Сводка: часть вторая рассказывает о путешествии."
	cases := []struct {
		name          string
		stream        bool
		opts          llmtest.Options
		wantEstimated bool
	}{
		{"stream, usage-only final chunk", true, llmtest.Options{}, false},
		{"plain, usage in body", false, llmtest.Options{}, false},
		{"stream, no usage", true, llmtest.Options{OmitUsage: true}, true},
		{"plain, no usage", false, llmtest.Options{OmitUsage: true}, true},
		{"ollama stream, usage in last choice chunk", true, llmtest.Options{Quirks: llmtest.Ollama}, false},
		{"llama.cpp stream, usage only when not streaming", true, llmtest.Options{Quirks: llmtest.LlamaCpp}, true},
		{"llama.cpp plain", false, llmtest.Options{Quirks: llmtest.LlamaCpp}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewWithOptions(t, tc.opts, llmtest.Completion{
				Content: answer,
				Usage:   &llm.Usage{PromptTokens: 1234, CompletionTokens: 56, TotalTokens: 1290},
			})
			c, _, _ := newClient(t, srv.URL(), tc.stream, nil)
			req := userReq("summarise part two")
			resp, err := c.Complete(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			u := resp.Usage
			if u.Estimated != tc.wantEstimated {
				t.Fatalf("usage %+v, want estimated=%v", u, tc.wantEstimated)
			}
			if tc.wantEstimated {
				want := llm.Usage{PromptTokens: llm.EstimateRequestTokens(req), CompletionTokens: llm.EstimateTokens(answer), Estimated: true}
				want.TotalTokens = want.PromptTokens + want.CompletionTokens
				if u != want {
					t.Errorf("usage = %+v, want %+v", u, want)
				}
				if u.PromptTokens < srv.PromptTokens() {
					t.Errorf("estimated prompt %d below the message contents' %d", u.PromptTokens, srv.PromptTokens())
				}
			} else if u != (llm.Usage{PromptTokens: 1234, CompletionTokens: 56, TotalTokens: 1290}) {
				t.Errorf("usage = %+v, want the server's", u)
			}
		})
	}
}

func TestServerDown(t *testing.T) {
	url := llmtest.UnreachableURL(t)
	c, rs, _ := newClient(t, url, true, func(cfg *llm.Config) { cfg.MaxRetries = 2 })
	_, err := c.Complete(context.Background(), userReq("hello"))
	if err == nil {
		t.Fatal("expected an error")
	}
	e := asError(t, err)
	if e.Kind != llm.KindUnreachable || e.Attempts != 3 || len(rs.all()) != 2 {
		t.Errorf("kind=%s attempts=%d retries=%d", e.Kind, e.Attempts, len(rs.all()))
	}
	if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("errors.Is(err, ECONNREFUSED) = false for %v", err)
	}
	msg := err.Error()
	for _, want := range []string{"model server at " + url + " is not reachable", "connection refused", "start Ollama/llama.cpp or change the model URL in Settings"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
}

func TestSlowServerTimesOutThenSucceeds(t *testing.T) {
	for _, m := range modes() {
		t.Run(m.name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Delay(10*time.Second, llmtest.Text("too late")), llmtest.Text("on time"))
			c, rs, _ := newClient(t, srv.URL(), m.stream, func(cfg *llm.Config) { cfg.Timeout = 300 * time.Millisecond })
			resp, err := c.Complete(context.Background(), userReq("hello"))
			if err != nil {
				t.Fatal(err)
			}
			if resp.Content != "on time" {
				t.Errorf("content = %q", resp.Content)
			}
			if n := len(srv.Requests()); n != 2 {
				t.Errorf("server got %d requests, want 2", n)
			}
			r := rs.all()
			if len(r) != 1 || asError(t, r[0].Err).Kind != llm.KindTimeout || r[0].Attempt != 1 {
				t.Errorf("retries = %+v", r)
			}
		})
	}
}

func TestSlowServerGivesUp(t *testing.T) {
	srv := llmtest.New(t, llmtest.Delay(10*time.Second, llmtest.Text("late")), llmtest.Delay(10*time.Second, llmtest.Text("late")))
	c, _, _ := newClient(t, srv.URL(), true, func(cfg *llm.Config) { cfg.Timeout = 200 * time.Millisecond; cfg.MaxRetries = 1 })
	_, err := c.Complete(context.Background(), userReq("hello"))
	e := asError(t, err)
	if e.Kind != llm.KindTimeout || e.Attempts != 2 || !strings.Contains(err.Error(), "did not answer in time") {
		t.Errorf("err = %v (kind %s, attempts %d)", err, e.Kind, e.Attempts)
	}
}

func TestRetriesOnServerErrors(t *testing.T) {
	cases := []struct {
		name      string
		replies   []llmtest.Reply
		retries   int
		wantText  string
		wantKind  llm.ErrorKind
		wantMsg   []string
		wantCalls int
	}{
		{
			name:    "500 then success",
			replies: []llmtest.Reply{llmtest.Status(500, "Internal Server Error: CUDA out of memory"), llmtest.Text("ok")},
			retries: 4, wantText: "ok", wantCalls: 2,
		},
		{
			name:    "closed connection then success",
			replies: []llmtest.Reply{llmtest.CloseConnection(), llmtest.Text("ok")},
			retries: 4, wantText: "ok", wantCalls: 2,
		},
		{
			name:    "503 three times",
			replies: []llmtest.Reply{llmtest.Status(503, "loading model"), llmtest.Status(503, "loading model"), llmtest.Status(503, "loading model")},
			retries: 2, wantKind: llm.KindServer, wantCalls: 3,
			wantMsg: []string{"model server returned 503 three times: loading model"},
		},
		{
			name:    "500 with an OpenAI error body",
			replies: []llmtest.Reply{llmtest.Status(500, `{"error":{"message":"llama_decode failed","type":"server_error"}}`)},
			retries: -1, wantKind: llm.KindServer, wantCalls: 1,
			wantMsg: []string{"model server returned 500: llama_decode failed"},
		},
		{
			name:    "500 with a bare error string (Ollama native shape)",
			replies: []llmtest.Reply{llmtest.Status(500, `{"error":"model runner crashed"}`), llmtest.Status(500, `{"error":"model runner crashed"}`)},
			retries: 1, wantKind: llm.KindServer, wantCalls: 2,
			wantMsg: []string{"returned 500 twice: model runner crashed"},
		},
		{
			name:    "404 model not found is not retried",
			replies: []llmtest.Reply{llmtest.ModelNotFound("llmtest"), llmtest.Text("never")},
			retries: 4, wantKind: llm.KindModelNotFound, wantCalls: 1,
			wantMsg: []string{`model "llmtest" not found on the server`, "ollama pull llmtest"},
		},
		{
			name:    "404 without a model means a wrong URL",
			replies: []llmtest.Reply{llmtest.Status(404, "404 page not found"), llmtest.Text("never")},
			retries: 4, wantKind: llm.KindNotFound, wantCalls: 1,
			wantMsg: []string{"no chat-completions endpoint", "/v1"},
		},
		{
			name:    "400 is not retried",
			replies: []llmtest.Reply{llmtest.Status(400, `{"error":{"message":"context length exceeded"}}`), llmtest.Text("never")},
			retries: 4, wantKind: llm.KindBadRequest, wantCalls: 1,
			wantMsg: []string{"rejected the request (400 Bad Request): context length exceeded"},
		},
		{
			name:    "401 is not retried",
			replies: []llmtest.Reply{llmtest.Status(401, `{"error":{"message":"invalid api key"}}`), llmtest.Text("never")},
			retries: 4, wantKind: llm.KindAuth, wantCalls: 1,
			wantMsg: []string{"check the API key"},
		},
	}
	for _, tc := range cases {
		for _, m := range modes() {
			t.Run(tc.name+"/"+m.name, func(t *testing.T) {
				srv := llmtest.New(t, tc.replies...)
				c, _, _ := newClient(t, srv.URL(), m.stream, func(cfg *llm.Config) { cfg.MaxRetries = tc.retries })
				resp, err := c.Complete(context.Background(), userReq("hello"))
				if n := len(srv.Requests()); n != tc.wantCalls {
					t.Errorf("server got %d requests, want %d", n, tc.wantCalls)
				}
				if tc.wantText != "" {
					if err != nil || resp.Content != tc.wantText {
						t.Fatalf("resp=%+v err=%v", resp, err)
					}
					return
				}
				e := asError(t, err)
				if e.Kind != tc.wantKind {
					t.Errorf("kind = %s, want %s (%v)", e.Kind, tc.wantKind, err)
				}
				for _, want := range tc.wantMsg {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("message %q lacks %q", err.Error(), want)
					}
				}
			})
		}
	}
}

func TestRateLimitHonoursRetryAfter(t *testing.T) {
	srv := llmtest.New(t, llmtest.RateLimited(1), llmtest.Text("ok"))
	c, rs, _ := newClient(t, srv.URL(), true, nil)
	start := time.Now()
	resp, err := c.Complete(context.Background(), userReq("hello"))
	elapsed := time.Since(start)
	if err != nil || resp.Content != "ok" {
		t.Fatalf("resp=%+v err=%v", resp, err)
	}
	if elapsed < 900*time.Millisecond {
		t.Errorf("retried after %v, Retry-After asked for 1 s", elapsed)
	}
	r := rs.all()
	if len(r) != 1 || r[0].Wait != time.Second || asError(t, r[0].Err).Kind != llm.KindRateLimited {
		t.Errorf("retries = %+v", r)
	}
}

func TestMalformedJSON(t *testing.T) {
	for _, m := range modes() {
		t.Run(m.name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Malformed(""), llmtest.Text("never"))
			c, _, _ := newClient(t, srv.URL(), m.stream, nil)
			_, err := c.Complete(context.Background(), userReq("hello"))
			e := asError(t, err)
			if e.Kind != llm.KindBadResponse || !strings.Contains(err.Error(), "not a valid chat completion") {
				t.Errorf("err = %v (kind %s)", err, e.Kind)
			}
			if n := len(srv.Requests()); n != 1 {
				t.Errorf("server got %d requests; malformed replies are not retried", n)
			}
		})
	}
}

func TestCallerCancellation(t *testing.T) {
	t.Run("during a slow answer", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		srv := llmtest.New(t, llmtest.Handler(func(llmtest.ChatRequest) llmtest.Reply {
			cancel() // the request has reached the server: the user presses Stop
			return llmtest.Delay(10*time.Second, llmtest.Text("late"))
		}), llmtest.Text("never"))
		c, rs, _ := newClient(t, srv.URL(), true, nil)
		_, err := c.Complete(ctx, userReq("hello"))
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
		time.Sleep(150 * time.Millisecond) // longer than any back-off of this client
		if n := len(srv.Requests()); n != 1 || len(rs.all()) != 0 {
			t.Errorf("server got %d requests and the client retried %d times after cancellation, want 1 and 0", n, len(rs.all()))
		}
	})
	t.Run("during the back-off wait", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		srv := llmtest.New(t, llmtest.Status(500, "boom"), llmtest.Text("never"))
		retried := 0
		c, _, _ := newClient(t, srv.URL(), true, func(cfg *llm.Config) {
			cfg.Backoff = llm.Backoff{Base: 30 * time.Second, Max: 30 * time.Second}
			cfg.OnRetry = func(llm.RetryInfo) { retried++; time.AfterFunc(50*time.Millisecond, cancel) }
		})
		_, err := c.Complete(ctx, userReq("hello"))
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
		if n := len(srv.Requests()); n != 1 || retried != 1 {
			t.Errorf("requests=%d retries=%d, want 1 and 1", n, retried)
		}
	})
	t.Run("already cancelled", func(t *testing.T) {
		srv := llmtest.New(t)
		c, _, _ := newClient(t, srv.URL(), true, nil)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := c.Complete(ctx, userReq("hello")); !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v", err)
		}
		if n := len(srv.Requests()); n != 0 {
			t.Errorf("server got %d requests", n)
		}
	})
}

func TestInvalidRequestIsNotSent(t *testing.T) {
	srv := llmtest.New(t)
	c, _, _ := newClient(t, srv.URL(), true, nil)
	cases := []struct {
		name string
		req  llm.Request
		want string
	}{
		{"no messages", llm.Request{}, "no messages"},
		{"unknown role", llm.Request{Messages: []llm.Message{{Role: "developer", Content: "x"}}}, `role "developer"; allowed roles: system, user, assistant, tool`},
		{"tool parameters not an object", llm.Request{Messages: []llm.Message{{Role: "user", Content: "x"}}, Tools: []llm.ToolSpec{{Name: "t", Parameters: json.RawMessage(`[1]`)}}}, "JSON Schema object"},
		{"schema not JSON", llm.Request{Messages: []llm.Message{{Role: "user", Content: "x"}}, JSONSchema: &llm.JSONSchema{Name: "a", Schema: json.RawMessage(`{`)}}, "must be a JSON object"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.Complete(context.Background(), tc.req)
			e := asError(t, err)
			if e.Kind != llm.KindInvalid || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v", err)
			}
		})
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("server got %d requests", n)
	}
}

// rawServer is a real HTTP server for wire shapes llmtest does not script.
func rawServer(t *testing.T, h http.HandlerFunc) string {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

func TestStreamEdgeCases(t *testing.T) {
	sse := func(events ...string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			for _, e := range events {
				fmt.Fprintf(w, "data: %s\n\n", e)
			}
		}
	}
	cases := []struct {
		name     string
		handler  http.HandlerFunc
		want     string
		wantCall string
		wantKind llm.ErrorKind
	}{
		{
			name: "server ignores stream and answers with JSON",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprint(w, `{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"plain answer"},"finish_reason":"stop"}]}`)
			},
			want: "plain answer",
		},
		{
			name: "chunk ids change and no [DONE]",
			handler: sse(
				`{"id":"a","choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"}}]}`,
				`{"id":"b","choices":[{"index":0,"delta":{"content":"lo"},"finish_reason":"stop"}]}`,
			),
			want: "Hello",
		},
		{
			name: "tool calls without index, content null",
			handler: sse(
				`{"id":"a","choices":[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"browser_navigate","arguments":"{\"url\":"}}]}}]}`,
				`{"id":"a","choices":[{"index":0,"delta":{"content":null,"tool_calls":[{"function":{"arguments":"\"http://x\"}"}}]}}]}`,
				`{"id":"a","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`,
				`[DONE]`,
			),
			wantCall: `browser_navigate {"url":"http://x"}`,
		},
		{
			// A server that stopped mid-answer (its runner died, the
			// connection broke): on the code before, the half answer was
			// the answer (a real Ollama's "\"\"]]\"\"…" in CI, exit 0).
			name: "stream cut before its finish reason",
			handler: sse(
				`{"id":"a","choices":[{"index":0,"delta":{"role":"assistant","content":"The chapter is"}}]}`,
				`{"id":"a","choices":[{"index":0,"delta":{"content":" about"}}]}`,
			),
			wantKind: llm.KindServer,
		},
		{
			name:     "error event in the stream",
			handler:  sse(`{"error":{"message":"model runner has unexpectedly stopped"}}`),
			wantKind: llm.KindServer,
		},
		{
			name: "HTML page instead of an API",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				fmt.Fprint(w, "<html>router login</html>")
			},
			wantKind: llm.KindBadResponse,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			url := rawServer(t, tc.handler)
			c, _, _ := newClient(t, url, true, func(cfg *llm.Config) { cfg.MaxRetries = -1 })
			resp, err := c.Complete(context.Background(), userReq("hi"))
			if tc.wantKind != "" {
				if e := asError(t, err); e.Kind != tc.wantKind {
					t.Errorf("err = %v (kind %s)", err, e.Kind)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.want != "" && resp.Content != tc.want {
				t.Errorf("content = %q", resp.Content)
			}
			if tc.wantCall != "" {
				if len(resp.ToolCalls) != 1 || resp.ToolCalls[0].Name+" "+string(resp.ToolCalls[0].Arguments) != tc.wantCall {
					t.Errorf("tool calls = %+v", resp.ToolCalls)
				}
			}
			if !resp.Usage.Estimated {
				t.Errorf("usage should be estimated: %+v", resp.Usage)
			}
		})
	}
}

func TestTextFallbackStaysInContent(t *testing.T) {
	text := "Opening the page.\nfunction_call: name=browser_navigate args={\"url\":\"http://x\"}"
	srv := llmtest.New(t, llmtest.Text(text))
	c, _, _ := newClient(t, srv.URL(), true, nil)
	req := userReq("open x")
	req.Tools = browserTools
	resp, err := c.Complete(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != text || len(resp.ToolCalls) != 0 {
		t.Fatalf("resp = %+v", resp)
	}
	call, ok := llm.ParseTextToolCall(resp.Content)
	if !ok || call.Name != "browser_navigate" || string(call.Arguments) != `{"url":"http://x"}` {
		t.Errorf("parsed %+v %v", call, ok)
	}
}

func TestListModels(t *testing.T) {
	srv := llmtest.NewWithOptions(t, llmtest.Options{Models: []string{"qwen2.5:7b", "llama3.1:8b"}})
	c, _, _ := newClient(t, srv.URL(), true, nil)
	got, err := c.ListModels(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, []string{"qwen2.5:7b", "llama3.1:8b"}) {
		t.Errorf("models = %v", got)
	}
	// The configured "llmtest" is not among them: Ollama's 404.
	_, err = c.Complete(context.Background(), userReq("hi"))
	if e := asError(t, err); e.Kind != llm.KindModelNotFound || e.Attempts != 1 {
		t.Errorf("err = %v", err)
	}
}

func TestNewClientValidation(t *testing.T) {
	cases := []struct {
		name    string
		url     string
		model   string
		wantURL string
		wantErr []string
	}{
		{name: "ollama", url: "http://127.0.0.1:11434/v1", model: "qwen2.5:7b", wantURL: "http://127.0.0.1:11434/v1"},
		{name: "trailing slash and blanks", url: "  http://localhost:8080/v1/ ", model: "m", wantURL: "http://localhost:8080/v1"},
		{name: "full endpoint pasted", url: "https://gpu-box.lan:8000/v1/chat/completions", model: "m", wantURL: "https://gpu-box.lan:8000/v1"},
		{name: "empty url", url: "", model: "m", wantErr: []string{"model URL is empty", "http://127.0.0.1:11434/v1"}},
		{name: "no scheme", url: "localhost:11434/v1", model: "m", wantErr: []string{"must start with http:// or https://"}},
		{name: "ftp", url: "ftp://127.0.0.1/v1", model: "m", wantErr: []string{`must start with http:// or https:// (got "ftp")`}},
		{name: "no host", url: "http:///v1", model: "m", wantErr: []string{"has no host"}},
		{name: "unparsable", url: "http://[::1", model: "m", wantErr: []string{"not a valid URL"}},
		{name: "query", url: "http://127.0.0.1:11434/v1?x=1", model: "m", wantErr: []string{"must not contain ?query"}},
		{name: "no model", url: "http://127.0.0.1:11434/v1", model: " ", wantErr: []string{"model name is empty", "http://127.0.0.1:11434/v1/models"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := llm.NewClient(llm.Config{BaseURL: tc.url, Model: tc.model})
			if len(tc.wantErr) == 0 {
				if err != nil {
					t.Fatal(err)
				}
				if c.BaseURL() != tc.wantURL || c.Name() != strings.TrimSpace(tc.model) {
					t.Errorf("BaseURL=%q Name=%q", c.BaseURL(), c.Name())
				}
				return
			}
			if err == nil {
				t.Fatalf("NewClient(%q, %q) succeeded", tc.url, tc.model)
			}
			for _, want := range tc.wantErr {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q lacks %q", err, want)
				}
			}
		})
	}
	if _, err := llm.NewClient(llm.Config{BaseURL: "http://h/v1", Model: "m", Timeout: -time.Second}); err == nil {
		t.Error("negative time-out accepted")
	}
}

func TestConfigFromEnv(t *testing.T) {
	cases := []struct {
		name           string
		env            map[string]string
		wantOK         bool
		want           llm.Config
		wantStreamOff  bool
		wantClientFail bool
	}{
		{name: "nothing set", env: map[string]string{}, wantOK: false},
		{name: "blank url", env: map[string]string{"WAYMARK_MODEL_URL": "  "}, wantOK: false},
		{
			name:   "full",
			env:    map[string]string{"WAYMARK_MODEL_URL": "http://127.0.0.1:11434/v1", "WAYMARK_MODEL": "qwen2.5:7b", "WAYMARK_MODEL_KEY": "sk-local"},
			wantOK: true,
			want:   llm.Config{BaseURL: "http://127.0.0.1:11434/v1", Model: "qwen2.5:7b", APIKey: "sk-local"},
		},
		{
			name:          "streaming off",
			env:           map[string]string{"WAYMARK_MODEL_URL": "http://127.0.0.1:8080/v1", "WAYMARK_MODEL": "m", "WAYMARK_MODEL_STREAM": "false"},
			wantOK:        true,
			want:          llm.Config{BaseURL: "http://127.0.0.1:8080/v1", Model: "m"},
			wantStreamOff: true,
		},
		{
			name:           "url without model: ok, NewClient explains",
			env:            map[string]string{"WAYMARK_MODEL_URL": "http://127.0.0.1:8080/v1"},
			wantOK:         true,
			want:           llm.Config{BaseURL: "http://127.0.0.1:8080/v1"},
			wantClientFail: true,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, k := range []string{"WAYMARK_MODEL_URL", "WAYMARK_MODEL", "WAYMARK_MODEL_KEY", "WAYMARK_MODEL_STREAM"} {
				t.Setenv(k, tc.env[k])
			}
			cfg, ok := llm.ConfigFromEnv()
			if ok != tc.wantOK {
				t.Fatalf("ok = %v", ok)
			}
			if !ok {
				return
			}
			if cfg.BaseURL != tc.want.BaseURL || cfg.Model != tc.want.Model || cfg.APIKey != tc.want.APIKey {
				t.Errorf("cfg = %+v", cfg)
			}
			if cfg.Stream == tc.wantStreamOff || cfg.Timeout != llm.DefaultTimeout || cfg.MaxRetries != llm.DefaultMaxRetries {
				t.Errorf("defaults not applied: %+v", cfg)
			}
			if _, err := llm.NewClient(cfg); (err != nil) != tc.wantClientFail {
				t.Errorf("NewClient err = %v", err)
			}
		})
	}
}

func TestAPIKeyIsSent(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-cloud-must-not-leak")
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
	for _, tc := range []struct{ key, want string }{{"sk-local", "Bearer sk-local"}, {"", ""}} {
		srv := llmtest.New(t, llmtest.Text("ok"))
		c, _, _ := newClient(t, srv.URL(), false, func(cfg *llm.Config) { cfg.APIKey = tc.key })
		if _, err := c.Complete(context.Background(), userReq("hi")); err != nil {
			t.Fatal(err)
		}
		if got := srv.Requests()[0].Header.Get("Authorization"); got != tc.want {
			t.Errorf("key %q: Authorization = %q, want %q", tc.key, got, tc.want)
		}
	}
}

// A server started with a key (llama.cpp's --api-key) counts tokens for a
// client that has the key: the budget's POST /tokenize carries it as the
// chat requests do. The old client sent /tokenize bare, got 401 on every
// request and sized them by its own estimate (issue 21's key test saw the
// saved server get its key on 4 of 5 requests).
func TestTokenizeCarriesTheServersKey(t *testing.T) {
	const key = "sk-llama-5e1c"
	srv := llmtest.NewWithOptions(t, llmtest.Options{Tokenizer: true, APIKey: key}, llmtest.Text("ok"))
	c, _, _ := newClient(t, srv.URL(), false, func(cfg *llm.Config) { cfg.APIKey = key })
	req := userReq("find Ada")
	if n := c.CountTokens(context.Background(), req); n <= 0 {
		t.Fatalf("count %d", n)
	}
	if got := srv.Tokenized(); got != 1 || c.Tokenized() != 1 {
		t.Fatalf("the server's tokenizer counted %d times (the client says %d): /tokenize went without the key", got, c.Tokenized())
	}
	if _, err := c.Complete(context.Background(), req); err != nil {
		t.Fatal(err)
	}
}
