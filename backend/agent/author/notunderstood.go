package author

import (
	"fmt"
	"strings"

	"github.com/waymark/waymark/backend/agent"
	"github.com/waymark/waymark/backend/textmatch"
)

// NotUnderstoodError is a command (or a plan's step) the built-in engine does
// not understand: one line in the command's language naming the nearest
// command it does understand, and ErrNeedsModel underneath, since a model
// server could take it. The full list is in Understood (the window shows it
// under the command field).
type NotUnderstoodError struct {
	Command string
	Step    bool // a step of a plan, not a whole command
}

// commandForms are the commands of the built-in engine, by the words they
// start with, as an author says them in English and in Russian.
var commandForms = []struct {
	verbs  []string
	en, ru string
}{
	{[]string{"find", "show", "locate", "search", "where", "найди", "найти", "покажи", "ищи", "где"}, `find the first mention of "X"`, "найди первое упоминание «X»"},
	{[]string{"collect", "gather", "put", "собери", "сложи", "помести"}, `collect all mentions of "X" into "SET"`, "собери все упоминания «X» в «НАБОР»"},
	{[]string{"replace", "change", "замени", "поменяй"}, `replace "A" with "B"`, "замени «A» на «B»"},
	{[]string{"delete", "remove", "удали", "убери"}, `delete the paragraph with "X"`, "удали абзац с «X»"},
	{[]string{"insert", "add", "вставь", "добавь"}, `insert "TEXT" after "X"`, "вставь «ТЕКСТ» после «X»"},
	{[]string{"summarise", "summarize", "retell", "перескажи", "изложи"}, "summarise chapter N", "перескажи главу N"},
}

// nearest is the command form whose first word is closest to the command's
// (the first form, find, when none is near).
func nearest(cmd string, russian bool) string {
	best, bestD := 0, 1<<30
	if f := strings.Fields(strings.ToLower(cmd)); len(f) > 0 {
		for k, form := range commandForms {
			for _, v := range form.verbs {
				if d := textmatch.EditDistance(f[0], v); d < bestD && d <= len([]rune(v))/2 {
					best, bestD = k, d
				}
			}
		}
	}
	if russian {
		return commandForms[best].ru
	}
	return commandForms[best].en
}

func (e *NotUnderstoodError) Error() string {
	if hasCyrillic(e.Command) {
		what := "команду"
		if e.Step {
			what = "шаг"
		}
		return fmt.Sprintf("Встроенный движок не понимает %s «%s». Ближе всего: %s. Остальные команды — под полем команды; другое умеет сервер модели (Настройки).",
			what, e.Command, nearest(e.Command, true))
	}
	what := ""
	if e.Step {
		what = "the step "
	}
	return fmt.Sprintf("The built-in engine does not understand %s%q. The nearest command: %s. The others are listed under the command field; anything else needs a model server (Settings).",
		what, e.Command, nearest(e.Command, false))
}

func (e *NotUnderstoodError) Unwrap() error { return agent.ErrNeedsModel }
