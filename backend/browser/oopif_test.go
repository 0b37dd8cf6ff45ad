package browser

import (
	"strings"
	"testing"
)

// With site isolation on, the cross-site frame of frame.html (localhost vs
// 127.0.0.1) is an out-of-process iframe: it is numbered, clicked and typed
// into by number all the same.
func TestCrossSiteFrameOutOfProcess(t *testing.T) {
	s := newSession(t)
	open(t, s, "/frame.html")
	r := mustList(t, s, ListOptions{})
	if len(r.SkippedFrames) > 0 {
		t.Fatalf("frames skipped: %+v", r.SkippedFrames)
	}
	if s.frames == nil || len(s.frames.all()) == 0 {
		t.Fatal("the cross-site frame is not out of process: site isolation is off")
	}
	want := []string{"Top button", "Frame button", "Frame field", "Cross button", "Top after"}
	last := 0
	for _, name := range want {
		n := numberOf(t, r, name)
		if n <= last {
			t.Fatalf("document order: %s", names(r))
		}
		last = n
	}
	for _, it := range r.Items {
		if it.Name == "Cross button" && !strings.Contains(it.Frame, "") {
			t.Fatalf("no frame path: %+v", it)
		}
	}
	res, err := s.Act(testCtx(t), ActOptions{Index: numberOf(t, r, "Cross button"), Action: "click"})
	if err != nil {
		t.Fatalf("click in the cross-site frame: %v", err)
	}
	fp := s.frames.all()[0]
	got, err := fp.Eval(`() => document.getElementById('r').textContent`)
	if err != nil || got.Value.Str() != "cross clicked" {
		t.Fatalf("the cross-site frame says %v (%v); act result %+v", got, err, res)
	}
	// The same-origin frame still works, and the top page's button.
	if _, err := s.Act(testCtx(t), ActOptions{Index: numberOf(t, r, "Frame button"), Action: "click"}); err != nil {
		t.Fatal(err)
	}
	// A change inside the cross-site frame makes the numbering stale.
	if _, err := fp.Eval(`() => document.body.appendChild(document.createElement('button')).textContent = 'Late'`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Act(testCtx(t), ActOptions{Index: numberOf(t, r, "Top after"), Action: "click"}); err == nil || !strings.Contains(err.Error(), "stale") {
		t.Fatalf("act after a change in the frame: %v", err)
	}
}
