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
	// A button added after Victim (issue 23, point 4): Victim kept its
	// number, so acting by it goes ahead.
	evalText(t, s, `() => { document.getElementById('out').textContent = ''; return 'ok'; }`)
	if _, err := s.Act(testCtx(t), ActOptions{Index: numberOf(t, r, "Add"), Action: "click"}); err != nil {
		t.Fatalf("click Add: %v", err)
	}
	if _, err := s.Act(testCtx(t), ActOptions{Index: n, Action: "click"}); err != nil {
		t.Fatalf("act after a button was added below Victim: %v, want the click", err)
	}
	if got := evalText(t, s, `() => document.getElementById('out').textContent`); got != "victim clicked" {
		t.Fatalf("out = %q after the click on a kept number", got)
	}
	// A button added before Victim moves it: acting must refuse, saying where
	// it is now.
	evalText(t, s, `() => { const b = document.createElement('button'); b.textContent = 'Before'; document.body.prepend(b); return 'ok'; }`)
	_, err = s.Act(testCtx(t), ActOptions{Index: n, Action: "click"})
	var se *StaleError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "browser_list_interactives") || !strings.Contains(err.Error(), "is number") {
		t.Fatalf("act on a moved number: err = %v, want StaleError saying its new number", err)
	}
}
