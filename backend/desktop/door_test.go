package desktop

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/waymark/waymark/backend/agent/author"
	"github.com/waymark/waymark/backend/agent/author/authortest"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/testenv"
	"github.com/waymark/waymark/backend/tools"
)

// TestCommandDoorWindow is the window's door: its RunCommand gives
// authortest's one expected result, its progress arrives as "command:event"
// events, and the transcript the window shows again after a restart is the
// same events. Before RunCommand was the tool's, the window built its own
// command agent and result (no byte offsets, a transcript of other events).
func TestCommandDoorWindow(t *testing.T) {
	doc, st := testenv.BookAndStore(t, authortest.Book)
	ws := manuscript.NewWorkspace(st)
	if _, err := ws.Open(context.Background(), doc); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var progress []tools.Progress
	a := New(Config{Waymark: testParts(ws, author.Builtin{}, nil), Emit: func(name string, data any) {
		if p, ok := data.(tools.Progress); ok && name == "command:event" {
			mu.Lock()
			progress = append(progress, p)
			mu.Unlock()
		}
	}})
	res, err := a.RunCommand(authortest.Command)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res)
	authortest.Check(t, "the window", b, progress)
	saved, err := a.Transcript("document")
	if err != nil || len(saved) != len(authortest.Want.Events) {
		t.Fatalf("the saved transcript: %v, %d lines, want %d", err, len(saved), len(authortest.Want.Events))
	}
	var last tools.Progress
	if json.Unmarshal(saved[len(saved)-1].Content, &last) != nil || last.Text != authortest.Want.Answer {
		t.Errorf("the saved transcript ends with %s", saved[len(saved)-1].Content)
	}
}
