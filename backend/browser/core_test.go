package browser

import (
	"errors"
	"strings"
	"testing"
)

func TestListAndClickByNumber(t *testing.T) {
	s := newSession(t)
	open(t, s, "/dynamic.html")
	r := mustList(t, s, ListOptions{})
	n := numberOf(t, r, "Victim")
	res, err := s.Act(testCtx(t), ActOptions{Index: n, Action: "click"})
	if err != nil {
		t.Fatalf("click: %v", err)
	}
	if got := evalText(t, s, `() => document.getElementById('out').textContent`); got != "victim clicked" {
		t.Fatalf("out = %q, want victim clicked (result %+v)", got, res)
	}
	// Adding a button makes the numbering stale: acting must refuse.
	if _, err := s.Act(testCtx(t), ActOptions{Index: numberOf(t, r, "Add"), Action: "click"}); err != nil {
		t.Fatalf("click Add: %v", err)
	}
	_, err = s.Act(testCtx(t), ActOptions{Index: n, Action: "click"})
	var se *StaleError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "browser_list_interactives") {
		t.Fatalf("act on stale list: err = %v, want StaleError naming browser_list_interactives", err)
	}
}
