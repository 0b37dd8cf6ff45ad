package browser

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
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

// TestLeavingAPageThatAsksByEachStep (issue 33): back, forward, reload and a
// click on a link from a page that asks before it is left return the page's
// question at once, as `go to` does (back and forward waited out the command's
// time in silence; reload and go to left the numbering stale after Cancel).
// Cancel stays on the page as it was, its numbers still valid; OK does the
// step, and the old numbers are refused as stale. With the browser's and
// Waymark's own dialogs (the window's browser).
func TestLeavingAPageThatAsksByEachStep(t *testing.T) {
	steps := []struct {
		name  string
		setup []string // pages opened before /leave.html is current
		back  bool     // after setup, go back to /leave.html
		step  func(ctx context.Context, s *Session, link int) (*PageState, error)
		after string // where OK leads, and its title
		title string
	}{
		{name: "go to", step: func(ctx context.Context, s *Session, _ int) (*PageState, error) {
			return s.Navigate(ctx, site.URL+"/dialogs.html")
		}, after: "/dialogs.html", title: "Dialogs"},
		{name: "back", setup: []string{"/form.html", "/leave.html"}, step: func(ctx context.Context, s *Session, _ int) (*PageState, error) {
			return s.Back(ctx)
		}, after: "/form.html", title: "Form fixture"},
		{name: "forward", setup: []string{"/leave.html", "/form.html"}, back: true, step: func(ctx context.Context, s *Session, _ int) (*PageState, error) {
			return s.Forward(ctx)
		}, after: "/form.html", title: "Form fixture"},
		{name: "reload", setup: []string{"/leave.html"}, step: func(ctx context.Context, s *Session, _ int) (*PageState, error) {
			return s.Reload(ctx)
		}, after: "/leave.html", title: "Unsaved letter"},
		{name: "click a link", setup: []string{"/leave.html"}, step: func(ctx context.Context, s *Session, link int) (*PageState, error) {
			r, err := s.Act(ctx, ActOptions{Index: link, Action: "click"})
			if err != nil {
				return nil, err
			}
			return &PageState{Dialog: r.Dialog, URL: r.URL}, nil
		}, after: "/dialogs.html", title: "Dialogs"},
	}
	for _, own := range []bool{false, true} {
		for _, c := range steps {
			name := map[bool]string{false: "browser's dialogs", true: "own dialogs"}[own] + "/" + c.name
			t.Run(name, func(t *testing.T) {
				s := newSession(t, func(o *Options) { o.OwnDialogs = own })
				if c.setup == nil {
					c.setup = []string{"/leave.html"}
				}
				for _, p := range c.setup {
					open(t, s, p)
				}
				if c.back {
					if _, err := s.Back(testCtx(t)); err != nil {
						t.Fatalf("back to the letter: %v", err)
					}
				}
				// A page may ask only after the user acted on it (a click).
				r := mustList(t, s, ListOptions{})
				edit, link := numberOf(t, r, "Edit"), numberOf(t, r, "Letters")
				if _, err := s.Act(testCtx(t), ActOptions{Index: edit, Action: "click"}); err != nil {
					t.Fatalf("click Edit: %v", err)
				}
				for _, accept := range []bool{false, true} {
					// Bounded below the navigation's own 15 s: the question
					// comes back at once, the step does not wait for it.
					ctx, cancel := context.WithTimeout(testCtx(t), 12*time.Second)
					st, err := c.step(ctx, s, link)
					waited := ctx.Err()
					cancel()
					if err != nil {
						t.Fatalf("%s with the page asking (accept %v): %v", c.name, accept, err)
					}
					if waited != nil {
						t.Errorf("%s waited out its time (%v) before saying what the page asks", c.name, waited)
					}
					if st.Dialog == nil || st.Dialog.Type != "beforeunload" {
						t.Fatalf("%s: dialog %+v, want the page's leave question (state %+v)", c.name, st.Dialog, st)
					}
					res, err := s.AnswerDialog(testCtx(t), accept, nil)
					if err != nil {
						t.Fatalf("answer %v: %v", accept, err)
					}
					if !accept {
						// Stayed: the page as the user left it, its numbers valid.
						if !strings.HasSuffix(res.URL, "/leave.html") || res.Navigated || res.NumberingStale || res.Title != "Unsaved letter (edited)" {
							t.Fatalf("Cancel: at %s %q (navigated %v, numbering stale %v), want the edited letter with its numbers", res.URL, res.Title, res.Navigated, res.NumberingStale)
						}
						if _, err := s.Act(testCtx(t), ActOptions{Index: edit, Action: "click"}); err != nil {
							t.Fatalf("Cancel: the old number of Edit is refused: %v", err)
						}
						continue
					}
					if !strings.HasSuffix(res.URL, c.after) || !res.Navigated || !res.NumberingStale || (c.title != "" && res.Title != c.title) {
						t.Fatalf("OK: at %s %q (navigated %v, numbering stale %v), want %s %q with the old numbers stale", res.URL, res.Title, res.Navigated, res.NumberingStale, c.after, c.title)
					}
					var se *StaleError
					if _, err := s.Act(testCtx(t), ActOptions{Index: edit, Action: "click"}); !errors.As(err, &se) {
						t.Fatalf("OK: the old number of Edit is not refused as stale: %v", err)
					}
				}
			})
		}
	}
}
