package browser

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// topLook is a list's first look at the top document, one call into its
// overlay: the address (the banner hook's host), the document's token, the
// changes since the last list and whether nothing at all changed (the reuse
// test), how many closed shadow roots it must be given before a walk, and
// the walk itself when it could be taken at once. The banner test, the reuse
// test, the walk's first step and the walk were four calls in two worlds
// (issue 33 point 14: a small page's list was mostly these calls).
type topLook struct {
	w       *world
	URL     string `json:"url"`
	Token   string `json:"token"`
	Changes int    `json:"changes"`
	Same    bool   `json:"same"`
	Closed  int    `json:"closed"`
	// List is the top document's walk (stop: as far as it went), taken
	// in the look's call: the page is on the host whose banners were
	// looked at, no closed root is to be given first and the last list
	// does not describe the document exactly (overlay.js: check).
	List *jsList `json:"list"`
	stop int
}

// lookTop takes the top document's look, installing the overlay if it is
// not there yet, and walks it in the same call (stop: as far as a walker
// with that stop would) when the walk can be taken at once and would be
// used (see topLook.List; prev: the list a reuse would serve, nil: none);
// nil when the page did not answer (the list then asks again where it
// needs to).
func (s *Session) lookTop(ctx context.Context, stop int, prev *numbering) *topLook {
	w, err := s.topWorld(ctx)
	if err != nil {
		return nil
	}
	arg := map[string]any{"same": true, "closed": true, "list": s.listArg(ctx, 0, stop)}
	if !s.opts.Banners.Disabled {
		arg["host"] = s.bannerHost
	}
	if prev != nil && prev.staleReason() == "" && len(prev.frames) > 0 {
		arg["reuse"] = prev.frames[0].token
	}
	lk := &topLook{w: w, stop: stop}
	if err := s.call(ctx, w, "check", arg, lk); err != nil {
		return nil
	}
	return lk
}

// listArg is the overlay's list argument for a document at depth (0: the
// top) of a walk that stops after stop elements of the top (0: never); a
// list whose context carries Phases asks the overlay for its timing.
func (s *Session) listArg(ctx context.Context, depth, stop int) map[string]any {
	arg := map[string]any{"threshold": s.opts.StaleThreshold, "base": s.nextID, "rects": depth > 0}
	if depth == 0 && stop > 0 {
		arg["stop"] = stop
	}
	if phasesOf(ctx) != nil {
		arg["timing"] = true
	}
	return arg
}

// walker numbers one page: the top document, then each frame's document
// depth first, in document order.
type walker struct {
	s     *Session
	ctx   context.Context
	scope string
	stop  int      // number only this many elements of the top document (0: all)
	look  *topLook // the top document's look, used once by the first walk
	n     *numbering
	note  string
	// Frames whose process is still being attached are waited for, two
	// seconds at most in all.
	waitLeft time.Duration
	handles  bool // the walk took element handles, to be released after it
	// inFrames: the time spent in walkFrame so far (the items' phase
	// leaves it out).
	inFrames time.Duration
}

// frameVisit is one document for the walker to number.
type frameVisit struct {
	p      *rod.Page
	frame  proto.PageFrameID
	path   string
	depth  int
	off    [2]float64
	inh    scopeFlags
	parent *frameRef
	fid    string
}

// enumerate numbers the page's interactive elements in scope (stop: the
// first window's prefix, 0 for all). look, when given, is the top
// document's look the list just took.
func (s *Session) enumerate(ctx context.Context, scope string, stop int, look *topLook) (*numbering, string, error) {
	s.walks++
	wk := &walker{s: s, ctx: ctx, scope: scope, stop: stop, look: look, waitLeft: 2 * time.Second,
		n: &numbering{scope: scope, frameIDs: map[proto.PageFrameID]bool{}}}
	defer func() {
		if wk.handles {
			s.release(ctx)
		}
	}()
	top := frameVisit{p: s.page, frame: s.page.FrameID, inh: scopeFlags{true, true, true}}
	if err := wk.walk(top); err != nil {
		return nil, "", err
	}
	for i, it := range wk.n.items {
		it.Number = i + 1
	}
	return wk.n, wk.note, nil
}

// walk numbers one document and, through walkFrame, the frames in it.
func (wk *walker) walk(v frameVisit) error {
	w, res, err := wk.listDocument(v)
	if err != nil {
		return err
	}
	n := wk.n
	fr := &frameRef{path: v.path, frameID: v.frame, token: res.Token, offset: v.off, url: res.URL, parent: v.parent, fid: v.fid}
	n.frames = append(n.frames, fr)
	n.frameIDs[v.frame] = true
	if v.depth == 0 {
		if err := wk.takeTop(res); err != nil {
			return err
		}
	}
	origin := ""
	if u, err := url.Parse(res.URL); err == nil && u.Host != "" {
		origin = u.Scheme + "://" + u.Host
	}
	// The items' time is the loop's, less the frames walked in it.
	t0, inFrames := time.Now(), wk.inFrames
	defer func() { since(wk.ctx, PhaseItems, t0.Add(wk.inFrames-inFrames)) }()
	for i := range res.Entries {
		e := &res.Entries[i]
		f := scopeFlags{v.inh.v && e.XV == 0, v.inh.m && e.XM == 0, v.inh.d && e.XD == 0}
		if !f.in(wk.scope) {
			continue
		}
		switch e.K {
		case "i":
			wk.addItem(e, v.path, fr, origin)
		case "f":
			if err := wk.walkFrame(w, e, v, fr, f); err != nil {
				return err
			}
		}
	}
	return nil
}

// openDocument returns the document's world and how many closed shadow
// roots it must be given first; for the top document, from the list's look,
// with the walk the look took (nil: none, or not as far as this walk goes).
func (wk *walker) openDocument(v frameVisit) (*world, int, *jsList, error) {
	if v.depth == 0 && wk.look != nil {
		lk := wk.look
		wk.look = nil
		if lk.stop != wk.stop {
			lk.List = nil
		}
		return lk.w, lk.Closed, lk.List, nil
	}
	w, err := wk.s.worldIn(wk.ctx, v.p, v.frame)
	if err != nil {
		return nil, 0, nil, err
	}
	// Make sure the overlay is installed, and learn whether it must be
	// given closed shadow roots it cannot see.
	var c struct {
		Closed int `json:"closed"`
	}
	if err := wk.s.call(wk.ctx, w, "check", map[string]any{"closed": true}, &c); err != nil {
		return nil, 0, nil, err
	}
	return w, c.Closed, nil, nil
}

// listDocument runs the overlay's list in one document (the top
// document's first round may be the walk its look took).
func (wk *walker) listDocument(v frameVisit) (*world, *jsList, error) {
	s, ctx := wk.s, wk.ctx
	w, closed, taken, err := wk.openDocument(v)
	if err != nil {
		return nil, nil, err
	}
	if closed > 0 {
		wk.handles = true
		s.giveClosedRoots(ctx, w)
		taken = nil
	}
	var res jsList
	for round := 0; ; round++ {
		res = jsList{}
		if round == 0 && taken != nil {
			res = *taken
		} else if err := s.call(ctx, w, "list", s.listArg(ctx, v.depth, wk.stop), &res); err != nil {
			return nil, nil, err
		}
		res.T.record(phasesOf(ctx))
		t0 := time.Now()
		if err := res.decodeRows(); err != nil {
			return nil, nil, err
		}
		since(ctx, PhaseDecode, t0)
		s.nextID = max(s.nextID, res.Next)
		// Custom elements the overlay has not asked about may hold closed
		// roots no script attached: ask CDP, and list again if some did.
		if res.Probe == 0 || round == 2 {
			break
		}
		wk.handles = true
		if s.giveClosedRoots(ctx, w) == 0 {
			break
		}
	}
	return w, &res, nil
}

// takeTop keeps what the top document's list says of the page.
func (wk *walker) takeTop(res *jsList) error {
	n := wk.n
	n.url, n.title, n.topScroll, n.hasMain = res.URL, res.Title, [2]float64{res.Sx, res.Sy}, res.HasMain
	n.partial = res.Partial
	if wk.scope == "dialog" && !res.HasDialog {
		return errors.New(`there is no open dialog on the page; list with scope "page"`)
	}
	if wk.scope == "main" && !res.HasMain {
		wk.note = "The page has no main landmark; the whole page is listed."
	}
	return nil
}

// addItem numbers one element of a document (path: its frame's path).
func (wk *walker) addItem(e *jsEntry, path string, fr *frameRef, origin string) {
	href := e.Href
	if strings.HasPrefix(href, "/") && !strings.HasPrefix(href, "//") && origin != "" {
		href = origin + href
	}
	it := &Item{ID: e.ID, Role: e.Role, Name: e.Name, Tag: e.Tag, Type: e.Type, Value: e.Value, Href: href,
		Disabled: e.Dis, Checked: e.Chk, Frame: path, frame: fr, rect: e.R}
	it.extra = e.S
	it.Typed = wk.s.hideTyped(it.Frame, it.ID, &it.Value)
	if path != "" {
		it.FrameOrigin = originOf(fr.url)
		it.FrameSite = otherSite(fr)
	}
	wk.n.items = append(wk.n.items, it)
}

// walkFrame numbers the document of a frame found in v's document (w its
// world): in v's process, else in the out-of-process session that holds it
// (waited for while it is being attached). A frame that cannot be read is
// told as skipped, with the reason.
func (wk *walker) walkFrame(w *world, e *jsEntry, v frameVisit, fr *frameRef, f scopeFlags) error {
	s, ctx, n := wk.s, wk.ctx, wk.n
	t0 := time.Now()
	defer func() { wk.inFrames += time.Since(t0) }()
	child := e.Fid
	if v.path != "" {
		child = v.path + "/" + e.Fid
	}
	skip := func(reason string) {
		n.skipped = append(n.skipped, SkippedFrame{Frame: child, URL: e.Src, Reason: reason})
	}
	if v.depth+1 > maxFrameDepth || len(n.frames) >= maxFrames {
		skip("too many or too deeply nested frames")
		return nil
	}
	wk.handles = true
	obj, err := s.ref(ctx, w, "f", e.Fid)
	if err != nil || obj == "" {
		skip("the frame went away")
		return nil
	}
	node, err := proto.DOMDescribeNode{ObjectID: obj}.Call(w.p.Context(ctx))
	if err != nil || node.Node == nil || node.Node.FrameID == "" {
		skip("the frame has no document yet")
		return nil
	}
	cf := node.Node.FrameID
	// The child lives in a process of its own (an OOPIF session), else in
	// this frame's process and session.
	cp := s.frames.get(cf)
	if cp == nil {
		cp = w.p
		if w.p != s.page {
			s.frames.setOwner(cf, w.p)
		}
	}
	cv := frameVisit{p: cp, frame: cf, path: child, depth: v.depth + 1, off: [2]float64{v.off[0] + e.O[0], v.off[1] + e.O[1]}, inh: f, parent: fr, fid: e.Fid}
	since(ctx, PhaseFrames, t0)
	err = wk.walk(cv)
	if err != nil && cp == w.p && frameElsewhere(err) && ctx.Err() == nil && wk.waitLeft > 0 {
		// Not in this process: an out-of-process frame whose session is
		// being attached right now.
		t1 := time.Now()
		op := s.frames.wait(ctx, cf, wk.waitLeft)
		wk.waitLeft -= time.Since(t1)
		since(ctx, PhaseFrames, t1)
		if op != nil {
			cv.p = op
			err = wk.walk(cv)
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		skip(frameReason(err))
	}
	return nil
}
