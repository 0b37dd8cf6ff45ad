package browser

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// ActOptions is one action by number. Index is the element's number in the
// last list. Limit and Offset, when given, must be those of the last list
// (SPEC §5.1: numbers are read against the list the model saw).
type ActOptions struct {
	Index  int
	Action string // click, type, select
	Text   string // for type and select
	Limit  *int
	Offset *int
}

// ActResult reports an action and where it left the page.
type ActResult struct {
	Number int    `json:"number"`
	Action string `json:"action"`
	Role   string `json:"role"`
	Name   string `json:"name"`
	Value  string `json:"value,omitempty"`
	// TypedChars is how many characters a type action left in the field
	// (its value is never said back).
	TypedChars     int        `json:"typed_chars,omitempty"`
	Selected       string     `json:"selected,omitempty"`
	RetriedWithTab bool       `json:"retried_with_tab,omitempty"`
	Focused        *Described `json:"focused,omitempty"`
	Navigated      bool       `json:"navigated"`
	URL            string     `json:"url"`
	Title          string     `json:"title"`
	NetworkIdle    bool       `json:"network_idle"`
	Dialogs        []string   `json:"dialogs,omitempty"`
	// Dialog is a JavaScript dialog the action opened; it waits for the user.
	Dialog         *Dialog       `json:"dialog_open,omitempty"`
	NumberingStale bool          `json:"numbering_stale"`
	Note           string        `json:"note,omitempty"`
	Banners        *BannerReport `json:"banners,omitempty"`
	// NewTabs are the tabs the action made the page open (target=_blank,
	// window.open); the current tab stays the same.
	NewTabs []Tab `json:"new_tabs,omitempty"`
}

// Act clicks, types into or selects in the element with the given number of
// the last list, with real mouse and keyboard input. It refuses when the list
// is stale or the element is gone, hidden, covered or disabled: it never
// clicks anything but the element the number named.
func (s *Session) Act(ctx context.Context, o ActOptions) (*ActResult, error) {
	o.Action = strings.ToLower(strings.TrimSpace(o.Action))
	switch o.Action {
	case "click":
	case "type":
	case "select":
		if strings.TrimSpace(o.Text) == "" {
			return nil, invalid("action select needs text: the option's visible text or value")
		}
	default:
		return nil, invalid("action %q: use click, type or select", o.Action)
	}
	if o.Index < 1 {
		return nil, invalid("index must be a number from the last list (1 or more)")
	}
	ctx, unlock, err := s.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	return s.act(ctx, o)
}

// act is Act with the lock held and the options checked.
func (s *Session) act(ctx context.Context, o ActOptions) (*ActResult, error) {
	defer s.release(ctx)
	n, err := s.keptNumber(ctx, o.Index)
	if err != nil {
		return nil, err
	}
	it, err := n.actItem(o)
	if err != nil {
		return nil, err
	}
	if err := s.askOtherSite(ctx, n, it, o); err != nil {
		return nil, err
	}
	s.markFocus(n.url, it)
	w, err := s.itemWorld(ctx, n, it)
	if err != nil {
		return nil, err
	}
	res := &ActResult{Number: it.Number, Action: o.Action, Role: it.Role, Name: it.Name}
	before := s.ev.snapshot()
	tabMark := s.tabMark()
	work := *res
	// Until the result is made, calls to the page end when its tab closes.
	outer := ctx
	ctx, stop := s.aliveCtx(ctx)
	defer stop()
	dialog, err := s.watchInput(ctx, func(ctx context.Context) error {
		switch o.Action {
		case "click":
			return s.clickItem(ctx, it, w, clickAt)
		case "type":
			return s.typeInto(ctx, it, w, o.Text, &work)
		case "select":
			return s.selectIn(ctx, it, w, o.Text, &work)
		}
		return nil
	})
	if err != nil && !(ctx.Err() != nil && outer.Err() == nil && o.Action == "click") {
		return nil, err
	}
	if dialog != nil {
		res.Dialog = dialog
		res.Note = (&DialogError{Dialog: *dialog}).Error()
		return res, nil
	}
	*res = work
	var changing bool
	res.Navigated, res.NetworkIdle, changing = s.settle(ctx, before, false)
	st := &PageState{}
	s.describe(ctx, st)
	res.URL, res.Title, res.Dialogs = st.URL, st.Title, st.Dialogs
	if pi, err := s.info(ctx); err == nil && !res.Navigated {
		res.Focused = pi.Active
	}
	if o.Action == "click" {
		if res.Banners = s.bannersAfterClick(ctx, it); res.Banners != nil && res.Banners.Renumbered > 0 {
			res.Note = joinNote(res.Note, fmt.Sprintf("Banners were closed and the page was numbered again (list %d).", res.Banners.Renumbered))
		}
	}
	res.NumberingStale = res.Navigated || s.isStale(ctx) || (res.Banners != nil && res.Banners.Renumbered > 0)
	if res.NumberingStale {
		res.Note = "The page changed: call browser_list_interactives before acting by number again."
	}
	if changing {
		res.Note = joinNote(res.Note, stillChanging)
	}
	if o.Action == "click" {
		s.tabsAfterClick(outer, tabMark, res)
	}
	return res, nil
}

// actItem is the element of numbering n that o acts on: the window o names
// (limit, offset) must be n's, and its number one of n's.
func (n *numbering) actItem(o ActOptions) (*Item, error) {
	if (o.Limit != nil && *o.Limit != n.limit) || (o.Offset != nil && *o.Offset != n.offset) {
		return nil, fail(KindListWindow, n.gen, n.limit, n.offset)
	}
	if o.Index > len(n.items) {
		if len(n.items) == 0 {
			return nil, fail(KindListEmpty, n.gen)
		}
		return nil, n.notNumbered(o.Index)
	}
	return n.items[o.Index-1], nil
}

func goneError(it *Item) error {
	return fail(KindGone, it.Number, label(it))
}

// covered is the *Error of an element something lies over (its Args: the
// element's number and label, and the Cover), nil for any other error.
func covered(err error) *Error {
	var e *Error
	if errors.As(err, &e) && (e.Kind == KindCoveredBy || e.Kind == KindCoveredByOverFrame) {
		return e
	}
	return nil
}

// pointFor scrolls the element into view and returns a point of it, in the top
// viewport, where a click reaches the element itself.
func (s *Session) pointFor(ctx context.Context, it *Item, w *world) (x, y float64, disabled bool, err error) {
	x, y, disabled, _, err = s.pointWho(ctx, it, w)
	return x, y, disabled, err
}

// pointWho is pointFor that also says the element's role and name as they
// are now (a page may rename an element under the pointer).
func (s *Session) pointWho(ctx context.Context, it *Item, w *world) (x, y float64, disabled bool, who string, err error) {
	obj, err := s.ref(ctx, w, "e", it.ID)
	if err != nil {
		return 0, 0, false, "", err
	}
	if obj == "" {
		return 0, 0, false, "", goneError(it)
	}
	_ = proto.DOMScrollIntoViewIfNeeded{ObjectID: obj}.Call(w.p.Context(ctx))
	var pt struct {
		Gone      bool       `json:"gone"`
		Hidden    string     `json:"hidden"`
		Covered   string     `json:"covered"`
		Disabled  bool       `json:"disabled"`
		X         float64    `json:"x"`
		Y         float64    `json:"y"`
		Rect      [4]float64 `json:"rect"`
		Offscreen bool       `json:"offscreen"`
		Role      string     `json:"role"`
		Name      string     `json:"name"`
	}
	if err := s.call(ctx, w, "point", map[string]any{"id": it.ID}, &pt); err != nil {
		return 0, 0, false, "", err
	}
	switch {
	case pt.Gone:
		return 0, 0, false, "", goneError(it)
	case pt.Hidden != "":
		return 0, 0, false, "", fail(KindUnreachable, it.Number, label(it), pt.Hidden)
	case pt.Covered != "":
		return 0, 0, pt.Disabled, "", fail(KindCoveredBy, it.Number, label(it), Cover(pt.Covered))
	case pt.Offscreen:
		return 0, 0, pt.Disabled, "", fail(KindNoScroll, it.Number, label(it))
	}
	x, y = pt.X, pt.Y
	if it.frame.parent != nil {
		// The overlay measured in the frame's viewport: map the point out
		// through each <iframe> to the top viewport, where input goes.
		x, y, err = s.toTop(ctx, it, x, y)
		if err != nil {
			return 0, 0, pt.Disabled, "", err
		}
	}
	return x, y, pt.Disabled, pt.Role + "\x00" + pt.Name, nil
}

// A press follows an element that moves under the pointer (an accordion
// still opening above it, a list sliding in) for pressFollow, and at least
// pressPasses looks, before it gives up: an animation of a few hundred
// milliseconds outlasted three quick looks on a loaded machine (MiniWoB's
// click-collapsible-2 in CI), and the click was refused though the element
// was about to stand still. One that never settles is still refused.
const (
	pressPasses = 3
	pressFollow = 2 * time.Second
	pressPause  = 40 * time.Millisecond
)

// clickItem presses the element with press (clickAt, ctrlClickAt) only once
// the element itself is what lies under the pointer after the pointer came to
// it (issue 32, clickjacking): the pointer moves to the element's point, the
// page's pointer handlers and the short timers they set run, and the element
// is hit-tested again where it lives (its own frame, through open shadow
// roots, and through every frame above it). When the page put something over
// it, or renamed it, as the pointer arrived, nothing is pressed and the
// error says so; when it only moved, the pointer follows it (a few times).
func (s *Session) clickItem(ctx context.Context, it *Item, w *world, press func(context.Context, *rod.Page, float64, float64) error) error {
	x, y, disabled, who, err := s.pointWho(ctx, it, w)
	if err != nil {
		return err
	}
	if disabled {
		return fail(KindDisabled, it.Number, label(it))
	}
	until := time.Now().Add(pressFollow)
	for pass := 0; pass < pressPasses || time.Now().Before(until); pass++ {
		if pass > 0 {
			sleepCtx(ctx, pressPause)
		}
		if err := moveTo(ctx, s.page, x, y); err != nil {
			return err
		}
		_ = s.call(ctx, w, "turn", map[string]any{"max": 500}, nil)
		x2, y2, disabled, who2, err := s.pointWho(ctx, it, w)
		switch ce := covered(err); {
		case ce != nil:
			by := string(ce.Args[2].(Cover))
			if i := strings.LastIndex(by, "#"); i > strings.LastIndex(by, `"`) {
				by = by[:i] // the element's id attribute is no word for the user
			}
			return fail(KindCovered, Cover(by), it.Number, label(it))
		case err != nil:
			return err
		case disabled:
			return fail(KindDisabled, it.Number, label(it))
		case who2 != who:
			role, name, _ := strings.Cut(who2, "\x00")
			return fail(KindRenamed, it.Number, label(it), Label{Role: role, Name: name})
		}
		if abs(x2-x) < 1 && abs(y2-y) < 1 {
			if s.opts.HoldKeyboard != nil {
				defer s.opts.HoldKeyboard()()
			}
			return press(ctx, s.page, x, y)
		}
		x, y = x2, y2
	}
	return fail(KindKeptMoving, it.Number, label(it))
}

// askOtherSite asks before a password goes into a field of a frame from
// another site than the page (issue 32 point 5: a page on one site framing a
// login of another looked like any field, and the password went in): the
// first such type command is refused with the site named; the same command
// again, on the same element of the same list, is the user's yes.
func (s *Session) askOtherSite(ctx context.Context, n *numbering, it *Item, o ActOptions) error {
	if o.Action != "type" || it.FrameSite == "" || o.Text == "" || !strings.EqualFold(it.Type, "password") {
		return nil
	}
	if site, ok := ctx.Value(confirmedSiteKey{}).(string); ok && strings.EqualFold(site, it.FrameSite) {
		return nil // the door asked the user already
	}
	sum := sha256.Sum256([]byte(o.Text))
	key := fmt.Sprintf("%d|%s|%s|%x", n.gen, it.Frame, it.ID, sum)
	if s.askedSite == key {
		s.askedSite = ""
		return nil
	}
	s.askedSite = key
	return fail(KindOtherSitePassword, it.Number, label(it), it.FrameSite, it.FrameSite)
}

type confirmedSiteKey struct{}

// WithConfirmedSite returns ctx whose type actions may put a password into a
// field of a frame from site (host[:port], as Item.FrameSite says it)
// without asking again: for a door that asked the user itself (the
// assistant, after the user's yes).
func WithConfirmedSite(ctx context.Context, site string) context.Context {
	return context.WithValue(ctx, confirmedSiteKey{}, site)
}

var typeableRoles = map[string]bool{"textbox": true, "searchbox": true, "combobox": true, "spinbutton": true}

// segmentedTypes are the input types typed part by part (month, day, year…).
var segmentedTypes = map[string]bool{"date": true, "time": true, "datetime-local": true, "month": true, "week": true}

// typeInto focuses the field (a real click, then focus), clears it and types
// the text with key events; if the field does not take it, it presses Tab and
// tries once more (SPEC §5: focus for typing).
func (s *Session) typeInto(ctx context.Context, it *Item, w *world, text string, res *ActResult) error {
	if !typeableRoles[it.Role] && it.Tag != "textarea" && !(it.Tag == "input" && typeableRoles[it.Role]) {
		return fail(KindNotTextField, it.Number, label(it))
	}
	if it.Tag == "select" {
		return fail(KindIsListBox, it.Number, label(it))
	}
	ty := &typing{s: s, ctx: ctx, it: it, w: w, text: text, res: res}
	ok, why, err := ty.attempt()
	if err != nil {
		return err
	}
	if !ok {
		if err := pressKey(ctx, s.page, nil, namedKeys["tab"]); err != nil {
			return err
		}
		res.RetriedWithTab = true
		ok, why2, err := ty.attempt()
		if err != nil {
			return err
		}
		if !ok {
			return fail(KindTypeFailed, it.Number, label(it), why, why2)
		}
	}
	return nil
}

// typing is one type action on a field: each attempt focuses, clears,
// types and checks what the field took. An attempt that did not work says
// why (ok false, why set); an error ends the action.
type typing struct {
	s    *Session
	ctx  context.Context
	it   *Item
	w    *world
	text string
	res  *ActResult
}

func (ty *typing) attempt() (ok bool, why string, err error) {
	if ok, why, err := ty.focus(); !ok || err != nil {
		return ok, why, err
	}
	if err := ty.clear(); err != nil {
		return false, "", err
	}
	if err := ty.put(); err != nil {
		return false, "", err
	}
	return ty.check()
}

// focus clicks the field where it can be seen (not a covered one, nor a
// date or time field) and gives it the focus.
func (ty *typing) focus() (bool, string, error) {
	s, ctx, it, w := ty.s, ty.ctx, ty.it, ty.w
	_, _, disabled, err := s.pointFor(ctx, it, w)
	switch {
	case covered(err) != nil:
		// Covered: do not click whatever is on top; focusing may still work.
	case err != nil:
		return false, "", err
	case disabled:
		return false, "", fail(KindDisabled, it.Number, label(it))
	case segmentedTypes[it.Type]:
		// A date or time field is typed part by part from its first part,
		// where focus puts the caret; a click lands on whichever part (or
		// the picker button) is under the pointer.
	default:
		if err := s.clickItem(ctx, it, w, clickAt); err != nil {
			return false, "", err
		}
	}
	var f struct {
		Gone    bool `json:"gone"`
		Focused bool `json:"focused"`
	}
	if err := s.call(ctx, w, "focus", map[string]any{"id": it.ID}, &f); err != nil {
		return false, "", err
	}
	if f.Gone {
		return false, "", goneError(it)
	}
	if !f.Focused {
		return false, "the field did not take the focus", nil
	}
	return true, "", nil
}

// clear selects the field's text and deletes it, twice at most.
func (ty *typing) clear() error {
	for round := 0; round < 2; round++ {
		var sa struct {
			Len int `json:"len"`
		}
		if err := ty.s.call(ty.ctx, ty.w, "selectAll", map[string]any{"id": ty.it.ID}, &sa); err != nil {
			return err
		}
		if sa.Len == 0 {
			return nil
		}
		if err := pressKey(ty.ctx, ty.s.page, nil, namedKeys["backspace"]); err != nil {
			return err
		}
	}
	return nil
}

// put types the text, key by key (a password at once).
func (ty *typing) put() error {
	if strings.EqualFold(ty.it.Type, "password") {
		// A password goes in at once, as an input method would put it:
		// no key events a page could log, no partial value it could send
		// at each key (issue 32 point 4); the whole value is guarded.
		return (proto.InputInsertText{Text: ty.text}).Call(ty.s.page.Context(ty.ctx))
	}
	return typeText(ty.ctx, ty.s.page, ty.text)
}

// check reads the field back: typed text must be there (how much is said,
// not what), an empty text must have cleared it.
func (ty *typing) check() (bool, string, error) {
	var v struct {
		Gone     bool   `json:"gone"`
		Value    string `json:"value"`
		Password bool   `json:"password"`
	}
	if err := ty.s.call(ty.ctx, ty.w, "value", map[string]any{"id": ty.it.ID}, &v); err != nil {
		return false, "", err
	}
	if v.Gone {
		return false, "", goneError(ty.it)
	}
	text := ty.text
	if text != "" && v.Value == "" {
		return false, "the field stayed empty", nil
	}
	if text == "" && v.Value != "" {
		return false, "the field could not be cleared", nil
	}
	// What was typed is not said back: how much was.
	ty.res.TypedChars = len([]rune(v.Value))
	if v.Value != text && !v.Password && strings.TrimSpace(text) != "" {
		ty.res.Note = "The field now shows a different value than typed (it may format or limit input)."
	}
	return true, "", nil
}

// selectIn picks an option of a <select> by its visible text or value.
func (s *Session) selectIn(ctx context.Context, it *Item, w *world, text string, res *ActResult) error {
	if obj, err := s.ref(ctx, w, "e", it.ID); err == nil && obj != "" {
		_ = proto.DOMScrollIntoViewIfNeeded{ObjectID: obj}.Call(w.p.Context(ctx))
	}
	var r struct {
		Gone           bool     `json:"gone"`
		NotSelect      bool     `json:"notSelect"`
		Disabled       bool     `json:"disabled"`
		Ambiguous      []string `json:"ambiguous"`
		None           bool     `json:"none"`
		Options        []string `json:"options"`
		OptionDisabled string   `json:"optionDisabled"`
		Selected       string   `json:"selected"`
	}
	if err := s.call(ctx, w, "select", map[string]any{"id": it.ID, "text": text}, &r); err != nil {
		return err
	}
	switch {
	case r.Gone:
		return goneError(it)
	case r.NotSelect:
		return fail(KindNotListBox, it.Number, label(it))
	case r.Disabled:
		return fail(KindDisabled, it.Number, label(it))
	case len(r.Ambiguous) > 0:
		return fail(KindAmbiguousOption, text, it.Number, strings.Join(r.Ambiguous, "; "))
	case r.None:
		return fail(KindNoOption, it.Number, label(it), text, strings.Join(r.Options, "; "))
	case r.OptionDisabled != "":
		return fail(KindOptionDisabled, r.OptionDisabled, it.Number)
	}
	res.Selected = r.Selected
	return nil
}

func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// PressResult reports a key press and what has the focus afterwards.
type PressResult struct {
	Key            string     `json:"key"`
	Focused        *Described `json:"focused,omitempty"`
	Navigated      bool       `json:"navigated"`
	URL            string     `json:"url"`
	Title          string     `json:"title"`
	NetworkIdle    bool       `json:"network_idle"`
	Dialogs        []string   `json:"dialogs,omitempty"`
	Dialog         *Dialog    `json:"dialog_open,omitempty"`
	NumberingStale bool       `json:"numbering_stale,omitempty"`
	Note           string     `json:"note,omitempty"`
}

// Press presses a key (Enter, Tab, Escape, ArrowDown, Space, k, Shift+Tab…)
// on whatever has the focus, as a real key event.
func (s *Session) Press(ctx context.Context, key string) (*PressResult, error) {
	mods, k, err := parseKey(key)
	if err != nil {
		return nil, err
	}
	ctx, unlock, err := s.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	// Keys typed one by one count as typing: the field's value is not said
	// back, and a password's is guarded (before the key too: Enter may send
	// the form).
	s.notePressed(ctx, false)
	defer s.notePressed(ctx, len([]rune(k.key)) == 1 || k.key == "Backspace" || k.key == "Delete" || k.key == "Space")
	before := s.ev.snapshot()
	res := &PressResult{Key: key}
	dialog, err := s.watchInput(ctx, func(ctx context.Context) error { return pressKey(ctx, s.page, mods, k) })
	if err != nil {
		return nil, err
	}
	if dialog != nil {
		res.Dialog = dialog
		res.Note = (&DialogError{Dialog: *dialog}).Error()
		return res, nil
	}
	var changing bool
	res.Navigated, res.NetworkIdle, changing = s.settle(ctx, before, k.key == "Enter")
	if changing {
		res.Note = stillChanging
	}
	if pi, err := s.info(ctx); err == nil {
		res.URL, res.Title = pi.URL, pi.Title
		if !res.Navigated {
			res.Focused = pi.Active
		}
	}
	res.Dialogs = s.ev.takeDialogs()
	if s.current.Load() != nil {
		res.NumberingStale = res.Navigated || s.isStale(ctx)
	}
	return res, nil
}

// ScrollOptions: To ("top" or "bottom") or a distance in CSS pixels; nothing
// scrolls down by most of a screen.
type ScrollOptions struct {
	To  string
	ByX float64
	ByY float64
	// Index scrolls until element Index of the current list is in view.
	Index int
	// Behavior is "smooth" (the default: real mouse-wheel events, which
	// pages that load more on scrolling expect) or "instant" (a jump, exact
	// where a page takes the wheel for itself).
	Behavior string
}

// ScrollResult says where the page is now and whether it grew (lazy loading).
type ScrollResult struct {
	X              float64 `json:"x"`
	Y              float64 `json:"y"`
	MaxY           float64 `json:"max_y"`
	ViewportHeight float64 `json:"viewport_height"`
	AtTop          bool    `json:"at_top"`
	AtBottom       bool    `json:"at_bottom"`
	Moved          bool    `json:"moved"`
	PageGrew       bool    `json:"page_grew"`
	NumberingStale bool    `json:"numbering_stale,omitempty"`
	// InView says whether the element asked for (index) is now on screen.
	InView *bool `json:"in_view,omitempty"`
}

// norm checks the options and reports whether the scroll is an instant
// jump.
func (o *ScrollOptions) norm() (instant bool, err error) {
	o.To = strings.ToLower(strings.TrimSpace(o.To))
	if o.To != "" && o.To != "top" && o.To != "bottom" {
		return false, invalid("to %q: use top or bottom", o.To)
	}
	if o.To != "" && (o.ByX != 0 || o.ByY != 0) {
		return false, invalid("give either to or by_x/by_y, not both")
	}
	if o.Index < 0 || (o.Index > 0 && (o.To != "" || o.ByX != 0 || o.ByY != 0)) {
		return false, invalid("index is an element's number from the last list (1 or more), and goes alone, without to or by_x/by_y")
	}
	o.Behavior = strings.ToLower(strings.TrimSpace(o.Behavior))
	if o.Behavior != "" && o.Behavior != "smooth" && o.Behavior != "instant" {
		return false, invalid("behavior %q: use smooth (mouse wheel, the default) or instant (a jump)", o.Behavior)
	}
	return o.Behavior == "instant", nil
}

// scroller scrolls the top document by wheel (over the viewport's middle)
// or by jumps, and keeps where the page is after each move.
type scroller struct {
	s       *Session
	ctx     context.Context
	w       *world
	instant bool
	cx, cy  float64
	cur     *pageInfo
}

// once scrolls by (dx, dy) and waits until the position holds (wheel
// scrolling may animate).
func (sc *scroller) once(dx, dy float64) error {
	s, ctx := sc.s, sc.ctx
	if sc.instant {
		if err := s.call(ctx, sc.w, "scrollBy", map[string]any{"dx": dx, "dy": dy}, nil); err != nil {
			return err
		}
	} else if err := wheel(ctx, s.page, sc.cx, sc.cy, dx, dy); err != nil {
		return err
	}
	last := [2]float64{math.NaN(), math.NaN()}
	for i := 0; i < 12; i++ {
		_ = s.call(ctx, sc.w, "settle", nil, nil)
		pi, err := s.info(ctx)
		if err != nil {
			return err
		}
		sc.cur = pi
		if pi.Sx == last[0] && pi.Sy == last[1] {
			break
		}
		last = [2]float64{pi.Sx, pi.Sy}
	}
	return nil
}

// toEdge scrolls to the top or the bottom ("top", "bottom"), again while a
// page that grows moves the bottom away, ten moves at most.
func (sc *scroller) toEdge(to string) error {
	for i := 0; i < 10; i++ {
		cur := sc.cur
		dy := cur.Sh - cur.Vh - cur.Sy
		if to == "top" {
			dy = -cur.Sy
		}
		if math.Abs(dy) < 1 {
			return nil
		}
		prev := cur.Sy
		if err := sc.once(0, dy); err != nil {
			return err
		}
		if sc.cur.Sy == prev {
			return nil
		}
	}
	return nil
}

// Scroll scrolls with real mouse-wheel events over the middle of the
// viewport, so pages that load more on wheel or scroll see what they expect.
func (s *Session) Scroll(ctx context.Context, o ScrollOptions) (*ScrollResult, error) {
	instant, err := o.norm()
	if err != nil {
		return nil, err
	}
	ctx, unlock, err := s.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	w, err := s.topWorld(ctx)
	if err != nil {
		return nil, err
	}
	start, err := s.info(ctx)
	if err != nil {
		return nil, err
	}
	sc := &scroller{s: s, ctx: ctx, w: w, instant: instant, cx: start.Vw / 2, cy: start.Vh / 2, cur: start}
	var inView *bool
	switch {
	case o.Index > 0:
		v, err := s.scrollToItem(ctx, o.Index, start.Vw, start.Vh, instant, sc.once)
		if err != nil {
			return nil, err
		}
		inView = &v
	case o.To == "bottom" || o.To == "top":
		if err := sc.toEdge(o.To); err != nil {
			return nil, err
		}
	default:
		dx, dy := o.ByX, o.ByY
		if dx == 0 && dy == 0 {
			dy = math.Round(start.Vh * 0.8)
		}
		if err := sc.once(dx, dy); err != nil {
			return nil, err
		}
	}
	// Give lazy loaders their requests and their rendering.
	sctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	s.ev.waitIdle(sctx, settleQuiet)
	cancel()
	_ = s.call(ctx, w, "settle", nil, nil)
	cur := sc.cur
	if pi, err := s.info(ctx); err == nil {
		cur = pi
	}
	res := &ScrollResult{X: cur.Sx, Y: cur.Sy, MaxY: math.Max(0, cur.Sh-cur.Vh), ViewportHeight: cur.Vh,
		AtTop: cur.Sy <= 1, AtBottom: cur.Sy+cur.Vh >= cur.Sh-1,
		Moved: cur.Sx != start.Sx || cur.Sy != start.Sy, PageGrew: cur.Sh > start.Sh, InView: inView}
	if s.current.Load() != nil {
		res.NumberingStale = s.isStale(ctx)
	}
	return res, nil
}

// scrollToItem wheels the page until element index of the current list is
// on screen (its middle in the middle of the viewport where the page lets it):
// real wheel events, so what loads on scrolling loads. An element in a frame,
// or in a box the wheel over the page's middle does not move, is brought into
// view by the browser instead. It reports whether the element is on screen.
func (s *Session) scrollToItem(ctx context.Context, index int, vw, vh float64, instant bool, scrollOnce func(dx, dy float64) error) (bool, error) {
	n, err := s.validate(ctx)
	if err != nil {
		return false, err
	}
	if index > len(n.items) {
		return false, n.notNumbered(index)
	}
	it := n.items[index-1]
	w, err := s.itemWorld(ctx, n, it)
	if err != nil {
		return false, err
	}
	var pt struct {
		Gone bool       `json:"gone"`
		Rect [4]float64 `json:"rect"` // left, top, width, height
	}
	where := func() error {
		pt.Gone, pt.Rect = false, [4]float64{}
		if err := s.call(ctx, w, "point", map[string]any{"id": it.ID}, &pt); err != nil {
			return err
		}
		if pt.Gone {
			return goneError(it)
		}
		return nil
	}
	visible := func() bool {
		r := pt.Rect
		return r[2] > 0 && r[1] < vh && r[1]+r[3] > 0 && r[0] < vw && r[0]+r[2] > 0
	}
	if it.frame.path == "" && !instant {
		for i := 0; i < 8; i++ {
			if err := where(); err != nil {
				return false, err
			}
			r := pt.Rect
			dy := math.Round(r[1] + r[3]/2 - vh/2)
			dx := 0.0
			if r[0] < 0 || r[0]+r[2] > vw {
				dx = math.Round(r[0] + r[2]/2 - vw/2)
			}
			if visible() && math.Abs(dy) < vh/4 && dx == 0 {
				return true, nil
			}
			before := r
			if err := scrollOnce(dx, dy); err != nil {
				return false, err
			}
			if err := where(); err != nil {
				return false, err
			}
			if pt.Rect == before {
				break // the wheel moves something else: let the browser do it
			}
		}
		if visible() {
			return true, nil
		}
	}
	obj, err := s.ref(ctx, w, "e", it.ID)
	if err != nil {
		return false, err
	}
	if obj == "" {
		return false, goneError(it)
	}
	_ = proto.DOMScrollIntoViewIfNeeded{ObjectID: obj}.Call(w.p.Context(ctx))
	if err := where(); err != nil {
		return false, err
	}
	if it.frame.path != "" {
		return pt.Rect[2] > 0, nil // in its frame's viewport; the frame itself may need a scroll of the page
	}
	return visible(), nil
}

// keptNumber is validate for acting on number index: when the list is out
// of date only because elements were added or removed (search results drawn
// below, a banner gone), the page is numbered again, and when the elements up
// to index kept their numbers the new list stands and the action goes ahead.
// Only a number whose element really moved or went away is refused.
func (s *Session) keptNumber(ctx context.Context, index int) (*numbering, error) {
	n, err := s.validate(ctx)
	var se *StaleError
	if err == nil || !errors.As(err, &se) || n == nil || !n.onlyGrown() || index < 1 || index > len(n.items) {
		return n, err
	}
	old := n.items[:index]
	if _, lerr := s.listFull(ctx, ListOptions{Scope: n.scope, Limit: n.limit, Offset: n.offset}); lerr != nil {
		return n, err
	}
	fresh := s.current.Load()
	if fresh == nil || fresh == n {
		return n, err
	}
	if samePrefix(old, fresh.items) {
		return fresh, nil
	}
	// Refused: the old numbers stay the ones in force (stale), so that the
	// same number said again is refused again, never acted on as another
	// element.
	s.current.Store(n)
	it := n.items[index-1]
	for _, f := range fresh.items {
		if f.ID == it.ID && f.Frame == it.Frame {
			return nil, &StaleError{Generation: n.gen, Number: index, Label: label(it), Now: f.Number}
		}
	}
	return nil, &StaleError{Generation: n.gen, Number: index, Label: label(it)}
}
