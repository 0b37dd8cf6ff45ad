package llm_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/llm/llmtest"
	"github.com/waymark/waymark/backend/tools"
)

// TestModelServerModels lists what each kind of server has installed, with
// the window each model would run with, through the registry tool the
// window's Settings call.
func TestModelServerModels(t *testing.T) {
	r := tools.New()
	llm.RegisterTools(r)
	cases := []struct {
		name string
		opts llmtest.Options
		want llm.ModelList
	}{
		{"Ollama: /api/tags, num_ctx or the default", llmtest.Options{Server: llmtest.KindOllama, Models: []string{"qwen2.5:7b", "tiny:latest"}, NumCtx: 8192},
			llm.ModelList{Server: "Ollama", Models: []llm.ModelInfo{{Name: "qwen2.5:7b", Window: 8192, Source: "its num_ctx parameter"}, {Name: "tiny:latest", Window: 8192, Source: "its num_ctx parameter"}}}},
		{"Ollama: a loaded model", llmtest.Options{Server: llmtest.KindOllama, Models: []string{"qwen2.5:7b"}, Window: 32768, Loaded: true},
			llm.ModelList{Server: "Ollama", Models: []llm.ModelInfo{{Name: "qwen2.5:7b", Window: 32768, Source: "running with this window"}}}},
		{"Ollama: the default window", llmtest.Options{Server: llmtest.KindOllama, Models: []string{"qwen2.5:7b"}},
			llm.ModelList{Server: "Ollama", Models: []llm.ModelInfo{{Name: "qwen2.5:7b", Window: 4096, Source: "Ollama's default, unless OLLAMA_CONTEXT_LENGTH sets another"}}}},
		{"llama.cpp: /v1/models and /props", llmtest.Options{Server: llmtest.KindLlamaCpp, Window: 2048},
			llm.ModelList{Server: "llama.cpp", Models: []llm.ModelInfo{{Name: "llmtest", Window: 2048, Source: "llama.cpp's n_ctx"}}}},
		{"vLLM: max_model_len", llmtest.Options{Server: llmtest.KindVLLM, Window: 16384, Models: []string{"Qwen/Qwen2.5-7B-Instruct"}},
			llm.ModelList{Server: "vLLM", Models: []llm.ModelInfo{{Name: "Qwen/Qwen2.5-7B-Instruct", Window: 16384, Source: "vLLM's max_model_len"}}}},
		{"LM Studio: loaded", llmtest.Options{Server: llmtest.KindLMStudio, Window: 4096, Loaded: true},
			llm.ModelList{Server: "LM Studio", Models: []llm.ModelInfo{{Name: "llmtest", Window: 4096, Source: "loaded with this window"}}}},
		{"a plain OpenAI-compatible server", llmtest.Options{Models: []string{"a", "b"}},
			llm.ModelList{Models: []llm.ModelInfo{{Name: "a"}, {Name: "b"}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := llmtest.NewWithOptions(t, c.opts)
			args, _ := json.Marshal(llm.ListModelsArgs{ServerURL: srv.URL()})
			res, err := r.Call(context.Background(), tools.Call{Name: "ModelServerModels", Args: args}, tools.Context{})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.(llm.ModelList); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v\nwant %+v", got, c.want)
			}
		})
	}
	args, _ := json.Marshal(llm.ListModelsArgs{ServerURL: llmtest.UnreachableURL(t)})
	if _, err := r.Call(context.Background(), tools.Call{Name: "ModelServerModels", Args: args}, tools.Context{}); err == nil {
		t.Error("a server that is down listed models")
	}
}
