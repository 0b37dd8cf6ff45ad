package author

import (
	"context"
	"sync"
	"testing"

	"github.com/waymark/waymark/backend/agent"
	"github.com/waymark/waymark/backend/agent/author/authortest"
	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/llm/llmtest"
	"github.com/waymark/waymark/backend/tools"
)

// TestCommandDoorModel is the model's door: a model (over HTTP) calls the
// RunCommand tool in the loop; the tool's answer the model reads in its next
// request, and the progress the loop passed on, are authortest's one
// expected result, as at every other door.
func TestCommandDoorModel(t *testing.T) {
	e := newEnv(t, authortest.Book, nil)
	srv := llmtest.New(t, llmtest.Tool("RunCommand", map[string]any{"command": authortest.Command}), llmtest.Text("Done."))
	var mu sync.Mutex
	var progress []tools.Progress
	l := &agent.Loop{Reg: e.reg, Model: llmtest.Client(t, srv.URL()), Activities: []string{"RunCommand"},
		Progress: func(p tools.Progress) { mu.Lock(); progress = append(progress, p); mu.Unlock() }}
	res, err := l.Run(context.Background(), []agent.LoopMessage{{Kind: agent.KindUser, Text: "Replace the brass telescope."}})
	if err != nil || res.Solution != "Done." {
		t.Fatalf("loop: %v %+v", err, res)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	var answer string
	for _, m := range reqs[1].Messages {
		if m.Role == llm.RoleTool {
			answer = m.Content
		}
	}
	authortest.Check(t, "the model's tool call", []byte(answer), progress)
}
