package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/input"

	"github.com/waymark/waymark/app/sample"
)

// noticeLog records what the window said through its native notice (the
// Notice hook of desktop.Config: in the window, the GTK notification Orca 43
// speaks; here, a list the test reads).
type noticeLog struct {
	mu   sync.Mutex
	said []string
}

func (n *noticeLog) add(text string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.said = append(n.said, text)
}

// since is what was said after the first k utterances.
func (n *noticeLog) since(k int) []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.said[min(k, len(n.said)):]...)
}

func (n *noticeLog) count() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.said)
}

// hear runs do, waits until what is said matches want (10 s), then a moment
// more (an utterance said twice would come within it), and returns what was
// said meanwhile.
func (e *uiEnv) hear(do func(), want string) []string {
	e.t.Helper()
	mark := e.said.count()
	do()
	re := regexp.MustCompile(want)
	for i := 0; i < 100; i++ {
		for _, s := range e.said.since(mark) {
			if re.MatchString(s) {
				time.Sleep(600 * time.Millisecond)
				return e.said.since(mark)
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	e.t.Fatalf("the window never said /%s/; it said %q", want, e.said.since(mark))
	return nil
}

// once checks that exactly one utterance matches want.
func once(t *testing.T, what string, said []string, want string) string {
	t.Helper()
	re := regexp.MustCompile(want)
	var hits []string
	for _, s := range said {
		if re.MatchString(s) {
			hits = append(hits, s)
		}
	}
	if len(hits) != 1 {
		t.Errorf("%s: /%s/ said %d times: %q", what, want, len(hits), said)
		return ""
	}
	return hits[0]
}

// toolWords are what an author must never hear: tool names, item labels, a
// double full stop.
var toolWords = regexp.MustCompile(`ReplaceText|InsertText|RunCursorAgent|\bH\d\.p\d+|[^.]\.\.(?:\s|$)`)

// TestUIScreenReaderWords: what the window says (through the native notice a
// screen reader speaks) after each action an author does: every result, once,
// in one utterance per action; where the cursor landed after a jump; the edit
// to review in words, also on its Accept and Undo buttons; no tool names.
func TestUIScreenReaderWords(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "manuscript.md")
	if err := os.WriteFile(doc, sample.Manuscript, 0o644); err != nil {
		t.Fatal(err)
	}
	b := uiBrowser(t)
	e := startUI(t, b, dir, doc, filepath.Join(dir, "ui.db"))
	time.Sleep(500 * time.Millisecond)

	t.Run("opening a book is said once", func(t *testing.T) {
		e.t = t
		// The book and the place the cursor is at.
		once(t, "opening", e.said.since(0), `^Opened manuscript\.md, [\d.]+ KB: [\d,]+ words, \d+ headings\. The Lighthouse Keeper's Ledger, line 1\.$`)
	})

	t.Run("the word counts in sentences, each time", func(t *testing.T) {
		e.t = t
		for i := 0; i < 2; i++ {
			said := e.hear(func() { e.keys(input.ControlLeft, input.ShiftLeft, input.KeyW) }, `^Book `)
			c := once(t, "Ctrl+Shift+W", said, `^Book [\d,]+ words\. .+\. Selection [\d,]+ words\. Today [+-]?[\d,]+ words\.$`)
			if strings.ContainsAny(c, "·:") {
				t.Errorf("the counts are said with symbols a screen reader names: %q", c)
			}
		}
	})

	t.Run("Enter on an outline entry says where the cursor landed", func(t *testing.T) {
		e.t = t
		said := e.hear(func() { e.click("Chapter Three: The Light") }, `line \d+\.$`)
		once(t, "outline", said, `^The Lighthouse Keeper's Ledger, Chapter Three: The Light, line 1\.$`)
		if sel := e.js(`() => document.querySelectorAll('[role=treeitem][aria-selected=true]').length`); sel != "0" {
			t.Errorf("%s outline entries are selected while the focus is in the text", sel)
		}
	})

	t.Run("a command's answer, the edit in words, Accept", func(t *testing.T) {
		e.t = t
		e.keys(input.ControlLeft, input.ShiftLeft, input.KeyK)
		e.fill("command", `replace "tin of matches" with "box of matches"`)
		said := e.hear(func() { e.keys(input.Enter) }, `^Replaced`)
		a := once(t, "the answer", said, `^Replaced "tin of matches" with "box of matches"[: ].*To review: Replace «…the tin of…» with «…the box of…» in The Lighthouse Keeper's Ledger, Chapter One: The Ledger\. Tab to Accept or Undo\.$`)
		for _, s := range said {
			if toolWords.MatchString(s) {
				t.Errorf("said %q (answer %q)", s, a)
			}
		}
		// A command that answers at once is not announced as running first.
		if len(said) > 0 && strings.HasPrefix(said[0], "Running:") && e.said.count() > 0 {
			t.Logf("said while running: %q", said[0])
		}
		name := e.js(`() => document.querySelector('.edits button').getAttribute('aria-label')`)
		if !strings.HasPrefix(name, "Accept: Replace «…the tin of…» with «…the box of…» in ") {
			t.Errorf("the Accept button is named %q", name)
		}
		if sel := e.js(`() => document.querySelectorAll('[role=treeitem][aria-selected=true]').length`); sel != "0" {
			t.Errorf("an outline entry got selected while the focus is in the command field (Orca: \"Outline tree, …\")")
		}
		said = e.hear(func() { e.click("Accept") }, `^Kept`)
		k := once(t, "Accept", said, `^Kept: Replace «…the tin of…» with «…the box of…» in .*Chapter One: The Ledger\.$`)
		if toolWords.MatchString(k) {
			t.Errorf("Kept says %q", k)
		}
	})

	t.Run("an unknown command is refused in one line, said once", func(t *testing.T) {
		e.t = t
		e.fill("command", "frobnicate the moon")
		said := e.hear(func() { e.keys(input.Enter) }, `does not understand`)
		// The nearest command is made of the book's own words (a name in it), in one line.
		msg := once(t, "refusal", said, `The built-in engine does not understand "frobnicate the moon"\. The nearest command: find the first mention of "[^"]+"\.`)
		if len(msg) > 400 || strings.Contains(msg, "\n") {
			t.Errorf("the refusal is %d characters: %q", len(msg), msg)
		}
	})

	t.Run("workspaces: the control, or the place in the text", func(t *testing.T) {
		e.t = t
		said := e.hear(func() { e.keys(input.AltLeft, input.Digit3) }, `^Settings workspace\.`)
		once(t, "Alt+3", said, `^Settings workspace\. Server address\.$`)
		if id := e.js(`() => document.activeElement.id`); id != "model-url" {
			t.Errorf("Alt+3 put the focus on %q, not on the first control (a heading is silent in Orca 43)", id)
		}
		e.keys(input.ControlLeft, input.ShiftLeft, input.KeyE)
		time.Sleep(300 * time.Millisecond)
		said = e.hear(func() { e.keys(input.AltLeft, input.Digit1) }, `^Manuscript workspace\.`)
		once(t, "Alt+1", said, `^Manuscript workspace\. The Lighthouse Keeper's Ledger, Chapter Three: The Light, line 1\.$`)
	})
}

const speechBookRU = `# Роман

## Глава 1

Пьер вошёл. Все смотрели на него.

— Здравствуйте, — сказала Наташа, и Пьер улыбнулся.

## Глава 2

Пьер говорил с Наташей. Наташа слушала.

Вечером Пьер уехал.
`

// englishChrome is what a Russian command's or book's sentences must not say:
// the window's English sentences around them.
var englishChrome = regexp.MustCompile(`Running:|To review|Tab to|Kept:|Undone:|ended without|matches? for|occurrences?|paragraphs?\b|\bmore\b|Nothing was|\bline \d`)

// TestUIScreenReaderWordsRussian: on a Russian book in a Russian window, what
// the window says about a Russian command is wholly Russian (the answer, the
// edit to review in words, the buttons it names, Accept and Undo and their
// results, an unknown command), with the Russian plural forms; a command in
// English on the same book is answered in English, naming the buttons in
// English; a search and the place the cursor lands on are said in the
// window's language (an English window on a Russian book: TestUIWindowLanguage).
func TestUIScreenReaderWordsRussian(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "роман.md")
	if err := os.WriteFile(doc, []byte(speechBookRU), 0o644); err != nil {
		t.Fatal(err)
	}
	b := uiBrowser(t)
	e := startUI(t, b, dir, doc, filepath.Join(dir, "ui.db"))
	e.windowIn("ru", "Открыта книга роман.md")
	time.Sleep(500 * time.Millisecond)
	russianOnly := func(t *testing.T, said []string) {
		t.Helper()
		for _, s := range said {
			if englishChrome.MatchString(s) || toolWords.MatchString(s) {
				t.Errorf("said %q", s)
			}
		}
	}

	t.Run("a search is said in the window's language", func(t *testing.T) {
		e.t = t
		e.keys(input.ControlLeft, input.ShiftLeft, input.KeyF)
		e.fill("q", "Наташа")
		said := e.hear(func() { e.keys(input.Enter) }, `Наташа`)
		once(t, "search", said, `^\d+ совпадени(е|я|й) с «Наташа»\.$`)
		russianOnly(t, said)
	})

	t.Run("Enter on an outline entry says the place in the window's language", func(t *testing.T) {
		e.t = t
		said := e.hear(func() { e.click("Глава 2") }, `строка \d+\.$`)
		once(t, "outline", said, `^Роман, Глава 2, строка 1\.$`)
		russianOnly(t, said)
	})

	t.Run("a Russian command's answer, the edit in words, Accept", func(t *testing.T) {
		e.t = t
		e.keys(input.ControlLeft, input.ShiftLeft, input.KeyK)
		e.fill("command", "замени «Пьер» на «Петр»")
		said := e.hear(func() { e.keys(input.Enter) }, `^Заменил`)
		once(t, "the answer", said, `^Заменил «Пьер» на «Петр»: 4 раза .*Одна отмена вернёт всё\. На проверку: Замена «Пьер вошёл\.…» на «Петр вошёл\.…» — Роман, Глава 1, и ещё 3 абзаца\. Tab — к кнопкам Принять и Отменить\.$`)
		russianOnly(t, said)
		// The buttons are the window's own (Принять); what they say of the edit is Russian.
		if name := e.js(`() => document.querySelector('.edits button').getAttribute('aria-label')`); name != "Принять: Замена «Пьер вошёл.…» на «Петр вошёл.…» — Роман, Глава 1, и ещё 3 абзаца" {
			t.Errorf("the Accept button is named %q", name)
		}
		if shown := e.js(`() => document.querySelector('.edits strong').textContent`); !strings.HasPrefix(shown, "Замена «Пьер вошёл.…»") {
			t.Errorf("the edit is shown as %q", shown)
		}
		// The transcript names the step in the book's words, all of it.
		if steps := e.js(`() => document.querySelector('#ms-panel-command .transcript').textContent`); !strings.Contains(steps, "Замена по всей книге: запрошено (подробности)") ||
			!strings.Contains(steps, "Замена по всей книге: готово (подробности)") || strings.Contains(steps, "asked") || strings.Contains(steps, "done") {
			t.Errorf("the transcript says %q", steps)
		}
		said = e.hear(func() { e.click("Принять") }, `^Оставлено`)
		once(t, "Accept", said, `^Оставлено: Замена «Пьер вошёл\.…» на «Петр вошёл\.…» — Роман, Глава 1, и ещё 3 абзаца\.$`)
		russianOnly(t, said)
	})

	t.Run("a Russian command's edit undone", func(t *testing.T) {
		e.t = t
		e.fill("command", "замени «Наташа» на «Наталья»")
		said := e.hear(func() { e.keys(input.Enter) }, `^Заменил`)
		once(t, "the answer", said, `^Заменил «Наташа» на «Наталья»: 2 раза .*На проверку: Замена «…сказала Наташа, и…» на «…сказала Наталья, и…» — Роман, Глава 1, и ещё 1 абзац\. Tab — к кнопкам Принять и Отменить\.$`)
		said = e.hear(func() { e.click("Отменить правку") }, `^Отменено`)
		once(t, "Undo", said, `^Отменено: Замена «…сказала Наташа, и…» на «…сказала Наталья, и…» — Роман, Глава 1, и ещё 1 абзац\.$`)
		russianOnly(t, said)
	})

	t.Run("an unknown Russian command is refused in Russian", func(t *testing.T) {
		e.t = t
		e.fill("command", "фывапролд")
		said := e.hear(func() { e.keys(input.Enter) }, `фывапролд`)
		once(t, "refusal", said, `^Команда не выполнена: фывапролд\.? Встроенный помощник не понимает команду «фывапролд»`)
		russianOnly(t, said)
	})

	t.Run("an English command on the Russian book is answered in English", func(t *testing.T) {
		e.t = t
		e.fill("command", `replace "Петр" with "Пьер"`)
		said := e.hear(func() { e.keys(input.Enter) }, `^Replaced`)
		once(t, "the answer", said, `^Replaced "Петр" with "Пьер": 4 occurrences in \d+ paragraphs? .*To review: Replace «Петр вошёл\.…» with «Пьер вошёл\.…» in Роман, Глава 1, and 3 more paragraphs\. Tab to Accept or Undo\.$`)
		said = e.hear(func() { e.click("Отменить правку") }, `^Undone`)
		once(t, "Undo", said, `^Undone: Replace «Петр вошёл\.…» with «Пьер вошёл\.…» in Роман, Глава 1, and 3 more paragraphs\.$`)
	})
}
