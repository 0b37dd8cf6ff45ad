package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/input"
)

const findBook = `# Роман

## Глава 1

Пьер вошёл. Все смотрели на Пьера.

— Здравствуйте, — сказала Наташа, и Пьер улыбнулся.

## Глава 2

С Пьером говорила Наташа. Наташи не было дома вечером.

Pierre's friend said nothing.
`

// TestUIFindReplaceAndPeople drives the window's find bar and People panel
// by keyboard, as a keyboard or screen-reader user does: Ctrl+F, every match
// marked and counted, next and previous (Enter, Shift+Enter, F3), the options
// (word forms), Ctrl+H, replace all after a preview — one revision that one
// Ctrl+Z takes back — Escape back to the text; then the people of the book
// with their first mention and mentions per chapter. Each step is said in the
// live region, in the window's language (a Russian window here, on a Russian
// book: its numbers plain and its plurals right, «4 упоминания в 2 главах»;
// an English window on it, TestUIWindowLanguage).
func TestUIFindReplaceAndPeople(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "book.md")
	if err := os.WriteFile(doc, []byte(findBook), 0o644); err != nil {
		t.Fatal(err)
	}
	e := startUI(t, uiBrowser(t), dir, doc, filepath.Join(dir, "w.db"))
	e.windowIn("ru", "Открыта книга book.md")
	marks := func() int {
		n, _ := strconv.Atoi(e.js(`() => String(document.querySelectorAll('.cm-find-match').length)`))
		return n
	}
	focused := func() string { return e.js(`() => document.activeElement.id || document.activeElement.className`) }
	selected := func() string {
		return e.js(`() => { const v = document.querySelector('.editor').editorView; const r = v.state.selection.main; return v.state.sliceDoc(r.from, r.to); }`)
	}

	// Ctrl+F opens the bar with the focus in it.
	e.keys(input.ControlLeft, input.KeyF)
	if id := focused(); id != "find-q" {
		t.Fatalf("Ctrl+F focused %q, not the find field", id)
	}
	e.page.MustInsertText("Пьер")
	e.waitText("[role=status]", "1 из 2 совпадений с «Пьер», Роман, Глава 1.")
	e.waitText("#find-count", "1 из 2")
	if n := marks(); n != 2 {
		t.Errorf("%d matches marked in the text, want 2", n)
	}
	if s := selected(); s != "Пьер" {
		t.Errorf("the current match selected %q", s)
	}
	// Enter and F3 go on, Shift+Enter back, round the book.
	e.keys(input.Enter)
	e.waitText("#find-count", "2 из 2")
	e.waitText("[role=status]", "2 из 2, Роман, Глава 1.")
	e.keys(input.Enter)
	e.waitText("#find-count", "1 из 2")
	e.keys(input.ShiftLeft, input.Enter)
	e.waitText("#find-count", "2 из 2")
	e.keys(input.F3)
	e.waitText("#find-count", "1 из 2")
	if id := focused(); id != "find-q" {
		t.Errorf("stepping took the focus to %q", id)
	}

	// Word forms: Tab to the option, Space ticks it; «Пьера», «Пьером» count too.
	if !e.tabTo("Формы слова") {
		t.Fatal("Tab never reached the Word forms option")
	}
	e.keys(input.Space)
	e.waitText("#find-count", "из 4")
	e.waitText("[role=status]", "из 4 совпадений с «Пьер»")
	if n := marks(); n != 4 {
		t.Errorf("%d matches marked with word forms, want 4", n)
	}

	// Ctrl+H: replace, all of them after a preview.
	e.keys(input.ControlLeft, input.KeyH)
	if id := focused(); id != "find-with" {
		t.Fatalf("Ctrl+H focused %q, not the replace field", id)
	}
	e.page.MustInsertText("Петр")
	e.keys(input.ControlLeft, input.Enter)
	e.waitText("#find-preview-title", "Заменить всё: 4 вхождения «Пьер» в 3 абзацах станут «Петр»")
	if id := focused(); id != "find-preview-title" {
		t.Errorf("the preview did not take the focus (%q): a screen reader would not hear it", id)
	}
	before, _ := os.ReadFile(doc)
	if string(before) != findBook {
		t.Fatal("the preview changed the book")
	}
	if !e.tabTo("Заменить все 4") {
		t.Fatal("Tab never reached Replace all 4")
	}
	e.keys(input.Enter)
	e.waitText("[role=status]", "Заменил 4 раза в 3 абзацах. Одно нажатие Ctrl+Z вернёт всё.")
	after := e.fileHas("С Петром говорила", true)
	for _, want := range []string{"Петр вошёл. Все смотрели на Петра.", "и Петр улыбнулся"} {
		if !strings.Contains(after, want) {
			t.Errorf("the book lacks %q:\n%s", want, after)
		}
	}
	if strings.Contains(e.editorText(), "Пьер") {
		t.Errorf("the editor still shows «Пьер»")
	}
	e.waitText("#find-count", "Нет совпадений")
	// One Ctrl+Z (from the text) takes the four back.
	e.keys(input.Escape)
	if c := focused(); !strings.Contains(c, "cm-content") {
		t.Errorf("Escape took the focus to %q, not the text", c)
	}
	if n := marks(); n != 0 {
		t.Errorf("%d marks left after closing the bar", n)
	}
	e.keys(input.ControlLeft, input.KeyZ)
	e.fileHas("Пьер вошёл. Все смотрели на Пьера.", true)
	if b, _ := os.ReadFile(doc); string(b) != findBook {
		t.Errorf("one Ctrl+Z did not give the book back:\n%s", b)
	}
	// The undo is announced once the editor has the text back; on a loaded
	// machine that came after the people's answer below and replaced it.
	e.waitText("[role=status]", "Отменено: Замена «Пьер вошёл. Все смотрели на Пьера.» на «Петр вошёл. Все смотрели на Петра.» — Роман, Глава 1, и ещё в 2 местах.")

	// The History panel says each revision in words, in the window's
	// language: no tool name (ReplaceAll), no item label, no "undid".
	e.click("История")
	hist := e.waitText("#ms-panel-history", "Отменено: Замена «Пьер вошёл. Все смотрели на Пьера.» на «Петр вошёл. Все смотрели на Петра.» — Роман, Глава 1, и ещё в 2 местах")
	for _, bad := range []string{"ReplaceAll", "undid", "Replace all"} {
		if strings.Contains(hist, bad) {
			t.Errorf("the History panel says %q: %s", bad, hist)
		}
	}

	// The people of the book.
	e.click("Персонажи")
	e.click("Найти персонажей")
	list := e.waitText("#ms-panel-people", "Пьер — 4")
	if !strings.Contains(list, "Наташа — 3") {
		t.Errorf("Наташа (Наташа, Наташи) is not one person with 3 mentions: %s", list)
	}
	e.waitText("[role=status]", "2 персонажа; чаще всех названы: Пьер (4), Наташа (3).")
	e.click("Пьер — 4")
	if id := focused(); id != "people-detail" {
		t.Errorf("choosing a person took the focus to %q", id)
	}
	detail := e.waitText("#ms-panel-people", "Пьер: 4 упоминания в 2 главах")
	for _, want := range []string{"Впервые — Роман, Глава 1:", "Роман, Глава 1: 3", "Роман, Глава 2: 1", "Другие формы: Пьера, Пьером"} {
		if !strings.Contains(detail, want) {
			t.Errorf("the person's detail lacks %q: %s", want, detail)
		}
	}
	e.click("Следующее упоминание")
	e.waitText("[role=status]", "Пьер: упоминание 1 из 3 абзацев. Роман, Глава 1, строка 3.")
	e.click("Следующее упоминание")
	e.waitText("[role=status]", "Пьер: упоминание 2 из 3 абзацев.")
	line := e.js(`() => { const v = document.querySelector('.editor').editorView; return v.state.doc.lineAt(v.state.selection.main.head).text; }`)
	if !strings.HasPrefix(line, "— Здравствуйте") {
		t.Errorf("the second mention put the cursor on %q", line)
	}
	e.click("Роман, Глава 2: 1")
	e.waitText("[role=status]", "упоминание 3 из 3")

	// The bar and the panel pass axe-core.
	e.keys(input.ControlLeft, input.KeyH)
	e.axeCounts("find bar and people")
}

// tabTo presses Tab until the focused element is the control labelled label
// (its text, or its label's text), at most 30 times.
func (e *uiEnv) tabTo(label string) bool {
	for i := 0; i < 30; i++ {
		e.keys(input.Tab)
		time.Sleep(40 * time.Millisecond)
		name := e.js(`() => { const el = document.activeElement; return ((el.labels && el.labels[0] ? el.labels[0].textContent : el.textContent) || '').replace(/\s+/g, ' ').trim(); }`)
		if name == label || strings.HasPrefix(name, label) {
			return true
		}
	}
	return false
}
