package author

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/testenv"
	"github.com/waymark/waymark/backend/tools"
)

// The acceptance set of issue 31: 64 phrasings written for it (32 in each
// language, none from the grammar's tables or the docs), covering find,
// next, count, the chapters of a name, collect, replace in a chapter, rename
// everywhere, undo, go to, the characters, spelling and summaries. Each runs
// through the command door (the RunCommand tool) in order on a copy of the
// real book, and its effect is checked against the book's own tools called
// with explicit arguments (the oracle): the place of the n-th match of
// Find, Find's counts, ReplaceAll's preview, the section's heading, the
// file's bytes. An outcome is
//
//	correct  the command succeeded and did what it said (or failed as it
//	         must: "undo" with nothing to undo);
//	refused  it failed, changed nothing, and said why in the command's
//	         language with no internal labels;
//	wrong    anything else: an edit or a success that is not what was said.
//
// Wrong outcomes fail the test, except those of the rows owned by the
// replace/rename work (forms: true), which are counted and reported.

type acceptRow struct {
	cmd string
	// want checks a success; wantErr is the failure that is the right
	// outcome ("nothing to undo").
	want    func(a *acceptRun, r RunCommandResult) string
	wantErr string
	forms   bool // replace/rename across case forms
	area    string
}

type acceptRun struct {
	t      *testing.T
	e      *env
	ru     bool
	before string   // the file before the row
	marks  []string // the file before each edit, for undo
	nth    map[string]int
}

func TestPhrasingAcceptance(t *testing.T) {
	testenv.SkipSweepInShortMode(t)
	counts := map[string]int{}
	for _, lang := range []string{"en", "ru"} {
		rows := acceptEN
		if lang == "ru" {
			rows = acceptRU
		}
		e := newEnv(t, loadBook(t, lang), nil)
		a := &acceptRun{t: t, e: e, ru: lang == "ru", nth: map[string]int{}}
		for _, row := range rows {
			outcome, why := a.run(row)
			counts[lang+" "+outcome]++
			counts[outcome]++
			t.Logf("%-8s %-11s %s%s", outcome, row.area, row.cmd, map[bool]string{true: " — " + why, false: ""}[why != ""])
			if outcome == "wrong" {
				t.Errorf("%q: %s", row.cmd, why)
			}
		}
	}
	total := len(acceptEN) + len(acceptRU)
	t.Logf("%d phrasings (%d English, %d Russian): %d correct, %d refused clearly, %d wrong (English %d/%d/%d, Russian %d/%d/%d)",
		total, len(acceptEN), len(acceptRU), counts["correct"], counts["refused"], counts["wrong"],
		counts["en correct"], counts["en refused"], counts["en wrong"], counts["ru correct"], counts["ru refused"], counts["ru wrong"])
	if len(acceptRU) < 30 || total < 60 {
		t.Errorf("the set has %d phrasings, %d Russian: want at least 60, half Russian", total, len(acceptRU))
	}
}

// run runs one row through RunCommand and classifies it.
func (a *acceptRun) run(row acceptRow) (string, string) {
	ctx := context.Background()
	a.before = a.file()
	args, _ := json.Marshal(RunCommandArgs{Command: row.cmd})
	res, err := a.e.reg.Call(ctx, tools.Call{Name: "RunCommand", Args: args}, tools.Context{})
	after := a.file()
	if err != nil {
		msg := err.Error()
		if row.wantErr != "" && strings.Contains(msg, row.wantErr) && after == a.before {
			return "correct", ""
		}
		switch {
		case after != a.before:
			return "wrong", "failed but changed the book: " + msg
		case hasCyrillic(msg) != a.ru && !strings.Contains(msg, "«"):
			return "wrong", "refused in the other language: " + msg
		}
		for _, raw := range []string{"H1.", "H2.", "H3.", "task_", "RunCursorAgent", "ReplaceAll"} {
			if strings.Contains(msg, raw) {
				return "wrong", "the refusal shows " + raw + ": " + msg
			}
		}
		return "refused", document.Snippet(msg, 140)
	}
	r := res.(RunCommandResult)
	if row.wantErr != "" {
		return "wrong", "succeeded, want the failure " + row.wantErr + ": " + r.Answer
	}
	if row.want == nil {
		return "wrong", "succeeded, want a refusal: " + r.Answer
	}
	if why := row.want(a, r); why != "" {
		return "wrong", why + " (answer: " + document.Snippet(r.Answer, 200) + ")"
	}
	return "correct", ""
}

func (a *acceptRun) file() string {
	b, err := os.ReadFile(a.e.doc)
	if err != nil {
		a.t.Fatal(err)
	}
	return string(b)
}

// tool calls a tool of the book with explicit arguments: the oracle.
func (a *acceptRun) tool(name string, args map[string]any) any {
	b, _ := json.Marshal(args)
	res, err := a.e.reg.Call(context.Background(), tools.Call{Name: name, Args: b}, tools.Context{})
	if err != nil {
		a.t.Fatalf("%s %s: %v", name, b, err)
	}
	return res
}

// section is a numbered section's items and heading ("chapter 3 of part 2").
func (a *acceptRun) section(kind string, n int, within ...any) (lo, hi int, place string) {
	s := Scope{Kind: ScopeSection, Ref: SectionRef{Kind: kind, N: n}}
	if len(within) == 2 {
		s.Within = &SectionRef{Kind: within[0].(string), N: within[1].(int)}
	}
	m, _ := a.e.ws.Current()
	_ = m.Do(func(d *document.Document) error {
		var ok bool
		if lo, hi, ok = sectionRange(d, s); !ok {
			a.t.Fatalf("no %s %d", kind, n)
		}
		place = d.Place(FindScope(d, s))
		return nil
	})
	return lo, hi, place
}

func (a *acceptRun) place(i int) string {
	m, _ := a.e.ws.Current()
	var p string
	_ = m.Do(func(d *document.Document) error { p = d.Place(i); return nil })
	return p
}

// matches is Find's every match of q (word forms, headings included), in a
// range when lo < hi.
func (a *acceptRun) matches(q string, lo, hi int) manuscript.FindResult {
	args := map[string]any{"query": q, "all": true}
	if lo < hi {
		args["fromIndex"], args["toIndex"] = lo, hi
	}
	return a.tool("Find", args).(manuscript.FindResult)
}

// The checks.

// finds: the answer is at the n-th (0: first, -1: last) match of q.
func finds(q string, n int) func(*acceptRun, RunCommandResult) string {
	return func(a *acceptRun, r RunCommandResult) string {
		f := a.matches(q, 0, 0)
		if len(f.Matches) == 0 {
			return "the oracle finds no " + q
		}
		if n < 0 {
			n = len(f.Matches) + n
		}
		want := a.place(f.Matches[n].Index)
		if !strings.HasPrefix(r.Answer, want+":") {
			return fmt.Sprintf("want match %d of %q, in %s", n, q, want)
		}
		if a.file() != a.before {
			return "a find changed the book"
		}
		return ""
	}
}

// findsNext: the next match of q after the last one this row's search saw.
func findsNext(q string) func(*acceptRun, RunCommandResult) string {
	return func(a *acceptRun, r RunCommandResult) string {
		a.nth[q]++
		return finds(q, a.nth[q])(a, r)
	}
}

// counts: the answer gives Find's number of occurrences of q (in a section).
func counts(q string, sec ...any) func(*acceptRun, RunCommandResult) string {
	return func(a *acceptRun, r RunCommandResult) string {
		lo, hi := 0, 0
		if len(sec) == 2 {
			lo, hi, _ = a.section(sec[0].(string), sec[1].(int))
		}
		f := a.matches(q, lo, hi)
		args := map[string]any{"query": q, "all": true}
		if lo < hi {
			args["fromIndex"], args["toIndex"] = lo, hi
		}
		occ := f.Occurrences
		if !strings.Contains(r.Answer, fmt.Sprintf(" %d ", occ)) {
			return fmt.Sprintf("want %d occurrences of %q", occ, q)
		}
		return ""
	}
}

// listsChapters: the answer names how many chapters hold q, and the first.
func listsChapters(q string) func(*acceptRun, RunCommandResult) string {
	return func(a *acceptRun, r RunCommandResult) string {
		f := a.matches(q, 0, 0)
		seen := map[string]bool{}
		for _, m := range f.Matches {
			seen[a.place(m.Index)] = true
		}
		first := a.place(f.Matches[0].Index)
		if !strings.Contains(r.Answer, fmt.Sprintf(" %d ", len(seen))) || !strings.Contains(r.Answer, first+" (") {
			return fmt.Sprintf("want %d chapters of %q, the first %s", len(seen), q, first)
		}
		return ""
	}
}

// collects: the set holds every paragraph Find finds.
func collects(q string) func(*acceptRun, RunCommandResult) string {
	return func(a *acceptRun, r RunCommandResult) string {
		f := a.matches(q, 0, 0)
		if !strings.Contains(r.Answer, fmt.Sprintf(" %d ", f.Count)) {
			return fmt.Sprintf("want %d paragraphs of %q collected", f.Count, q)
		}
		return ""
	}
}

// replaces: old became new in the section only, as often as ReplaceAll's
// preview said (forms: with word forms; then no form of old is left).
func replaces(old, new string, forms bool, sec ...any) func(*acceptRun, RunCommandResult) string {
	return func(a *acceptRun, r RunCommandResult) string {
		after := a.file()
		a.marks = append(a.marks, a.before)
		if after == a.before {
			return "the book did not change"
		}
		if len(sec) >= 2 {
			// Outside the section nothing changed.
			m, _ := a.e.ws.Current()
			lo, hi, _ := a.section(sec[0].(string), sec[1].(int), sec[2:]...)
			var start, tail int
			_ = m.Do(func(d *document.Document) error {
				start = d.Item(lo).Start
				tail = len(d.Source()) - d.Item(hi-1).End
				if hi < d.Len() {
					tail = len(d.Source()) - d.Item(hi).Start
				}
				return nil
			})
			if a.before[:start] != after[:start] || a.before[len(a.before)-tail:] != after[len(after)-tail:] {
				return "text outside the section changed"
			}
		}
		args := map[string]any{"query": old, "all": true}
		if !forms {
			args["exact"] = true
		}
		left := a.tool("Find", args).(manuscript.FindResult)
		if forms && left.Count > 0 && len(sec) == 0 {
			return fmt.Sprintf("%d paragraphs still hold a form of %q", left.Count, old)
		}
		if !strings.Contains(after, new) {
			return "the new text is not in the book"
		}
		return ""
	}
}

// undoes: the book is as it was before the last edit the rows made.
func undoes(a *acceptRun, r RunCommandResult) string {
	if len(a.marks) == 0 {
		return "no edit to undo"
	}
	want := a.marks[len(a.marks)-1]
	a.marks = a.marks[:len(a.marks)-1]
	if a.file() != want {
		return "the book is not as it was before the last edit"
	}
	if !strings.HasPrefix(r.Answer, say(a.ru, "Undid the last change: ", "Отменил последнюю правку: ")) {
		return "the answer does not say what was undone"
	}
	return ""
}

// goesTo: the answer names the section and the window is sent there.
func goesTo(kind string, n int, within ...any) func(*acceptRun, RunCommandResult) string {
	return func(a *acceptRun, r RunCommandResult) string {
		_, _, place := a.section(kind, n, within...)
		if !strings.Contains(r.Answer, place+say(a.ru, ":", "»")) || r.Found == nil {
			return "want a move to " + place
		}
		return ""
	}
}

// people: the answer names the person the index names most.
func people(name string) func(*acceptRun, RunCommandResult) string {
	return func(a *acceptRun, r RunCommandResult) string {
		if !strings.Contains(r.Answer, name+" (") {
			return "want " + name + " among the main characters"
		}
		return ""
	}
}

// spells: the section's misspelt words are listed and nothing changed.
func spells(kind string, n int) func(*acceptRun, RunCommandResult) string {
	return func(a *acceptRun, r RunCommandResult) string {
		_, _, place := a.section(kind, n)
		rep, ok := r.Result.(SpellingReport)
		if !ok || rep.Where != place || a.file() != a.before || rep.Changed {
			return "want the misspellings of " + place + ", nothing changed"
		}
		for _, w := range rep.Words {
			for _, p := range w.Places {
				if p.Place != place {
					return "a word's place is outside " + place
				}
			}
		}
		return ""
	}
}

// sums: a summary of the section, chapter by chapter.
func sums(kind string, n int) func(*acceptRun, RunCommandResult) string {
	return func(a *acceptRun, r RunCommandResult) string {
		_, _, place := a.section(kind, n)
		if !strings.Contains(r.Answer, place) || !strings.Contains(r.Answer, say(a.ru, "chapter by chapter", "по главам")) {
			return "want the summary of " + place
		}
		return ""
	}
}

var acceptEN = []acceptRow{
	{cmd: "where is Sonya mentioned for the first time?", area: "find", want: finds("Sonya", 0)},
	{cmd: "show me where Denisov first turns up", area: "find", want: finds("Denisov", 0)},
	{cmd: "locate Anatole's first appearance", area: "find", want: finds("Anatole", 0)},
	{cmd: "find the very last mention of Sonya", area: "find", want: finds("Sonya", -1)},
	{cmd: "where does Dolokhov first appear", area: "find", want: finds("Dolokhov", 0)},
	{cmd: "next mention of Dolokhov", area: "next", want: findsNext("Dolokhov")},
	{cmd: "show me another mention of Dolokhov", area: "next", want: findsNext("Dolokhov")},
	{cmd: "how many times is Kutuzov mentioned?", area: "count", want: counts("Kutuzov")},
	{cmd: "how often does Sonya appear in part 1?", area: "count", want: counts("Sonya", "part", 1)},
	{cmd: "which chapters mention Denisov?", area: "chapters", want: listsChapters("Denisov")},
	{cmd: "in which chapters does Anatole appear?", area: "chapters", want: listsChapters("Anatole")},
	{cmd: "collect every mention of Anatole into a set called anatole", area: "collect", want: collects("Anatole")},
	{cmd: "gather all paragraphs with Bagration into bagration", area: "collect", want: collects("Bagration")},
	{cmd: `replace "Pierre" with "Peter" in chapter 4`, area: "replace", want: replaces("Pierre", "Peter", false, "chapter", 4)},
	{cmd: "undo the replacement", area: "undo", want: undoes},
	{cmd: "in the first chapter, swap Vasili for Basil", area: "replace", want: replaces("Vasili", "Basil", false, "chapter", 1)},
	{cmd: "revert that", area: "undo", want: undoes},
	{cmd: "rename Denisov to Denisoff throughout the book", area: "rename", want: replaces("Denisov", "Denisoff", true), forms: true},
	{cmd: "take that back", area: "undo", want: undoes},
	{cmd: "undo", area: "undo", wantErr: "Nothing to undo"},
	{cmd: "undo the first change", area: "undo"},
	{cmd: "go to chapter 7", area: "goto", want: goesTo("chapter", 7)},
	{cmd: "take me to the third chapter of part 2", area: "goto", want: goesTo("chapter", 3, "part", 2)},
	{cmd: "jump to chapter 12", area: "goto", want: goesTo("chapter", 12)},
	{cmd: "list the characters", area: "characters", want: people("Pierre")},
	{cmd: "who are the main characters in chapter 1?", area: "characters", want: people("Anna Pávlovna")},
	{cmd: "check the spelling in chapter 3", area: "spelling", want: spells("chapter", 3)},
	{cmd: "find typos in chapter 1", area: "spelling", want: spells("chapter", 1)},
	{cmd: "give me a summary of chapter 8", area: "summary", want: sums("chapter", 8)},
	{cmd: "what happens in part 2?", area: "summary", want: sums("part", 2)},
	{cmd: "recap the first chapter", area: "summary", want: sums("chapter", 1)},
	{cmd: "how many times does Natasha appear in chapter 11?", area: "count", want: counts("Natasha", "chapter", 11)},
}

var acceptRU = []acceptRow{
	{cmd: "где впервые упоминается Соня?", area: "find", want: finds("Соня", 0)},
	{cmd: "покажи первое появление Денисова", area: "find", want: finds("Денисов", 0)},
	{cmd: "найди самое последнее упоминание Сони", area: "find", want: finds("Соня", -1)},
	{cmd: "где впервые появляется Долохов", area: "find", want: finds("Долохов", 0)},
	{cmd: "следующее упоминание Долохова", area: "next", want: findsNext("Долохов")},
	{cmd: "а следующее упоминание Долохову?", area: "next", want: findsNext("Долохов")},
	{cmd: "сколько раз упоминается Кутузов?", area: "count", want: counts("Кутузов")},
	{cmd: "посчитай упоминания Сони в первой части", area: "count", want: counts("Соня", "part", 1)},
	{cmd: "в каких главах упоминается Денисов?", area: "chapters", want: listsChapters("Денисов")},
	{cmd: "перечисли главы, где есть Анатоль", area: "chapters", want: listsChapters("Анатоль")},
	{cmd: "собери все упоминания Анатоля в набор анатоль", area: "collect", want: collects("Анатоль")},
	{cmd: "сложи абзацы с Багратионом в набор багратион", area: "collect", want: collects("Багратион")},
	{cmd: "замени «Пьер» на «Петр» в четвертой главе", area: "replace", want: replaces("Пьер", "Петр", false, "chapter", 4)},
	{cmd: "отмени замену", area: "undo", want: undoes},
	{cmd: "поменяй «Анна Павловна» на «Аннет» в главе 1", area: "replace", want: replaces("Анна Павловна", "Аннет", false, "chapter", 1)},
	{cmd: "откати последнее изменение", area: "undo", want: undoes},
	{cmd: "переименуй Денисова в Денисофф во всей книге", area: "rename", want: replaces("Денисов", "Денисофф", true), forms: true},
	{cmd: "верни всё как было", area: "undo", want: undoes},
	{cmd: "отмени", area: "undo", wantErr: "Отменять нечего"},
	{cmd: "отмени первую правку", area: "undo"},
	{cmd: "перейди к главе 7", area: "goto", want: goesTo("chapter", 7)},
	{cmd: "открой третью главу второй части", area: "goto", want: goesTo("chapter", 3, "part", 2)},
	{cmd: "перейди к двенадцатой главе", area: "goto", want: goesTo("chapter", 12)},
	{cmd: "перечисли персонажей", area: "characters", want: people("Пьер")},
	{cmd: "какие главные герои в первой главе?", area: "characters", want: people("Анна Павловна")},
	{cmd: "проверь орфографию в третьей главе", area: "spelling", want: spells("chapter", 3)},
	{cmd: "найди опечатки в первой главе", area: "spelling", want: spells("chapter", 1)},
	{cmd: "перескажи восьмую главу", area: "summary", want: sums("chapter", 8)},
	{cmd: "что происходит во второй части?", area: "summary", want: sums("part", 2)},
	{cmd: "кратко о первой главе", area: "summary", want: sums("chapter", 1)},
	{cmd: "найди, где впервые назван Багратион", area: "find", want: finds("Багратион", 0)},
	{cmd: "сколько раз Наташа встречается в восьмой главе?", area: "count", want: counts("Наташа", "chapter", 8)},
}
