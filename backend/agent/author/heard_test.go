package author

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/waymark/waymark/backend/llm/llmtest"
	"github.com/waymark/waymark/backend/tools"
)

// TestSlowModelIsHeard: a model server that takes its time left every
// door silent until the answer came (4 minutes in the report). Now a
// command that has said nothing for WaitEvery reports that it is waiting
// for the model server, in the command's language, through the door's
// progress (the CLI's event lines and MCP's notifications are this
// progress); and the author's time limit stops a command, saying so.
func TestSlowModelIsHeard(t *testing.T) {
	defer func(d time.Duration) { WaitEvery = d }(WaitEvery)
	WaitEvery = 100 * time.Millisecond
	cases := []struct {
		name, command string
		limit         time.Duration
		waiting       string
		err           string
	}{
		{"English", "summarise chapter 1", 0, "Waiting for the model server: ", ""},
		{"Russian", "перескажи главу 1", 0, "Жду ответа сервера модели: прошло ", ""},
		{"English, over the time limit", "summarise chapter 1", 700 * time.Millisecond, "Waiting for the model server: ", "did not finish within its time limit (700 ms)"},
		{"Russian, over the time limit", "перескажи главу 1", 700 * time.Millisecond, "Жду ответа сервера модели", "не уложилась в отведённое время"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			summarise := summariserModel()
			srv := llmtest.New(t, llmtest.Repeat(llmtest.Handler(func(req llmtest.ChatRequest) llmtest.Reply {
				return llmtest.Delay(450*time.Millisecond, summarise)
			})))
			client := llmtest.Client(t, srv.URL())
			e := newEnv(t, "# Book\n\n## Chapter 1\n\nPierre went to war, and the war went on for a long time in the north.\n\nNatasha stayed at home and waited for news from the army.\n", client)
			e.rt.TimeLimit = c.limit
			var (
				mu     sync.Mutex
				events []tools.Progress
			)
			args, _ := json.Marshal(RunCommandArgs{Command: c.command})
			_, err := e.reg.Call(context.Background(), tools.Call{Name: "RunCommand", Args: args}, tools.Context{Progress: func(p tools.Progress) {
				mu.Lock()
				events = append(events, p)
				mu.Unlock()
			}})
			mu.Lock()
			defer mu.Unlock()
			waits := 0
			russian := strings.HasPrefix(c.waiting, "Жду")
			for _, p := range events {
				if p.Event != "waiting" {
					continue
				}
				if strings.HasPrefix(p.Text, c.waiting) {
					waits++ // between two requests the line may say a step is running
				}
				if cyr := strings.ContainsAny(p.Text, "абвгдежзийклмнопрстуфхцчшщыэюя"); cyr != russian {
					t.Errorf("waiting line %q is not in the command's language", p.Text)
				}
			}
			if waits == 0 {
				t.Errorf("no waiting line while the model took %d×450 ms; events: %+v", len(srv.Requests()), events)
			}
			switch {
			case c.err == "" && err != nil:
				t.Fatal(err)
			case c.err != "" && (!errors.Is(err, ErrTimeLimit) || !strings.Contains(err.Error(), strings.Split(c.err, " (")[0])):
				t.Fatalf("err = %v, want the time limit saying %q", err, c.err)
			}
		})
	}
}

// TestStoppedCommandSaysSo: a command the author stops (Ctrl+C, the
// window's Stop) while the model works is answered in the command's
// language, never with Go's "context canceled".
func TestStoppedCommandSaysSo(t *testing.T) {
	for _, c := range []struct{ command, want string }{
		{"summarise chapter 1", "The command was stopped before it finished."},
		{"перескажи главу 1", "Команда остановлена, не закончив работу."},
	} {
		t.Run(c.command, func(t *testing.T) {
			summarise := summariserModel()
			srv := llmtest.New(t, llmtest.Repeat(llmtest.Handler(func(req llmtest.ChatRequest) llmtest.Reply {
				return llmtest.Delay(3*time.Second, summarise)
			})))
			e := newEnv(t, "# Book\n\n## Chapter 1\n\nPierre went to war, and the war went on for a long time in the north.\n", llmtest.Client(t, srv.URL()))
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var mu sync.Mutex
			var answers []string
			args, _ := json.Marshal(RunCommandArgs{Command: c.command})
			_, err := e.reg.Call(ctx, tools.Call{Name: "RunCommand", Args: args}, tools.Context{Progress: func(p tools.Progress) {
				mu.Lock()
				defer mu.Unlock()
				if p.Event == "tool_call" {
					cancel() // the author stops it once it is under way
				}
				if p.Event == "answer" {
					answers = append(answers, p.Text)
				}
			}})
			if !errors.Is(err, ErrStopped) || err.Error() != c.want {
				t.Fatalf("err = %v, want ErrStopped saying %q", err, c.want)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(answers) != 1 || answers[0] != c.want {
				t.Fatalf("answers %q, want [%q]", answers, c.want)
			}
		})
	}
}
