package desktop

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/waymark/waymark/app/sample"
	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/llm/llmtest"
)

// TestAgentToolThroughCallIsStopped runs a command through the window's generic
// door (Call "RunCommand", as the plan list runs PlanRun) against a model server
// that is slow to answer: a second run is refused while it goes on, the global
// Stop ends it, and the manuscript is unchanged.
func TestAgentToolThroughCallIsStopped(t *testing.T) {
	a, _ := desktopApp(t, string(sample.Manuscript))
	srv := llmtest.New(t, llmtest.Repeat(llmtest.Delay(20*time.Second, llmtest.Text("too late"))))
	cfg := llm.DefaultConfig(srv.URL(), "test-model")
	cfg.Timeout = time.Minute
	c, err := llm.NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	a.rt.SetModel(c)
	before, err := a.Manuscript()
	if err != nil {
		t.Fatal(err)
	}
	args, _ := json.Marshal(map[string]string{"command": "make the first scene sadder"})
	done := make(chan error, 1)
	start := time.Now()
	go func() {
		_, err := a.Call("RunCommand", string(args))
		done <- err
	}()
	// Wait until the run holds the window's running slot.
	for deadline := time.Now().Add(10 * time.Second); ; {
		a.runMu.Lock()
		running := a.running
		a.runMu.Unlock()
		if running != "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("RunCommand through Call never took the running slot")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := a.Call("RunCommand", string(args)); err == nil || !strings.Contains(err.Error(), "still running") {
		t.Errorf("a second run while one goes on: err = %v, want \"… still running; wait for it or press Stop\"", err)
	}
	if _, err := a.Stop(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		t.Fatal("Stop did not end a command run through Call")
	}
	if waited := time.Since(start); waited > 15*time.Second {
		t.Errorf("the run ended only after %v, as the slow model answered, not at Stop", waited)
	}
	after, err := a.Manuscript()
	if err != nil {
		t.Fatal(err)
	}
	if after.Markdown != before.Markdown {
		t.Error("a stopped command changed the manuscript")
	}
}
