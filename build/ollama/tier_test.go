package ollamatier

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The tier runs only where the real server was built: WAYMARK_OLLAMA names the binary
// (bash build/ollama.sh prints its path; build/test.sh's "ollama" step sets it).
// WAYMARK_CLI may name a built Waymark CLI (bin/waymark-cli); otherwise the test builds
// one from this repository.
const (
	envOllama = "WAYMARK_OLLAMA"
	envCLI    = "WAYMARK_CLI"
	tinyName  = "waymark-tiny"
	// The same model with PARAMETER num_ctx 8192 (what an author does for a larger
	// window on Ollama): a command with the tools offered needs more than 4,096 tokens.
	tiny8kName = "waymark-tiny-8k"
	// Ollama's context window for a model on a machine without 24 GiB of VRAM when
	// neither the request (options.num_ctx) nor OLLAMA_CONTEXT_LENGTH says otherwise.
	stockNumCtx = 4096
)

type tier struct {
	srv   *Server
	proxy *Proxy
	cli   string
	dir   string
}

var (
	tierOnce sync.Once
	theTier  *tier
	tierErr  error
)

// setup starts one private Ollama with the tiny model for every test of the tier; the
// server ends when the test binary does (TestMain).
func setup(t *testing.T) *tier {
	t.Helper()
	bin := os.Getenv(envOllama)
	if bin == "" {
		t.Skipf("SKIPPED: the real-Ollama tier did not run: %s is not set (build the server with `bash build/ollama.sh` and set %s to the path it prints, or run `bash build/test.sh ollama`)", envOllama, envOllama)
	}
	tierOnce.Do(func() { theTier, tierErr = newTier(bin) })
	if tierErr != nil {
		t.Fatal(tierErr)
	}
	return theTier
}

func newTier(bin string) (*tier, error) {
	if fi, err := os.Stat(bin); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
		return nil, fmt.Errorf("%s=%s is not an executable file (%v)", envOllama, bin, err)
	}
	dir, err := os.MkdirTemp("", "waymark-ollama-tier-")
	if err != nil {
		return nil, err
	}
	cli := os.Getenv(envCLI)
	if cli == "" {
		cli = filepath.Join(dir, "waymark")
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "go", "build", "-tags", "sqlite_fts5", "-o", cli, "./app")
		cmd.Dir = filepath.Join("..", "..")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("building the Waymark CLI: %v: %s", err, out)
		}
	}
	tok, err := TokenizerDir()
	if err != nil {
		return nil, err
	}
	gguf := filepath.Join(dir, "tiny.gguf")
	if err := WriteTinyModel(gguf, tok); err != nil {
		return nil, err
	}
	srv, err := StartServer(bin, dir, time.Minute)
	if err != nil {
		return nil, err
	}
	if _, err := srv.Create(tinyName, gguf, TinyModelfile(), 5*time.Minute); err != nil {
		srv.Stop()
		return nil, err
	}
	if _, err := srv.Create(tiny8kName, gguf, append(TinyModelfile(), "PARAMETER num_ctx 8192"), 5*time.Minute); err != nil {
		srv.Stop()
		return nil, err
	}
	p, err := NewProxy(srv.URL)
	if err != nil {
		srv.Stop()
		return nil, err
	}
	return &tier{srv: srv, proxy: p, cli: cli, dir: dir}, nil
}

func TestMain(m *testing.M) {
	code := m.Run()
	if theTier != nil {
		theTier.proxy.Close()
		theTier.srv.Stop()
		if code != 0 {
			fmt.Fprintf(os.Stderr, "ollama serve's log (last 6000 bytes):\n%s\n", tail(theTier.srv.Log(), 6000))
		}
		_ = os.RemoveAll(theTier.dir)
	}
	os.Exit(code)
}

// run is one Waymark command line against the tiny model through the proxy, bounded.
type runResult struct {
	code           int
	stdout, stderr string
	took           time.Duration
}

func (tr *tier) waymark(t *testing.T, env []string, wait time.Duration, args ...string) runResult {
	t.Helper()
	cmd, out, errb := tr.command(t, env, args...)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(wait):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("waymark %s did not end within %s\nstdout: %s\nstderr: %s", strings.Join(args, " "), wait, tail(out.String(), 3000), tail(errb.String(), 3000))
	}
	return runResult{code: cmd.ProcessState.ExitCode(), stdout: out.String(), stderr: errb.String(), took: time.Since(start)}
}

func (tr *tier) command(t *testing.T, env []string, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	home := t.TempDir()
	cmd := exec.Command(tr.cli, args...)
	cmd.Env = append(cleanEnv(), "HOME="+home, "XDG_DATA_HOME="+filepath.Join(home, "data"),
		"WAYMARK_DB="+filepath.Join(home, "waymark.db"),
		"WAYMARK_MODEL_URL="+tr.proxy.URL+"/v1", "WAYMARK_MODEL="+tinyName)
	cmd.Env = append(cmd.Env, env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	return cmd, &out, &errb
}

// book writes a manuscript of the English War and Peace's first lines (the corpus):
// its heading and the chapters from..to-1 by their line numbers.
func book(t *testing.T, from, to int) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "corpus", "books", "war-and-peace.en.md"))
	if err != nil {
		t.Fatalf("the corpus book: %v", err)
	}
	lines := strings.Split(string(b), "\n")
	text := "# BOOK ONE: 1805\n\n" + strings.Join(lines[from-1:to-1], "\n") + "\n"
	p := filepath.Join(t.TempDir(), "book.md")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// events reads `waymark agent`'s JSON lines.
func events(t *testing.T, stdout string) []map[string]any {
	t.Helper()
	var evs []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
		if l == "" {
			continue
		}
		var ev map[string]any
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatalf("not a JSON line: %q", l)
		}
		evs = append(evs, ev)
	}
	return evs
}

// chats is the chat completions the proxy saw since the last Reset.
func (tr *tier) chats() []Exchange {
	var out []Exchange
	for _, e := range tr.proxy.Exchanges() {
		if strings.HasSuffix(e.Path, "/chat/completions") {
			out = append(out, e)
		}
	}
	return out
}

// runningCtx is the context window Ollama loaded the tiny model with (/api/ps).
func (tr *tier) runningCtx(t *testing.T) int {
	t.Helper()
	b, err := tr.srv.Get("/api/ps")
	if err != nil {
		t.Fatal(err)
	}
	var ps struct {
		Models []struct {
			Name          string `json:"name"`
			ContextLength int    `json:"context_length"`
		} `json:"models"`
	}
	if err := json.Unmarshal(b, &ps); err != nil {
		t.Fatalf("/api/ps: %v: %s", err, b)
	}
	for _, m := range ps.Models {
		if strings.HasPrefix(m.Name, tinyName) {
			return m.ContextLength
		}
	}
	return 0
}

// TestOllamaServerFacts pins what the real server says about the tiny model, the facts
// Waymark's client has to live with (docs/model-servers.md): the model's own window
// in /api/show, and the smaller window Ollama really runs it with (/api/ps) when a
// request comes on the OpenAI route, which has no way to ask for more.
func TestOllamaServerFacts(t *testing.T) {
	tr := setup(t)
	if b, err := tr.srv.Get("/api/tags"); err != nil || !strings.Contains(string(b), `"name":"`+tinyName+`:latest"`) {
		t.Fatalf("/api/tags does not list %s: %v %s", tinyName, err, b)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	code, out, err := tr.srv.Post(ctx, "/api/show", map[string]any{"model": tinyName})
	if err != nil || code != 200 || !strings.Contains(string(out), fmt.Sprintf(`"llama.context_length":%d`, TinyTrainCtx)) {
		t.Fatalf("/api/show: %d %v %s", code, err, tail(string(out), 500))
	}
	code, out, err = tr.srv.Post(ctx, "/v1/chat/completions", map[string]any{"model": tinyName, "max_tokens": 3,
		"messages": []map[string]any{{"role": "user", "content": "Say hi"}}})
	if err != nil || code != 200 {
		t.Fatalf("/v1/chat/completions: %d %v %s", code, err, out)
	}
	if a := ReadAnswer(out); a.FinishReason != "length" {
		t.Errorf("an answer cut by max_tokens: finish_reason %q, want length: %s", a.FinishReason, out)
	}
	if n := tr.runningCtx(t); n != stockNumCtx {
		t.Errorf("/api/ps: the model runs with a %d-token window after an OpenAI-route request; this machine's stock Ollama should give %d", n, stockNumCtx)
	}
}

// schemaAnswers checks every cursor request of the run: sent with the action schema,
// answered 200 with one JSON document the schema allows (Ollama's grammar at work).
func schemaAnswers(t *testing.T, chats []Exchange) {
	t.Helper()
	if len(chats) == 0 {
		t.Fatal("Waymark sent no chat completion to the server")
	}
	for i, c := range chats {
		if !bytes.Contains(c.Request, []byte(`"json_schema"`)) {
			t.Errorf("request %d was sent without the action schema: %s", i+1, tail(string(c.Request), 400))
		}
		a := ReadAnswer(c.Response)
		var doc map[string]any
		if c.Status != 200 || json.Unmarshal([]byte(a.Content), &doc) != nil || doc["action"] == nil {
			t.Errorf("answer %d: status %d, %q is not one JSON action", i+1, c.Status, a.Content)
		}
	}
}

// TestOllamaFind: the cursor agent's find through the real server. The tiny model
// knows nothing; the grammar makes its answers valid actions, and Waymark checks a
// claimed first mention against the text, so the command ends with the right place
// or a clear refusal, never a wrong place.
func TestOllamaFind(t *testing.T) {
	tr := setup(t)
	tr.proxy.Reset()
	doc := book(t, 843, 1220) // chapters I and II; Pierre first appears in II
	r := tr.waymark(t, nil, 5*time.Minute, "agent", "--doc", doc, `find the first mention of "Pierre"`)
	t.Logf("exit %d in %s\n%s", r.code, r.took.Round(time.Millisecond), tail(r.stdout, 3000))
	schemaAnswers(t, tr.chats())
	// The model claims success without a place; Waymark's check of the claim finds
	// the first mention itself.
	if ans := answer(t, r.stdout); r.code != 0 || !strings.Contains(ans, "CHAPTER II") || !strings.Contains(ans, "saw Pierre enter") {
		t.Errorf("find: exit %d, answer %q; want 0 and the first mention (CHAPTER II, \"…she saw Pierre enter.\")", r.code, ans)
	}
}

// answer is the command's answer (its "answer" event), or its error.
func answer(t *testing.T, stdout string) string {
	t.Helper()
	var ans string
	for _, ev := range events(t, stdout) {
		switch ev["event"] {
		case "answer":
			ans, _ = ev["text"].(string)
		case "error":
			if ans == "" {
				ans, _ = ev["error"].(string)
			}
		}
	}
	return ans
}

// TestOllamaSummary: a chapter summary through the real server.
func TestOllamaSummary(t *testing.T) {
	tr := setup(t)
	tr.proxy.Reset()
	doc := book(t, 843, 1220)
	r := tr.waymark(t, nil, 5*time.Minute, "agent", "--doc", doc, "summarise chapter II")
	t.Logf("exit %d in %s\n%s", r.code, r.took.Round(time.Millisecond), tail(r.stdout, 3000))
	schemaAnswers(t, tr.chats())
	// The tiny model finishes at once with no note: the chapter is not summarised,
	// and a summary that covers none of its chapters is no success.
	if ans := answer(t, r.stdout); r.code == 0 {
		t.Errorf("a summary with no note for its one chapter: exit 0, answer %q; want a failure that says the chapter is not covered", ans)
	}
}

// TestOllamaCommand: a command only a model can carry out, with the tools offered.
func TestOllamaCommand(t *testing.T) {
	tr := setup(t)
	tr.proxy.Reset()
	doc := book(t, 843, 1220)
	before, _ := os.ReadFile(doc)
	r := tr.waymark(t, []string{"WAYMARK_MODEL=" + tiny8kName}, 5*time.Minute, "agent", "--doc", doc, "make the first chapter more dramatic")
	t.Logf("exit %d in %s\n%s\n%s", r.code, r.took.Round(time.Millisecond), tail(r.stdout, 3000), tail(r.stderr, 1000))
	after, _ := os.ReadFile(doc)
	chats := tr.chats()
	for i, c := range chats {
		a := ReadAnswer(c.Response)
		t.Logf("request %d: %d bytes, status %d, finish_reason %q, %d chunks, stream complete %v, client left %v, answer %q", i+1, len(c.Request), c.Status, a.FinishReason, a.Chunks, c.Complete, c.ClientGone, tail(a.Content, 80))
	}
	if !bytes.Equal(before, after) {
		t.Errorf("the book changed")
	}
	// The tiny model's answer is no tool call and ends for length (num_predict): a cut
	// answer is an error that says so, never the command's answer.
	if len(chats) == 0 {
		t.Fatal("Waymark sent no chat completion to the server")
	}
	if ans := answer(t, r.stdout); r.code != 1 || strings.Contains(ans, `""`) {
		t.Errorf("an answer cut for length: exit %d, answer %q; want exit 1 and an error, not the cut text", r.code, ans)
	}
}

// TestOllamaCancel: Ctrl+C (SIGINT) while the answer streams in ends the command at
// once: the connection is closed before the stream's end, the book is unchanged, and
// the server goes on serving.
func TestOllamaCancel(t *testing.T) {
	tr := setup(t)
	tr.proxy.Reset()
	doc := book(t, 843, 1220)
	before, _ := os.ReadFile(doc)
	cmd, out, errb := tr.command(t, []string{"WAYMARK_MODEL=" + tiny8kName}, "agent", "--doc", doc, "make the first chapter more dramatic")
	var once sync.Once
	streaming := make(chan time.Time, 1)
	tr.proxy.OnChunk(func(path string) {
		if strings.HasSuffix(path, "/chat/completions") {
			once.Do(func() { streaming <- time.Now() })
		}
	})
	defer tr.proxy.OnChunk(nil)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var sent time.Time
	select {
	case sent = <-streaming:
		if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
	case <-done:
		t.Fatalf("the command ended before any answer streamed: %s %s", out, errb)
	case <-time.After(3 * time.Minute):
		_ = cmd.Process.Kill()
		<-done
		t.Fatal("no answer streamed within 3 minutes")
	}
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("waymark did not end within 30 s of SIGINT: %s %s", tail(out.String(), 2000), tail(errb.String(), 1000))
	}
	took := time.Since(sent)
	t.Logf("exit %d, %s after SIGINT\n%s\n%s", cmd.ProcessState.ExitCode(), took.Round(time.Millisecond), tail(out.String(), 2000), tail(errb.String(), 1000))
	chats := tr.chats()
	last := chats[len(chats)-1]
	if !last.ClientGone || last.Complete {
		t.Errorf("the streamed answer was not broken off: client gone %v, stream complete %v", last.ClientGone, last.Complete)
	}
	if after, _ := os.ReadFile(doc); !bytes.Equal(before, after) {
		t.Errorf("the book changed")
	}
	if _, err := tr.srv.Get("/api/version"); err != nil {
		t.Errorf("the server stopped answering after the cancel: %v", err)
	}
	if strings.Contains(out.String(), "context canceled") {
		t.Errorf("the user is shown Go's internal %q: %s", "context canceled", tail(out.String(), 1000))
	}
}

// TestOllamaSmallWindow: a request longer than the window Ollama runs the model with.
// None may be longer than the window: Ollama would cut it silently, and say so only in
// its log ("truncating input prompt … prompt=N", N its own count of the request).
func TestOllamaSmallWindow(t *testing.T) {
	tr := setup(t)
	for _, k := range []struct {
		name string
		env  []string
	}{
		{"default budget", nil},
		{"author's 4096", []string{"WAYMARK_CONTEXT_TOKENS=4096"}},
	} {
		t.Run(k.name, func(t *testing.T) {
			tr.proxy.Reset()
			logFrom := len(tr.srv.Log())
			doc := book(t, 5434, 5796) // chapter XXV: 20 kB, about 5,000 tokens
			// A semantic find shows the model portions as large as the budget allows
			// (a summary keeps a quarter of it for its notes).
			r := tr.waymark(t, k.env, 10*time.Minute, "call", "RunCursorAgent", "--doc", doc,
				`{"forward":true,"maxElements":200,"maxBytes":65536,"includeContent":true,"mode":"FirstMatch","taskDescription":"Find the first place where someone is angry"}`)
			t.Logf("exit %d in %s\n%s", r.code, r.took.Round(time.Millisecond), tail(r.stdout, 2000))
			window := tr.runningCtx(t)
			cut := grepLines(tr.srv.Log()[logFrom:], "truncating input prompt")
			for i, c := range tr.chats() {
				a := ReadAnswer(c.Response)
				t.Logf("request %d: %d bytes, %d prompt tokens evaluated (usage), window %d, finish_reason %q", i+1, len(c.Request), a.PromptTokens, window, a.FinishReason)
			}
			if cut != "" {
				t.Errorf("Ollama cut prompts Waymark sent (prompt= is the server's count of the whole request):\n%s", cut)
			}
		})
	}
}

func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestOllamaModelNotInstalled: a model name the server does not have.
func TestOllamaModelNotInstalled(t *testing.T) {
	tr := setup(t)
	doc := book(t, 843, 1220)
	r := tr.waymark(t, []string{"WAYMARK_MODEL=no-such-model"}, 2*time.Minute, "agent", "--doc", doc, `find the first mention of "Pierre"`)
	t.Logf("agent: exit %d\n%s\n%s", r.code, tail(r.stdout, 2000), tail(r.stderr, 500))
	if ans := answer(t, r.stdout); r.code != 1 || !strings.Contains(ans, "install") || strings.Contains(ans, "No mention") {
		t.Errorf("agent with a model that is not installed: exit %d, answer %q; want 1 and an error that says to install or choose a model, not a find that found nothing", r.code, ans)
	}
	args, _ := json.Marshal(map[string]string{"serverUrl": tr.proxy.URL + "/v1", "model": "no-such-model"})
	r = tr.waymark(t, nil, 2*time.Minute, "call", "ProbeModelServer", string(args))
	t.Logf("probe: exit %d\n%s", r.code, tail(r.stdout, 2000))
	if !strings.Contains(r.stdout, tinyName) || !strings.Contains(r.stdout, "no-such-model") {
		t.Errorf("the probe does not name the missing model and the installed ones: %s", r.stdout)
	}
}
