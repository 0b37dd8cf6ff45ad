package manuscript

import "testing"

// TestDescribeEdit: an edit in words, as the list of edits and a screen reader
// say it — the change with a word around it, where, and no tool names.
func TestDescribeEdit(t *testing.T) {
	for _, tc := range []struct{ name, before, after, place, want string }{
		{"one word replaced in a paragraph",
			"— Что ж, — сказал Пьер, — я рад.", "— Что ж, — сказал Петр, — я рад.", "Том 1, Часть первая, II",
			"Replace «…сказал Пьер, —…» with «…сказал Петр, —…» in Том 1, Часть первая, II"},
		{"at the start and the end", "Pierre came.", "Peter went.", "BOOK ONE: 1805, CHAPTER I",
			"Replace «Pierre came.» with «Peter went.» in BOOK ONE: 1805, CHAPTER I"},
		{"a paragraph inserted", "", "A new paragraph.", "Том 2",
			"Insert «A new paragraph.» in Том 2"},
		{"words deleted", "He said nothing at all today.", "He said nothing today.", "II",
			"Delete «…nothing at all today.» from II"},
		{"before the first heading", "Old title", "New title", "",
			"Replace «Old title» with «New title» before the first heading"},
		{"a long passage keeps its ends", "a b c d e f g h i j k l m n o", "z", "I",
			"Replace «a b c d e f … k l m n o» with «z» in I"},
		{"only the spacing", "a  b", "a b", "I", "Change the spacing in I"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := DescribeEdit(tc.before, tc.after, tc.place); got != tc.want {
				t.Fatalf("DescribeEdit = %q\n             want %q", got, tc.want)
			}
		})
	}
}
