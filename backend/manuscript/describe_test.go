package manuscript

import "testing"

// TestDescribeEdit: an edit in words, as the list of edits and a screen reader
// say it — the change with a word around it, where, and no tool names.
func TestDescribeEdit(t *testing.T) {
	for _, tc := range []struct {
		name, before, after, place, want string
		russian                          bool
	}{
		{"one word replaced in a paragraph",
			"— Что ж, — сказал Пьер, — я рад.", "— Что ж, — сказал Петр, — я рад.", "Том 1, Часть первая, II",
			"Replace «…сказал Пьер, —…» with «…сказал Петр, —…» in Том 1, Часть первая, II", false},
		{"at the start and the end", "Pierre came.", "Peter went.", "BOOK ONE: 1805, CHAPTER I",
			"Replace «Pierre came.» with «Peter went.» in BOOK ONE: 1805, CHAPTER I", false},
		{"a paragraph inserted", "", "A new paragraph.", "Том 2",
			"Insert «A new paragraph.» in Том 2", false},
		{"words deleted", "He said nothing at all today.", "He said nothing today.", "II",
			"Delete «…nothing at all today.» from II", false},
		{"before the first heading", "Old title", "New title", "",
			"Replace «Old title» with «New title» before the first heading", false},
		{"a long passage keeps its ends", "a b c d e f g h i j k l m n o", "z", "I",
			"Replace «a b c d e f … k l m n o» with «z» in I", false},
		{"only the spacing", "a  b", "a b", "I", "Change the spacing in I", false},
		// A Russian command's edit is said in Russian.
		{"in Russian: one word replaced", "— Что ж, — сказал Пьер, — я рад.", "— Что ж, — сказал Петр, — я рад.", "Том 1, Часть первая, II",
			"Замена «…сказал Пьер, —…» на «…сказал Петр, —…» — Том 1, Часть первая, II", true},
		{"in Russian: a paragraph inserted", "", "Новый абзац.", "Том 2", "Вставка «Новый абзац.» — Том 2", true},
		{"in Russian: words deleted", "Он ничего не сказал сегодня.", "Он ничего сегодня.", "II", "Удаление «…ничего не сказал сегодня.» — II", true},
		{"in Russian: before the first heading", "Старое название", "Новое название", "", "Замена «Старое название» на «Новое название» до первого заголовка", true},
		{"in Russian: only the spacing", "а  б", "а б", "I", "Правка пробелов — I", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := DescribeEdit(tc.before, tc.after, tc.place, tc.russian); got != tc.want {
				t.Fatalf("DescribeEdit = %q\n             want %q", got, tc.want)
			}
		})
	}
}
