package author

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/llm/llmtest"
	"github.com/waymark/waymark/backend/tools"
)

// TestMisbehavingModelIsReportedAsWhatItIs: a model server whose reply is
// not a chat completion made a find answer «Упоминаний … не найдено (the
// model failed: …)»: nothing was searched, and half of it was English.
// Now the command fails saying the model server's answer could not be
// read, in the command's language, with no "not found".
func TestMisbehavingModelIsReportedAsWhatItIs(t *testing.T) {
	cases := []struct {
		name, command string
		reply         llmtest.Reply
		want          string
	}{
		{"Russian, unreadable reply", "найди первое упоминание «Наташа»", llmtest.Malformed("<html>502 Bad Gateway</html>"),
			"Команда не выполнена: ответ сервера модели не удалось прочитать."},
		{"English, unreadable reply", `find the first mention of "Natasha"`, llmtest.Malformed(""),
			"The command was not carried out: the model server's answer could not be read."},
		{"Russian, cut for length", "найди первое упоминание «Наташа»", llmtest.Completion{Content: `{"action":"cursor_`, FinishReason: "length"},
			"Команда не выполнена: ответ модели оборвался на пределе длины."},
		{"Russian, model not installed", "перескажи главу 1", llmtest.ModelNotFound("test-model"),
			"Команда не выполнена: этой модели на сервере нет; выберите установленную в настройках."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Repeat(c.reply))
			e := newEnv(t, "# Книга\n\n## Глава 1\n\nНаташа вошла в комнату.\n\nNatasha came in.\n", llmtest.Client(t, srv.URL()))
			args, _ := json.Marshal(RunCommandArgs{Command: c.command})
			var answers []string
			_, err := e.reg.Call(context.Background(), tools.Call{Name: "RunCommand", Args: args}, tools.Context{Progress: func(p tools.Progress) {
				if p.Event == "answer" {
					answers = append(answers, p.Text)
				}
			}})
			if !errors.Is(err, ErrModelFailed) || err.Error() != c.want {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
			if len(answers) != 1 || answers[0] != c.want {
				t.Errorf("answers said %q, want %q", answers, c.want)
			}
			for _, bad := range []string{"не найдено", "not found", "the model failed"} {
				if strings.Contains(err.Error(), bad) {
					t.Errorf("%q says %q", err, bad)
				}
			}
			if len(srv.Requests()) == 0 {
				t.Error("the model was never asked")
			}
		})
	}
}

// TestSummaryLanguageIsOneInstruction: the cursor agent's system prompt
// told the model to write "summary" in English while the summary task said
// the book's language; now both say the book's language.
func TestSummaryLanguageIsOneInstruction(t *testing.T) {
	if strings.Contains(systemPrompt, "English") || !strings.Contains(systemPrompt, "in the book's language") {
		t.Errorf("the system prompt's summary instruction: %q", systemPrompt[strings.Index(systemPrompt, `"summary" is`):][:120])
	}
}
