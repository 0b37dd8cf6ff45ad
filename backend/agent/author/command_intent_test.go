package author

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/waymark/waymark/backend/agent"
	"github.com/waymark/waymark/backend/tools"
)

// runOne runs one command with the built-in engine and returns the answer.
func runOne(t *testing.T, e *env, ca *CommandAgent, cmd string) (string, error) {
	t.Helper()
	var answer string
	ca.Reg, ca.Runtime = e.reg, e.rt
	ca.Emit = func(ev Event) {
		if ev.Event == "answer" {
			answer = ev.Text
		}
	}
	_, err := ca.Run(context.Background(), cmd)
	return answer, err
}

// TestIssuePhrasingsCarriedOut: the phrasings the built-in engine refused
// ("needs a model server") are carried out on the real books.
func TestIssuePhrasingsCarriedOut(t *testing.T) {
	en, ru := newEnv(t, loadBook(t, "en"), nil), newEnv(t, loadBook(t, "ru"), nil)
	for _, c := range []struct {
		e           *env
		cmd, answer string
	}{
		{en, "where does Pierre first appear", "BOOK ONE: 1805, CHAPTER II"},
		{en, "when is Kutuzov first mentioned", "BOOK ONE: 1805, CHAPTER I: …He is an aide-de-camp of Kutúzov’s and will be here tonight.”"},
		{en, "first time Natasha is mentioned, not counting headings", "BOOK ONE: 1805, CHAPTER XI"},
		{ru, "где впервые появляется Долохов", "Я за Долохова!"},
		{ru, "когда впервые упоминается Кутузов", "Том 1, Часть первая, I:"},
		{ru, "первое упоминание Сони, без заголовков", "Том 1, Часть первая, VIII"},
		{en, "collect every paragraph where Natasha appears into a set called natasha", `Collected 969 passage(s) mentioning "Natasha" into the set "natasha"`},
		{en, "insert a heading Interlude before chapter V", "Inserted the heading \"Interlude\" before BOOK ONE: 1805, CHAPTER V"},
	} {
		answer, err := runOne(t, c.e, &CommandAgent{}, c.cmd)
		if err != nil || !strings.Contains(answer, c.answer) {
			t.Errorf("%s: %q (%v), want %q", c.cmd, answer, err, c.answer)
		}
	}
	if b, _ := os.ReadFile(en.doc); !strings.Contains(string(b), "## Interlude\n\n## CHAPTER V\n") {
		t.Errorf("the heading was not inserted at the chapter's level before it")
	}
}

// TestRefusalsInTheCommandsLanguage: what the built-in engine cannot do is
// said in the command's language, with the nearest command it understands
// made of the author's words.
func TestRefusalsInTheCommandsLanguage(t *testing.T) {
	e := newEnv(t, loadBook(t, "ru"), nil)
	for _, c := range []struct{ cmd, near string }{
		{"переведи главу 3 на французский", "перескажи главу 3"},
		{"найди сцену, где Наташа поёт", "найди первое упоминание «Наташа»"},
		{"напиши продолжение про Пьера", "найди первое упоминание «Пьера»"},
		{"сделай Долохова добрее", "найди первое упоминание «Долохова»"},
		{"найди последний бал, где танцует Наташа", "найди последнее упоминание «Наташа»"},
		{"translate chapter 3 into French", "summarise chapter 3"},
		{"find the scene where Natasha sings", `find the first mention of "Natasha"`},
	} {
		answer, err := runOne(t, e, &CommandAgent{}, c.cmd)
		if !errors.Is(err, agent.ErrNeedsModel) || !strings.Contains(answer, c.near) {
			t.Errorf("%s: %q (%v), want the nearest command %q", c.cmd, answer, err, c.near)
		}
		// One line a screen reader says whole, not the list of every command.
		if n := utf8.RuneCountInString(answer); n > 300 || strings.Contains(answer, "\n") {
			t.Errorf("%s: the refusal is %d characters: %s", c.cmd, n, answer)
		}
		if hasCyrillic(c.cmd) {
			for _, w := range strings.Fields(answer) {
				w = strings.Trim(w, ".,:;()«»\"")
				if latin(w) && w != "WAYMARK_MODEL_URL" {
					t.Errorf("%s: a Russian refusal holds the English word %q: %s", c.cmd, w, answer)
					break
				}
			}
		}
	}
}

func latin(w string) bool {
	if w == "" {
		return false
	}
	for _, r := range w {
		if !(r < 0x250 && unicode.IsLetter(r)) {
			return false
		}
	}
	return true
}

const martaBook = "# Story\n\n## Chapter 1\n\nMarta came.\n\nMarta sat, and Marta spoke.\n\n## Chapter 2\n\nMarta left.\n\n## Chapter 3\n\nЗдесь Пьер. У Пьера дом. С Пьером друг.\n\n## Chapter 4\n\nПьер ушёл, Пьера ждали.\n"

// TestReplaceEveryOccurrenceInTheScope: "replace" is every occurrence, "the
// first" is one; a scope is honoured; word forms when asked; the answer says
// how many and where; all of it is one revision that one Undo takes back.
func TestReplaceEveryOccurrenceInTheScope(t *testing.T) {
	for _, c := range []struct {
		cmd, answer string
		has, hasNot []string
	}{
		{`replace "Marta" with "Martha"`, "4 occurrences in 3 paragraphs", []string{"Martha came.", "Martha sat, and Martha spoke.", "Martha left."}, []string{"Marta"}},
		{`replace all "Marta" with "Martha"`, "4 occurrences", []string{"Martha left."}, []string{"Marta"}},
		{`replace the first "Marta" with "Martha"`, "1 occurrence", []string{"Martha came.", "Marta sat"}, nil},
		{`replace "Marta" with "Martha" in chapter 2`, "Story, Chapter 2", []string{"Marta came.", "Martha left."}, nil},
		{`replace Marta with Martha in chapter 1`, "3 occurrences in 2 paragraphs — Story, Chapter 1", []string{"Martha sat, and Martha spoke.", "Marta left."}, nil},
		{"замени «Пьер» на «Петр» только в главе 3", "1 раз в 1 абзаце — Story, Chapter 3", []string{"Здесь Петр. У Пьера дом.", "Пьер ушёл"}, nil},
		{"замени Пьер на Петр в главе 3 со всеми падежами", "3 раза в 1 абзаце (Пьер → Петр ×1, Пьера → Петра ×1, Пьером → Петром ×1)", []string{"Здесь Петр. У Петра дом. С Петром друг.", "Пьер ушёл, Пьера ждали."}, nil},
		{"замени Пьер на Петр во всех формах", "5 раз в 2 абзацах", []string{"Петр ушёл, Петра ждали."}, []string{"Пьер"}},
	} {
		e := newEnv(t, martaBook, nil)
		answer, err := runOne(t, e, &CommandAgent{}, c.cmd)
		if err != nil || !strings.Contains(answer, c.answer) {
			t.Errorf("%s: %q (%v), want %q", c.cmd, answer, err, c.answer)
			continue
		}
		b, _ := os.ReadFile(e.doc)
		for _, h := range c.has {
			if !strings.Contains(string(b), h) {
				t.Errorf("%s: the book lacks %q:\n%s", c.cmd, h, b)
			}
		}
		for _, h := range c.hasNot {
			if strings.Contains(string(b), h) {
				t.Errorf("%s: the book still holds %q:\n%s", c.cmd, h, b)
			}
		}
		if _, err := e.reg.Call(context.Background(), tools.Call{Name: "Undo"}, tools.Context{}); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(e.doc); string(b) != martaBook {
			t.Errorf("%s: one Undo did not take the whole replace back:\n%s", c.cmd, b)
		}
	}
}

// TestReplaceAnswerNamesManyChapters: a replace in more than four chapters
// names how many and the first and last, in the command's language («— в 5
// главах, от …», not «— 5 главах»).
func TestReplaceAnswerNamesManyChapters(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Story\n")
	for i := 1; i <= 5; i++ {
		fmt.Fprintf(&b, "\n## Chapter %d\n\nАнна пришла.\n\nAnna came.\n", i)
	}
	for _, c := range []struct{ cmd, answer string }{
		{"замени «Анна» на «Аня»", "Заменил «Анна» на «Аня»: 5 раз в 5 абзацах — в 5 главах, от «Story, Chapter 1» до «Story, Chapter 5». Одна отмена вернёт всё."},
		{`replace "Anna" with "Ann"`, `Replaced "Anna" with "Ann": 5 occurrences in 5 paragraphs — 5 chapters, from Story, Chapter 1 to Story, Chapter 5. One Undo takes it all back.`},
	} {
		e := newEnv(t, b.String(), nil)
		if answer, err := runOne(t, e, &CommandAgent{}, c.cmd); err != nil || answer != c.answer {
			t.Errorf("%s: %q (%v)\n want %q", c.cmd, answer, err, c.answer)
		}
	}
}

// TestReplaceInChapterOfTheRealBooks: «замени «Пьер» на «Петр» только в главе
// III» replaces every «Пьер» of that chapter and no other; so does the English.
func TestReplaceInChapterOfTheRealBooks(t *testing.T) {
	for _, c := range []struct {
		lang, cmd, word, with, where string
		n                            int
	}{
		{"ru", "замени «Пьер» на «Петр» только в главе III", "Пьер", "Петр", "Том 1, Часть первая, III", 5},
		{"en", `replace "Pierre" with "Peter" in chapter 3`, "Pierre", "Peter", "BOOK ONE: 1805, CHAPTER III", 4},
	} {
		text := loadBook(t, c.lang)
		e := newEnv(t, text, nil)
		answer, err := runOne(t, e, &CommandAgent{}, c.cmd)
		if err != nil || !strings.Contains(answer, c.where) {
			t.Fatalf("%s: %q %v", c.cmd, answer, err)
		}
		b, _ := os.ReadFile(e.doc)
		if got := strings.Count(string(b), c.with) - strings.Count(text, c.with); got != c.n {
			t.Errorf("%s: %d new %q, want %d (%s)", c.cmd, got, c.with, c.n, answer)
		}
		if strings.Count(text, c.word)-strings.Count(string(b), c.word) != c.n {
			t.Errorf("%s: %q replaced outside the chapter", c.cmd, c.word)
		}
	}
}
