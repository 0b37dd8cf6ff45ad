package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark/waymark/backend/llm/llmtest"
)

// slowModel is a model server whose first answer takes 8 s (then an
// unreadable one: the command fails at once, and says so).
func slowModel(t *testing.T) *llmtest.Server {
	var n atomic.Int32
	return llmtest.New(t, llmtest.Repeat(llmtest.Handler(func(req llmtest.ChatRequest) llmtest.Reply {
		if n.Add(1) == 1 {
			return llmtest.Delay(8*time.Second, llmtest.Malformed("not a chat completion"))
		}
		return llmtest.Malformed("not a chat completion")
	})))
}

func modelEnv(url string) []string {
	return append(os.Environ(), "WAYMARK_MODEL_URL="+url, "WAYMARK_MODEL=test-model")
}

// TestSlowModelHeardInEveryDoor: while a model server takes its time, the
// command line's `waymark agent` prints a waiting line and an MCP client
// gets a progress notification saying so, in the command's language (issue
// 31 point 6: a server answering in 30 s left the CLI silent for minutes).
func TestSlowModelHeardInEveryDoor(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: two real processes each wait 8 s for a model server")
	}
	bin := buildCLI(t)
	cases := []struct{ command, waiting string }{
		{"summarise the book", "Waiting for the model server: "},
		{"перескажи книгу", "Жду ответа сервера модели: "},
	}
	for _, c := range cases {
		t.Run("waymark agent: "+c.command, func(t *testing.T) {
			t.Parallel() // four processes each waiting 8 s: the waits overlap
			srv := slowModel(t)
			doc, db := doorBook(t)
			cmd := exec.Command(bin, "agent", "--doc", doc, "--db", db, c.command)
			cmd.Env = modelEnv(srv.URL())
			out, _ := cmd.Output()
			var waits []string
			sc := bufio.NewScanner(bytes.NewReader(out))
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				var p struct{ Event, Text string }
				if json.Unmarshal(sc.Bytes(), &p) == nil && p.Event == "waiting" {
					waits = append(waits, p.Text)
				}
			}
			if len(waits) == 0 || !strings.HasPrefix(waits[0], c.waiting) {
				t.Fatalf("waymark agent printed no waiting line %q while the model took 8 s:\n%s", c.waiting, out)
			}
		})
		t.Run("MCP: "+c.command, func(t *testing.T) {
			t.Parallel() // four processes each waiting 8 s: the waits overlap
			srv := slowModel(t)
			doc, db := doorBook(t)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			var mu sync.Mutex
			var lines []string
			client := sdk.NewClient(&sdk.Implementation{Name: "heard-test", Version: "1"}, &sdk.ClientOptions{
				ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
					mu.Lock()
					lines = append(lines, req.Params.Message)
					mu.Unlock()
				}})
			cmd := exec.Command(bin, "mcp", "--doc", doc, "--db", db)
			cmd.Env = modelEnv(srv.URL())
			cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			params := &sdk.CallToolParams{Name: "RunCommand", Arguments: map[string]any{"command": c.command}}
			params.SetProgressToken("heard")
			if _, err := cs.CallTool(ctx, params); err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			defer mu.Unlock()
			for _, l := range lines {
				if strings.HasPrefix(l, c.waiting) {
					return
				}
			}
			t.Fatalf("the MCP client got no waiting notification %q while the model took 8 s: %q", c.waiting, lines)
		})
	}
}
