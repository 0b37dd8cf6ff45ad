package browser

import "testing"

func TestClosedShadowRootAndClickListeners(t *testing.T) {
	s := newSession(t)
	open(t, s, "/closed.html")
	r := mustList(t, s, ListOptions{})
	for _, name := range []string{"Light before", "Nickname", "Save nickname", "Open the tile", "Inside app"} {
		numberOf(t, r, name)
	}
	for _, it := range r.Items {
		if it.Name == "Just text" || it.Tag == "div" && it.Name != "Open the tile" {
			t.Errorf("%q (%s) was numbered: %s", it.Name, it.Tag, names(r))
		}
	}
	// Order: the closed root's elements sit at their host's place.
	if numberOf(t, r, "Nickname") < numberOf(t, r, "Light before") || numberOf(t, r, "Save nickname") > numberOf(t, r, "Open the tile") {
		t.Errorf("document order lost: %s", names(r))
	}
	if _, err := s.Act(testCtx(t), ActOptions{Index: numberOf(t, r, "Nickname"), Action: "type", Text: "Lev"}); err != nil {
		t.Fatalf("type into the closed root: %v", err)
	}
	if _, err := s.Act(testCtx(t), ActOptions{Index: numberOf(t, r, "Save nickname"), Action: "click"}); err != nil {
		t.Fatalf("click in the closed root: %v", err)
	}
	if got := evalText(t, s, `() => document.getElementById('out').textContent`); got != "saved Lev" {
		t.Fatalf("page says %q", got)
	}
	r = mustList(t, s, ListOptions{})
	if _, err := s.Act(testCtx(t), ActOptions{Index: numberOf(t, r, "Open the tile"), Action: "click"}); err != nil {
		t.Fatal(err)
	}
	if got := evalText(t, s, `() => document.getElementById('out').textContent`); got != "tile opened" {
		t.Fatalf("page says %q", got)
	}
	// The marks are data attributes only: no ARIA was added.
	if got := evalText(t, s, `() => document.getElementById('tile').getAttributeNames().join(',')`); got != "id,style,data-blind-click,data-blind-id" && got != "id,style,data-blind-id,data-blind-click" {
		t.Errorf("tile attributes: %s", got)
	}
}
