package miniwob

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// How long the solver waits for an element to show up (an autocomplete
// menu, a section sliding open) before it gives up or reveals the next
// hiding place.
const (
	appearWait = 1500 * time.Millisecond
	revealWait = time.Second
	stableFor  = 150 * time.Millisecond
	pollEvery  = 60 * time.Millisecond
	listLimit  = 300
)

// Solve runs a plan on the page by numbers: for every step it lists the
// interactive elements (browser_list_interactives), picks the number of the
// element the step's target means and acts on that number
// (browser_overlay_act). It never uses selectors or scripts.
func Solve(ctx context.Context, t *Tools, p Plan) error {
	for i, st := range p.Steps {
		if err := t.step(ctx, st, p.Dismiss); err != nil {
			return fmt.Errorf("step %d (%s): %w", i+1, st, err)
		}
	}
	return nil
}

// item is one element of a list as the solver reads it.
type item struct {
	Number  int    `json:"number"`
	ID      string `json:"id"`
	Role    string `json:"role"`
	Name    string `json:"name"`
	Tag     string `json:"tag"`
	Type    string `json:"type"`
	Value   string `json:"value"`
	Checked *bool  `json:"checked"`
}

func (t *Tools) list(ctx context.Context) ([]item, error) {
	var out struct {
		Items []item `json:"items"`
	}
	if err := t.CallInto(ctx, "browser_list_interactives", map[string]any{"limit": listLimit}, &out); err != nil {
		return nil, err
	}
	return out.Items, nil
}

func (t *Tools) act(ctx context.Context, number int, action, text string) error {
	args := map[string]any{"index": number, "action": action}
	if action != "click" {
		args["text"] = text
	}
	return t.CallInto(ctx, "browser_overlay_act", args, nil)
}

func (t *Tools) step(ctx context.Context, st Step, dismiss string) error {
	err := t.do(ctx, st)
	if err == nil || dismiss == "" || ctx.Err() != nil {
		return err
	}
	// An interruption may have disabled the page: close it by number, retry.
	items, lerr := t.list(ctx)
	if lerr != nil {
		return err
	}
	d := pick(items, button(dismiss), false)
	if d == nil {
		return err
	}
	if cerr := t.act(ctx, d.Number, "click", ""); cerr != nil {
		return fmt.Errorf("%w (closing %q failed: %v)", err, dismiss, cerr)
	}
	return t.do(ctx, st)
}

func (t *Tools) do(ctx context.Context, st Step) error {
	var err error
	if st.Action == "adjust" {
		err = t.adjust(ctx, st)
	} else {
		_, err = t.once(ctx, st)
	}
	if err == nil && st.Settle > 0 {
		err = t.CallInto(ctx, "browser_wait", map[string]any{"ms": st.Settle.Milliseconds()}, nil)
	}
	return err
}

// adjust clicks the element by number (so it has the focus), then presses
// the up and down arrows until the list shows the value wanted.
func (t *Tools) adjust(ctx context.Context, st Step) error {
	want, err := strconv.Atoi(st.Text)
	if err != nil {
		return fmt.Errorf("adjust to %q: not a whole number", st.Text)
	}
	it, err := t.once(ctx, Step{Action: "click", Target: st.Target})
	if err != nil {
		return err
	}
	for round := 0; round < 3; round++ {
		items, err := t.list(ctx)
		if err != nil {
			return err
		}
		cur := byID(items, it.ID)
		if cur == nil {
			return fmt.Errorf("%s went away", st.Target)
		}
		v, err := strconv.Atoi(strings.TrimSpace(cur.Value))
		if err != nil {
			return fmt.Errorf("%s shows %q, not a number", st.Target, cur.Value)
		}
		if v == want {
			return nil
		}
		key, n := "ArrowUp", want-v
		if n < 0 {
			key, n = "ArrowDown", -n
		}
		for i := 0; i < n; i++ {
			if err := t.CallInto(ctx, "browser_press", map[string]any{"key": key}, nil); err != nil {
				return err
			}
		}
	}
	return fmt.Errorf("%s did not reach %d", st.Target, want)
}

func byID(items []item, id string) *item {
	for i := range items {
		if items[i].ID == id {
			return &items[i]
		}
	}
	return nil
}

// once finds the step's element (waiting for it, revealing what hides it,
// paging on) and acts on its number; it returns the element acted on.
func (t *Tools) once(ctx context.Context, st Step) (*item, error) {
	target := st.Target
	opened := map[string]bool{}
	giveUp := time.Now().Add(appearWait)
	// After opening a tab or section the page may still move (an accordion
	// slides): wait until two lists stableFor apart number the same elements.
	var settleCap, stableSince time.Time
	var prev string
	var last []item
	for {
		items, err := t.list(ctx)
		if err != nil {
			return nil, err
		}
		last = items
		now := time.Now()
		if now.Before(settleCap) {
			if k := idsOf(items); k != prev {
				prev, stableSince = k, now
			}
			if now.Sub(stableSince) < stableFor {
				sleep(ctx, pollEvery)
				continue
			}
			settleCap = time.Time{}
		}
		if it := pick(items, target, false); it != nil {
			return it, t.act(ctx, it.Number, st.Action, st.Text)
		}
		// What to click to see more: the next hiding place, or the next page.
		var more *item
		if !st.Reveal.IsZero() {
			if more = nextReveal(items, st.Reveal, opened); more != nil {
				opened[more.ID] = true
			}
		}
		if more == nil && !st.Next.IsZero() && target.Nth > 0 {
			if c := count(items, target); c > 0 && c < target.Nth {
				if more = pick(items, st.Next, true); more != nil {
					target.Nth -= c
				}
			}
		}
		if more != nil {
			if err := t.act(ctx, more.Number, "click", ""); err != nil {
				return nil, fmt.Errorf("opening %s %q: %w", more.Role, more.Name, err)
			}
			settleCap, prev = time.Now().Add(revealWait), ""
			giveUp = settleCap.Add(appearWait)
			continue
		}
		if it := pick(items, target, true); it != nil {
			return it, t.act(ctx, it.Number, st.Action, st.Text)
		}
		if now.After(giveUp) || ctx.Err() != nil {
			return nil, fmt.Errorf("no element for %s among %d listed", target, len(last))
		}
		sleep(ctx, pollEvery)
	}
}

func idsOf(items []item) string {
	var b strings.Builder
	for _, it := range items {
		b.WriteString(it.ID)
		b.WriteByte(' ')
	}
	return b.String()
}

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

var textRoles = map[string]bool{"textbox": true, "searchbox": true}

// pager matches the names of pager controls.
var pager = regexp.MustCompile(`(?i)^(\d+|<<?|>>?|«|»|‹|›|first|last|prev|previous|next)$`)

func roleFits(it item, t Target) bool {
	if t.Tag != "" && it.Tag != t.Tag {
		return false
	}
	if t.SkipPager && pager.MatchString(norm(it.Name)) {
		return false
	}
	if t.Role == "" {
		return true
	}
	for _, r := range strings.Split(t.Role, "|") {
		if it.Role == r || (r == "textbox" && (textRoles[it.Role] || it.Type == "password")) {
			return true
		}
	}
	return false
}

func norm(s string) string { return strings.Join(strings.Fields(s), " ") }

// pick returns the element a target means, or nil. Without fold only exact
// names count; with fold, names that differ in case do too, and a named
// target of a role nothing of that role carries is looked for in any role (a
// clickable <span> styled as a link is numbered as what it is).
func pick(items []item, t Target, fold bool) *item {
	if it := scan(items, t, false); it != nil || !fold {
		return it
	}
	if it := scan(items, t, true); it != nil {
		return it
	}
	if t.Role == "" || t.Nth > 0 {
		return nil
	}
	t.Role, t.Tag = "", ""
	if it := scan(items, t, false); it != nil {
		return it
	}
	return scan(items, t, true)
}

func scan(items []item, t Target, fold bool) *item {
	seen := 0
	want := norm(t.Name)
	var best *item
	for i := range items {
		it := &items[i]
		if !roleFits(*it, t) {
			continue
		}
		name := norm(it.Name)
		switch {
		case t.Nth > 0:
			if seen++; seen == t.Nth {
				return it
			}
		case t.Prefix != "" || t.Suffix != "":
			// The shortest name that fits: a menu's own name runs its items
			// together and may start and end alike.
			if strings.HasPrefix(name, t.Prefix) && strings.HasSuffix(name, t.Suffix) && (best == nil || len(name) < len(norm(best.Name))) {
				best = it
			}
		case name == want, fold && strings.EqualFold(name, want):
			return it
		}
	}
	return best
}

// count is how many listed elements fit a target's role.
func count(items []item, t Target) int {
	n := 0
	for _, it := range items {
		if roleFits(it, t) {
			n++
		}
	}
	return n
}

// nextReveal is the first element that may hide the target and was not
// opened yet; a tab or section already shown (checked) is skipped.
func nextReveal(items []item, r Target, opened map[string]bool) *item {
	for i := range items {
		it := &items[i]
		if !roleFits(*it, r) || opened[it.ID] || (it.Checked != nil && *it.Checked) {
			continue
		}
		return it
	}
	return nil
}
