package browser

import (
	"testing"
)

// Pages whose click handlers defer their work to short timers.
func init() {
	extraPages["/timers.html"] = `<!doctype html><html><head><meta charset="utf-8"><title>Timers</title></head>
<body><main>
<button onclick="setTimeout(() => { const b = document.createElement('button'); b.textContent = 'Menu item'; b.onclick = () => { document.title = 'chosen'; }; document.querySelector('main').append(b); }, 60)">Show menu</button>
<button onclick="(function tick() { window.ticks = (window.ticks || 0) + 1; setTimeout(tick, 5); })()">Start ticker</button>
<button onclick="const id = setTimeout(() => { document.title = 'should not happen'; }, 50); clearTimeout(id); window.cleared = true">Set and clear</button>
</main></body></html>`
}

// A click's settle waits for the short timers its handler set: what they add
// is there in the click's result (the numbering is stale, the new control is
// listed), a handler that keeps setting timers forever does not hold the
// click, and a timer the handler cleared is not waited for.
func TestSettleWaitsForInputTimers(t *testing.T) {
	s := newSession(t)
	open(t, s, "/timers.html")

	r := mustList(t, s, ListOptions{})
	res, err := s.Act(testCtx(t), ActOptions{Index: numberOf(t, r, "Show menu"), Action: "click"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.NumberingStale {
		t.Fatalf("the menu a timer added 60 ms after the click was not seen: %+v", res)
	}
	r = mustList(t, s, ListOptions{})
	if _, err := s.Act(testCtx(t), ActOptions{Index: numberOf(t, r, "Menu item"), Action: "click"}); err != nil {
		t.Fatal(err)
	}
	if got := evalText(t, s, `() => document.title`); got != "chosen" {
		t.Fatalf("the menu item was not clicked: title %q", got)
	}

	open(t, s, "/timers.html")
	r = mustList(t, s, ListOptions{})
	if _, err := s.Act(testCtx(t), ActOptions{Index: numberOf(t, r, "Start ticker"), Action: "click"}); err != nil {
		t.Fatalf("a click that starts an endless timer chain: %v", err)
	}
	if got := evalText(t, s, `() => String(window.ticks > 1)`); got != "true" {
		t.Fatalf("the ticker did not run: %s", got)
	}
	// The chain goes on: the next action is not held up either.
	if _, err := s.Act(testCtx(t), ActOptions{Index: numberOf(t, r, "Set and clear"), Action: "click"}); err != nil {
		t.Fatal(err)
	}
	if got := evalText(t, s, `() => document.title + ' ' + window.cleared`); got != "Timers true" {
		t.Fatalf("after set and clear: %s", got)
	}
}
