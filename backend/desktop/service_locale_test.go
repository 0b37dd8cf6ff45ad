package desktop

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSystemLanguage: the window's language by default is the locale's, as
// gettext reads it (LC_ALL over LC_MESSAGES over LANG).
func TestSystemLanguage(t *testing.T) {
	for _, c := range []struct{ all, messages, lang, want string }{
		{"", "", "ru_RU.UTF-8", "ru"},
		{"", "", "en_GB.UTF-8", "en"},
		{"", "", "C.UTF-8", "en"},
		{"", "", "", "en"},
		{"", "ru_RU.UTF-8", "en_US.UTF-8", "ru"},
		{"", "en_US.UTF-8", "ru_RU.UTF-8", "en"},
		{"ru_UA.UTF-8", "en_US.UTF-8", "en_US.UTF-8", "ru"},
		{"C", "ru_RU.UTF-8", "ru_RU.UTF-8", "en"},
	} {
		t.Setenv("LC_ALL", c.all)
		t.Setenv("LC_MESSAGES", c.messages)
		t.Setenv("LANG", c.lang)
		if got := systemLanguage(); got != c.want {
			t.Errorf("LC_ALL=%q LC_MESSAGES=%q LANG=%q: %q, want %q", c.all, c.messages, c.lang, got, c.want)
		}
	}
}

// TestWindowLanguage: the language chosen in Settings wins over the system's,
// is remembered, and the notices the window shows (what another program
// changed, the file gone, Stop) follow it whatever the book's language;
// settings refused (a language the window has not) are said in it too.
func TestWindowLanguage(t *testing.T) {
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	t.Setenv("LANG", "ru_RU.UTF-8")
	a, doc := desktopApp(t, "# Title\n\nOne.\n\nTwo.\n")
	if _, err := a.Manuscript(); err != nil {
		t.Fatal(err)
	}
	if got := a.Language(); got.Lang != "ru" || got.System != "ru" {
		t.Fatalf("automatic under LANG=ru_RU.UTF-8: %+v", got)
	}
	// An English book, a Russian window: the notice is the window's.
	if err := os.WriteFile(doc, []byte("# Title\n\nOne, changed.\n\nTwo.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if s, _ := a.CheckDisk(); s.Note != "Другая программа изменила «Title»; ваш текст сохранён." {
		t.Fatalf("the notice in a Russian window: %q", s.Note)
	}
	if said, _ := a.Stop(); said != "Ничего не выполняется." {
		t.Fatalf("Stop in a Russian window: %q", said)
	}
	s, err := a.Settings()
	if err != nil {
		t.Fatal(err)
	}
	s.Language = "en"
	if _, err := a.SaveSettings(s); err != nil {
		t.Fatal(err)
	}
	if got := a.Language(); got.Lang != "en" || got.System != "ru" {
		t.Fatalf("English chosen: %+v", got)
	}
	bad := s
	bad.FontSize = 99
	if _, err := a.SaveSettings(bad); err == nil || err.Error() != "settings not saved: font size 99: from 10 to 40 pixels" {
		t.Fatalf("a font size refused, in an English window: %v", err)
	}
	if again := a.loadSettings(a.context()); again.Language != "en" {
		t.Fatalf("the choice was not stored: %q", again.Language)
	}
	if err := os.WriteFile(doc, []byte("# Title\n\nOne, changed twice.\n\nTwo.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if s, _ := a.CheckDisk(); s.Note != "Another program changed “Title”; your text is kept." {
		t.Fatalf("the notice in an English window: %q", s.Note)
	}
	if said, _ := a.Stop(); said != "Nothing is running." {
		t.Fatalf("Stop in an English window: %q", said)
	}
	// The file gone, in a Russian window: said in Russian.
	s.Language = "ru"
	if _, err := a.SaveSettings(s); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(doc); err != nil {
		t.Fatal(err)
	}
	if d, _ := a.CheckDisk(); !d.Missing || d.Detail != "Файл "+filepath.Base(doc)+" больше не читается" {
		t.Fatalf("the file gone, in a Russian window: %+v", d)
	}
	// Settings refused are said in the window's language.
	s.Language = "fr"
	if _, err := a.SaveSettings(s); err == nil || err.Error() != `настройки не сохранены: язык "fr": en (английский), ru (русский) или пусто (как в системе)` {
		t.Fatalf("an unknown language, in a Russian window: %v", err)
	}
}

// TestWindowHistoryLanguage: the History panel's revisions are said in the
// window's language, whatever the book's: a Russian book in an English
// window reads "Replace … in …", in a Russian window «Замена … — …».
func TestWindowHistoryLanguage(t *testing.T) {
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	t.Setenv("LANG", "C.UTF-8")
	a, _ := desktopApp(t, "# Роман\n\n## Глава 1\n\nПьер вошёл.\n")
	if _, err := a.Manuscript(); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Call("ReplaceText", `{"index": 2, "newMarkdown": "Петр вошёл."}`); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ lang, edit, opened string }{
		{"", "Replace «Пьер вошёл.» with «Петр вошёл.» in Роман, Глава 1", "The book as first opened"},
		{"ru", "Замена «Пьер вошёл.» на «Петр вошёл.» — Роман, Глава 1", "Книга, какой её открыли впервые"},
		{"en", "Replace «Пьер вошёл.» with «Петр вошёл.» in Роман, Глава 1", "The book as first opened"},
	} {
		s, err := a.Settings()
		if err != nil {
			t.Fatal(err)
		}
		s.Language = c.lang
		if _, err := a.SaveSettings(s); err != nil {
			t.Fatal(err)
		}
		h, err := a.History()
		if err != nil {
			t.Fatal(err)
		}
		if len(h) != 2 || h[0].Description != c.edit || h[1].Description != c.opened {
			t.Errorf("window language %q: %+v", c.lang, h)
		}
	}
}
