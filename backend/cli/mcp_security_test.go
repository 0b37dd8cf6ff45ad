package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The CLI binary (../../app, built as a user builds it), made once for the
// whole package: every test that runs the real process runs this one (its
// own book, database and home in its own temporary folder). Linking it per
// test cost 5-10 s a test, nine times over. TestMain removes its folder.
var (
	cliOnce sync.Once
	cliDir  string
	cliBin  string
	cliErr  error
)

// buildCLI returns the package's CLI binary, built on first use.
func buildCLI(t *testing.T) string {
	t.Helper()
	cliOnce.Do(func() {
		cliDir, cliErr = os.MkdirTemp("", "waymark-cli-test-")
		if cliErr != nil {
			return
		}
		cliBin = filepath.Join(cliDir, "waymark")
		build := exec.Command("go", "build", "-tags", "sqlite_fts5", "-o", cliBin, "../../app")
		if out, err := build.CombinedOutput(); err != nil {
			cliErr = fmt.Errorf("%v\n%s", err, out)
		}
	})
	if cliErr != nil {
		t.Fatalf("build: %v", cliErr)
	}
	return cliBin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if cliDir != "" {
		_ = os.RemoveAll(cliDir)
	}
	os.Exit(code)
}

// TestMCPStdioSurvivesMalformedFrames drives the real `waymark mcp` process
// over its standard input and output: every malformed frame (issue 13: a
// non-JSON line, a wrong "jsonrpc", a batch, an object id, a truncated
// frame, a 70 MB frame) gets a JSON-RPC error reply and the session keeps
// serving; closing standard input ends it with exit status 0. Before the
// fix the first such frame ended the process with exit status 1 and no reply.
func TestMCPStdioSurvivesMalformedFrames(t *testing.T) {
	bin := buildCLI(t)
	dir := t.TempDir()
	doc := filepath.Join(dir, "book.md")
	if err := os.WriteFile(doc, []byte("# Book\n\nNatasha came in.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "mcp", "--doc", doc, "--db", filepath.Join(dir, "w.db"))
	cmd.Env = append(os.Environ(), "WAYMARK_MODEL_URL=")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewReader(stdout)
	send := func(frame string) {
		t.Helper()
		if _, err := io.WriteString(stdin, frame); err != nil {
			t.Fatalf("write %.60q: %v (stderr: %s)", frame, err, stderr.String())
		}
	}
	next := func() map[string]any {
		t.Helper()
		l, err := lines.ReadBytes('\n')
		if err != nil {
			t.Fatalf("no reply: %v (stderr: %s)", err, stderr.String())
		}
		var m map[string]any
		if err := json.Unmarshal(l, &m); err != nil {
			t.Fatalf("reply is not JSON: %s", l)
		}
		return m
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}` + "\n")
	if r := next(); r["id"] != float64(1) || r["result"] == nil {
		t.Fatalf("initialize: %v", r)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	huge := `{"jsonrpc":"2.0","id":99,"method":"tools/call","params":{"name":"Find","arguments":{"query":"` + strings.Repeat("a", 70<<20) + `"}}}` + "\n"
	n := 10
	for _, c := range []struct {
		name, frame string
		id          any
		code        float64
		says        string
	}{
		{"not JSON", "hello there\n", nil, -32700, "parse error"},
		{"wrong jsonrpc", `{"jsonrpc":"1.0","id":7,"method":"tools/list"}` + "\n", float64(7), -32600, `"jsonrpc" must be "2.0"`},
		{"no jsonrpc", `{"id":8,"method":"tools/list"}` + "\n", float64(8), -32600, `"jsonrpc" must be "2.0"`},
		{"batch", `[{"jsonrpc":"2.0","id":3,"method":"tools/list"}]` + "\n", nil, -32600, "batches are not supported"},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}` + "\n", nil, -32600, "id must be a string or a number"},
		{"truncated", `{"jsonrpc":"2.0","id":4,"method":"tools/li` + "\n", nil, -32700, "truncated"},
		{"70 MB", huge, nil, -32600, "frame longer than"},
	} {
		send(c.frame)
		r := next()
		e, _ := r["error"].(map[string]any)
		if r["jsonrpc"] != "2.0" || r["id"] != c.id || e == nil || e["code"] != c.code || !strings.Contains(e["message"].(string), c.says) {
			t.Errorf("%s: reply %v", c.name, r)
		}
		// The session still serves.
		n++
		send(`{"jsonrpc":"2.0","id":` + strings.TrimSpace(string(rune('0'+n%10))) + `,"method":"tools/call","params":{"name":"Find","arguments":{"query":"Natasha"}}}` + "\n")
		if r := next(); r["result"] == nil || r["result"].(map[string]any)["isError"] == true {
			t.Fatalf("after %s the session does not serve: %v", c.name, r)
		}
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("waymark mcp ended with %v after its input closed (stderr: %s)", err, stderr.String())
	}
}

// mcpClient starts `waymark mcp --headless` with args and connects the
// go-sdk client to it over its standard input and output; call runs a tool
// and gives its text and whether it is an error.
func mcpClient(t *testing.T, bin, home string, args ...string) (call func(name string, args map[string]any) (string, bool)) {
	t.Helper()
	full := mcpClientData(t, bin, home, args...)
	return func(name string, args map[string]any) (string, bool) {
		t.Helper()
		text, _, isErr := full(name, args)
		return text, isErr
	}
}

// mcpClientData is mcpClient whose call also gives the reply's structured
// content as JSON (the whole result; the text is its answer in words).
func mcpClientData(t *testing.T, bin, home string, args ...string) (call func(name string, args map[string]any) (string, []byte, bool)) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	cmd := exec.Command(bin, append([]string{"mcp", "--headless", "--db", filepath.Join(home, "w.db")}, args...)...)
	cmd.Env = append(os.Environ(), "WAYMARK_MODEL_URL=", "WAYMARK_BROWSER_URL=", "HOME="+home)
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return func(name string, args map[string]any) (string, []byte, bool) {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var data []byte
		if res.StructuredContent != nil {
			data, _ = json.Marshal(res.StructuredContent)
		}
		return res.Content[0].(*sdk.TextContent).Text, data, res.IsError
	}
}

// TestMCPFileAddressesOnlyAllowed: over MCP, through the go-sdk client on the
// process's standard input and output, file:///etc/passwd is not opened nor
// uploaded (issue 13: it was opened and extracted); a file inside a folder
// given with --allow-file is.
func TestMCPFileAddressesOnlyAllowed(t *testing.T) {
	bin := buildCLI(t)
	dir := t.TempDir()
	allowed := filepath.Join(dir, "shared")
	if err := os.Mkdir(allowed, 0o700); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(allowed, "page.html")
	_ = os.WriteFile(page, []byte("<title>Shared page</title><p>hello from the shared folder</p>"), 0o600)
	call := mcpClient(t, bin, dir, "--allow-file", allowed)
	if text, isErr := call("browser_navigate", map[string]any{"url": "file:///etc/passwd"}); !isErr || !strings.Contains(text, "only when the user asked for them") {
		t.Fatalf("file:///etc/passwd over MCP: %s", text)
	}
	if text, _ := call("browser_extract", map[string]any{}); strings.Contains(text, "root:") {
		t.Fatalf("/etc/passwd was read: %s", text)
	}
	if text, isErr := call("browser_navigate", map[string]any{"url": "file://" + page}); isErr || !strings.Contains(text, "Shared page") {
		t.Fatalf("the allowed file: %s", text)
	}
	if text, isErr := call("browser_upload", map[string]any{"index": 1, "files": []string{"/etc/passwd"}}); !isErr || !strings.Contains(text, "only when the user asked for them") {
		t.Fatalf("upload of /etc/passwd over MCP: %s", text)
	}
}

// rawMCP is `waymark mcp` driven by raw JSON-RPC lines on its standard input
// and output, initialized.
type rawMCP struct {
	t *testing.T
	// home and tmp are its HOME and TMPDIR.
	home, tmp string
	cmd       *exec.Cmd
	stdin     io.WriteCloser
	lines     chan []byte
	stderr    *bytes.Buffer
}

func startRawMCP(t *testing.T, bin string, args ...string) *rawMCP {
	t.Helper()
	return startRawMCPIn(t, shortTempDir(t), bin, args...)
}

// shortTempDir is a temporary folder with a short path: Chromium's
// singleton socket inside a profile in it must fit a socket address.
func shortTempDir(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("", "wm")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(d) })
	return d
}

// startRawMCPIn starts the server with TMPDIR tmp and a home of its own.
func startRawMCPIn(t *testing.T, tmp, bin string, args ...string) *rawMCP {
	t.Helper()
	home := t.TempDir()
	cmd := exec.Command(bin, append([]string{"mcp", "--db", filepath.Join(home, "w.db")}, args...)...)
	cmd.Env = append(os.Environ(), "WAYMARK_MODEL_URL=", "WAYMARK_BROWSER_URL=", "HOME="+home, "TMPDIR="+tmp, "XDG_CACHE_HOME=", "XDG_DATA_HOME=")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	r := &rawMCP{t: t, home: home, tmp: tmp, cmd: cmd, stdin: stdin, lines: make(chan []byte, 64), stderr: &bytes.Buffer{}}
	cmd.Stderr = r.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	go func() {
		br := bufio.NewReader(stdout)
		for {
			l, err := br.ReadBytes('\n')
			if len(l) > 0 {
				r.lines <- l
			}
			if err != nil {
				close(r.lines)
				return
			}
		}
	}()
	r.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	r.next(90 * time.Second)
	r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return r
}

func (r *rawMCP) send(frame string) {
	r.t.Helper()
	if _, err := io.WriteString(r.stdin, frame+"\n"); err != nil {
		r.t.Fatalf("write %.60q: %v (stderr: %s)", frame, err, r.stderr.String())
	}
}

// next is the next line the server wrote (the test fails after wait).
func (r *rawMCP) next(wait time.Duration) []byte {
	r.t.Helper()
	select {
	case l, ok := <-r.lines:
		if !ok {
			r.t.Fatalf("the server closed its output (stderr: %s)", r.stderr.String())
		}
		return l
	case <-time.After(wait):
		r.t.Fatalf("no reply within %s (stderr: %s)", wait, r.stderr.String())
	}
	return nil
}

// rawID is the id member of a reply exactly as it was written.
func rawID(t *testing.T, line []byte) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(line, &m); err != nil {
		t.Fatalf("reply is not JSON: %s", line)
	}
	return string(m["id"])
}

// TestMCPRequestIDsEchoedExactly drives the real `waymark mcp` with raw
// JSON-RPC: every reply carries its request's id byte for byte (issue 21:
// 1.5 came back as 1, a 30-digit id as -9223372036854775808), and a request
// whose id is still in flight is refused with an error naming the id, while
// the first one still gets its own reply.
func TestMCPRequestIDsEchoedExactly(t *testing.T) {
	bin := buildCLI(t)
	r := startRawMCP(t, bin, "--headless")
	for _, id := range []string{`1.5`, `123456789012345678901234567890`, `-7`, `1e3`, `"abc"`, `"1"`, `0.1`, `"ключ"`, `-0`} {
		r.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/list"}`)
		l := r.next(30 * time.Second)
		if got := rawID(t, l); got != id {
			t.Errorf("id %s came back as %s", id, got)
		}
		if !bytes.Contains(l, []byte(`"tools"`)) {
			t.Errorf("id %s: no tool list in %.200s", id, l)
		}
	}
	// A request kept in flight: a page that answers only when the test says.
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.URL.Path == "/slow" {
			<-release
		}
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<title>Slow</title><p>at last</p>")
	}))
	defer srv.Close()
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()
	// The browser starts first, so that the slow call is in flight at once.
	r.send(`{"jsonrpc":"2.0","id":"warm","method":"tools/call","params":{"name":"browser_navigate","arguments":{"url":"` + srv.URL + `/fast"}}}`)
	if got := rawID(t, r.next(90*time.Second)); got != `"warm"` {
		t.Fatalf("warm-up reply id %s", got)
	}
	big := `98765432109876543210987654321`
	r.send(`{"jsonrpc":"2.0","id":` + big + `,"method":"tools/call","params":{"name":"browser_navigate","arguments":{"url":"` + srv.URL + `/slow"}}}`)
	// The frames are read in order: the first is in flight when the second
	// arrives.
	r.send(`{"jsonrpc":"2.0","id":` + big + `,"method":"tools/list"}`)
	dup := r.next(30 * time.Second)
	if rawID(t, dup) != big || !bytes.Contains(dup, []byte(`"error"`)) || !bytes.Contains(dup, []byte("in flight")) {
		t.Fatalf("a duplicate id in flight: %s", dup)
	}
	close(release)
	first := r.next(60 * time.Second)
	if rawID(t, first) != big || !bytes.Contains(first, []byte("Slow")) {
		t.Fatalf("the first request's reply: %s", first)
	}
	// Once answered, the id may be used again.
	r.send(`{"jsonrpc":"2.0","id":` + big + `,"method":"tools/list"}`)
	if l := r.next(30 * time.Second); rawID(t, l) != big || !bytes.Contains(l, []byte(`"tools"`)) {
		t.Fatalf("the id reused after its reply: %.200s", l)
	}
}

// TestMCPGrantHoldsForEveryNavigation: with --allow-file naming one page,
// nothing that page makes the browser do reaches another local file: a
// script sending it to file:, a meta refresh, a click on a link, a new tab
// and a frame are all stopped, and the result says so; a link to another
// granted file still opens (issue 21: browser_navigate to the granted page
// ended on file:///etc/shadow and browser_read returned it).
func TestMCPGrantHoldsForEveryNavigation(t *testing.T) {
	bin := buildCLI(t)
	dir := t.TempDir()
	granted := filepath.Join(dir, "granted")
	if err := os.Mkdir(granted, 0o700); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(dir, "secret.html")
	if err := os.WriteFile(secret, []byte("<title>Secret</title><p>SECRET-CONTENT root:x:0:0</p>"), 0o600); err != nil {
		t.Fatal(err)
	}
	fileURL := func(p string) string { return "file://" + p }
	pages := map[string]string{
		"script.html":  `<title>Script</title><p>moving on</p><script>location.href = "` + fileURL(secret) + `"</script>`,
		"refresh.html": `<title>Refresh</title><meta http-equiv="refresh" content="0; url=` + fileURL(secret) + `"><p>moving on</p>`,
		"link.html":    `<title>Links</title><p><a href="` + fileURL(secret) + `">Secret link</a></p><p><a href="` + fileURL(secret) + `" target="_blank">Secret tab</a></p><p><a href="other.html">Other page</a></p>`,
		"popup.html":   `<title>Popup</title><p>opening</p><script>window.open("` + fileURL(secret) + `")</script>`,
		"frame.html":   `<title>Frame</title><p>framed</p><iframe src="` + fileURL(secret) + `"></iframe>`,
		"other.html":   `<title>Other</title><p>another granted page</p>`,
	}
	for name, body := range pages {
		if err := os.WriteFile(filepath.Join(granted, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	full := mcpClientData(t, bin, dir, "--allow-file", granted)
	call := func(name string, args map[string]any) (string, bool) {
		text, _, isErr := full(name, args)
		return text, isErr
	}
	// leaked reports whether anything the client can read (a reply's text
	// or its structured content), in any tab, shows the secret.
	leaked := func() string {
		var tabs struct {
			Data struct {
				Tabs []struct {
					Index   int  `json:"index"`
					Current bool `json:"current"`
				} `json:"tabs"`
			} `json:"data"`
		}
		_, data, _ := full("browser_tabs", map[string]any{})
		if err := json.Unmarshal(data, &tabs); err != nil || len(tabs.Data.Tabs) == 0 {
			t.Fatalf("browser_tabs: %v, %s", err, data)
		}
		cur := 1
		for _, tab := range tabs.Data.Tabs {
			if tab.Current {
				cur = tab.Index
			}
			call("browser_switch_tab", map[string]any{"index": tab.Index})
			for _, tool := range []string{"browser_extract", "browser_read", "browser_list_interactives"} {
				if text, data, _ := full(tool, map[string]any{}); strings.Contains(text+string(data), "SECRET-CONTENT") {
					return fmt.Sprintf("tab %d, %s: %s %s", tab.Index, tool, text, data)
				}
			}
		}
		call("browser_switch_tab", map[string]any{"index": cur})
		return ""
	}
	number := func(list []byte, name string) int {
		var l struct {
			Data struct {
				Items []struct {
					Number int    `json:"number"`
					Name   string `json:"name"`
				} `json:"items"`
			} `json:"data"`
		}
		_ = json.Unmarshal(list, &l)
		for _, it := range l.Data.Items {
			if it.Name == name {
				return it.Number
			}
		}
		t.Fatalf("no %q in %s", name, list)
		return 0
	}
	for _, page := range []string{"script.html", "refresh.html", "popup.html", "frame.html"} {
		t.Run(page, func(t *testing.T) {
			text, isErr := call("browser_navigate", map[string]any{"url": fileURL(filepath.Join(granted, page))})
			if isErr {
				t.Fatalf("the granted page: %s", text)
			}
			// Whatever the page does afterwards happens under the same grant.
			_, _ = call("browser_wait", map[string]any{"ms": 500})
			if l := leaked(); l != "" {
				t.Fatalf("the page reached the secret file: %s", l)
			}
		})
	}
	t.Run("click and new tab", func(t *testing.T) {
		call("browser_navigate", map[string]any{"url": fileURL(filepath.Join(granted, "link.html"))})
		_, list, _ := full("browser_list_interactives", map[string]any{})
		text, _ := call("browser_overlay_act", map[string]any{"index": number(list, "Secret link"), "action": "click"})
		if !strings.Contains(text, "was not opened") {
			t.Errorf("the click's result does not say the file was stopped: %s", text)
		}
		if l := leaked(); l != "" {
			t.Fatalf("a click reached the secret file: %s", l)
		}
		_, list, _ = full("browser_list_interactives", map[string]any{})
		call("browser_overlay_act", map[string]any{"index": number(list, "Secret tab"), "action": "click"})
		if l := leaked(); l != "" {
			t.Fatalf("a new tab reached the secret file: %s", l)
		}
		_, list, _ = full("browser_list_interactives", map[string]any{})
		if text, _ := call("browser_overlay_act", map[string]any{"index": number(list, "Other page"), "action": "click"}); !strings.Contains(text, "Other") {
			t.Fatalf("a link to another granted file: %s", text)
		}
	})
}
