package manuscript_test

import (
	"testing"

	"github.com/waymark/waymark/backend/manuscript"
)

// TestHistoryAndUndoSayTheEditInWords: the History's revisions and the
// Undo and Redo tools' answers say what changed and where, in words, in the
// book's language — no item labels (H2.p4), no tool names (ReplaceText).
func TestHistoryAndUndoSayTheEditInWords(t *testing.T) {
	cases := []struct {
		name, book, args             string
		edit, opened, undone, redone string
	}{
		{"Russian book", "# Том 1\n\n## Глава II\n\nСказал Пьер тихо.\n\nДругой абзац.\n",
			`{"index": 2, "newMarkdown": "Сказал Петр тихо."}`,
			"Замена «Сказал Пьер тихо.» на «Сказал Петр тихо.» — Том 1, Глава II", "Книга, какой её открыли впервые",
			"Отменено: Замена «Сказал Пьер тихо.» на «Сказал Петр тихо.» — Том 1, Глава II",
			"Возвращено: Замена «Сказал Пьер тихо.» на «Сказал Петр тихо.» — Том 1, Глава II"},
		{"English book", "# Book One\n\n## Chapter II\n\nSaid Pierre quietly.\n\nAnother paragraph.\n",
			`{"index": 2, "newMarkdown": "Said Peter quietly."}`,
			"Replace «Said Pierre quietly.» with «Said Peter quietly.» in Book One, Chapter II", "The book as first opened",
			"Undone: Replace «Said Pierre quietly.» with «Said Peter quietly.» in Book One, Chapter II",
			"Redone: Replace «Said Pierre quietly.» with «Said Peter quietly.» in Book One, Chapter II"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, c.book)
			if err := e.call("ReplaceText", c.args, nil); err != nil {
				t.Fatal(err)
			}
			var undo, redo manuscript.EditView
			if err := e.call("Undo", `{}`, &undo); err != nil {
				t.Fatal(err)
			}
			if undo.Description != c.undone {
				t.Errorf("Undo said %q, want %q", undo.Description, c.undone)
			}
			if err := e.call("Redo", `{}`, &redo); err != nil {
				t.Fatal(err)
			}
			if redo.Description != c.redone {
				t.Errorf("Redo said %q, want %q", redo.Description, c.redone)
			}
			var h manuscript.HistoryResult
			if err := e.call("History", `{}`, &h); err != nil {
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
