package desktop

import (
	"strings"
	"testing"
	"time"

	"github.com/waymark/waymark/app/sample"
	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/llm/llmtest"
)

// TestSettingsListsTheServersModels: Settings offered a free-text model
// name; now it lists what the server has installed, each with the window
// it would run with (here a stock Ollama: its default of 4,096 tokens), and
// the connection test says the window and the budget held to it.
func TestSettingsListsTheServersModels(t *testing.T) {
	a, _ := desktopApp(t, string(sample.Manuscript))
	srv := llmtest.NewWithOptions(t, llmtest.Options{Server: llmtest.KindOllama, Models: []string{"qwen2.5:7b", "llama3.1:8b"}},
		llmtest.Text("ready"), llmtest.Tool("echo", map[string]string{"word": "ping"}), llmtest.JSON(map[string]string{"answer": "blue"}))
	list, err := a.ServerModels(srv.URL(), "")
	if err != nil {
		t.Fatal(err)
	}
	if list.Server != llm.ServerOllama || len(list.Models) != 2 || list.Models[0] != (llm.ModelInfo{Name: "qwen2.5:7b", Window: 4096, Source: "Ollama's default, unless OLLAMA_CONTEXT_LENGTH sets another"}) {
		t.Errorf("models: %+v", list)
	}
	rep, err := a.TestConnection(srv.URL(), "qwen2.5:7b", "")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Window.Tokens != 4096 || rep.Budget != 4096 || rep.Setting != llm.DefaultContextTokens {
		t.Errorf("connection test: window %+v, budget %d, setting %d", rep.Window, rep.Budget, rep.Setting)
	}
	if _, err := a.ServerModels(llmtest.UnreachableURL(t), ""); err == nil {
		t.Error("a server that is down listed models")
	}
}

// TestSettingsTimeLimit: the author sets a command's time limit in
// Settings (minutes, 0: none); a value out of range is refused saying
// what is allowed.
func TestSettingsTimeLimit(t *testing.T) {
	t.Setenv("WAYMARK_TIME_LIMIT", "")
	a, _ := desktopApp(t, string(sample.Manuscript))
	s, _ := a.Settings()
	s.CommandTimeLimitMin = 20
	if _, err := a.SaveSettings(s); err != nil {
		t.Fatal(err)
	}
	if got := a.rt.TimeLimit; got != 20*time.Minute {
		t.Errorf("time limit %v, want 20 min", got)
	}
	s.CommandTimeLimitMin = -1
	if _, err := a.SaveSettings(s); err == nil || !strings.Contains(err.Error(), "from 0 (none) to 1440 minutes") {
		t.Errorf("a negative time limit: %v", err)
	}
}
