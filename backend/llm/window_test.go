package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/llm/llmtest"
)

// TestWindowPerServer learns the context window from scripted servers that
// answer like each real one, and holds the budget to the smaller of it and
// the author's setting.
func TestWindowPerServer(t *testing.T) {
	cases := []struct {
		name    string
		opts    llmtest.Options
		model   string
		setting int
		want    llm.ServerWindow
		budget  int
		loads   int
	}{
		{"Ollama, model not loaded: loaded, then its running window", llmtest.Options{Server: llmtest.KindOllama, Models: []string{"qwen2.5:7b"}},
			"qwen2.5:7b", 0, llm.ServerWindow{Tokens: 4096, Server: "Ollama", Source: "Ollama runs the model with 4096 tokens (/api/ps)", Trained: 131072}, 4096, 1},
		{"Ollama, loaded with OLLAMA_CONTEXT_LENGTH=32768", llmtest.Options{Server: llmtest.KindOllama, Models: []string{"qwen2.5:7b"}, Window: 32768, Loaded: true},
			"qwen2.5:7b", 16384, llm.ServerWindow{Tokens: 32768, Server: "Ollama", Source: "Ollama runs the model with 32768 tokens (/api/ps)", Trained: 131072}, 16384, 0},
		{"Ollama, Modelfile num_ctx", llmtest.Options{Server: llmtest.KindOllama, Models: []string{"book:latest"}, NumCtx: 6144},
			"book", 0, llm.ServerWindow{Tokens: 6144, Server: "Ollama", Source: "Ollama runs the model with 6144 tokens (/api/ps)", Trained: 131072}, 6144, 1},
		{"Ollama, model not installed", llmtest.Options{Server: llmtest.KindOllama, Models: []string{"qwen2.5:7b"}},
			"nosuch:1b", 0, llm.ServerWindow{Server: "Ollama", Source: `Ollama has no model named "nosuch:1b"`}, 8192, 0},
		{"llama.cpp /props", llmtest.Options{Server: llmtest.KindLlamaCpp, Window: 2048},
			"llmtest", 0, llm.ServerWindow{Tokens: 2048, Server: "llama.cpp", Source: "llama.cpp's n_ctx, 2048 tokens (/props)"}, 2048, 0},
		{"vLLM max_model_len", llmtest.Options{Server: llmtest.KindVLLM, Window: 32768},
			"llmtest", 0, llm.ServerWindow{Tokens: 32768, Server: "vLLM", Source: "vLLM's max_model_len, 32768 tokens (/v1/models)"}, 8192, 0},
		{"LM Studio loaded", llmtest.Options{Server: llmtest.KindLMStudio, Window: 4096, Trained: 32768, Loaded: true},
			"llmtest", 0, llm.ServerWindow{Tokens: 4096, Server: "LM Studio", Source: "LM Studio loaded the model with 4096 tokens (/api/v0/models)", Trained: 32768}, 4096, 0},
		{"a server that says nothing", llmtest.Options{},
			"llmtest", 0, llm.ServerWindow{}, 8192, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := llmtest.NewWithOptions(t, c.opts)
			cfg := llm.DefaultConfig(srv.URL(), c.model)
			cfg.ContextTokens = c.setting
			cl, err := llm.NewClient(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if got := cl.Window(context.Background()); got != c.want {
				t.Errorf("window = %+v, want %+v", got, c.want)
			}
			if got := cl.ContextTokens(); got != c.budget {
				t.Errorf("budget = %d, want %d", got, c.budget)
			}
			if srv.Loads() != c.loads {
				t.Errorf("the model was loaded %d times, want %d", srv.Loads(), c.loads)
			}
		})
	}
}

// TestOllamaWindowIsNeverOverrun: a stock Ollama (4,096 tokens, num_ctx
// ignored on the OpenAI route, a longer prompt cut silently) and the
// default budget of 8,192. A prompt of about 6,000 tokens was sent whole
// and cut by the server; now it is refused before it is sent, saying the
// server's window and how to raise it, and one that fits goes through.
func TestOllamaWindowIsNeverOverrun(t *testing.T) {
	srv := llmtest.NewWithOptions(t, llmtest.Options{Server: llmtest.KindOllama, Models: []string{"qwen2.5:7b"}, Quirks: llmtest.Ollama},
		llmtest.Text("short answer"))
	cl, err := llm.NewClient(llm.DefaultConfig(srv.URL(), "qwen2.5:7b"))
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 400) // ≈ 4,500 tokens, 5,600 counted conservatively
	_, err = cl.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: "user", Content: long}}})
	if !errors.Is(err, llm.ErrOverBudget) {
		t.Fatalf("a %d-token prompt for a 4,096-token window: err = %v, want refused over budget", llm.EstimateTokens(long), err)
	}
	for _, want := range []string{"window of 4096 tokens", "Ollama runs the model with 4096 tokens", "OLLAMA_CONTEXT_LENGTH", "nothing was sent"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal %q does not say %q", err, want)
		}
	}
	if _, err := cl.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: "user", Content: long[:8000]}}}); err != nil {
		t.Fatal(err)
	}
	for i, r := range srv.Requests() {
		if r.Truncated {
			t.Errorf("request %d (%d tokens) was cut by the server's window", i, r.WindowTokens)
		}
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d chat requests reached the server, want 1", n)
	}
}

// TestCutForLength: an answer that ended at the length limit (OpenAI's
// finish_reason "length", which Ollama sends for its done_reason "length")
// is an error that says so, streamed or not, never an answer.
func TestCutForLength(t *testing.T) {
	for _, stream := range []bool{false, true} {
		srv := llmtest.New(t, llmtest.Completion{Content: "The answer begins and then", FinishReason: "length"})
		cfg := llm.DefaultConfig(srv.URL(), "llmtest")
		cfg.Stream = stream
		cl, _ := llm.NewClient(cfg)
		resp, err := cl.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: "user", Content: "hi"}}})
		var e *llm.Error
		if !errors.As(err, &e) || e.Kind != llm.KindLength || !strings.Contains(err.Error(), "cut off at its length limit") {
			t.Errorf("stream=%v: err = %v, want a length error", stream, err)
		}
		if resp.Content != "" {
			t.Errorf("stream=%v: the cut text %q came back as an answer", stream, resp.Content)
		}
		if len(srv.Requests()) != 1 {
			t.Errorf("stream=%v: a cut answer was asked again (%d requests)", stream, len(srv.Requests()))
		}
	}
}

// TestWindowCarriesTheKey: a server started with a key answers its own
// endpoints only with it.
func TestWindowCarriesTheKey(t *testing.T) {
	srv := llmtest.NewWithOptions(t, llmtest.Options{Server: llmtest.KindLlamaCpp, Window: 3000, APIKey: "sekret"},
		llmtest.Text("a"), llmtest.Text("b"))
	cfg := llm.DefaultConfig(srv.URL(), "llmtest")
	cfg.APIKey = "sekret"
	cfg.Timeout = 5 * time.Second
	cl, _ := llm.NewClient(cfg)
	for range 2 {
		if _, err := cl.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: "user", Content: "hi"}}}); err != nil {
			t.Fatal(err)
		}
	}
	if w := cl.Window(context.Background()); w.Tokens != 3000 {
		t.Errorf("window %+v, want llama.cpp's 3000 (the key must be sent)", w)
	}
}

// TestStructuredOutputPerServer: the one-JSON-action turns go out as
// response_format json_schema to each kind of server (llama.cpp, vLLM and
// LM Studio take it as such; Ollama's OpenAI route turns it into its
// native format, as seen on Ollama v0.17.4), and an answer shaped like
// Ollama's grammar output (newlines inside, a space after) comes back as
// one JSON document.
func TestStructuredOutputPerServer(t *testing.T) {
	schema := &llm.JSONSchema{Name: "cursor_action", Strict: true, Schema: []byte(`{"type":"object","properties":{"action":{"type":"string"}},"required":["action"]}`)}
	for _, kind := range []string{llmtest.KindOllama, llmtest.KindLlamaCpp, llmtest.KindVLLM, llmtest.KindLMStudio} {
		srv := llmtest.NewWithOptions(t, llmtest.Options{Server: kind, Window: 8192, Loaded: true}, llmtest.Text("{\n\"action\":\n\"agent_finish_success\"} "))
		cl, _ := llm.NewClient(llm.DefaultConfig(srv.URL(), "llmtest"))
		resp, err := cl.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: "user", Content: "Find Pierre"}}, JSONSchema: schema, MaxTokens: 512})
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		var rf struct {
			Type       string `json:"type"`
			JSONSchema struct {
				Name   string         `json:"name"`
				Schema map[string]any `json:"schema"`
			} `json:"json_schema"`
		}
		if err := json.Unmarshal(srv.Requests()[0].ResponseFormat, &rf); err != nil || rf.Type != "json_schema" || rf.JSONSchema.Name != "cursor_action" || rf.JSONSchema.Schema["type"] != "object" {
			t.Errorf("%s: response_format %s", kind, srv.Requests()[0].ResponseFormat)
		}
		var v map[string]string
		if json.Unmarshal([]byte(resp.Content), &v) != nil || v["action"] != "agent_finish_success" {
			t.Errorf("%s: the answer %q is not one JSON document", kind, resp.Content)
		}
	}
}
