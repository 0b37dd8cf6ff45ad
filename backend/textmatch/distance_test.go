package textmatch

import "testing"

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		d    int
	}{
		{"click", "click", 0}, {"clcik", "click", 2}, {"replase", "replace", 1},
		{"заменить", "замени", 2}, {"", "найди", 5}, {"найди", "", 5},
	} {
		if got := EditDistance(tc.a, tc.b); got != tc.d {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.d)
		}
	}
}
