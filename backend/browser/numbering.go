package browser

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

// Item is one numbered interactive element, as browser_list_interactives and
// browser_find return it. Number is what the user and the model act by; ID is
// the element's data-blind-id inside its own document (Frame says which one).
type Item struct {
	Number int    `json:"number"`
	ID     string `json:"id"`
	Role   string `json:"role"`
	Name   string `json:"name"`
	Tag    string `json:"tag"`
	Type   string `json:"type,omitempty"`
	Value  string `json:"value,omitempty"`
	// Typed is how many characters were typed into the field in this
	// session; its value is then never given (typed.go).
	Typed    int    `json:"typed,omitempty"`
	Href     string `json:"href,omitempty"`
	Disabled bool   `json:"disabled,omitempty"`
	Checked  *bool  `json:"checked,omitempty"`
	// Frame is the path of the iframe the element lives in: data-blind-frame
	// ids from the top document down, joined by "/"; empty for the top document.
	Frame string `json:"frame,omitempty"`
	// FrameOrigin is the origin of the document of an element inside a frame
	// (scheme://host:port): the page it shows may be another site's.
	FrameOrigin string `json:"frame_origin,omitempty"`
	// FrameSite is the host (and port) of that document when it is another
	// site than the page's (issue 32 point 5): what is typed there goes to
	// that site, and a password is typed there only when asked twice.
	FrameSite string `json:"frame_site,omitempty"`

	frame  *frameRef
	extra  string     // the extra labels the page gave (aria-label, placeholder, title…)
	search string     // normalised name and extra labels, made by find when first needed
	rect   [4]float64 // in the frame's viewport at list time
}

// SkippedFrame is a frame the numbering could not enter, and why.
type SkippedFrame struct {
	Frame  string `json:"frame"`
	URL    string `json:"url,omitempty"`
	Reason string `json:"reason"`
}

// frameRef is one document that contributed to a list.
type frameRef struct {
	path    string
	frameID proto.PageFrameID
	parent  *frameRef  // the frame holding this one's <iframe> (nil: the top)
	fid     string     // the <iframe>'s data-blind-frame id in the parent
	token   string     // the overlay's id of that document
	offset  [2]float64 // the frame's content origin in the top viewport at list time
	url     string
}

// numbering is one list: its generation, its window and every element of it.
type numbering struct {
	gen           int64
	scope         string
	limit, offset int
	items         []*Item
	frames        []*frameRef
	frameIDs      map[proto.PageFrameID]bool
	skipped       []SkippedFrame
	url, title    string
	topScroll     [2]float64
	hasMain       bool
	// partial: the walk stopped after the first elements of the top
	// document (a first window on a long page); items is a prefix, in
	// document order, of the whole numbering, and len(items) a lower bound
	// of its size. A window past that prefix numbers the whole page.
	partial bool

	mu    sync.Mutex
	stale string
	// grown: the only reason it is stale is that elements were added or
	// removed in documents it took elements from (no document replaced, no
	// frame gone); numbers before the first change still hold.
	grown bool
}

func (n *numbering) markStale(reason string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.stale == "" {
		n.stale = reason
	}
}

// markGrown marks n stale because elements were added or removed.
func (n *numbering) markGrown(reason string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.stale == "" {
		n.stale, n.grown = reason, true
	}
}

// onlyGrown reports whether n is stale only because elements were added or
// removed.
func (n *numbering) onlyGrown() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.stale != "" && n.grown
}

func (n *numbering) staleReason() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.stale
}

func (n *numbering) window() []*Item {
	lo := min(n.offset, len(n.items))
	hi := min(lo+n.limit, len(n.items))
	return n.items[lo:hi]
}

// Limits of the numbering.
const (
	// prefixMaxLimit: a first window of at most this many numbers only its
	// prefix of the page (see listWith).
	prefixMaxLimit   = 100
	DefaultListLimit = 50
	MaxListLimit     = 500
	maxFrames        = 30
	maxFrameDepth    = 4
)

// Scopes of browser_list_interactives.
var scopes = map[string]string{
	"page":     "every interactive element of the page (default)",
	"viewport": "only elements now on screen",
	"main":     "only elements inside the main landmark",
	"dialog":   "only elements inside the open modal dialog",
}

// ErrNoList is returned when acting by number before any list.
var ErrNoList = errors.New("no numbering yet: call browser_list_interactives first")

// StaleError is returned when acting on a numbering the page has outgrown.
type StaleError struct {
	Generation int64
	Reason     string
	// Number is the element asked for, when the page was numbered again to
	// check (0: none); Label names it; Now is its number in the new list (0:
	// it is no longer on the page).
	Number int
	Label  Label
	Now    int
}

func (e *StaleError) Error() string {
	why := "the page changed"
	if e.Reason != "" {
		why = e.Reason
	}
	switch {
	case e.Number > 0 && e.Now > 0:
		return fmt.Sprintf("numbering is stale: element %d (%s) is number %d now; call browser_list_interactives again", e.Number, e.Label, e.Now)
	case e.Number > 0:
		return fmt.Sprintf("numbering is stale: element %d (%s) is no longer on the page; call browser_list_interactives again", e.Number, e.Label)
	}
	return fmt.Sprintf("numbering is stale (%s since the last list); call browser_list_interactives again", why)
}

// ListOptions select the window of a list.
type ListOptions struct {
	Scope  string // page (default), viewport, main, dialog
	Limit  int    // default 50, at most 500
	Offset int
}

// ListResult is what browser_list_interactives returns: the window
// [offset, offset+limit) of the numbered elements. Numbers count from 1 over
// the whole list in document order (frames and shadow roots in place), so the
// same number means the same element whatever the window.
type ListResult struct {
	Generation int64 `json:"generation"`
	Total      int   `json:"total"`
	// TotalAtLeast: the page was numbered only as far as this window needs
	// (and one element more); Total is how many are numbered so far, and the
	// page has at least that many. Listing further numbers the rest.
	TotalAtLeast  bool           `json:"total_at_least,omitempty"`
	Offset        int            `json:"offset"`
	Limit         int            `json:"limit"`
	Scope         string         `json:"scope"`
	HasMore       bool           `json:"has_more"`
	NextOffset    int            `json:"next_offset,omitempty"`
	URL           string         `json:"url"`
	Title         string         `json:"title"`
	Documents     int            `json:"documents"`
	SkippedFrames []SkippedFrame `json:"skipped_frames,omitempty"`
	Banners       *BannerReport  `json:"banners,omitempty"`
	Note          string         `json:"note,omitempty"`
	Items         []*Item        `json:"items"`
	// Unsettled: the page was still changing when it was numbered (the
	// note says so; for the doors that say it in their own words).
	Unsettled bool `json:"-"`
}

func (n *numbering) result(note string) *ListResult {
	win := n.window()
	r := &ListResult{Generation: n.gen, Total: len(n.items), TotalAtLeast: n.partial, Offset: n.offset, Limit: n.limit, Scope: n.scope,
		URL: n.url, Title: n.title, Documents: len(n.frames), SkippedFrames: n.skipped, Note: note, Items: win}
	if end := n.offset + len(win); end < len(n.items) {
		r.HasMore, r.NextOffset = true, end
	}
	if r.Items == nil {
		r.Items = []*Item{}
	}
	return r
}

// jsEntry is one entry of the overlay's list: an element ("i") or an iframe
// slot ("f") whose elements are spliced in at its place.
type jsEntry struct {
	K     string     `json:"k"`
	ID    string     `json:"id"`
	Role  string     `json:"role"`
	Name  string     `json:"name"`
	Tag   string     `json:"tag"`
	Type  string     `json:"type"`
	Value string     `json:"value"`
	Href  string     `json:"href"`
	Dis   bool       `json:"dis"`
	Chk   *bool      `json:"chk"`
	S     string     `json:"s"`
	R     [4]float64 `json:"r"`
	XV    int        `json:"xv"` // 1: not in the viewport
	XM    int        `json:"xm"` // 1: not in the main landmark
	XD    int        `json:"xd"` // 1: not in the open dialog
	Fid   string     `json:"fid"`
	Src   string     `json:"src"`
	O     [2]float64 `json:"o"`
}

type jsList struct {
	Token     string    `json:"token"`
	Next      int64     `json:"next"`
	Probe     int       `json:"probe"` // custom elements queued for a closed-root check
	URL       string    `json:"url"`
	Title     string    `json:"title"`
	HasMain   bool      `json:"hasMain"`
	Partial   bool      `json:"partial"`
	HasDialog bool      `json:"hasDialog"`
	Sx        float64   `json:"sx"`
	Sy        float64   `json:"sy"`
	Rows      string    `json:"rows"`
	Entries   []jsEntry `json:"-"`
	T         *jsTiming `json:"t"` // only when asked (phases.go)
}

// listSep splits jsList.Rows into fields (overlay.js: safe).
const listSep = "\x7f"

// decodeRows reads the list's entries from Rows, one after another: an
// element is 15 fields (i, id, role, name, tag, type, value, href, disabled,
// checked, extra, rect, xv, xm, xd), a frame 8 (f, fid, src, ox, oy, xv, xm, xd).
func (l *jsList) decodeRows() error {
	if l.Rows == "" {
		return nil
	}
	f := strings.Split(l.Rows, listSep)
	l.Entries = make([]jsEntry, 0, len(f)/15+1)
	num := func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }
	flag := func(s string) int {
		if s == "1" {
			return 1
		}
		return 0
	}
	for i := 0; i < len(f); {
		switch {
		case f[i] == "i" && i+15 <= len(f):
			e := jsEntry{K: "i", ID: f[i+1], Role: f[i+2], Name: f[i+3], Tag: f[i+4], Type: f[i+5], Value: f[i+6], Href: f[i+7],
				Dis: f[i+8] == "1", S: f[i+10], XV: flag(f[i+12]), XM: flag(f[i+13]), XD: flag(f[i+14])}
			if f[i+9] != "" {
				c := f[i+9] == "1"
				e.Chk = &c
			}
			if f[i+11] != "" {
				if r := strings.Split(f[i+11], ","); len(r) == 4 {
					e.R = [4]float64{num(r[0]), num(r[1]), num(r[2]), num(r[3])}
				}
			}
			l.Entries = append(l.Entries, e)
			i += 15
		case f[i] == "f" && i+8 <= len(f):
			l.Entries = append(l.Entries, jsEntry{K: "f", Fid: f[i+1], Src: f[i+2], O: [2]float64{num(f[i+3]), num(f[i+4])},
				XV: flag(f[i+5]), XM: flag(f[i+6]), XD: flag(f[i+7])})
			i += 8
		default:
			return fail(KindOverlayBad, i, len(f), f[i])
		}
	}
	return nil
}

type scopeFlags struct{ v, m, d bool }

func (f scopeFlags) in(scope string) bool {
	switch scope {
	case "viewport":
		return f.v
	case "main":
		return f.m
	case "dialog":
		return f.d
	}
	return true
}

// invalid is an invalid-arguments error no door says in words of its own
// (arguments only a model gives).
func invalid(format string, a ...any) error {
	return fail(KindInvalid, fmt.Sprintf(format, a...))
}

// List numbers the interactive elements of the current page and returns a
// window of them. It starts a new generation; earlier numbers are void.
func (s *Session) List(ctx context.Context, o ListOptions) (*ListResult, error) {
	ctx, unlock, err := s.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	o, err = normList(o)
	if err != nil {
		return nil, err
	}
	look, pre, rep := s.firstLook(ctx, o)
	r, err := s.listWith(ctx, o, false, look, pre)
	if r != nil {
		r.Banners = rep
	}
	return r, err
}

// listWait is what a caller's wait for a loading page said (waitListable),
// when it waited before its look.
type listWait struct{ note string }

// firstLook is List's look at the top document (lookTop: with the walk when
// it will be used), after a page still loading was waited for, and the
// banner pass of the first list on a host. A look taken while the page was
// loading after all (the news of a request started just before the list
// came during the look) or before the banner pass is dropped (nil: the
// list looks again); when it had walked the document, that walk restarted
// the document's count of changes, so the numbering before it is stale
// (never served again as if nothing had changed). pre is nil when the list
// is to wait again itself (after the banner pass).
func (s *Session) firstLook(ctx context.Context, o ListOptions) (look *topLook, pre *listWait, rep *BannerReport) {
	note, _ := s.waitListable(ctx)
	look = s.lookTop(ctx, firstStop(o, false), reusable(s.current.Load(), o, false))
	pre = &listWait{note: note}
	// drop may run twice (a look dropped because the page was loading,
	// then the banner pass) or with no look taken (nil).
	drop := func() {
		if look != nil && look.List != nil {
			if old := s.current.Load(); old != nil {
				old.markStale("the page was numbered again")
			}
		}
		look = nil
	}
	if look != nil {
		if later, waited := s.waitListable(ctx); waited {
			pre.note = later
			drop()
		}
	}
	if s.opts.Banners.Disabled {
		return look, pre, nil
	}
	// The first numbering on a new domain closes its banners first (which
	// may change the page: the look is taken again, after waiting for the
	// page again). That holds also when no look could be kept (the page
	// was still loading): a list must not number a banner's buttons because
	// the page was busy when it looked.
	host := ""
	if look != nil {
		host = hostOf(look.URL)
	} else if pi, err := s.info(ctx); err == nil {
		host = hostOf(pi.URL)
	}
	if host != "" && host != s.bannerHost {
		t0 := time.Now()
		rep = s.bannersAfter(ctx, "first list on "+host)
		since(ctx, PhaseBanners, t0)
		drop()
		return nil, nil, rep
	}
	return look, pre, nil
}

// reusable is old when a list of o could be served from it without a walk
// if the page has not changed (same scope, the window covered, not stale);
// nil otherwise.
func reusable(old *numbering, o ListOptions, full bool) *numbering {
	if old == nil || old.scope != o.Scope || !old.covers(o.Offset, o.Limit, full) || old.staleReason() != "" {
		return nil
	}
	return old
}

// firstStop is how far a walk for a list of o numbers the top document (0:
// all of it). The first window of a page not numbered yet (or changed since)
// numbers only as far as it needs, plus one element to know whether more
// follows: the first 50 of a 5,000-link page without walking all of it. A
// larger first window (pages of 500) numbers the whole page at once: a walk
// costs much beside its elements, and the next window would walk the page
// again. Any later window numbers the whole page; while the page has not
// changed the walk gives the prefix's elements the same ids in the same
// order, so their numbers stay. (Only the page scope stops early: the others
// filter on the Go side.)
func firstStop(o ListOptions, full bool) int {
	if !full && o.Scope == "page" && o.Offset == 0 && o.Limit <= prefixMaxLimit {
		return o.Limit + 1
	}
	return 0
}

func normList(o ListOptions) (ListOptions, error) {
	if o.Scope == "" {
		o.Scope = "page"
	}
	o.Scope = strings.ToLower(strings.TrimSpace(o.Scope))
	if _, ok := scopes[o.Scope]; !ok {
		return o, invalid("scope %q: use page, viewport, main or dialog", o.Scope)
	}
	if o.Limit == 0 {
		o.Limit = DefaultListLimit
	}
	if o.Limit < 1 || o.Limit > MaxListLimit {
		return o, invalid("limit %d: use 1..%d", o.Limit, MaxListLimit)
	}
	if o.Offset < 0 {
		return o, invalid("offset %d: must not be negative", o.Offset)
	}
	return o, nil
}

func (s *Session) list(ctx context.Context, o ListOptions) (*ListResult, error) {
	return s.listWith(ctx, o, false, nil, nil)
}

// listFull is list with the whole page numbered (never a first-window
// prefix): for callers that search or place all of the numbering.
func (s *Session) listFull(ctx context.Context, o ListOptions) (*ListResult, error) {
	return s.listWith(ctx, o, true, nil, nil)
}

// covers reports whether numbering n can serve the window [offset,
// offset+limit) and say truthfully whether more follows: it is whole, or its
// prefix reaches one element past the window.
func (n *numbering) covers(offset, limit int, full bool) bool {
	return !n.partial || (!full && offset+limit < len(n.items))
}

// listWith lists with the whole page numbered when full; look is the
// caller's first look at the top document (nil: none taken), pre what the
// caller's wait for a loading page said (nil: it did not wait; the list
// waits here).
func (s *Session) listWith(ctx context.Context, o ListOptions, full bool, look *topLook, pre *listWait) (*ListResult, error) {
	o, err := normList(o)
	if err != nil {
		return nil, err
	}
	var n *numbering
	if pre == nil {
		var waited bool
		pre = &listWait{}
		if pre.note, waited = s.waitListable(ctx); waited {
			look = nil // the page changed while it loaded: look again
		}
	}
	note := pre.note
	unsettled := note != ""
	if old := reusable(s.current.Load(), o, full); old != nil && s.unchangedSince(ctx, old, look) {
		// Paging a numbering the page has not outgrown: the same elements
		// under the same numbers, without walking the page again.
		n = old.reuse()
	} else {
		var walkNote string
		n, walkNote, err = s.enumerate(ctx, o.Scope, firstStop(o, full), look)
		if err != nil {
			return nil, err
		}
		note = strings.TrimSpace(walkNote + " " + note)
	}
	s.gen++
	n.gen, n.limit, n.offset = s.gen, o.Limit, o.Offset
	if old := s.current.Swap(n); old != nil {
		old.markStale("a newer list replaced it")
	}
	if s.overlay != nil {
		t0 := time.Now()
		if _, _, err := s.drawOverlay(ctx, n, s.overlay.scheme); err != nil {
			note = strings.TrimSpace(note + " The overlay could not be redrawn: " + err.Error())
		}
		since(ctx, PhaseOverlay, t0)
	}
	if n.offset >= len(n.items) && len(n.items) > 0 {
		note = strings.TrimSpace(note + fmt.Sprintf(" Offset %d is past the end (%d elements).", n.offset, len(n.items)))
	}
	r := n.result(note)
	r.Unsettled = unsettled
	return r, nil
}

// frameElsewhere reports the error of a session asked about a frame that is
// not in its process (a foreign message: Chromium's DevTools words).
func frameElsewhere(err error) bool {
	return err != nil && strings.Contains(err.Error(), "No frame")
}

func frameReason(err error) string {
	m := err.Error()
	switch {
	case frameElsewhere(err):
		return "the frame runs in another browser process that did not answer in time (it may still be loading); list again"
	case sessionGone(err), contextGone(err):
		return "the frame navigated or closed while it was being numbered; list again"
	}
	return "could not read the frame: " + m
}

// validate returns the current numbering if it still describes the page, and
// a *StaleError (or ErrNoList) otherwise.
func (s *Session) validate(ctx context.Context) (*numbering, error) {
	n := s.current.Load()
	if n == nil {
		return nil, ErrNoList
	}
	if r := n.staleReason(); r != "" {
		return n, &StaleError{Generation: n.gen, Reason: r}
	}
	for _, fr := range n.frames {
		w, err := s.world(ctx, fr.frameID)
		if err != nil {
			if ctx.Err() != nil {
				return n, ctx.Err()
			}
			n.markStale(frameGone)
			return n, &StaleError{Generation: n.gen, Reason: frameGone}
		}
		var c struct {
			Token   string `json:"token"`
			Changes int    `json:"changes"`
		}
		if err := s.call(ctx, w, "check", nil, &c); err != nil {
			if ctx.Err() != nil {
				return n, ctx.Err()
			}
			n.markStale("could not check: " + err.Error())
		} else if c.Token != fr.token {
			n.markStale("the document was replaced")
		} else if c.Changes >= s.opts.StaleThreshold {
			n.markGrown("elements were added or removed")
		}
		if r := n.staleReason(); r != "" {
			return n, &StaleError{Generation: n.gen, Reason: r}
		}
	}
	return n, nil
}

// listWaitMax bounds how long a list waits for a page that is still loading
// (requests started in the last listRecent still in flight).
const (
	listWaitMax = time.Second
	listRecent  = 2 * time.Second
)

// waitListable lets a page that is still loading (requests that matter in
// flight) finish before it is numbered: until nothing is in flight and its
// DOM has been quiet for domQuiet, at most listWaitMax. A page that does
// not settle in that time is numbered anyway, with a note saying so; a page
// with nothing in flight costs nothing.
func (s *Session) waitListable(ctx context.Context) (note string, waited bool) {
	defer since(ctx, PhaseWait, time.Now())
	e := s.ev
	// Only requests started in the last listRecent count: one that has been
	// open longer is a long poll or a stream, not results on their way.
	since := time.Now().Add(-listRecent)
	loading := func() bool {
		for _, t := range e.inflight {
			if t.After(since) {
				return true
			}
		}
		return false
	}
	e.mu.Lock()
	busy := loading()
	e.mu.Unlock()
	if !busy || e.pendingDialog() != nil {
		return "", false
	}
	wctx, cancel := context.WithTimeout(ctx, listWaitMax)
	defer cancel()
	if !e.waitFor(wctx, 50*time.Millisecond, func() bool { return !loading() }) || !s.pageQuiet(wctx) {
		if ctx.Err() != nil {
			return "", true
		}
		return "The page was still changing (loading) when it was numbered; list again in a moment to hear all of it.", true
	}
	return "", true
}

// unchanged reports whether numbering n still describes the page exactly:
// not stale, and in every document it took elements from nothing at all
// changed since (no node, attribute, text or field value, the same scroll
// position, viewport and title: overlay.js unchanged). Any doubt is false.
func (s *Session) unchanged(ctx context.Context, n *numbering) bool {
	return s.unchangedSince(ctx, n, nil)
}

// unchangedSince is unchanged, taking the top document's answer from look
// when one was taken (nil: asked here).
func (s *Session) unchangedSince(ctx context.Context, n *numbering, look *topLook) bool {
	if n.staleReason() != "" {
		return false
	}
	for _, fr := range n.frames {
		c := look
		if c == nil || fr.path != "" {
			w, err := s.world(ctx, fr.frameID)
			if err != nil {
				return false
			}
			c = &topLook{}
			if err := s.call(ctx, w, "check", map[string]any{"same": true}, c); err != nil {
				return false
			}
		}
		if c.Token != fr.token || c.Changes > 0 || !c.Same {
			return false
		}
	}
	return n.staleReason() == ""
}

// reuse makes a new list of the same elements under the same numbers (for
// another window of it).
func (n *numbering) reuse() *numbering {
	return &numbering{scope: n.scope, items: n.items, frames: n.frames, frameIDs: n.frameIDs, skipped: n.skipped,
		url: n.url, title: n.title, topScroll: n.topScroll, hasMain: n.hasMain, partial: n.partial}
}

// samePrefix reports whether b starts with a's elements under a's numbers.
func samePrefix(a, b []*Item) bool {
	if len(b) < len(a) {
		return false
	}
	for i, it := range a {
		if b[i].ID != it.ID || b[i].Frame != it.Frame || b[i].Number != it.Number {
			return false
		}
	}
	return true
}

// notNumbered is the error for a number past the end of numbering n.
func (n *numbering) notNumbered(index int) error {
	if n.partial {
		return fail(KindNotNumberedYet, index, n.gen, len(n.items), len(n.items))
	}
	return fail(KindNotNumbered, index, n.gen, len(n.items))
}

// isStale is validate without the error, for reporting after an action.
func (s *Session) isStale(ctx context.Context) bool {
	_, err := s.validate(ctx)
	var se *StaleError
	return errors.As(err, &se)
}

// ---- overlay ----------------------------------------------------------------

// Overlay colour schemes: all high contrast, bold, 16 px.
var overlaySchemes = []string{"yellow-on-black", "black-on-yellow", "white-on-black", "white-on-blue"}

// OverlayResult is what browser_overlay_show returns.
type OverlayResult struct {
	Generation int64  `json:"generation"`
	Badges     int    `json:"badges"`
	OnScreen   int    `json:"on_screen"`
	Scheme     string `json:"scheme"`
	Listed     bool   `json:"listed_now,omitempty"`
}

// ShowOverlay draws the numbers of the last list's window as high-contrast
// badges (yellow on black by default). With no list yet it lists first; on a
// stale list it refuses, so no outdated number is ever drawn.
func (s *Session) ShowOverlay(ctx context.Context, scheme string) (*OverlayResult, error) {
	if scheme == "" {
		scheme = overlaySchemes[0]
	}
	known := false
	for _, sc := range overlaySchemes {
		known = known || sc == scheme
	}
	if !known {
		return nil, invalid("scheme %q: use one of %s", scheme, strings.Join(overlaySchemes, ", "))
	}
	ctx, unlock, err := s.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	listed := false
	if s.current.Load() == nil {
		if _, err := s.list(ctx, ListOptions{}); err != nil {
			return nil, err
		}
		listed = true
	}
	n, err := s.validate(ctx)
	if err != nil {
		return nil, err
	}
	s.overlay = &overlayState{scheme: scheme}
	badges, visible, err := s.drawOverlay(ctx, n, scheme)
	if err != nil {
		return nil, err
	}
	return &OverlayResult{Generation: n.gen, Badges: badges, OnScreen: visible, Scheme: scheme, Listed: listed}, nil
}

func (s *Session) drawOverlay(ctx context.Context, n *numbering, scheme string) (int, int, error) {
	w, err := s.topWorld(ctx)
	if err != nil {
		return 0, 0, err
	}
	var badges []map[string]any
	for _, it := range n.window() {
		if it.frame.path == "" {
			badges = append(badges, map[string]any{"n": it.Number, "id": it.ID})
			continue
		}
		x := it.frame.offset[0] + it.rect[0] + n.topScroll[0]
		y := it.frame.offset[1] + it.rect[1] + n.topScroll[1]
		badges = append(badges, map[string]any{"n": it.Number, "rect": []float64{x, y, it.rect[2], it.rect[3]}})
	}
	var r struct {
		Badges  int `json:"badges"`
		Visible int `json:"visible"`
	}
	if err := s.call(ctx, w, "showOverlay", map[string]any{"items": badges, "scheme": scheme}, &r); err != nil {
		return 0, 0, err
	}
	return r.Badges, r.Visible, nil
}

// HideOverlay removes the badges; numbers stay valid.
func (s *Session) HideOverlay(ctx context.Context) error {
	ctx, unlock, err := s.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	s.overlay = nil
	w, err := s.topWorld(ctx)
	if err != nil {
		return err
	}
	return s.call(ctx, w, "hideOverlay", nil, nil)
}

// ---- find ---------------------------------------------------------------------

// FindOptions ask for elements of the current list by role and/or text.
type FindOptions struct {
	Role   string
	Text   string
	Limit  int // default 10, at most 100
	Offset int
}

// FindResult lists the matching elements with their numbers in the current list.
type FindResult struct {
	Generation int64   `json:"generation"`
	Relisted   bool    `json:"relisted,omitempty"`
	Total      int     `json:"total"`
	Offset     int     `json:"offset"`
	Matches    []*Item `json:"matches"`
	Note       string  `json:"note,omitempty"`
	// InText is how many times the page's text holds the text looked for
	// (browser_find_text goes through them); 0 without a text.
	InText int `json:"in_text,omitempty"`
	// Query is the text looked for, as given.
	Query string `json:"query,omitempty"`
}

// normText folds case (any script), ё to е, and runs of white space, so that
// find matches "Войти", "ВОЙТИ" and " войти ".
func normText(s string) string {
	s = strings.ToLower(s)
	s = normFold.Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

var normFold = strings.NewReplacer("ё", "е", "\u00a0", " ", "\u200b", "")

var roleSynonyms = map[string][]string{
	"textbox":  {"textbox", "searchbox", "combobox", "spinbutton"},
	"input":    {"textbox", "searchbox", "combobox", "spinbutton", "checkbox", "radio", "slider"},
	"field":    {"textbox", "searchbox", "combobox", "spinbutton", "listbox"},
	"text":     {"textbox", "searchbox"},
	"search":   {"searchbox", "textbox", "combobox"},
	"select":   {"combobox", "listbox"},
	"dropdown": {"combobox", "listbox"},
	"button":   {"button"},
	"link":     {"link"},
}

func roleMatches(it *Item, role string) bool {
	if role == "" || it.Role == role || it.Tag == role {
		return true
	}
	for _, r := range roleSynonyms[role] {
		if it.Role == r {
			return true
		}
	}
	return false
}

// Find searches the current list (re-listing first if there is none or it is
// stale) for elements whose name, aria-label, placeholder or title contains
// the text. It is for orientation only: act on the returned numbers.
func (s *Session) Find(ctx context.Context, o FindOptions) (*FindResult, error) {
	role, text := normText(o.Role), normText(o.Text)
	if role == "" && text == "" {
		return nil, invalid("give role or text (or both)")
	}
	if o.Limit == 0 {
		o.Limit = 10
	}
	if o.Limit < 1 || o.Limit > 100 || o.Offset < 0 {
		return nil, invalid("limit must be 1..100 and offset not negative")
	}
	ctx, unlock, err := s.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	n, relisted, err := s.findNumbering(ctx)
	if err != nil {
		return nil, err
	}
	var hits []*Item
	words := strings.Fields(text)
	for _, it := range n.items {
		if findScore(it, role, text, words) >= 0 {
			hits = append(hits, it)
		}
	}
	// In document order, as the page reads: a listener going on with "more"
	// hears the matches in the order the page has them.
	res := &FindResult{Generation: n.gen, Relisted: relisted, Total: len(hits), Offset: o.Offset, Matches: []*Item{}}
	for i := o.Offset; i < len(hits) && i < o.Offset+o.Limit; i++ {
		res.Matches = append(res.Matches, hits[i])
	}
	if relisted {
		res.Note = fmt.Sprintf("The page had changed; it was numbered again (list %d). Use these numbers.", n.gen)
	}
	if text != "" {
		res.Query = strings.Join(strings.Fields(o.Text), " ")
		res.InText = max(0, s.countInText(ctx, o.Text))
	}
	if len(hits) == 0 {
		res.Note = strings.TrimSpace(res.Note + " Nothing matched; try a shorter text, scroll, or list with scope \"page\".")
	}
	return res, nil
}

// findNumbering is the numbering Find searches: the whole page as it is
// now. A list that is partial or that the page outgrew in any way (a click
// that shows a hidden part changes no element, only its style) is numbered
// again in full, the same numbers while the page has not changed; a stale
// one or none is listed anew. relisted says the numbers changed.
func (s *Session) findNumbering(ctx context.Context) (n *numbering, relisted bool, err error) {
	n, err = s.validate(ctx)
	if err == nil && (n.partial || !s.unchanged(ctx, n)) {
		if _, err := s.listFull(ctx, ListOptions{Scope: n.scope, Limit: n.limit, Offset: n.offset}); err != nil {
			return nil, false, err
		}
		return s.current.Load(), !samePrefix(n.items, s.current.Load().items), nil
	}
	if err == nil {
		return n, false, nil
	}
	var se *StaleError
	if !errors.Is(err, ErrNoList) && !errors.As(err, &se) {
		return nil, false, err
	}
	lo := ListOptions{}
	if n != nil {
		lo = ListOptions{Scope: n.scope, Limit: n.limit, Offset: n.offset}
	}
	if _, err := s.listFull(ctx, lo); err != nil {
		return nil, false, err
	}
	return s.current.Load(), true, nil
}

// findScore is how element it matches a Find of role and text (words: the
// text's words), from 0 (its name is the text) to 4 (all the words are in
// its name and description); -1 when it does not match.
func findScore(it *Item, role, text string, words []string) int {
	if !roleMatches(it, role) {
		return -1
	}
	if text == "" {
		return 0
	}
	name := normText(it.Name)
	if it.search == "" {
		it.search = normText(it.Name + " " + it.extra)
	}
	switch {
	case name == text:
		return 0
	case strings.HasPrefix(name, text):
		return 1
	case strings.Contains(name, text):
		return 2
	case strings.Contains(it.search, text):
		return 3
	case len(words) > 1:
		for _, w := range words {
			if !strings.Contains(it.search, w) {
				return -1
			}
		}
		return 4
	}
	return -1
}

// otherSite is the host[:port] of the frame's document when its host is not
// the top document's ("": the same site, or no address to tell).
func otherSite(fr *frameRef) string {
	top := fr
	for top.parent != nil {
		top = top.parent
	}
	fu, err1 := url.Parse(fr.url)
	tu, err2 := url.Parse(top.url)
	if err1 != nil || err2 != nil || fu.Host == "" {
		return ""
	}
	if strings.EqualFold(fu.Hostname(), tu.Hostname()) {
		return ""
	}
	return strings.ToLower(fu.Host)
}
