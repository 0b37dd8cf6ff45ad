package author

import (
	"errors"
	"fmt"

	"github.com/waymark/waymark/backend/llm"
)

// ErrModelFailed marks a command the model server could not carry: its
// answer could not be read, it could not be reached, it took too long…
// The command's answer says which, in the command's language, and never
// that something was "not found": nothing was looked at to the end.
var ErrModelFailed = errors.New("the model server failed")

// modelFailure names what went wrong with the model server for err, or ""
// when err is not the model server's failure.
func modelFailure(err error) string {
	var e *llm.Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return string(e.Kind)
	case errors.Is(err, llm.ErrOverBudget):
		return "over_budget"
	}
	return ""
}

// modelFailed is ErrModelFailed said in the command's language.
type modelFailed struct {
	kind    string
	russian bool
	undone  int // the run's edits undone because of it
}

func (modelFailed) Is(target error) bool { return target == ErrModelFailed }

func (e modelFailed) Error() string {
	en, ru := "the model server failed", "сервер модели не справился с запросом"
	switch llm.ErrorKind(e.kind) {
	case llm.KindBadResponse:
		en, ru = "the model server's answer could not be read", "ответ сервера модели не удалось прочитать"
	case llm.KindUnreachable:
		en, ru = "the model server could not be reached; start it or change its address in Settings", "сервер модели недоступен; запустите его или измените адрес в настройках"
	case llm.KindTimeout:
		en, ru = "the model server did not answer in time", "сервер модели не ответил вовремя"
	case llm.KindLength:
		en, ru = "the model's answer was cut off at its length limit", "ответ модели оборвался на пределе длины"
	case llm.KindTooLarge:
		en, ru = "the model server's answer was larger than allowed and was stopped", "ответ сервера модели оказался больше допустимого и был остановлен"
	case llm.KindModelNotFound:
		en, ru = "the model is not installed on the server; choose an installed one in Settings", "этой модели на сервере нет; выберите установленную в настройках"
	case llm.KindAuth:
		en, ru = "the model server refused the request; check its key in Settings", "сервер модели отказал в доступе; проверьте ключ в настройках"
	case llm.KindRateLimited:
		en, ru = "the model server is busy; try again in a moment", "сервер модели занят; попробуйте чуть позже"
	case "unfinished":
		en, ru = "the model did not finish: it went on until its conversation no longer fit the context window", "модель не закончила работу: она продолжала, пока разговор не перестал помещаться в окно контекста"
	case "over_budget":
		en, ru = "the request does not fit the model's context window; nothing was sent", "запрос не помещается в окно контекста модели; ничего не отправлено"
	}
	if e.russian {
		if e.undone > 0 {
			return fmt.Sprintf("Команда не выполнена: %s. Сделанные ею правки (%d) отменены.", ru, e.undone)
		}
		return "Команда не выполнена: " + ru + "."
	}
	if e.undone > 0 {
		return fmt.Sprintf("The command was not carried out: %s. The %d edit(s) of this run were undone.", en, e.undone)
	}
	return "The command was not carried out: " + en + "."
}

// explainModelFailure turns the model server's failure into the command's
// language; any other error is returned as it is.
func explainModelFailure(err error, russian bool) error {
	var said modelFailed
	if errors.As(err, &said) {
		return err
	}
	if k := modelFailure(err); k != "" {
		return modelFailed{kind: k, russian: russian}
	}
	return err
}

// ErrModelDidNotFinish marks a command whose model stopped short: it ran
// out of steps, or declared a summary done with chapters missing.
var ErrModelDidNotFinish = errors.New("the model did not finish")

// unfinished is ErrModelDidNotFinish said in the command's language; its
// text is the whole answer.
type unfinished struct{ text string }

func (e unfinished) Error() string      { return e.text }
func (unfinished) Is(target error) bool { return target == ErrModelDidNotFinish }

// notFinished says the model did not finish a command within its steps.
func notFinished(russian bool, steps, undone int) unfinished {
	if russian {
		s := fmt.Sprintf("Команда не выполнена: модель не закончила работу за %d %s.", steps, ruPlural(steps, "шаг", "шага", "шагов"))
		if undone > 0 {
			s += fmt.Sprintf(" Сделанные ею правки (%d) отменены.", undone)
		}
		return unfinished{s}
	}
	s := fmt.Sprintf("The command was not carried out: the model did not finish within %d steps.", steps)
	if undone > 0 {
		s += fmt.Sprintf(" The %d edit(s) of this run were undone.", undone)
	}
	return unfinished{s}
}

// noSummary says the model read the range without writing a summary.
func noSummary(russian bool) unfinished {
	if russian {
		return unfinished{"Пересказа нет: модель прочитала текст, но не написала ни одной заметки."}
	}
	return unfinished{"No summary: the model read the text but wrote no note for any chapter."}
}

// incompleteSummary is the summary with what it covers and what it misses.
func incompleteSummary(russian bool, text string, all int, missing []string) unfinished {
	shown := missing
	more := 0
	if len(shown) > 12 {
		shown, more = shown[:12], len(shown)-12
	}
	if russian {
		s := fmt.Sprintf("%s\n(Пересказ неполный: модель закончила, пересказав %d из %d глав; нет пересказа глав: %s", text, all-len(missing), all, joinPlaces(shown, "«", "»"))
		if more > 0 {
			s += fmt.Sprintf(" и ещё %d", more)
		}
		return unfinished{s + ".)"}
	}
	s := fmt.Sprintf("%s\n(Incomplete: the model finished after covering %d of %d chapters; not covered: %s", text, all-len(missing), all, joinPlaces(shown, "", ""))
	if more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return unfinished{s + ".)"}
}

func joinPlaces(ps []string, open, closing string) string {
	out := ""
	for i, p := range ps {
		if i > 0 {
			out += "; "
		}
		out += open + p + closing
	}
	return out
}
