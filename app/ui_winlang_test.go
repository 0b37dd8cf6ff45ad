package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/go-rod/rod/lib/input"
)

// russianWords are what an English window's own lines must not say: Russian
// sentences around the book's words (the find bar's, the preview's, the
// people's, History's, an undo's).
var russianWords = regexp.MustCompile(`совпадени|вхождени|Заменить|Заменил|абзац|персонаж|упоминани|Отменено|Замена|Правка|Впервые|строка|Tab —`)

// windowWords are what one window says by itself about a Russian book, in
// its language (issue 35 point 6): the find bar's count, the Replace-all
// preview with the buttons it names, the undo, the History entry, the people.
type windowWords struct {
	lang, opened, find, count, preview, replaceAll, replaced, undone, history, restored, people, peopleTab, findPeople, person, detail string
	// The file gone: the notice, its button, what writing the book back says.
	gone, writeBack, writtenBack string
	// foreign is what the window's own lines must not say (the other language).
	foreign *regexp.Regexp
}

var windowLanguages = []windowWords{
	{
		lang: "en", opened: "Opened book.md",
		find: `^[12] of 2 matches for “Пьер”, Роман, Глава 1\.$`, count: " of 2",
		preview:    `^Replace all: 2 occurrences of “Пьер” in 2 paragraphs would become “Петр”\. Tab to Replace all or Cancel\.$`,
		replaceAll: "Replace all 2", replaced: `Replaced 2 occurrences in 2 paragraphs\. One Ctrl\+Z takes them all back\.$`,
		undone:   `Undone: Replace «Пьер вошёл\.…» with «Петр вошёл\.…» in Роман, Глава 1, and in 1 more place\.$`,
		history:  "Undone: Replace «Пьер вошёл.…» with «Петр вошёл.…» in Роман, Глава 1, and in 1 more place",
		restored: `^Restored: the text is as it was at revision \d+ \(now revision \d+\)\.$`,
		people:   `2 people; the most named: Пьер \(4\), Наташа \(3\)\.$`, peopleTab: "People", findPeople: "Find the people",
		person: "Пьер — 4", detail: `^Пьер: 4 mentions in 2 chapters\. First mentioned in Роман, Глава 1\.$`,
		gone: "The file is gone from disk", writeBack: "Write my version to the file", writtenBack: `Your version was written back to the file\.`,
		foreign: russianWords,
	},
	{
		lang: "ru", opened: "Открыта книга book.md",
		find: `^[12] из 2 совпадений с «Пьер», Роман, Глава 1\.$`, count: " из 2",
		preview:    `^Заменить всё: 2 вхождения «Пьер» в 2 абзацах станут «Петр»\. Tab — к кнопкам Заменить все и Отмена\.$`,
		replaceAll: "Заменить все 2", replaced: `Заменил 2 раза в 2 абзацах\. Одно нажатие Ctrl\+Z вернёт всё\.$`,
		undone:   `Отменено: Замена «Пьер вошёл\.…» на «Петр вошёл\.…» — Роман, Глава 1, и ещё в 1 месте\.$`,
		history:  "Отменено: Замена «Пьер вошёл.…» на «Петр вошёл.…» — Роман, Глава 1, и ещё в 1 месте",
		restored: `^Восстановлено: текст такой, каким был в правке \d+ \(теперь правка \d+\)\.$`,
		people:   `2 персонажа; чаще всех названы: Пьер \(4\), Наташа \(3\)\.$`, peopleTab: "Персонажи", findPeople: "Найти персонажей",
		person: "Пьер — 4", detail: `^Пьер: 4 упоминания в 2 главах\. Впервые — Роман, Глава 1\.$`,
		gone: "Файла больше нет на диске", writeBack: "Записать мою версию в файл", writtenBack: `Ваша версия снова записана в файл\.`,
		foreign: englishChrome,
	},
}

// TestUIWindowLanguage: a Russian book in an English window and in a Russian
// one. Every line the window says by itself — the find bar's count, the
// Replace-all preview and the buttons it names, the result, Ctrl+Z, History,
// the People panel — is in the window's language, never the book's; a
// command typed in Russian is answered in Russian, and one in English in
// English, in either window, each naming the buttons in its own language
// (issue 35 point 6).
func TestUIWindowLanguage(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "book.md")
	if err := os.WriteFile(doc, []byte(findBook), 0o644); err != nil {
		t.Fatal(err)
	}
	e := startUI(t, uiBrowser(t), dir, doc, filepath.Join(dir, "w.db"))
	for _, w := range windowLanguages {
		e.windowIn(w.lang, w.opened)
		t.Run(w.lang, func(t *testing.T) {
			e.t = t
			e.sayInWindowLanguage(w)
			e.answerInCommandLanguage()
		})
		e.t = t
	}
}

// sayInWindowLanguage finds, previews and replaces «Пьер», undoes it, reads
// History and finds the people, checking each utterance against w.
func (e *uiEnv) sayInWindowLanguage(w windowWords) {
	t := e.t
	own := func(what string, said []string, want string) {
		t.Helper()
		got := once(t, what, said, want)
		if w.foreign.MatchString(got) || toolWords.MatchString(got) {
			t.Errorf("%s in a %s window: %q", what, w.lang, got)
		}
	}
	e.keys(input.Escape)
	said := e.hear(func() {
		e.keys(input.ControlLeft, input.KeyF)
		e.page.MustInsertText("Пьер")
	}, w.find)
	own("the find bar", said, w.find)
	e.waitText("#find-count", w.count)
	e.keys(input.ControlLeft, input.KeyH)
	e.page.MustInsertText("Петр")
	said = e.hear(func() { e.keys(input.ControlLeft, input.Enter) }, w.preview)
	own("the Replace-all preview", said, w.preview)
	if !e.tabTo(w.replaceAll) {
		t.Fatalf("Tab never reached %q", w.replaceAll)
	}
	said = e.hear(func() { e.keys(input.Enter) }, w.replaced)
	own("Replace all", said, w.replaced)
	e.fileHas("Петр вошёл", true)
	e.keys(input.Escape)
	said = e.hear(func() { e.keys(input.ControlLeft, input.KeyZ) }, w.undone)
	own("Ctrl+Z", said, w.undone)
	e.fileHas("Пьер вошёл", true)
	e.click(map[string]string{"en": "History", "ru": "История"}[w.lang])
	if hist := e.waitText("#ms-panel-history", w.history); w.foreign.MatchString(hist) {
		t.Errorf("the History panel in a %s window: %s", w.lang, hist)
	}
	// Restoring the revision before the replace (the text it has again after the undo).
	said = e.hear(func() {
		e.js(`() => { document.querySelectorAll('#ms-panel-history li button')[1].click(); return ''; }`)
	}, w.restored)
	own("a restore", said, w.restored)
	e.click(w.peopleTab)
	said = e.hear(func() { e.click(w.findPeople) }, w.people)
	own("the People panel", said, w.people)
	said = e.hear(func() { e.click(w.person) }, w.detail)
	own("a person", said, w.detail)
	// The book's file gone: the notice and its outcome (the tool's summary
	// is English) in the window's words.
	if err := os.Remove(e.doc); err != nil {
		t.Fatal(err)
	}
	e.waitText(".attention", w.gone)
	said = e.hear(func() { e.click(w.writeBack) }, w.writtenBack)
	own("writing the book back", said, w.writtenBack)
	e.fileHas("Пьер вошёл", true)
}

// answerInCommandLanguage types a Russian and an English command: each is
// answered in its own language, the buttons named in it too.
func (e *uiEnv) answerInCommandLanguage() {
	t := e.t
	e.keys(input.ControlLeft, input.ShiftLeft, input.KeyK)
	e.fill("command", "замени «Наташа» на «Наталья»")
	ru := `Заменил «Наташа» на «Наталья»: .* На проверку: .* Tab — к кнопкам Принять и Отменить\.$`
	said := e.hear(func() { e.keys(input.Enter) }, ru)
	if got := once(t, "a Russian command", said, ru); englishChrome.MatchString(got) {
		t.Errorf("a Russian command's answer: %q", got)
	}
	// Its lines in the transcript are in its language too, in either window.
	tr := e.js(`() => document.querySelector('#ms-panel-command .transcript').textContent`)
	if k := strings.LastIndex(tr, "Вы: замени «Наташа» на «Наталья»"); k < 0 || !strings.Contains(tr[k:], "Замена по всей книге: готово (подробности)") ||
		strings.Contains(tr[k:], "Replacing throughout") || strings.Contains(tr, "You: замени") {
		t.Errorf("the Russian command's transcript: %s", tr)
	}
	e.click(map[bool]string{true: "Accept", false: "Принять"}[e.app.Language().Lang == "en"])
	e.fill("command", `replace "Наталья" with "Наташа"`)
	en := `Replaced "Наталья" with "Наташа": .*To review: .* Tab to Accept or Undo\.$`
	said = e.hear(func() { e.keys(input.Enter) }, en)
	if got := once(t, "an English command", said, en); regexp.MustCompile(`Tab —|Принять|Отменить`).MatchString(got) {
		t.Errorf("an English command's answer: %q", got)
	}
}
