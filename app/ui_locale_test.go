package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// chromeJS reads the window's chrome: the names a screen reader gives its
// landmarks and controls, and the words on its buttons and panels.
const chromeJS = `() => {
	const q = (s) => document.querySelector(s);
	const text = (s) => (q(s)?.textContent ?? '').replace(/\s+/g, ' ').trim();
	const label = (s) => q(s)?.getAttribute('aria-label') ?? '';
	return JSON.stringify({
		lang: document.documentElement.lang,
		nav: label('header nav'),
		stop: text('header .stop'),
		toolbar: label('.ms .toolbar'),
		save: label('.ms .toolbar .save'),
		saveState: text('.ms .toolbar .save'),
		text: q('.cm-content')?.getAttribute('aria-label') ?? '',
		tools: label('aside.side'),
		tabs: [...document.querySelectorAll('[id^=ms-tab-]')].map((b) => b.textContent.trim()).join('|'),
		history: text('#ms-panel-history h3'),
		command: q('#command')?.getAttribute('placeholder') ?? '',
		workspaces: [...document.querySelectorAll('header nav button')].map((b) => b.textContent.trim()).join('|'),
	});
}`

// TestUILocale: the window's chrome (buttons, panels, labels, the names Orca
// reads) follows the language: English by default here (LANG=C.UTF-8),
// Russian when Settings says so or when the system's locale is Russian and
// Settings says Automatic, switched at once when saved in Settings; the
// History panel's revisions are in the same language (issue 35 point 6).
func TestUILocale(t *testing.T) {
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	t.Setenv("LANG", "C.UTF-8")
	dir := t.TempDir()
	doc := filepath.Join(dir, "book.md")
	if err := os.WriteFile(doc, []byte("# A Book\n\n## One\n\nIt was a quiet evening.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := startUI(t, uiBrowser(t), dir, doc, filepath.Join(dir, "w.db"))
	english := map[string]string{
		"lang": "en", "nav": "Workspaces", "stop": "Stop", "toolbar": "Manuscript actions", "save": "Save state", "saveState": "Saved",
		"text": "Manuscript text", "tools": "Tools", "tabs": "Command|Search|Sets|Read|History|People", "history": "Revision history",
		"command": `find the first mention of "Zvezdochkin"`, "workspaces": "Manuscript|Browser|Settings",
	}
	russian := map[string]string{
		"lang": "ru", "nav": "Рабочие области", "stop": "Стоп", "toolbar": "Действия с рукописью", "save": "Сохранение", "saveState": "Сохранено",
		"text": "Текст рукописи", "tools": "Инструменты", "tabs": "Команда|Поиск|Наборы|Чтение|История|Персонажи", "history": "История правок",
		"command": "найди первое упоминание «Звездочкин»", "workspaces": "Рукопись|Браузер|Настройки",
	}
	e.chromeIs(english)
	e.click("History")
	e.waitText("#ms-panel-history li", "Revision 1: ")
	e.waitText("#ms-panel-history li", " (current)")

	// Russian chosen in Settings: the window opens in it.
	s, err := e.app.Settings()
	if err != nil {
		t.Fatal(err)
	}
	s.Language = "ru"
	if _, err := e.app.SaveSettings(s); err != nil {
		t.Fatal(err)
	}
	e.reload("Открыта книга book.md")
	e.chromeIs(russian)
	e.click("История")
	e.waitText("#ms-panel-history li", "Правка 1: ")
	e.waitText("#ms-panel-history li", " (текущая)")
	if got := e.js(`() => [...document.querySelectorAll('#ms-panel-history button')].map((b) => b.getAttribute('aria-label') || b.textContent.trim()).join('|')`); !strings.Contains(got, "Обновить") {
		t.Errorf("the History panel's buttons in a Russian window: %s", got)
	}

	// Back to English in the Settings workspace: applied when saved, no reload.
	e.click("Настройки")
	e.waitText("#st-title", "Настройки")
	e.js(`() => { const s = document.querySelector('#language'); s.value = 'en'; s.dispatchEvent(new Event('change', { bubbles: true })); return ''; }`)
	e.click("Сохранить настройки")
	e.waitText("[role=status]", "Settings saved.")
	e.chromeIs(english)

	// Automatic follows the system's locale.
	t.Setenv("LANG", "ru_RU.UTF-8")
	s.Language = ""
	if _, err := e.app.SaveSettings(s); err != nil {
		t.Fatal(err)
	}
	e.reload("Открыта книга book.md")
	e.chromeIs(russian)
	e.click("Настройки")
	e.waitText(`#language option[value=""]`, "Автоматически (Русский)")
}

// TestUIMessagesBothLanguages: every key of the window's catalogue has its
// English and its Russian, of the same kind (text or a function of values),
// and the Russian is not the English left untranslated.
func TestUIMessagesBothLanguages(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "book.md")
	if err := os.WriteFile(doc, []byte("# A Book\n\nText.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := startUI(t, uiBrowser(t), dir, doc, filepath.Join(dir, "w.db"))
	// Names, formats and key names read the same in both.
	same := []string{"exDocx"}
	got := e.js(`(same) => {
		const { en, ru } = window.waymarkMessages;
		const bad = [];
		const keys = new Set([...Object.keys(en), ...Object.keys(ru)]);
		for (const k of keys) {
			const a = en[k], b = ru[k];
			const said = (v) => (typeof v === 'function' ? v(1, 'x', 'y', 'z', 'w') : v);
			if (a === undefined || b === undefined) bad.push(k + ': missing in ' + (a === undefined ? 'en' : 'ru'));
			else if (typeof a !== typeof b) bad.push(k + ': ' + typeof a + ' in en, ' + typeof b + ' in ru');
			else if (!String(said(a)).trim() || !String(said(b)).trim()) bad.push(k + ': empty');
			else if (said(a) === said(b) && !same.includes(k)) bad.push(k + ': the Russian is the English');
		}
		return JSON.stringify({ n: keys.size, bad });
	}`, same)
	if !strings.Contains(got, `"bad":[]`) {
		t.Fatalf("the catalogue: %s", got)
	}
	t.Logf("the catalogue: %s", got)
}

// chromeIs waits until the chrome reads want (10 s).
func (e *uiEnv) chromeIs(want map[string]string) {
	e.t.Helper()
	var got map[string]string
	for i := 0; i < 100; i++ {
		got = map[string]string{}
		if err := json.Unmarshal([]byte(e.js(chromeJS)), &got); err != nil {
			e.t.Fatal(err)
		}
		ok := true
		for k, v := range want {
			if got[k] != v {
				ok = false
			}
		}
		if ok {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	for k, v := range want {
		if got[k] != v {
			e.t.Errorf("%s: %q, want %q", k, got[k], v)
		}
	}
}

// windowIn sets the window's language in Settings (en, ru; "" automatic)
// and opens the window again in it, waiting for its first line.
func (e *uiEnv) windowIn(lang, opened string) {
	e.t.Helper()
	s, err := e.app.Settings()
	if err != nil {
		e.t.Fatal(err)
	}
	s.Language = lang
	if _, err := e.app.SaveSettings(s); err != nil {
		e.t.Fatal(err)
	}
	e.reload(opened)
}

// reload opens the window again and waits for its first line.
func (e *uiEnv) reload(opened string) {
	e.t.Helper()
	if err := e.page.Navigate(e.srv.URL); err != nil {
		e.t.Fatal(err)
	}
	e.waitText("[role=status]", opened)
}
