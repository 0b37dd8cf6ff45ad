package llm_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/waymark/waymark/backend/llm"
)

// hostile is a server that answers every chat request with handler and
// counts the bytes it managed to send.
func hostile(t *testing.T, handler func(w http.ResponseWriter, r *http.Request, sent *atomic.Int64)) (string, *atomic.Int64) {
	t.Helper()
	var sent atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		_, _ = io.Copy(io.Discard, r.Body)
		handler(w, r, &sent)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1", &sent
}

// hugeCompletion writes a valid chat completion whose content is n bytes.
func hugeCompletion(n int) func(w http.ResponseWriter, r *http.Request, sent *atomic.Int64) {
	return func(w http.ResponseWriter, r *http.Request, sent *atomic.Int64) {
		w.Header().Set("Content-Type", "application/json")
		head := `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"`
		_, _ = io.WriteString(w, head)
		chunk := strings.Repeat("A", 64<<10)
		for left := n; left > 0; left -= len(chunk) {
			k, err := io.WriteString(w, chunk[:min(len(chunk), left)])
			sent.Add(int64(k))
			if err != nil {
				return
			}
		}
		_, _ = io.WriteString(w, `"}}]}`)
	}
}

// endless streams content chunks until the client goes away.
func endless(every time.Duration) func(w http.ResponseWriter, r *http.Request, sent *atomic.Int64) {
	return func(w http.ResponseWriter, r *http.Request, sent *atomic.Int64) {
		w.Header().Set("Content-Type", "text/event-stream")
		fl := w.(http.Flusher)
		for i := 0; ; i++ {
			k, err := fmt.Fprintf(w, "data: {\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"word %d \"},\"finish_reason\":null}]}\n\n", i)
			sent.Add(int64(k))
			if err != nil {
				return
			}
			fl.Flush()
			if every > 0 {
				select {
				case <-r.Context().Done():
					return
				case <-time.After(every):
				}
			}
		}
	}
}

// TestHostileServerIsBounded: a 200 MB reply was read whole (2.65 GB of
// memory) and printed as the answer, and an endless stream ran until the
// process was killed. Now an answer stops at the reply size cap and a
// request at its deadline, each with an error naming the limit, and
// neither is retried.
func TestHostileServerIsBounded(t *testing.T) {
	cases := []struct {
		name    string
		stream  bool
		handler func(w http.ResponseWriter, r *http.Request, sent *atomic.Int64)
		cfg     func(*llm.Config)
		kind    llm.ErrorKind
		says    string
	}{
		{"huge non-streamed reply", false, hugeCompletion(200 << 20), func(c *llm.Config) { c.MaxReplyBytes = 1 << 20 },
			llm.KindTooLarge, "larger than the reply size cap (1048576 bytes)"},
		{"huge reply to a streaming request", true, hugeCompletion(200 << 20), func(c *llm.Config) { c.MaxReplyBytes = 1 << 20 },
			llm.KindTooLarge, "larger than the reply size cap"},
		{"endless stream, fast", true, endless(0), func(c *llm.Config) { c.MaxReplyBytes = 1 << 20 },
			llm.KindTooLarge, "larger than the reply size cap"},
		{"endless stream, slow", true, endless(5 * time.Millisecond), func(c *llm.Config) { c.Deadline = 300 * time.Millisecond },
			llm.KindTimeout, "did not finish its answer within the request deadline"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			url, sent := hostile(t, c.handler)
			cfg := llm.DefaultConfig(url, "m")
			cfg.Stream = c.stream
			cfg.Backoff = llm.Backoff{Base: time.Millisecond, Max: 2 * time.Millisecond}
			c.cfg(&cfg)
			cl, err := llm.NewClient(cfg)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			resp, err := cl.Complete(ctx, userReq("hello"))
			var e *llm.Error
			if !errors.As(err, &e) || e.Kind != c.kind || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("err = %v, want %s saying %q", err, c.kind, c.says)
			}
			if e.Attempts != 1 {
				t.Errorf("%d attempts; a limit that was hit is not tried again", e.Attempts)
			}
			if resp.Content != "" {
				t.Errorf("%d bytes came back as the answer", len(resp.Content))
			}
			if ctx.Err() != nil {
				t.Error("the request ran until the test's own time-out")
			}
			t.Logf("server sent %d bytes before the client stopped", sent.Load())
		})
	}
	if _, err := llm.NewClient(llm.Config{BaseURL: "http://127.0.0.1:1/v1", Model: "m", MaxReplyBytes: -1}); err == nil {
		t.Error("a negative reply cap was accepted")
	}
}
