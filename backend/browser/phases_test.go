package browser

import (
	"context"
	"encoding/json"
	"testing"
)

// TestListPhases: a list whose context carries Phases records where its
// time went (the calls into the page, the page's own parts within them,
// the Go side's decoding and numbering, frames), and lists the same
// elements as a list without them; a list without them asks the overlay
// for no timing.
func TestListPhases(t *testing.T) {
	s := newSession(t)
	ctx := testCtx(t)
	for _, page := range []string{"/links5000.html", "/frame.html"} {
		t.Run(page, func(t *testing.T) {
			open(t, s, page)
			plain := mustList(t, s, ListOptions{Limit: 500})
			if a := s.listArg(ctx, 0, 0); a["timing"] != nil {
				t.Fatalf("a list without Phases asks the overlay for its timing: %v", a)
			}
			open(t, s, page)
			p := new(Phases)
			timed, err := s.List(context.WithValue(ctx, PhasesKey{}, p), ListOptions{Limit: 500})
			if err != nil {
				t.Fatal(err)
			}
			// The same elements (their ids go on with the session's count).
			a, b := itemsNoIDs(plain.Items), itemsNoIDs(timed.Items)
			if string(a) != string(b) || plain.Total != timed.Total {
				t.Fatalf("the timed list differs from the plain one:\n%s\n%s", a, b)
			}
			for _, ph := range []string{PhaseLook, PhaseJSTotal, PhaseDecode, PhaseItems} {
				if p.D[ph] <= 0 {
					t.Errorf("phase %q: nothing recorded (%v)", ph, p.D)
				}
			}
			if page == "/frame.html" && p.D[PhaseFrames] <= 0 {
				t.Errorf("frames: nothing recorded on a page with frames (%v)", p.D)
			}
			in := p.D[PhaseJSWalk] + p.D[PhaseJSGeom] + p.D[PhaseJSLabels] + p.D[PhaseJSJoin]
			if in <= 0 || in > p.D[PhaseJSTotal]+p.D[PhaseJSTotal]/100 {
				t.Errorf("the page's parts add up to %v of its %v", in, p.D[PhaseJSTotal])
			}
			if p.D[PhaseJSTotal] > p.D[PhaseLook] {
				t.Errorf("the page's own time %v is more than the calls into it %v", p.D[PhaseJSTotal], p.D[PhaseLook])
			}
		})
	}
}

// itemsNoIDs is the items' JSON without their ids.
func itemsNoIDs(items []*Item) string {
	var out []Item
	for _, it := range items {
		c := *it
		c.ID = ""
		out = append(out, c)
	}
	b, _ := json.Marshal(out)
	return string(b)
}
