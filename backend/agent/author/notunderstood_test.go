package author

import (
	"errors"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/agent"
)

// TestNotUnderstoodIsOneLine: a command the built-in engine does not know is
// refused in one line, in the command's language, naming the nearest command
// (it was a 690-character list of every command).
func TestNotUnderstoodIsOneLine(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		step bool
		want []string
	}{
		{"frobnicate the moon", false, []string{`does not understand "frobnicate the moon"`, `The nearest command: find the first mention of "X".`}},
		{`replase "Pierre" with "Peter"`, false, []string{`The nearest command: replace "A" with "B".`}},
		{"фывапролд", false, []string{"не понимает команду «фывапролд»", "Ближе всего: найди первое упоминание «X»."}},
		{"заменить Пьер Петр", false, []string{"Ближе всего: замени «A» на «B»."}},
		{"удалить главу", true, []string{"не понимает шаг «удалить главу»", "удали абзац с «X»"}},
	} {
		t.Run(tc.cmd, func(t *testing.T) {
			err := error(&NotUnderstoodError{Command: tc.cmd, Step: tc.step})
			msg := err.Error()
			if !errors.Is(err, agent.ErrNeedsModel) {
				t.Error("not an ErrNeedsModel: a model server could not take it over")
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("%q lacks %q", msg, w)
				}
			}
			if strings.Contains(msg, "\n") || len([]rune(msg)) > 260 || strings.Contains(msg, "WAYMARK_MODEL_URL") {
				t.Errorf("not one short line for the author (%d characters): %q", len([]rune(msg)), msg)
			}
		})
	}
}
