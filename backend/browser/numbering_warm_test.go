package browser

import (
	"testing"
)

// TestWarmWalkLeavesNothing: the walk a navigation runs while the page
// settles (overlay.js warm, issue 33 point 14) walks the document as a list
// would, but marks no element or frame, starts no observer and changes
// nothing the next list or a numbering's check reads: after a list, a warm
// walk leaves that list exactly current, and a change made after it is still
// counted.
func TestWarmWalkLeavesNothing(t *testing.T) {
	s := newSession(t)
	ctx := testCtx(t)
	const marks = `() => document.querySelectorAll('[data-blind-id],[data-blind-frame]').length`
	for _, tc := range []struct {
		page     string
		min, max int // elements the warm walk must see (a long page: only its first)
	}{
		{"/small-form.html", 13, 13},
		{"/shadow.html", 4, 4},
		{"/frame.html", 4, 4}, // two buttons, two frames (not entered)
		{"/links5000.html", 1, 40},
	} {
		t.Run(tc.page, func(t *testing.T) {
			open(t, s, tc.page)
			if n := evalText(t, s, marks); n != "0" {
				t.Fatalf("the navigation left %s marks on the page before any list", n)
			}
			w, err := s.topWorld(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var wr struct {
				N int `json:"n"`
			}
			if err := s.call(ctx, w, "warm", nil, &wr); err != nil {
				t.Fatalf("warm: %v", err)
			}
			if wr.N < tc.min || wr.N > tc.max {
				t.Errorf("warm walked %d elements, want %d..%d", wr.N, tc.min, tc.max)
			}
			if n := evalText(t, s, marks); n != "0" {
				t.Fatalf("the warm walk left %s marks on the page", n)
			}
			var c topLook
			if err := s.call(ctx, w, "check", map[string]any{"same": true}, &c); err != nil {
				t.Fatal(err)
			}
			if c.Same {
				t.Fatalf("after a warm walk and no list, the document says it is unchanged since a list: %+v", c)
			}

			r := mustList(t, s, ListOptions{})
			if r.Total == 0 {
				t.Fatal("nothing listed")
			}
			if err := s.call(ctx, w, "warm", nil, &wr); err != nil {
				t.Fatalf("warm after the list: %v", err)
			}
			c = topLook{}
			if err := s.call(ctx, w, "check", map[string]any{"same": true}, &c); err != nil {
				t.Fatal(err)
			}
			if !c.Same || c.Changes != 0 || c.Token != s.current.Load().frames[0].token {
				t.Fatalf("a warm walk after a list changed what the list's check reads: %+v", c)
			}
			again := mustList(t, s, ListOptions{})
			if !samePrefix(r.Items, again.Items) || again.Total != r.Total {
				t.Fatalf("a list after a warm walk numbers otherwise:\n%s\n%s", names(r), names(again))
			}

			evalText(t, s, `() => { document.body.prepend(Object.assign(document.createElement('button'), {textContent: 'New'})); return 'ok'; }`)
			if err := s.call(ctx, w, "warm", nil, &wr); err != nil {
				t.Fatal(err)
			}
			c = topLook{}
			if err := s.call(ctx, w, "check", map[string]any{"same": true}, &c); err != nil {
				t.Fatal(err)
			}
			if c.Same || c.Changes == 0 {
				t.Fatalf("a button added before a warm walk is not counted as a change: %+v", c)
			}
		})
	}
}
