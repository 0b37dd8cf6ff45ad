package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"net/http"
	"strings"
	"time"
)

// DefaultContextTokens is the context budget when none is set: the usual
// window of a small local model (8k). No request is sent over the budget.
const DefaultContextTokens = 8192

// EnvContextTokens sets the context budget ([Config.ContextTokens]).
const EnvContextTokens = "WAYMARK_CONTEXT_TOKENS"

// ReplyTokens is what a request leaves free of its budget for the answer,
// unless the request says otherwise (MaxTokens).
const ReplyTokens = 1024

// ErrOverBudget marks a request that was not sent because it would not fit
// the model's context budget.
var ErrOverBudget = errors.New("the request does not fit the model's context budget")

// Budgeted is a model with a context budget: what a request may hold, and a
// count of a request's prompt tokens (the server's tokenizer when it offers
// one, else a conservative estimate). The agents size what they send to it.
type Budgeted interface {
	ContextTokens() int
	CountTokens(ctx context.Context, req Request) int
}

// ContextTokens is the client's context budget in tokens: the author's
// setting, or the server's window when that is smaller (learned from the
// server before the first request; see [Client.Window]).
func (c *Client) ContextTokens() int { return c.budget(context.Background()) }

// Setting is the author's context budget (Config.ContextTokens or the
// default), before the server's window is taken into account.
func (c *Client) Setting() int { return c.contextTokens }

// budget is the smaller of the setting and the server's window.
func (c *Client) budget(ctx context.Context) int {
	if w := c.Window(ctx); w.Tokens > 0 && w.Tokens < c.contextTokens {
		return w.Tokens
	}
	return c.contextTokens
}

// CountTokens counts the prompt tokens of req: with the server's tokenizer
// (llama.cpp's POST /tokenize) when it has one — plus the chat template's
// overhead per message — else with [EstimateRequest]. A server without a
// tokenizer is asked once.
func (c *Client) CountTokens(ctx context.Context, req Request) int {
	est := EstimateRequest(req)
	if c.noTokenizer.Load() {
		return est
	}
	var sb strings.Builder
	for _, m := range req.Messages {
		sb.WriteString(m.Content)
		sb.WriteByte('\n')
		for _, tc := range m.ToolCalls {
			sb.WriteString(tc.Name)
			sb.Write(tc.Arguments)
		}
	}
	for _, t := range req.Tools {
		sb.WriteString(t.Name + " " + t.Description + " ")
		sb.Write(t.Parameters)
	}
	if js := req.JSONSchema; js != nil {
		// The response_format as sent, wrapper and all.
		fmt.Fprintf(&sb, `{"type":"json_schema","json_schema":{"name":%q,"strict":%v,"schema":`, js.Name, js.Strict)
		sb.Write(js.Schema)
		sb.WriteString("}}")
	}
	text := sb.String()
	key := fnv.New64a()
	_, _ = key.Write([]byte(text))
	h := key.Sum64()
	c.countMu.Lock()
	n, seen := c.counted[h]
	c.countMu.Unlock()
	if !seen {
		var ok bool
		if n, ok = c.tokenize(ctx, text); !ok {
			return est
		}
		c.tokenized.Add(1)
		c.countMu.Lock()
		if len(c.counted) >= 16 {
			clear(c.counted) // the last few requests are what is asked again
		}
		c.counted[h] = n
		c.countMu.Unlock()
	}
	return n + messageOverhead*(len(req.Messages)+len(req.Tools))
}

// Tokenized tells how many counts the server's tokenizer made (tests and
// the bench report it).
func (c *Client) Tokenized() int64 { return c.tokenized.Load() }

// tokenize asks llama.cpp's tokenizer, at the server root (the base URL
// without /v1); ok is false when the server has none.
func (c *Client) tokenize(ctx context.Context, text string) (int, bool) {
	root := strings.TrimSuffix(c.baseURL, "/v1")
	body, _ := json.Marshal(map[string]any{"content": text, "add_special": false})
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, root+"/tokenize", bytes.NewReader(body))
	if err != nil {
		return 0, false
	}
	req.Header.Set("Content-Type", "application/json")
	if c.apiKey != "" {
		// The server's key, as on its chat requests: a server that wants
		// one refuses its tokenizer without it too.
		req.Header.Set("Authorization", "Bearer "+c.apiKey)
	}
	resp, err := c.httpClient.Do(req)
	if err != nil {
		return 0, false
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		if resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusMethodNotAllowed || resp.StatusCode == http.StatusNotImplemented {
			c.noTokenizer.Store(true)
		}
		return 0, false
	}
	var out struct {
		Tokens *tokenCount `json:"tokens"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 64<<20)).Decode(&out); err != nil || out.Tokens == nil {
		c.noTokenizer.Store(true)
		return 0, false
	}
	return int(*out.Tokens), true
}

// tokenCount is the number of elements of a tokenizer's "tokens" array (ids,
// or objects with their pieces), counted in one pass over its bytes: a
// whole portion of a book is thousands of tokens, and decoding each one to
// count them was a third of a whole-book summary's time under the race
// detector.
type tokenCount int

func (n *tokenCount) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) < 2 || b[0] != '[' || b[len(b)-1] != ']' {
		return errors.New("the tokenizer's tokens are not an array")
	}
	inner := bytes.TrimSpace(b[1 : len(b)-1])
	if len(inner) == 0 {
		*n = 0
		return nil
	}
	depth, count, inString, escaped := 0, 1, false, false // n elements: n-1 commas
	for _, c := range inner {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			depth--
		case c == ',' && depth == 0:
			count++
		}
	}
	*n = tokenCount(count)
	return nil
}

// checkBudget refuses a request whose prompt and reply would not fit.
func (c *Client) checkBudget(ctx context.Context, req Request) error {
	budget := c.budget(ctx)
	if budget <= 0 {
		return nil
	}
	reply := req.MaxTokens
	if reply <= 0 {
		reply = ReplyTokens
	}
	n := c.CountTokens(ctx, req)
	if n+reply > budget {
		if w := c.Window(ctx); w.Tokens == budget && budget < c.contextTokens {
			return fmt.Errorf("%w: %d prompt tokens and %d for the answer are over the server's window of %d tokens (%s); nothing was sent (the server would have cut the request)%s", ErrOverBudget, n, reply, budget, w.Source, raiseHint(w))
		}
		return fmt.Errorf("%w: %d prompt tokens and %d for the answer are over the budget of %d; nothing was sent (raise the context budget in Settings or %s if the model's window is larger)", ErrOverBudget, n, reply, budget, EnvContextTokens)
	}
	return nil
}

var _ Budgeted = (*Client)(nil)

// raiseHint says how a server's window is raised, with a leading "; ".
func raiseHint(w ServerWindow) string {
	switch w.Server {
	case ServerOllama:
		return "; to give the model a larger window, start Ollama with OLLAMA_CONTEXT_LENGTH=16384 or set PARAMETER num_ctx in the model's Modelfile"
	case ServerLlamaCpp:
		return "; to give the model a larger window, start llama-server with a larger --ctx-size"
	case ServerVLLM:
		return "; to give the model a larger window, start vLLM with a larger --max-model-len"
	case ServerLMStudio:
		return "; to give the model a larger window, load it in LM Studio with a larger context length"
	}
	return ""
}
