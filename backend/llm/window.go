package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// ServerWindow is the context window a server runs the model with, as the server
// itself tells it. Waymark asks before its first request: the budget of every
// request is the smaller of the author's setting and this window, so no
// request reaches a server that would cut it (Ollama cuts a prompt longer
// than its window silently, on its OpenAI route with no error at all).
type ServerWindow struct {
	// Tokens is the window in tokens; 0 when the server did not say.
	Tokens int `json:"tokens"`
	// Server names the kind of server that answered: "Ollama", "llama.cpp",
	// "vLLM", "LM Studio", or "" when none of them did.
	Server string `json:"server"`
	// Source says where Tokens came from, in words for the author.
	Source string `json:"source"`
	// Trained is the model's own maximum, when the server tells it (Ollama,
	// LM Studio); a window can be raised up to it.
	Trained int `json:"trained,omitempty"`
}

// Server kinds of [ServerWindow.Server].
const (
	ServerOllama   = "Ollama"
	ServerLlamaCpp = "llama.cpp"
	ServerVLLM     = "vLLM"
	ServerLMStudio = "LM Studio"
)

// OllamaDefaultWindow is the window Ollama gives a model on a machine with
// less than 24 GiB of VRAM (its docs, "Context length") when neither
// OLLAMA_CONTEXT_LENGTH nor the model's num_ctx says otherwise. Its OpenAI
// route ignores a request's num_ctx.
const OllamaDefaultWindow = 4096

// windowWait bounds all of the questions asked to learn the window, loading
// an Ollama model included (the first chat request would wait for it too).
const windowWait = 90 * time.Second

// infoBytes caps the answer to each question (an Ollama /api/show carries
// the model's whole template and license; a few MiB is ample).
const infoBytes = 8 << 20

// Window learns the server's window for the model, once per client; a
// server that cannot be reached is asked again next time. It never fails:
// a server that says nothing gives the zero Window.
func (c *Client) Window(ctx context.Context) ServerWindow {
	c.windowMu.Lock()
	defer c.windowMu.Unlock()
	if c.windowDone {
		return c.window
	}
	if !c.windowTried.IsZero() && time.Since(c.windowTried) < windowRetry {
		return ServerWindow{} // unreachable a moment ago: not asked again yet
	}
	ctx, cancel := context.WithTimeout(ctx, windowWait)
	defer cancel()
	w, final := c.learnWindow(ctx)
	if final {
		c.window, c.windowDone = w, true
	} else {
		c.windowTried = time.Now()
	}
	return w
}

// windowRetry is how long a server that could not be reached is not asked
// for its window again (the request itself says it is down).
const windowRetry = 10 * time.Second

// SetWindow tells the client the window instead of asking the server (a
// caller that already knows it, or a test).
func (c *Client) SetWindow(w ServerWindow) {
	c.windowMu.Lock()
	defer c.windowMu.Unlock()
	c.window, c.windowDone = w, true
}

// serverRoot is the base URL without its /v1: where Ollama's, llama.cpp's
// and LM Studio's own endpoints are.
func (c *Client) serverRoot() string { return strings.TrimSuffix(c.baseURL, "/v1") }

// learnWindow asks, in turn, Ollama, llama.cpp, LM Studio and vLLM; final
// is false when the server could not be reached at all.
func (c *Client) learnWindow(ctx context.Context) (ServerWindow, bool) {
	w, status, reached := c.ollamaWindow(ctx, c.model)
	if status == http.StatusOK || (status == http.StatusNotFound && w.Server == ServerOllama) {
		return w, true
	}
	if !reached {
		return ServerWindow{}, false
	}
	if w, ok := c.llamaCppWindow(ctx); ok {
		return w, true
	}
	if w, ok := c.lmStudioWindow(ctx, c.model); ok {
		return w, true
	}
	if w, ok := c.vllmWindow(ctx, c.model); ok {
		return w, true
	}
	return ServerWindow{}, true
}

// getJSON sends one bounded request for the server's own information and
// decodes its JSON answer into out. reached is false when no HTTP answer
// came at all.
func (c *Client) getJSON(ctx context.Context, method, url string, body any, out any) (status int, reached bool) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	ctx, cancel := context.WithTimeout(ctx, min(c.timeout, 15*time.Second))
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return 0, false
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.apiKey)
	}
	resp, err := c.httpClient.Do(req)
	if err != nil {
		return 0, false
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, infoBytes))
	if err != nil {
		return resp.StatusCode, true
	}
	if out != nil && json.Unmarshal(data, out) != nil && resp.StatusCode == http.StatusOK {
		return -1, true // 200 but not the JSON asked for: not this server
	}
	return resp.StatusCode, true
}

// ollamaShow is the part of Ollama's POST /api/show answer Waymark reads.
type ollamaShow struct {
	Parameters string                     `json:"parameters"`
	ModelInfo  map[string]json.RawMessage `json:"model_info"`
	Error      string                     `json:"error"`
}

// numCtxParam finds "num_ctx N" among a model's Modelfile parameters.
var numCtxParam = regexp.MustCompile(`(?m)^\s*num_ctx\s+(\d+)\s*$`)

// trained is the model's own maximum: model_info["<arch>.context_length"].
func (s ollamaShow) trained() int {
	var arch string
	_ = json.Unmarshal(s.ModelInfo["general.architecture"], &arch)
	n := 0
	if arch != "" {
		_ = json.Unmarshal(s.ModelInfo[arch+".context_length"], &n)
	}
	if n == 0 {
		for k, v := range s.ModelInfo {
			if strings.HasSuffix(k, ".context_length") {
				_ = json.Unmarshal(v, &n)
				break
			}
		}
	}
	return n
}

func (s ollamaShow) numCtx() int {
	if m := numCtxParam.FindStringSubmatch(s.Parameters); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

// ollamaRunning is Ollama's GET /api/ps: the loaded models with the window
// each runs with.
type ollamaRunning struct {
	Models []struct {
		Name          string `json:"name"`
		Model         string `json:"model"`
		ContextLength int    `json:"context_length"`
	} `json:"models"`
}

func (r ollamaRunning) window(model string) int {
	for _, m := range r.Models {
		if sameOllamaName(m.Name, model) || sameOllamaName(m.Model, model) {
			return m.ContextLength
		}
	}
	return 0
}

// sameOllamaName compares Ollama model names, "llama3" being "llama3:latest".
func sameOllamaName(a, b string) bool {
	norm := func(s string) string {
		if !strings.Contains(s, ":") {
			s += ":latest"
		}
		return s
	}
	return a != "" && norm(a) == norm(b)
}

// ollamaWindow asks Ollama: /api/show for the model (its own maximum and a
// num_ctx parameter), /api/ps for the window it runs with; a model that is
// not loaded yet is loaded first (POST /api/generate with no prompt, as
// `ollama run` does), because only the running model's window is certain —
// OLLAMA_CONTEXT_LENGTH and the machine's memory set it.
func (c *Client) ollamaWindow(ctx context.Context, model string) (ServerWindow, int, bool) {
	root := c.serverRoot()
	var show ollamaShow
	status, reached := c.getJSON(ctx, http.MethodPost, root+"/api/show", map[string]any{"model": model}, &show)
	if !reached {
		return ServerWindow{}, 0, false
	}
	if status == http.StatusNotFound && strings.Contains(show.Error, "not found") {
		// Ollama, and the model is not installed: the chat request will
		// say so clearly; nothing to learn.
		return ServerWindow{Server: ServerOllama, Source: "Ollama has no model named " + strconv.Quote(model)}, status, true
	}
	if status != http.StatusOK || show.ModelInfo == nil {
		return ServerWindow{}, status, true
	}
	w := ServerWindow{Server: ServerOllama, Trained: show.trained()}
	ps := func() int {
		var running ollamaRunning
		if st, _ := c.getJSON(ctx, http.MethodGet, root+"/api/ps", nil, &running); st != http.StatusOK {
			return 0
		}
		return running.window(model)
	}
	n := ps()
	if n == 0 {
		lctx, cancel := context.WithTimeout(ctx, windowWait)
		req, err := http.NewRequestWithContext(lctx, http.MethodPost, root+"/api/generate", strings.NewReader(fmt.Sprintf(`{"model":%q,"stream":false}`, model)))
		if err == nil {
			req.Header.Set("Content-Type", "application/json")
			if c.apiKey != "" {
				req.Header.Set("Authorization", "Bearer "+c.apiKey)
			}
			if resp, err := c.httpClient.Do(req); err == nil {
				_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, infoBytes))
				resp.Body.Close()
			}
		}
		cancel()
		n = ps()
	}
	switch {
	case n > 0:
		w.Tokens, w.Source = n, fmt.Sprintf("Ollama runs the model with %d tokens (/api/ps)", n)
	case show.numCtx() > 0:
		w.Tokens, w.Source = show.numCtx(), fmt.Sprintf("the model's num_ctx parameter, %d tokens (/api/show)", show.numCtx())
	default:
		w.Tokens, w.Source = OllamaDefaultWindow, fmt.Sprintf("Ollama's default window, %d tokens (the model could not be loaded to ask)", OllamaDefaultWindow)
		if w.Trained > 0 && w.Trained < w.Tokens {
			w.Tokens = w.Trained
		}
	}
	return w, http.StatusOK, true
}

// llamaCppWindow reads llama.cpp's GET /props: n_ctx of a slot, under
// default_generation_settings (newer builds), else the server's n_ctx
// shared by its slots.
func (c *Client) llamaCppWindow(ctx context.Context) (ServerWindow, bool) {
	var props struct {
		NCtx       int `json:"n_ctx"`
		TotalSlots int `json:"total_slots"`
		Defaults   struct {
			NCtx int `json:"n_ctx"`
		} `json:"default_generation_settings"`
	}
	if st, _ := c.getJSON(ctx, http.MethodGet, c.serverRoot()+"/props", nil, &props); st != http.StatusOK {
		return ServerWindow{}, false
	}
	switch {
	case props.Defaults.NCtx > 0:
		return ServerWindow{Server: ServerLlamaCpp, Tokens: props.Defaults.NCtx, Source: fmt.Sprintf("llama.cpp's n_ctx, %d tokens (/props)", props.Defaults.NCtx)}, true
	case props.NCtx > 0:
		n := props.NCtx / max(props.TotalSlots, 1)
		return ServerWindow{Server: ServerLlamaCpp, Tokens: n, Source: fmt.Sprintf("llama.cpp's n_ctx, %d tokens per slot (/props)", n)}, true
	}
	return ServerWindow{}, false
}

// lmStudioWindow reads LM Studio's GET /api/v0/models: the loaded model's
// loaded_context_length (its own maximum is max_context_length).
func (c *Client) lmStudioWindow(ctx context.Context, model string) (ServerWindow, bool) {
	list, ok := c.lmStudioModels(ctx)
	if !ok {
		return ServerWindow{}, false
	}
	w := ServerWindow{Server: ServerLMStudio}
	for _, m := range list {
		if m.ID != model {
			continue
		}
		w.Trained = m.MaxContextLength
		if m.LoadedContextLength > 0 {
			w.Tokens = m.LoadedContextLength
			w.Source = fmt.Sprintf("LM Studio loaded the model with %d tokens (/api/v0/models)", w.Tokens)
		} else {
			w.Source = "LM Studio has not loaded the model yet; its window is known once it is loaded"
		}
	}
	return w, true
}

type lmStudioModel struct {
	ID                  string `json:"id"`
	Type                string `json:"type"`
	LoadedContextLength int    `json:"loaded_context_length"`
	MaxContextLength    int    `json:"max_context_length"`
}

func (c *Client) lmStudioModels(ctx context.Context) ([]lmStudioModel, bool) {
	var out struct {
		Data []lmStudioModel `json:"data"`
	}
	if st, _ := c.getJSON(ctx, http.MethodGet, c.serverRoot()+"/api/v0/models", nil, &out); st != http.StatusOK || out.Data == nil {
		return nil, false
	}
	return out.Data, true
}

// vllmWindow reads vLLM's GET /v1/models: max_model_len of the model.
func (c *Client) vllmWindow(ctx context.Context, model string) (ServerWindow, bool) {
	list, ok := c.openAIModels(ctx)
	if !ok {
		return ServerWindow{}, false
	}
	for _, m := range list {
		if m.ID == model && m.MaxModelLen > 0 {
			return ServerWindow{Server: ServerVLLM, Tokens: m.MaxModelLen, Source: fmt.Sprintf("vLLM's max_model_len, %d tokens (/v1/models)", m.MaxModelLen)}, true
		}
	}
	return ServerWindow{}, false
}

type openAIModel struct {
	ID          string `json:"id"`
	MaxModelLen int    `json:"max_model_len"`
}

func (c *Client) openAIModels(ctx context.Context) ([]openAIModel, bool) {
	var out struct {
		Data []openAIModel `json:"data"`
	}
	if st, _ := c.getJSON(ctx, http.MethodGet, c.baseURL+"/models", nil, &out); st != http.StatusOK {
		return nil, false
	}
	return out.Data, true
}
