package manuscript_test

import (
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/manuscript"
)

// TestHistoryAndUndoSayTheEditInWords: the History's revisions and the
// Undo and Redo tools' answers say what changed and where, in words, in the
// book's language, or in the one asked for (the window's: language) — no
// item labels (H2.p4), no tool names (ReplaceText).
func TestHistoryAndUndoSayTheEditInWords(t *testing.T) {
	cases := []struct {
		name, book, args, lang       string
		edit, opened, undone, redone string
	}{
		{"Russian book", "# Том 1\n\n## Глава II\n\nСказал Пьер тихо.\n\nДругой абзац.\n",
			`{"index": 2, "newMarkdown": "Сказал Петр тихо."}`, "",
			"Замена «Сказал Пьер тихо.» на «Сказал Петр тихо.» — Том 1, Глава II", "Книга, какой её открыли впервые",
			"Отменено: Замена «Сказал Пьер тихо.» на «Сказал Петр тихо.» — Том 1, Глава II",
			"Возвращено: Замена «Сказал Пьер тихо.» на «Сказал Петр тихо.» — Том 1, Глава II"},
		{"English book", "# Book One\n\n## Chapter II\n\nSaid Pierre quietly.\n\nAnother paragraph.\n",
			`{"index": 2, "newMarkdown": "Said Peter quietly."}`, "",
			"Replace «Said Pierre quietly.» with «Said Peter quietly.» in Book One, Chapter II", "The book as first opened",
			"Undone: Replace «Said Pierre quietly.» with «Said Peter quietly.» in Book One, Chapter II",
			"Redone: Replace «Said Pierre quietly.» with «Said Peter quietly.» in Book One, Chapter II"},
		// An English window on a Russian book, a Russian one on an English book.
		{"Russian book in English", "# Том 1\n\n## Глава II\n\nСказал Пьер тихо.\n\nДругой абзац.\n",
			`{"index": 2, "newMarkdown": "Сказал Петр тихо."}`, "en",
			"Replace «Сказал Пьер тихо.» with «Сказал Петр тихо.» in Том 1, Глава II", "The book as first opened",
			"Undone: Replace «Сказал Пьер тихо.» with «Сказал Петр тихо.» in Том 1, Глава II",
			"Redone: Replace «Сказал Пьер тихо.» with «Сказал Петр тихо.» in Том 1, Глава II"},
		{"English book in Russian", "# Book One\n\n## Chapter II\n\nSaid Pierre quietly.\n\nAnother paragraph.\n",
			`{"index": 2, "newMarkdown": "Said Peter quietly."}`, "ru",
			"Замена «Said Pierre quietly.» на «Said Peter quietly.» — Book One, Chapter II", "Книга, какой её открыли впервые",
			"Отменено: Замена «Said Pierre quietly.» на «Said Peter quietly.» — Book One, Chapter II",
			"Возвращено: Замена «Said Pierre quietly.» на «Said Peter quietly.» — Book One, Chapter II"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, c.book)
			if err := e.call("ReplaceText", c.args, nil); err != nil {
				t.Fatal(err)
			}
			lang := `{}`
			if c.lang != "" {
				lang = `{"language": "` + c.lang + `"}`
			}
			var undo, redo manuscript.EditView
			if err := e.call("Undo", lang, &undo); err != nil {
				t.Fatal(err)
			}
			if undo.Description != c.undone {
				t.Errorf("Undo said %q, want %q", undo.Description, c.undone)
			}
			if err := e.call("Redo", lang, &redo); err != nil {
				t.Fatal(err)
			}
			if redo.Description != c.redone {
				t.Errorf("Redo said %q, want %q", redo.Description, c.redone)
			}
			var h manuscript.HistoryResult
			if err := e.call("History", lang, &h); err != nil {
				t.Fatal(err)
			}
			want := []string{c.redone, c.undone, c.edit, c.opened} // newest first
			if len(h.Revisions) != len(want) {
				t.Fatalf("history: %+v", h.Revisions)
			}
			for k, r := range h.Revisions {
				if r.Description != want[k] {
					t.Errorf("revision %d described as %q, want %q", r.Rev, r.Description, want[k])
				}
			}
		})
	}
}

// TestHistoryLanguageRefused: a language the descriptions cannot be said in
// is refused, naming the two there are; nothing is undone.
func TestHistoryLanguageRefused(t *testing.T) {
	e := newEnv(t, "# Book\n\nText.\n")
	if err := e.call("ReplaceText", `{"index": 1, "newMarkdown": "Other text."}`, nil); err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"History", "Undo", "Redo"} {
		err := e.call(tool, `{"language": "de"}`, nil)
		if err == nil || !strings.Contains(err.Error(), "en") || !strings.Contains(err.Error(), "ru") {
			t.Errorf("%s with language de: %v", tool, err)
		}
	}
	var h manuscript.HistoryResult
	if err := e.call("History", `{}`, &h); err != nil {
		t.Fatal(err)
	}
	if h.Revisions[0].Op == "Undo" {
		t.Errorf("a refused Undo undid: %+v", h.Revisions[0])
	}
}
