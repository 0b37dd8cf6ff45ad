package desktop

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/waymark/waymark/backend/manuscript"
)

// The window's own words (its chrome, and the notices and conflicts it shows)
// are in English or Russian: the language chosen in Settings, else the
// system's. Answers to commands stay in the command's language.

// Languages are the window's languages; "" in Settings.Language is automatic
// (the system locale's).
var Languages = []string{"en", "ru"}

// systemLanguage is the language of the locale the window runs in, as
// gettext reads it: LC_ALL, else LC_MESSAGES, else LANG ("ru_RU.UTF-8": ru);
// anything but Russian is English.
func systemLanguage() string {
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if l := os.Getenv(v); l != "" {
			if strings.HasPrefix(strings.ToLower(l), "ru") {
				return "ru"
			}
			return "en"
		}
	}
	return "en"
}

// WindowLanguage is the language the window speaks (Lang) and the one the
// system's locale gives (System), which Automatic follows.
type WindowLanguage struct {
	Lang   string `json:"lang"`
	System string `json:"system"`
}

// Language says which language the window's words are in: the one chosen in
// Settings, else the system locale's.
func (a *App) Language() WindowLanguage {
	sys := systemLanguage()
	a.settingsMu.Lock()
	chosen := a.settings.Language
	a.settingsMu.Unlock()
	if chosen == "" {
		chosen = sys
	}
	return WindowLanguage{Lang: chosen, System: sys}
}

// windowRussian tells whether the window's words are Russian.
func (a *App) windowRussian() bool { return a.Language().Lang == "ru" }

// mergeNote says in the window's language what was taken in from elsewhere
// (the tools say it in the book's).
func (a *App) mergeNote(merges []manuscript.Merge, note string) string {
	if len(merges) == 0 {
		return note
	}
	return manuscript.MergeNote(merges, a.windowRussian())
}

// diskDetail says what became of the book's file in the window's language
// (the CheckDisk tool says it in English).
func (a *App) diskDetail(s manuscript.DiskState) string {
	if !s.Changed || !a.windowRussian() {
		return s.Detail
	}
	name := "книги"
	if m, err := a.ws.Current(); err == nil {
		name = filepath.Base(m.Path)
	}
	if s.Missing {
		return fmt.Sprintf("Файл %s больше не читается", name)
	}
	return fmt.Sprintf("Файл %s изменила другая программа с тех пор, как Waymark его открыл или сохранил", name)
}

// runWords name in Russian what begin runs (agentTools' kinds, the browser's goal).
var runWords = map[string]string{"command": "команда", "plan": "план", "browser goal": "цель в браузере"}
