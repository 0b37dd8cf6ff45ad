package author

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/waymark/waymark/backend/llm/llmtest"
	"github.com/waymark/waymark/backend/tools"
)

// earlyFinisher writes a note for each of the first n portions it is shown
// and then declares the summary done.
func earlyFinisher(n int) llmtest.Reply {
	var mu sync.Mutex
	shown := 0
	return llmtest.Repeat(llmtest.Handler(func(req llmtest.ChatRequest) llmtest.Reply {
		mu.Lock()
		defer mu.Unlock()
		shown++
		if shown > n {
			return llmtest.JSON(Action{Action: ActFinishSuccess, Summary: "That is all."})
		}
		return llmtest.JSON(Action{Action: ActCursorNext, Summary: "Something happens here."})
	}))
}

// TestUnfinishedModelSaysSo: a model that never finishes, or stops early,
// is reported as that. Before: a model-driven command ended with "the
// command did not finish: turn limit reached (12)" in English whatever the
// command's language; a summary whose model wrote no note ended with
// "nothing to read: the cursor is at the end of the book"; and a part
// summary the model declared done after 9 of its 28 chapters was a success
// (exit 0) that named none of the missing chapters.
func TestUnfinishedModelSaysSo(t *testing.T) {
	cases := []struct {
		name, command string
		reply         llmtest.Reply
		want          []string
	}{
		{"Russian, a model that calls tools for ever", "сделай так, чтобы сцена бала кончалась на рассвете", llmtest.Repeat(llmtest.Tool("Outline", map[string]any{})),
			[]string{"Команда не выполнена: модель не закончила работу за 12 шагов."}},
		{"English, a model that calls tools for ever", "make the ball scene end at dawn", llmtest.Repeat(llmtest.Tool("Outline", map[string]any{})),
			[]string{"The command was not carried out: the model did not finish within 12 steps."}},
		{"a summary with no note", "summarise BOOK ONE: 1805", llmtest.Repeat(llmtest.JSON(Action{Action: ActCursorNext})),
			[]string{"No summary: the model read the text but wrote no note for any chapter."}},
		{"a part summary declared done after 9 portions", "summarise BOOK ONE: 1805", earlyFinisher(9),
			[]string{"CHAPTER VII: That is all.\n(Incomplete: the model finished after covering 7 of 28 chapters; not covered: BOOK ONE: 1805, CHAPTER VIII; BOOK ONE: 1805, CHAPTER IX;", "and 9 more.)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := llmtest.New(t, c.reply)
			e := newEnv(t, loadBook(t, "en"), llmtest.Client(t, srv.URL()))
			args, _ := json.Marshal(RunCommandArgs{Command: c.command})
			_, err := e.reg.Call(context.Background(), tools.Call{Name: "RunCommand", Args: args}, tools.Context{})
			if !errors.Is(err, ErrModelDidNotFinish) {
				t.Fatalf("err = %v, want the model did not finish", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q does not say %q", err, w)
				}
			}
			t.Logf("%d requests: %s", len(srv.Requests()), err.Error()[max(0, len(err.Error())-200):])
		})
	}
}
