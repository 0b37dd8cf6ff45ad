package llm

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

// ModelInfo is one model a server has installed, with the context window
// it would run it with, when the server tells it.
type ModelInfo struct {
	Name   string `json:"name"`
	Window int    `json:"window"`
	Source string `json:"source"`
}

// ModelList is what a server has to choose from.
type ModelList struct {
	Server string      `json:"server"`
	Models []ModelInfo `json:"models"`
}

// maxListed bounds the models asked about one by one (Ollama's /api/show).
const maxListed = 64

// InstalledModels lists the server's models with their windows: Ollama's
// /api/tags (each model's window from /api/show and /api/ps), LM Studio's
// /api/v0/models, else /v1/models (vLLM's max_model_len; llama.cpp's one
// model with the n_ctx of /props).
func (c *Client) InstalledModels(ctx context.Context) (ModelList, error) {
	root := c.serverRoot()
	var tags struct {
		Models []struct {
			Name  string `json:"name"`
			Model string `json:"model"`
		} `json:"models"`
	}
	if st, _ := c.getJSON(ctx, http.MethodGet, root+"/api/tags", nil, &tags); st == http.StatusOK && tags.Models != nil {
		out := ModelList{Server: ServerOllama, Models: []ModelInfo{}}
		var running ollamaRunning
		c.getJSON(ctx, http.MethodGet, root+"/api/ps", nil, &running)
		for i, m := range tags.Models {
			name := m.Name
			if name == "" {
				name = m.Model
			}
			info := ModelInfo{Name: name}
			if n := running.window(name); n > 0 {
				info.Window, info.Source = n, "running with this window"
			} else if i < maxListed {
				var show ollamaShow
				if st, _ := c.getJSON(ctx, http.MethodPost, root+"/api/show", map[string]any{"model": name}, &show); st == http.StatusOK {
					switch {
					case show.numCtx() > 0:
						info.Window, info.Source = show.numCtx(), "its num_ctx parameter"
					default:
						info.Window, info.Source = OllamaDefaultWindow, "Ollama's default, unless OLLAMA_CONTEXT_LENGTH sets another"
						if t := show.trained(); t > 0 && t < info.Window {
							info.Window = t
						}
					}
				}
			}
			out.Models = append(out.Models, info)
		}
		return out, nil
	}
	if list, ok := c.lmStudioModels(ctx); ok {
		out := ModelList{Server: ServerLMStudio, Models: []ModelInfo{}}
		for _, m := range list {
			if m.Type == "embeddings" {
				continue
			}
			info := ModelInfo{Name: m.ID}
			if m.LoadedContextLength > 0 {
				info.Window, info.Source = m.LoadedContextLength, "loaded with this window"
			} else if m.MaxContextLength > 0 {
				info.Source = fmt.Sprintf("not loaded; at most %d tokens", m.MaxContextLength)
			}
			out.Models = append(out.Models, info)
		}
		return out, nil
	}
	list, ok := c.openAIModels(ctx)
	if !ok {
		names, err := c.ListModels(ctx) // its error says what is wrong
		if err != nil {
			return ModelList{}, err
		}
		out := ModelList{Models: []ModelInfo{}}
		for _, n := range names {
			out.Models = append(out.Models, ModelInfo{Name: n})
		}
		return out, nil
	}
	out := ModelList{Models: []ModelInfo{}}
	lw, isLlama := c.llamaCppWindow(ctx)
	for _, m := range list {
		info := ModelInfo{Name: m.ID}
		switch {
		case m.MaxModelLen > 0:
			out.Server, info.Window, info.Source = ServerVLLM, m.MaxModelLen, "vLLM's max_model_len"
		case isLlama:
			out.Server, info.Window, info.Source = ServerLlamaCpp, lw.Tokens, "llama.cpp's n_ctx"
		}
		out.Models = append(out.Models, info)
	}
	return out, nil
}

// ListModelsArgs names the server whose models to list.
type ListModelsArgs struct {
	ServerURL string `json:"serverUrl" jsonschema:"the OpenAI-compatible server's address, e.g. http://127.0.0.1:11434/v1"`
	APIKey    string `json:"apiKey,omitempty" jsonschema:"the server's key, if it needs one; used for this request only, never stored"`
}

// Refine: a server is needed.
func (ListModelsArgs) Refine(s *jsonschema.Schema) {
	tools.Prop(s, "serverUrl").MinLength = jsonschema.Ptr(1)
}

// ModelServerModelsRef is the typed handle on the ModelServerModels tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var ModelServerModelsRef = tools.RefTo[ListModelsArgs, ModelList]("ModelServerModels")

func listModelsTool() tools.Tool {
	return ModelServerModelsRef.Func("List the models a model server has installed, each with the context window the server would run it with and where that was learned (Ollama, llama.cpp, LM Studio, vLLM), so one can be chosen.",
		func(ctx context.Context, a ListModelsArgs) (ModelList, error) {
			cfg := DefaultConfig(strings.TrimSpace(a.ServerURL), "any")
			cfg.APIKey, cfg.MaxRetries, cfg.Timeout = a.APIKey, -1, 20*time.Second
			c, err := NewClient(cfg)
			if err != nil {
				return ModelList{}, err
			}
			ctx, cancel := context.WithTimeout(ctx, time.Minute)
			defer cancel()
			return c.InstalledModels(ctx)
		})
}
