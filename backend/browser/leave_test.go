package browser

import (
	"strings"
	"testing"
)

// TestLeavingAPageThatAsks (issue 33): a page with a beforeunload handler
// asks before it is left. Going to another address from it returned only
// when the navigation's 15 s ran out ("took too long"), the question never
// shown; now the navigation returns the question at once, like the page's
// other questions: Cancel stays on the page, OK leaves it for the address.
// With and without Waymark's own dialogs (the window's browser).
func TestLeavingAPageThatAsks(t *testing.T) {
	for _, own := range []bool{false, true} {
		name := map[bool]string{false: "browser's dialogs", true: "own dialogs"}[own]
		t.Run(name, func(t *testing.T) {
			s := newSession(t, func(o *Options) { o.OwnDialogs = own })
			open(t, s, "/leave.html")
			// A page may ask only after the user acted on it (a click).
			r := mustList(t, s, ListOptions{})
			if _, err := s.Act(testCtx(t), ActOptions{Index: numberOf(t, r, "Edit"), Action: "click"}); err != nil {
				t.Fatalf("click: %v", err)
			}
			for _, accept := range []bool{false, true} {
				st, err := s.Navigate(testCtx(t), site.URL+"/dialogs.html")
				if err != nil {
					t.Fatalf("go to with the page asking (accept %v): %v", accept, err)
				}
				if st.Dialog == nil || st.Dialog.Type != "beforeunload" {
					t.Fatalf("go to: dialog %+v, want the page's leave question (state %+v)", st.Dialog, st)
				}
				if !strings.Contains(st.Note, "beforeunload") {
					t.Errorf("go to: note %q does not say what the page asks", st.Note)
				}
				res, err := s.AnswerDialog(testCtx(t), accept, nil)
				if err != nil {
					t.Fatalf("answer %v: %v", accept, err)
				}
				want := map[bool]string{false: "/leave.html", true: "/dialogs.html"}[accept]
				if !strings.HasSuffix(res.URL, want) || res.Navigated != accept {
					t.Fatalf("answered %v: at %s (navigated %v), want %s", accept, res.URL, res.Navigated, want)
				}
			}
			if got := mustList(t, s, ListOptions{}); !strings.Contains(got.Title, "Dialogs") {
				t.Errorf("after leaving: title %q, want the address gone to", got.Title)
			}
		})
	}
}
