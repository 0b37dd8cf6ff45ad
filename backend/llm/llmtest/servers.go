package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/waymark/waymark/backend/llm"
)

// Server kinds for [Options.Server]: which real server's own endpoints the
// scripted server also serves, and how it treats a prompt longer than its
// window ([Options.Window]).
//
//   - llm.ServerOllama: POST /api/show (model_info "llama.context_length",
//     a "num_ctx" parameter when NumCtx is set), GET /api/ps (the window of
//     a loaded model), POST /api/generate (loads the model), GET /api/tags
//     and GET /api/version. Its OpenAI route ignores num_ctx and cuts a
//     longer prompt silently: the request is answered, marked Truncated,
//     and its usage says only Window prompt tokens were read.
//   - llm.ServerLlamaCpp: GET /props with default_generation_settings.n_ctx;
//     a longer prompt gets llama.cpp's 400.
//   - llm.ServerVLLM: GET /v1/models with max_model_len; a longer prompt
//     gets vLLM's 400.
//   - llm.ServerLMStudio: GET /api/v0/models with loaded_context_length
//     (when Loaded) and max_context_length; a longer prompt gets a 400.
const (
	KindOllama   = llm.ServerOllama
	KindLlamaCpp = llm.ServerLlamaCpp
	KindVLLM     = llm.ServerVLLM
	KindLMStudio = llm.ServerLMStudio
)

// registerKind serves the endpoints of opts.Server.
func (s *Server) registerKind(mux *http.ServeMux) {
	switch s.opts.Server {
	case KindOllama:
		mux.HandleFunc("POST /api/show", s.ollamaShow)
		mux.HandleFunc("GET /api/ps", s.ollamaPS)
		mux.HandleFunc("POST /api/generate", s.ollamaGenerate)
		mux.HandleFunc("GET /api/tags", s.ollamaTags)
		mux.HandleFunc("GET /api/version", func(w http.ResponseWriter, _ *http.Request) {
			writeJSON(w, http.StatusOK, map[string]string{"version": "0.17.4"})
		})
	case KindLlamaCpp:
		mux.HandleFunc("GET /props", func(w http.ResponseWriter, _ *http.Request) {
			writeJSON(w, http.StatusOK, map[string]any{
				"default_generation_settings": map[string]any{"n_ctx": s.opts.Window, "temperature": 0.8},
				"total_slots":                 1,
				"model_path":                  "/models/llmtest.gguf",
			})
		})
	case KindLMStudio:
		mux.HandleFunc("GET /api/v0/models", func(w http.ResponseWriter, _ *http.Request) {
			var data []map[string]any
			for _, m := range s.modelNames() {
				e := map[string]any{"id": m, "object": "model", "type": "llm", "state": "not-loaded", "max_context_length": s.trained()}
				if s.isLoaded(m) {
					e["state"], e["loaded_context_length"] = "loaded", s.opts.Window
				}
				data = append(data, e)
			}
			writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": data})
		})
	}
}

func (s *Server) trained() int {
	if s.opts.Trained > 0 {
		return s.opts.Trained
	}
	return 131072
}

func (s *Server) isLoaded(model string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.loaded[model]
}

func (s *Server) load(model string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.loaded[model] = true
}

// Loads is how many times a model was loaded through POST /api/generate.
func (s *Server) Loads() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.loads
}

func (s *Server) ollamaModel(w http.ResponseWriter, r *http.Request) (string, bool) {
	var in struct {
		Model string `json:"model"`
		Name  string `json:"name"`
	}
	_ = json.NewDecoder(r.Body).Decode(&in)
	name := in.Model
	if name == "" {
		name = in.Name
	}
	if !strings.Contains(name, ":") && slices.Contains(s.modelNames(), name+":latest") {
		name += ":latest" // Ollama's default tag
	}
	if !slices.Contains(s.modelNames(), name) {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": fmt.Sprintf("model '%s' not found", name)})
		return "", false
	}
	return name, true
}

func (s *Server) ollamaShow(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.ollamaModel(w, r); !ok {
		return
	}
	params := "temperature 0.7\nstop \"<|eot_id|>\""
	if s.opts.NumCtx > 0 {
		params += fmt.Sprintf("\nnum_ctx %d", s.opts.NumCtx)
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"modelfile":  "FROM /models/llmtest.gguf",
		"parameters": params,
		"template":   "{{ .Prompt }}",
		"details":    map[string]any{"format": "gguf", "family": "llama"},
		"model_info": map[string]any{
			"general.architecture":    "llama",
			"general.parameter_count": 1000000,
			"llama.context_length":    s.trained(),
			"llama.embedding_length":  64,
		},
		"capabilities": []string{"completion", "tools"},
	})
}

func (s *Server) ollamaGenerate(w http.ResponseWriter, r *http.Request) {
	name, ok := s.ollamaModel(w, r)
	if !ok {
		return
	}
	s.load(name)
	s.mu.Lock()
	s.loads++
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"model": name, "response": "", "done": true, "done_reason": "load"})
}

func (s *Server) ollamaPS(w http.ResponseWriter, _ *http.Request) {
	models := []map[string]any{}
	for _, m := range s.modelNames() {
		if s.isLoaded(m) {
			models = append(models, map[string]any{"name": m, "model": m, "size": 1 << 20, "size_vram": 0, "context_length": s.window()})
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"models": models})
}

func (s *Server) ollamaTags(w http.ResponseWriter, _ *http.Request) {
	models := []map[string]any{}
	for _, m := range s.modelNames() {
		models = append(models, map[string]any{"name": m, "model": m, "size": 1 << 20, "details": map[string]any{"format": "gguf", "family": "llama"}})
	}
	writeJSON(w, http.StatusOK, map[string]any{"models": models})
}

// window is the window the server runs a model with: Options.Window, or
// for Ollama its num_ctx parameter, else its default of 4,096 tokens.
func (s *Server) window() int {
	switch {
	case s.opts.Window > 0:
		return s.opts.Window
	case s.opts.Server == KindOllama && s.opts.NumCtx > 0:
		return s.opts.NumCtx
	case s.opts.Server == KindOllama:
		return llm.OllamaDefaultWindow
	}
	return 0
}

// overWindow handles a request longer than the window the way the server
// kind does; it reports whether the request was answered with an error.
func (s *Server) overWindow(w http.ResponseWriter, req *ChatRequest) bool {
	win := s.window()
	if win == 0 || req.WindowTokens+req.MaxTokens <= win {
		return false
	}
	switch s.opts.Server {
	case KindOllama:
		req.Truncated = true // cut silently, answered as if nothing happened
		return false
	case KindLlamaCpp:
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": map[string]any{"code": 400, "type": "exceed_context_size_error",
			"message": fmt.Sprintf("the request exceeds the available context size, try increasing it (n_prompt_tokens %d, n_ctx %d)", req.WindowTokens, win)}})
	case KindVLLM:
		writeJSON(w, http.StatusBadRequest, errorBody(fmt.Sprintf("This model's maximum context length is %d tokens. However, you requested %d tokens.", win, req.WindowTokens+req.MaxTokens), "BadRequestError"))
	default:
		writeJSON(w, http.StatusBadRequest, errorBody(fmt.Sprintf("The number of tokens to keep from the initial prompt is greater than the context length (%d > %d)", req.WindowTokens, win), "invalid_request_error"))
	}
	return true
}

// windowTokens counts what the server holds of req: with the test
// tokenizer when the server has one (Options.Tokenizer), else with
// llm.EstimateTokens, over the messages, tools and response format.
func (s *Server) windowTokens(req ChatRequest) int {
	if s.opts.Tokenizer {
		return req.ServerTokens
	}
	n := 0
	for _, m := range req.Messages {
		n += llm.EstimateTokens(m.Content)
		for _, tc := range m.ToolCalls {
			n += llm.EstimateTokens(tc.Name) + llm.EstimateTokens(string(tc.Arguments))
		}
	}
	for _, t := range req.Tools {
		n += llm.EstimateTokens(t.Name) + llm.EstimateTokens(t.Description) + llm.EstimateTokens(string(t.Parameters))
	}
	return n + llm.EstimateTokens(string(req.ResponseFormat))
}

// modelEntry is one model of GET /v1/models; vLLM adds max_model_len.
func (s *Server) modelEntry(id string) map[string]any {
	m := map[string]any{"id": id, "object": "model", "created": 1700000000, "owned_by": "llmtest"}
	if s.opts.Server == KindVLLM && s.opts.Window > 0 {
		m["max_model_len"] = s.opts.Window
		m["owned_by"] = "vllm"
	}
	return m
}
