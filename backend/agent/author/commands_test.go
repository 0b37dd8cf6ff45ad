package author

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/testenv"
)

// loadBook is one of the corpus's whole books.
// A whole book is a corpus sweep: the race step (-short) leaves it to the
// plain go test step, where it runs in a fifth of the time (renaming Марья
// through the Russian book took 207 s of the race step's author package's
// 471 s).
func loadBook(tb testing.TB, lang string) string {
	tb.Helper()
	testenv.SkipSweepInShortMode(tb)
	p := filepath.Join("..", "..", "..", "..", "shared", "corpus", "books", "war-and-peace."+lang+".md")
	b, err := os.ReadFile(p)
	if err != nil {
		tb.Skipf("CORPUS TESTS SKIPPED: %s is absent (%v)", p, err)
	}
	return string(b)
}

// authorCommand is one command as an author types it and what the author must
// read in the answer: the place (chapter names) and the quoted sentence, or the
// error.
type authorCommand struct {
	cmd   string
	place string // in the answer
	quote string // in the answer
	err   string // in the error instead
}

// runCommands runs the commands in order on one book with the built-in engine
// and checks each answer.
func runCommands(t *testing.T, e *env, cmds []authorCommand) {
	t.Helper()
	ctx := context.Background()
	for _, c := range cmds {
		var answer string
		ca := &CommandAgent{Reg: e.reg, Runtime: e.rt, Emit: func(ev Event) {
			if ev.Event == "answer" {
				answer = ev.Text
			}
		}}
		_, err := ca.Run(ctx, c.cmd)
		if errors.Is(err, ErrNothingDone) && c.err == "" {
			err = nil // found nothing: the answer says so, the door exits non-zero
		}
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q (answer %q)", c.cmd, err, c.err, answer)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.cmd, err)
			continue
		}
		t.Logf("%s → %s", c.cmd, document.Snippet(answer, 160))
		if !strings.Contains(answer, c.place) || !strings.Contains(answer, c.quote) {
			t.Errorf("%s:\n got %s\nwant %s … %s", c.cmd, answer, c.place, c.quote)
		}
		for _, raw := range []string{"H1.", "H2.", "H3.", "ts_", "task_"} {
			if strings.Contains(answer, raw) {
				t.Errorf("%s: the answer shows %q: %s", c.cmd, raw, answer)
			}
		}
	}
}

func TestAuthorCommandsRussian(t *testing.T) {
	e := newEnv(t, loadBook(t, "ru"), nil)
	runCommands(t, e, []authorCommand{
		{cmd: "найди первое упоминание Долохова", place: "Том 1, Часть первая, VI", quote: "Я за Долохова!"},
		{cmd: "найди следующее упоминание", place: "Часть первая, VI", quote: "Это был Долохов, семеновский офицер"},
		{cmd: "найди первое упоминание «Долохов» точно", place: "Часть первая, VI", quote: "Это был Долохов, семеновский офицер"},
		{cmd: "найди первое упоминание «Пьер»", place: "Часть первая, II", quote: "при виде вошедшего Пьера"},
		{cmd: "Найди первое упоминание Кутузова", place: "Том 1, Часть первая, I:", quote: "адъютант Кутузова."},
		{cmd: "найди следующее упоминание «Пьер»", place: "Том 1, Часть первая, II", quote: "Пьер пробурлил что-то непонятное"}, // continues «Пьер», not Кутузов
		{cmd: "найди первое упоминание «Анна Павловна»", place: "Том 1, Часть первая, I:", quote: "известная Анна Павловна Шерер"},
		{cmd: "найди первое упоминание Наташи после главы 3", place: "Том 1, Часть первая, VIII", quote: "И Наташа не могла больше говорить"},
		{cmd: "найди первое упоминание Пьера в главе 5", place: "Том 1, Часть первая, V:", quote: "«Пьер был неуклюж.»"},
		{cmd: "найди последнее упоминание Наташи", place: "Том 4, Часть вторая, XII", quote: "думает Наташа о князе Андрее"},                          // in the commentary after the epilogue
		{cmd: "найди первое упоминание князя Андрея", place: "Том 1, Часть первая, III", quote: "Новое лицо это был молодой князь Андрей Болконский"}, // «князь Андрей» is a form of «князя Андрея»
		{cmd: "найди первое упоминание «Пьер» в коде", quote: "Упоминаний «Пьер» не найдено"},
		{cmd: "найди первое упоминание, где Пьер сердится", err: "нужен сервер модели"},
		{cmd: "собери все абзацы с «Денисов» в набор денисов", quote: "В набор «денисов» собрано 373 места с упоминанием «Денисов» — от «Том 1, Часть вторая, IV»"},
		{cmd: "сложи все упоминания «Тушин» в «тушин»", quote: "В набор «тушин» собрано 67 мест"},
		{cmd: "перескажи главу 6", place: "Том 1, Часть первая, VI", quote: "В соседней комнате зашумело женское платье."},
		{cmd: "перескажи главу VI", place: "Том 1, Часть первая, VI", quote: "В соседней комнате зашумело женское платье."},
		{cmd: "перескажи шестую главу", place: "Том 1, Часть первая, VI", quote: "В соседней комнате"},
		{cmd: "перескажи часть вторую", place: "Том 1, Часть вторая", quote: "В октябре 1805 года русские войска"},
		{cmd: "перескажи главу 999", err: "ни один заголовок не называет главу 999"},
		{cmd: "найди первое упоминание Безухова", place: "Том 1, Часть первая, II", quote: "графа Безухова"},
	})
}

func TestAuthorCommandsEnglish(t *testing.T) {
	e := newEnv(t, loadBook(t, "en"), nil)
	runCommands(t, e, []authorCommand{
		{cmd: "find the first mention of Dolokhov", place: "BOOK ONE: 1805, CHAPTER IX", quote: "I bet on Dólokhov!"},
		{cmd: "find the next one", place: "CHAPTER IX", quote: "This was Dólokhov"},
		{cmd: `find the first mention of "Pierre"`, place: "BOOK ONE: 1805, CHAPTER II", quote: "as at the sight of something too large"},
		{cmd: "find the first mention of Kutuzov", place: "BOOK ONE: 1805, CHAPTER I:", quote: "Kutúzov"},
		{cmd: `find the next mention of "Pierre"`, place: "BOOK ONE: 1805, CHAPTER II", quote: "Monsieur Pierre, to come and visit a poor invalid"}, // continues "Pierre", not Kutuzov
		{cmd: "find the first mention of the Rostovs", place: "BOOK ONE: 1805, CHAPTER X:", quote: "her rich relations, the Rostóvs"},
		{cmd: "find the first mention of Prince Andrew excluding headings", place: "BOOK ONE: 1805, CHAPTER IV", quote: "Prince Andrew Bolkónski"},
		{cmd: "find the first mention of Natasha after chapter 10", place: "BOOK ONE: 1805, CHAPTER XI", quote: "was all Natásha managed to utter"},
		{cmd: "find the first mention of Pierre in chapter 3", place: "BOOK ONE: 1805, CHAPTER III", quote: "Pierre had managed to start a conversation with the abbé"},
		{cmd: "find the last mention of Natasha", place: "FIRST EPILOGUE", quote: "said Natásha, smiling still more brightly."},
		{cmd: `find the first mention of "Napoleon" in code`, quote: `No mention of "Napoleon" found`},
		{cmd: "find the first mention of Pierre getting angry at someone", err: "needs a model server"},
		{cmd: "where is the first scene at the ball", err: "needs a model server"},
		{cmd: `collect all paragraphs mentioning "Natasha" into set natasha`, quote: `Collected 969 passage(s) mentioning "Natasha" into the set "natasha", from BOOK ONE: 1805, CHAPTER XI`},
		{cmd: `gather the scenes with "Denisov" into "denisov"`, quote: `into the set "denisov"`},
		{cmd: `put all mentions of "Kutuzov" into set kutuzov`, quote: `into the set "kutuzov"`},
		{cmd: "summarise chapter 6", place: "BOOK ONE: 1805, CHAPTER VI", quote: "Having thanked Anna Pávlovna"},
		{cmd: "summarize chapter VI", place: "BOOK ONE: 1805, CHAPTER VI", quote: "Having thanked Anna Pávlovna"},
		{cmd: "summarise the sixth chapter", place: "BOOK ONE: 1805, CHAPTER VI", quote: "Having thanked Anna Pávlovna"},
		{cmd: "summarise chapter six", place: "BOOK ONE: 1805, CHAPTER VI", quote: "Having thanked Anna Pávlovna"},
		{cmd: "find the first mention of Bolkonski exactly", place: "BOOK ONE: 1805, CHAPTER I:", quote: "the well-known Prince Bolkónski"},
		{cmd: "summarise chapter 999", err: "no heading names chapter 999"},
	})
}
