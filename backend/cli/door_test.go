package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark/waymark/backend/agent/author/authortest"
	"github.com/waymark/waymark/backend/tools"
)

// doorBook writes authortest's book and names a fresh database beside it.
func doorBook(t *testing.T) (doc, db string) {
	dir := t.TempDir()
	doc, db = filepath.Join(dir, "book.md"), filepath.Join(dir, "w.db")
	if err := os.WriteFile(doc, []byte(authortest.Book), 0o644); err != nil {
		t.Fatal(err)
	}
	return doc, db
}

// builtinEnv runs the binary on the built-in engine, whatever the caller's
// environment names.
func builtinEnv() []string { return append(os.Environ(), "WAYMARK_MODEL_URL=") }

// TestCommandDoorCLI is the command line's door, the real binary:
// `waymark agent` prints the progress as JSON lines and then the result,
// `waymark call RunCommand` prints the result; both are authortest's one
// expected result. Before, `waymark agent` printed events of its own and no
// edits to review.
func TestCommandDoorCLI(t *testing.T) {
	bin := buildCLI(t)
	doc, db := doorBook(t)
	cmd := exec.Command(bin, "agent", "--doc", doc, "--db", db, authortest.Command)
	cmd.Env = builtinEnv()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("waymark agent: %v\n%s", err, out)
	}
	var progress []tools.Progress
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var p tools.Progress
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatalf("not a JSON line: %s", sc.Bytes())
		}
		progress = append(progress, p)
	}
	if n := len(progress); n == 0 || progress[n-1].Event != "result" {
		t.Fatalf("waymark agent's last line is not the result:\n%s", out)
	}
	result := progress[len(progress)-1].Data
	authortest.Check(t, "waymark agent", result, progress[:len(progress)-1])

	doc, db = doorBook(t)
	args, _ := json.Marshal(map[string]string{"command": authortest.Command})
	cmd = exec.Command(bin, "call", "RunCommand", "--doc", doc, "--db", db, string(args))
	cmd.Env = builtinEnv()
	if out, err = cmd.Output(); err != nil {
		t.Fatalf("waymark call RunCommand: %v\n%s", err, out)
	}
	var r authortest.Result
	_ = json.Unmarshal(out, &r)
	authortest.Check(t, "waymark call RunCommand", out, r.Events)
}

// TestCommandDoorMCP is the MCP door: a real MCP client (the go-sdk's) runs
// the binary's `waymark mcp`, calls RunCommand with a progress token and gets
// authortest's one expected result, its steps as notifications/progress.
// Before, an MCP client got no progress and no edits to review.
func TestCommandDoorMCP(t *testing.T) {
	bin := buildCLI(t)
	doc, db := doorBook(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var mu sync.Mutex
	var progress []tools.Progress
	var lines []string
	client := sdk.NewClient(&sdk.Implementation{Name: "door-test", Version: "1"}, &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			var p tools.Progress
			b, _ := json.Marshal(req.Params.Meta["waymark/event"])
			_ = json.Unmarshal(b, &p)
			mu.Lock()
			progress = append(progress, p)
			lines = append(lines, req.Params.Message)
			mu.Unlock()
		}})
	cmd := exec.Command(bin, "mcp", "--doc", doc, "--db", db)
	cmd.Env = builtinEnv()
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	params := &sdk.CallToolParams{Name: "RunCommand", Arguments: map[string]any{"command": authortest.Command}}
	params.SetProgressToken("door")
	res, err := cs.CallTool(ctx, params)
	if err != nil || res.IsError {
		t.Fatalf("RunCommand over MCP: %v %+v", err, res)
	}
	b, _ := json.Marshal(res.StructuredContent)
	// Notifications may be handled after the reply: wait for them (the
	// test's deadline bounds the wait).
	for {
		mu.Lock()
		n := len(progress)
		mu.Unlock()
		if n >= len(authortest.Want.Events) || ctx.Err() != nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	authortest.Check(t, "MCP", b, progress)
	if n := len(lines); n == 0 || lines[n-1] != authortest.Want.Answer {
		t.Errorf("the progress messages an MCP client shows end with %q, want the answer", lines)
	}
}
