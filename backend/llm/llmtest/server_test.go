package llmtest_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/llm/llmtest"
)

func post(t *testing.T, url, body string) *http.Response {
	t.Helper()
	resp, err := http.Post(url+"/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// events reads an SSE body into its data payloads.
func events(t *testing.T, r io.Reader) []string {
	t.Helper()
	var out []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if line := sc.Text(); strings.HasPrefix(line, "data: ") {
			out = append(out, strings.TrimPrefix(line, "data: "))
		} else if line != "" {
			t.Errorf("unexpected SSE line %q", line)
		}
	}
	return out
}

type chunk struct {
	ID      string `json:"id"`
	Choices []struct {
		Delta struct {
			Content   *string `json:"content"`
			ToolCalls []struct {
				Index    int     `json:"index"`
				ID       *string `json:"id"`
				Function struct {
					Name      string          `json:"name"`
					Arguments json.RawMessage `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens int `json:"prompt_tokens"`
	} `json:"usage"`
}

func TestStreamWireFormat(t *testing.T) {
	cases := []struct {
		name             string
		quirks           llmtest.Quirks
		includeUsage     bool
		wantArgChunks    int // chunks carrying argument text
		wantIDs          bool
		wantUsageOnly    bool // a final chunk with "choices": [] and usage
		wantUsageOnFinal bool
	}{
		{"openai", llmtest.Quirks{}, true, 5, true, true, false},
		{"openai without include_usage", llmtest.Quirks{}, false, 5, true, false, false},
		{"ollama", llmtest.Ollama, true, 1, true, false, true},
		{"llama.cpp", llmtest.LlamaCpp, true, 5, false, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewWithOptions(t, llmtest.Options{Quirks: tc.quirks}, llmtest.Tool("browser_navigate", `{"url":"http://x"}`))
			body := `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]`
			if tc.includeUsage {
				body += `,"stream_options":{"include_usage":true}`
			}
			resp := post(t, srv.URL(), body+"}")
			if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
				t.Fatalf("content type %q", ct)
			}
			evs := events(t, resp.Body)
			if len(evs) == 0 || evs[len(evs)-1] != "[DONE]" {
				t.Fatalf("stream does not end with [DONE]: %q", evs)
			}
			var args strings.Builder
			argChunks, usageOnly, usageOnFinal := 0, false, false
			for _, e := range evs[:len(evs)-1] {
				var c chunk
				if err := json.Unmarshal([]byte(e), &c); err != nil {
					t.Fatalf("chunk %s: %v", e, err)
				}
				if len(c.Choices) == 0 && c.Usage != nil {
					usageOnly = true
				}
				for _, ch := range c.Choices {
					if ch.FinishReason != nil && *ch.FinishReason == "tool_calls" && c.Usage != nil {
						usageOnFinal = true
					}
					for _, tcall := range ch.Delta.ToolCalls {
						if tcall.Function.Name != "" && (tcall.ID != nil) != tc.wantIDs {
							t.Errorf("tool call id present=%v, want %v", tcall.ID != nil, tc.wantIDs)
						}
						a := tcall.Function.Arguments
						if len(a) > 0 && string(a) != `""` {
							argChunks++
							var s string
							if json.Unmarshal(a, &s) == nil {
								args.WriteString(s)
							} else {
								args.Write(a) // Ollama: an object
							}
						}
					}
				}
			}
			if args.String() != `{"url":"http://x"}` || argChunks != tc.wantArgChunks {
				t.Errorf("arguments %q in %d chunks, want %d chunks", args.String(), argChunks, tc.wantArgChunks)
			}
			if usageOnly != tc.wantUsageOnly || usageOnFinal != tc.wantUsageOnFinal {
				t.Errorf("usage-only chunk=%v usage on final chunk=%v", usageOnly, usageOnFinal)
			}
		})
	}
}

func TestPlainJSONAndRecording(t *testing.T) {
	srv := llmtest.New(t, llmtest.Tool("browser_back", nil), llmtest.Text("Готово"))
	resp := post(t, srv.URL(), `{"model":"m","messages":[{"role":"system","content":"be brief"},{"role":"user","content":[{"type":"text","text":"go "},{"type":"text","text":"back"}]}],"tools":[{"type":"function","function":{"name":"browser_back","parameters":{"type":"object"}}}],"response_format":{"type":"json_object"},"temperature":0.2,"max_tokens":64}`)
	var out struct {
		Choices []struct {
			Message struct {
				Content   *string `json:"content"`
				ToolCalls []struct {
					ID       string `json:"id"`
					Function struct {
						Name      string `json:"name"`
						Arguments string `json:"arguments"`
					} `json:"function"`
				} `json:"tool_calls"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
		Usage struct {
			PromptTokens, CompletionTokens, TotalTokens int
		} `json:"usage"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	m := out.Choices[0].Message
	if m.Content != nil || len(m.ToolCalls) != 1 || m.ToolCalls[0].Function.Name != "browser_back" || m.ToolCalls[0].Function.Arguments != "{}" || out.Choices[0].FinishReason != "tool_calls" {
		t.Errorf("completion = %+v", out)
	}
	r := srv.Requests()[0]
	if r.Stream || r.Messages[1].Content != "go back" || len(r.Tools) != 1 || string(r.ResponseFormat) != `{"type":"json_object"}` || *r.Temperature != 0.2 || r.MaxTokens != 64 {
		t.Errorf("recorded %+v", r)
	}
	wantPrompt := llm.EstimateTokens("be brief") + llm.EstimateTokens("go back")
	if r.PromptTokens != wantPrompt || srv.PromptTokens() != wantPrompt {
		t.Errorf("prompt tokens %d/%d, want %d", r.PromptTokens, srv.PromptTokens(), wantPrompt)
	}
	if srv.Remaining() != 1 {
		t.Errorf("remaining = %d", srv.Remaining())
	}
}

func TestModelsAndUnknownModel(t *testing.T) {
	srv := llmtest.NewWithOptions(t, llmtest.Options{Models: []string{"qwen2.5:7b"}}, llmtest.Text("hi"))
	resp, err := http.Get(srv.URL() + "/models")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var list struct {
		Data []struct{ ID string } `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil || len(list.Data) != 1 || list.Data[0].ID != "qwen2.5:7b" {
		t.Fatalf("models = %+v, %v", list, err)
	}
	r := post(t, srv.URL(), `{"model":"other","messages":[{"role":"user","content":"x"}]}`)
	if r.StatusCode != http.StatusNotFound {
		t.Errorf("status %d for an unknown model", r.StatusCode)
	}
	if srv.Remaining() != 1 {
		t.Error("the 404 consumed a scripted reply")
	}
}

func TestRepeatHandler(t *testing.T) {
	var n atomic.Int32
	srv := llmtest.New(t, llmtest.Repeat(llmtest.Handler(func(r llmtest.ChatRequest) llmtest.Reply {
		n.Add(1)
		return llmtest.Text("echo: " + r.LastMessage().Content)
	})))
	for i := 0; i < 3; i++ {
		post(t, srv.URL(), `{"model":"m","messages":[{"role":"user","content":"x"}]}`)
	}
	if n.Load() != 3 || len(srv.Requests()) != 3 || srv.Remaining() != 1 {
		t.Errorf("handler ran %d times, %d requests, %d remaining", n.Load(), len(srv.Requests()), srv.Remaining())
	}
}
