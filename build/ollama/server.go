package ollamatier

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Server is a private `ollama serve`: its own port on 127.0.0.1, its own HOME and
// OLLAMA_MODELS (nothing of the user's Ollama is read or written), its log kept.
type Server struct {
	Bin, URL, Dir string
	cmd           *exec.Cmd
	done          chan struct{}
	log           lockedBuffer
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.b.Len() > 64<<20 { // bounded: a runaway log stops being kept
		return len(p), nil
	}
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Log is what the server wrote so far (its runner's lines included).
func (s *Server) Log() string { return s.log.String() }

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// StartServer runs `bin serve` in dir and waits (at most wait) until /api/version answers.
func StartServer(bin, dir string, wait time.Duration) (*Server, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	home, models := filepath.Join(dir, "home"), filepath.Join(dir, "models")
	for _, d := range []string{home, models} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	s := &Server{Bin: bin, Dir: dir, URL: fmt.Sprintf("http://127.0.0.1:%d", port), done: make(chan struct{})}
	s.cmd = exec.Command(bin, "serve")
	s.cmd.Env = append(cleanEnv(), "HOME="+home, "OLLAMA_MODELS="+models,
		fmt.Sprintf("OLLAMA_HOST=127.0.0.1:%d", port), "OLLAMA_NOHISTORY=1", "OLLAMA_DEBUG=0")
	s.cmd.Stdout, s.cmd.Stderr = &s.log, &s.log
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // its runners end with it
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s serve: %w", bin, err)
	}
	go func() { _ = s.cmd.Wait(); close(s.done) }()
	deadline := time.Now().Add(wait)
	for {
		if _, err := s.Get("/api/version"); err == nil {
			return s, nil
		}
		select {
		case <-s.done:
			return nil, fmt.Errorf("ollama serve exited before answering: %s", tail(s.Log(), 2000))
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.Stop()
			return nil, fmt.Errorf("ollama serve did not answer /api/version within %s: %s", wait, tail(s.Log(), 2000))
		}
	}
}

// cleanEnv is the environment without any OLLAMA_ or WAYMARK_ setting of the caller's.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "OLLAMA_") && !strings.HasPrefix(kv, "WAYMARK_") {
			env = append(env, kv)
		}
	}
	return env
}

// Stop ends the server and its runners (its process group), waiting at most 10 s.
func (s *Server) Stop() {
	if s.cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-s.done
	}
}

var httpc = &http.Client{Timeout: 5 * time.Minute}

// Get fetches path and returns the body of a 200 answer.
func (s *Server) Get(path string) ([]byte, error) {
	resp, err := httpc.Get(s.URL + path)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return b, fmt.Errorf("GET %s: %s: %s", path, resp.Status, b)
	}
	return b, nil
}

// Post sends body as JSON and returns the status and the body (bounded to 16 MB).
func (s *Server) Post(ctx context.Context, path string, body any) (int, []byte, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return 0, nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL+path, bytes.NewReader(b))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := httpc.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	return resp.StatusCode, out, err
}

// Create makes model name from the GGUF at gguf with `ollama create` and the given
// Modelfile lines after FROM (at most wait).
func (s *Server) Create(name, gguf string, lines []string, wait time.Duration) (string, error) {
	mf := filepath.Join(s.Dir, name+".Modelfile")
	text := "FROM " + gguf + "\n" + strings.Join(lines, "\n") + "\n"
	if err := os.WriteFile(mf, []byte(text), 0o644); err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.Bin, "create", name, "-f", mf)
	cmd.Env = append(cleanEnv(), "HOME="+filepath.Join(s.Dir, "home"), "OLLAMA_HOST="+strings.TrimPrefix(s.URL, "http://"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("ollama create %s: %w: %s", name, err, tail(string(out), 2000))
	}
	return string(out), nil
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// Exchange is one request Waymark sent through the [Proxy] and what came back.
type Exchange struct {
	Method, Path string
	Request      []byte // the body as sent (bounded to 16 MB)
	Status       int
	Response     []byte // the body as received so far (bounded to 16 MB)
	ClientGone   bool   // the client closed the connection before the body ended
	Complete     bool   // the body reached its end
}

// Proxy stands between Waymark and Ollama and keeps every exchange: what a request
// held and what its answer said (finish_reason, usage), and whether the client
// went away in the middle of a stream.
type Proxy struct {
	*httptest.Server
	mu        sync.Mutex
	exchanges []*Exchange
	onChunk   func(path string)
}

// OnChunk sets f (nil: none) to be called once per response, when its first body
// bytes arrive.
func (p *Proxy) OnChunk(f func(path string)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.onChunk = f
}

// NewProxy forwards to target (an Ollama base URL) and flushes every chunk at once.
func NewProxy(target string) (*Proxy, error) {
	u, err := url.Parse(target)
	if err != nil {
		return nil, err
	}
	p := &Proxy{}
	rp := httputil.NewSingleHostReverseProxy(u)
	rp.FlushInterval = -1
	rp.ModifyResponse = func(resp *http.Response) error {
		ex, _ := resp.Request.Context().Value(exchangeKey{}).(*Exchange)
		if ex == nil {
			return nil
		}
		p.mu.Lock()
		ex.Status = resp.StatusCode
		p.mu.Unlock()
		resp.Body = &recordingBody{rc: resp.Body, p: p, ex: ex}
		return nil
	}
	rp.ErrorHandler = func(w http.ResponseWriter, r *http.Request, err error) {
		if ex, _ := r.Context().Value(exchangeKey{}).(*Exchange); ex != nil && errors.Is(r.Context().Err(), context.Canceled) {
			p.mu.Lock()
			ex.ClientGone = true
			p.mu.Unlock()
		}
		w.WriteHeader(http.StatusBadGateway)
	}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 16<<20))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		ex := &Exchange{Method: r.Method, Path: r.URL.Path, Request: body}
		p.mu.Lock()
		p.exchanges = append(p.exchanges, ex)
		p.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		go func() { // the client's going away, as the proxy sees it
			<-r.Context().Done()
			p.mu.Lock()
			if !ex.Complete {
				ex.ClientGone = true
			}
			p.mu.Unlock()
		}()
		rp.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), exchangeKey{}, ex)))
	}))
	return p, nil
}

type exchangeKey struct{}

type recordingBody struct {
	rc      io.ReadCloser
	p       *Proxy
	ex      *Exchange
	chunked bool
}

func (b *recordingBody) Read(q []byte) (int, error) {
	n, err := b.rc.Read(q)
	b.p.mu.Lock()
	if n > 0 && len(b.ex.Response) < 16<<20 {
		b.ex.Response = append(b.ex.Response, q[:n]...)
	}
	if errors.Is(err, io.EOF) {
		b.ex.Complete = true
	}
	first := n > 0 && !b.chunked
	if first {
		b.chunked = true
	}
	on := b.p.onChunk
	b.p.mu.Unlock()
	if first && on != nil {
		on(b.ex.Path)
	}
	return n, err
}

func (b *recordingBody) Close() error { return b.rc.Close() }

// Exchanges is a copy of every exchange so far.
func (p *Proxy) Exchanges() []Exchange {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]Exchange, len(p.exchanges))
	for i, e := range p.exchanges {
		out[i] = *e
		out[i].Request = bytes.Clone(e.Request)
		out[i].Response = bytes.Clone(e.Response)
	}
	return out
}

// Reset forgets the exchanges so far.
func (p *Proxy) Reset() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.exchanges = nil
}

// Answer is what a chat completion's answer said, streamed (SSE) or not.
type Answer struct {
	Content      string
	FinishReason string
	PromptTokens int // usage.prompt_tokens: what the server evaluated
	Chunks       int
}

// ReadAnswer reads an OpenAI chat completion answer, whole or as server-sent events.
func ReadAnswer(body []byte) Answer {
	var a Answer
	type choice struct {
		Message      struct{ Content string } `json:"message"`
		Delta        struct{ Content string } `json:"delta"`
		FinishReason *string                  `json:"finish_reason"`
	}
	type doc struct {
		Choices []choice `json:"choices"`
		Usage   *struct {
			PromptTokens int `json:"prompt_tokens"`
		} `json:"usage"`
	}
	add := func(d doc) {
		for _, c := range d.Choices {
			a.Content += c.Message.Content + c.Delta.Content
			if c.FinishReason != nil && *c.FinishReason != "" {
				a.FinishReason = *c.FinishReason
			}
		}
		if d.Usage != nil {
			a.PromptTokens = d.Usage.PromptTokens
		}
	}
	if t := bytes.TrimSpace(body); bytes.HasPrefix(t, []byte("{")) {
		var d doc
		if json.Unmarshal(t, &d) == nil {
			add(d)
		}
		return a
	}
	for _, line := range strings.Split(string(body), "\n") {
		data, ok := strings.CutPrefix(strings.TrimSpace(line), "data:")
		if !ok || strings.TrimSpace(data) == "[DONE]" {
			continue
		}
		var d doc
		if json.Unmarshal([]byte(data), &d) == nil {
			a.Chunks++
			add(d)
		}
	}
	return a
}
