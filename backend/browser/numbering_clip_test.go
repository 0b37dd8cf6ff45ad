package browser

import (
	"fmt"
	"strings"
	"testing"
)

func init() {
	box := func(n int, overflow string) string {
		return fmt.Sprintf(`<div style="position:relative;width:200px;height:50px;margin:20px 20px 150px;%s"><button>In box %d</button>`+
			`<button style="position:absolute;left:0;top:100px">Below box %d</button>`+
			`<button style="position:absolute;left:300px;top:0">Right of box %d</button></div>`, overflow, n, n, n)
	}
	extraPages["/clipped.html"] = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Clipped</title></head><body>` +
		box(1, "overflow:hidden") + box(2, "overflow-x:hidden") + box(3, "overflow-y:clip") + box(4, "overflow:clip") +
		box(5, "overflow:visible") + box(6, "overflow:hidden visible") + `</body></html>`
}

// TestListLeavesOutWhatOverflowClipsAway: an element an ancestor's overflow
// (hidden or clip, in x, y or both) hides entirely is not numbered; one in
// the box, or beyond it on an axis that is not clipped or scrolls, is
// (overlay.js clipsOf reads the overflow shorthand). Below a box whose y
// scrolls (auto) is not asked: on screen, that is the cover test's.
func TestListLeavesOutWhatOverflowClipsAway(t *testing.T) {
	s := newSession(t)
	open(t, s, "/clipped.html")
	r := mustList(t, s, ListOptions{Limit: 100})
	listed := map[string]bool{}
	for _, it := range r.Items {
		listed[it.Name] = true
	}
	for _, tc := range []struct {
		box          int
		below, right int // 1: listed, 0: not, -1: not asked
	}{
		{1, 0, 0},  // overflow: hidden
		{2, -1, 0}, // overflow-x: hidden (y scrolls: auto)
		{3, 0, 1},  // overflow-y: clip (x visible)
		{4, 0, 0},  // overflow: clip
		{5, 1, 1},  // overflow: visible
		{6, -1, 0}, // overflow: hidden visible (y scrolls: auto)
	} {
		if !listed[fmt.Sprintf("In box %d", tc.box)] {
			t.Errorf("box %d: the button in it is not listed", tc.box)
		}
		if got := listed[fmt.Sprintf("Below box %d", tc.box)]; tc.below >= 0 && got != (tc.below == 1) {
			t.Errorf("box %d: the button below it listed %v, want %v", tc.box, got, tc.below)
		}
		if got := listed[fmt.Sprintf("Right of box %d", tc.box)]; got != (tc.right == 1) {
			t.Errorf("box %d: the button right of it listed %v, want %v", tc.box, got, tc.right)
		}
	}
	if t.Failed() {
		var names []string
		for _, it := range r.Items {
			names = append(names, it.Name)
		}
		t.Log(strings.Join(names, " | "))
	}
}
