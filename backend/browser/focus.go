package browser

import (
	"context"
	"fmt"
)

// FocusResult says what has the keyboard focus after browser_focus_next/prev.
type FocusResult struct {
	Focused *Described `json:"focused"`
	Number  int        `json:"number,omitempty"`
	Presses int        `json:"presses"`
	Note    string     `json:"note,omitempty"`
}

// maxFocusPresses bounds the Tab presses of one focus move with a role.
const maxFocusPresses = 60

// FocusMove presses Tab (or Shift+Tab when back) with real key events until
// an element of the role has the focus (any element when role is empty), and
// says what it is and its number in the current list.
func (s *Session) FocusMove(ctx context.Context, role string, back bool) (*FocusResult, error) {
	role = normText(role)
	ctx, unlock, err := s.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	mods, k, _ := parseKey("Tab")
	if back {
		mods, k, _ = parseKey("Shift+Tab")
	}
	res := &FocusResult{}
	var first string
	for res.Presses < maxFocusPresses {
		if err := pressKey(ctx, s.page, mods, k); err != nil {
			return nil, err
		}
		res.Presses++
		pi, err := s.info(ctx)
		if err != nil {
			return nil, err
		}
		res.Focused = pi.Active
		if role == "" || (pi.Active != nil && roleMatches(&Item{Role: pi.Active.Role, Tag: pi.Active.Tag}, role)) {
			break
		}
		key := ""
		if pi.Active != nil {
			key = pi.Active.ID + "|" + pi.Active.Role + "|" + pi.Active.Name
		}
		if res.Presses == 1 {
			first = key
		} else if key == first {
			return nil, fmt.Errorf("no element of role %q takes the keyboard focus on this page", role)
		}
	}
	if role != "" && (res.Focused == nil || !roleMatches(&Item{Role: res.Focused.Role, Tag: res.Focused.Tag}, role)) {
		return nil, fmt.Errorf("no element of role %q within %d presses", role, maxFocusPresses)
	}
	if res.Focused == nil {
		res.Note = "The focus is on the page itself (no element)."
		return res, nil
	}
	if n, err := s.validate(ctx); err == nil {
		if res.Focused.ID != "" {
			res.Number = n.numberOfID(res.Focused.ID)
		}
		if res.Number == 0 && n.partial {
			// The focus went past a first window's prefix (its element has no
			// number yet): number the rest of the page, the prefix keeping its
			// numbers, so the listener hears the number to act on.
			if _, err := s.listFull(ctx, ListOptions{Scope: n.scope, Limit: n.limit, Offset: n.offset}); err == nil {
				if pi, err := s.info(ctx); err == nil && pi.Active != nil {
					res.Focused = pi.Active
					res.Number = s.current.Load().numberOfID(pi.Active.ID)
				}
			}
		}
	}
	return res, nil
}

// ActByIndex is SPEC §5's last resort: like Act, but when the numbering is
// stale it lists again and acts only if the element that had this number is
// found again (same data-blind-id in the same frame, else the only element of
// the same role and name), on its new number. The result says so.
func (s *Session) ActByIndex(ctx context.Context, o ActOptions) (*ActResult, error) {
	if o.Index < 1 {
		return nil, invalid("index must be a number from the last list (1 or more)")
	}
	ctx, unlock, err := s.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	old, err := s.validate(ctx)
	if err == nil {
		res, err := s.act(ctx, o)
		if res != nil {
			res.Note = joinNote(res.Note, "Fallback act_by_index: the numbering was current; prefer browser_overlay_act.")
		}
		return res, err
	}
	if old == nil || o.Index > len(old.items) {
		return nil, err
	}
	was := old.items[o.Index-1]
	// The element is looked for on the whole page, not only its first window.
	if _, err := s.listFull(ctx, ListOptions{Scope: old.scope, Limit: old.limit, Offset: old.offset}); err != nil {
		return nil, err
	}
	n := s.current.Load()
	var found *Item
	for _, it := range n.items {
		if it.ID == was.ID && it.Frame == was.Frame && it.Role == was.Role {
			found = it
			break
		}
	}
	if found == nil {
		var same []*Item
		for _, it := range n.items {
			if it.Role == was.Role && it.Name == was.Name && it.Frame == was.Frame {
				same = append(same, it)
			}
		}
		if len(same) != 1 {
			return nil, fail(KindListChanged, o.Index, old.gen, label(was), n.gen)
		}
		found = same[0]
	}
	o2 := o
	o2.Index, o2.Limit, o2.Offset = found.Number, nil, nil
	res, err := s.act(ctx, o2)
	if res != nil {
		res.Note = joinNote(res.Note, fmt.Sprintf("Fallback act_by_index: the page had changed; list %d was made and element %d of the old list is number %d now.", n.gen, o.Index, found.Number))
	}
	return res, err
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	if b == "" {
		return a
	}
	return a + " " + b
}

// numberOfID is the number of the top document's element with this
// data-blind-id, or 0.
func (n *numbering) numberOfID(id string) int {
	if n == nil {
		return 0
	}
	for _, it := range n.items {
		if it.Frame == "" && it.ID == id {
			return it.Number
		}
	}
	return 0
}
