package browser

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// Site isolation stays on: a cross-site iframe is a target of its own (an
// out-of-process iframe, OOPIF) with its own CDP session. Every page of the
// session auto-attaches to its OOPIFs (flattened, paused until Waymark's
// document-start scripts are in), and so does every OOPIF session for the
// OOPIFs inside it. The overlay's isolated world of such a frame, and of the
// frames in its process, runs in that session. Input still goes to the top
// page, in top-viewport coordinates (the overlay maps a frame's point out
// through each <iframe>, see Session.toTop), and Chromium routes it into the
// frame; typing goes to the focused element whatever process it lives in.
type oopifs struct {
	mu sync.Mutex
	// m holds the out-of-process frames: frame id (= target id) → the
	// frame's session.
	m map[proto.PageFrameID]*rod.Page
	// owner holds frames that live in an out-of-process frame's process
	// (its same-site children): frame id → that frame's session. Frames
	// in neither map live in the current page's own session.
	owner map[proto.PageFrameID]*rod.Page
	// follow holds the sessions whose events are followed: a page's own
	// (value nil) and, for each OOPIF, both the session Chromium
	// auto-attached and rod's session on it (value: the frame's page).
	follow map[proto.TargetSessionID]*rod.Page
	// parent holds, for each OOPIF's page, the OOPIF page whose session
	// reported it (absent: a page's own session reported it).
	parent map[*rod.Page]*rod.Page
	// pages holds the page targets already prepared.
	pages map[proto.TargetTargetID]bool
	// added is closed and replaced whenever m gains a frame.
	added chan struct{}
	// started: the session's event follower runs.
	started bool
}

func newOOPIFs() *oopifs {
	return &oopifs{
		m:      map[proto.PageFrameID]*rod.Page{},
		owner:  map[proto.PageFrameID]*rod.Page{},
		follow: map[proto.TargetSessionID]*rod.Page{},
		parent: map[*rod.Page]*rod.Page{},
		pages:  map[proto.TargetTargetID]bool{},
		added:  make(chan struct{}),
	}
}

// session is the session frame lives in, or nil for the page's own.
func (o *oopifs) session(f proto.PageFrameID) *rod.Page {
	if o == nil {
		return nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if p := o.m[f]; p != nil {
		return p
	}
	return o.owner[f]
}

func (o *oopifs) get(f proto.PageFrameID) *rod.Page {
	if o == nil {
		return nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.m[f]
}

func (o *oopifs) all() []*rod.Page {
	if o == nil {
		return nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	out := make([]*rod.Page, 0, len(o.m))
	for _, p := range o.m {
		out = append(out, p)
	}
	return out
}

// add records frame's session p, reached also through the auto-attached
// session sid, and reported by the session of parent (nil: a page's).
func (o *oopifs) add(f proto.PageFrameID, p *rod.Page, sid proto.TargetSessionID, parent *rod.Page) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.m[f] = p
	o.follow[p.SessionID] = p
	o.follow[sid] = p
	if parent != nil {
		o.parent[p] = parent
	}
	close(o.added)
	o.added = make(chan struct{})
}

// setOwner records that frame lives in p's process (nil: forget it).
func (o *oopifs) setOwner(f proto.PageFrameID, p *rod.Page) {
	if o == nil {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if p == nil {
		delete(o.owner, f)
		return
	}
	o.owner[f] = p
}

// drop forgets a session that went away (detached, or its frame moved back
// into its parent's process), its frame, every frame that lived in it and
// every OOPIF inside it (Chromium detaches those with it, and reports that
// to a session already gone).
func (o *oopifs) drop(sid proto.TargetSessionID) {
	o.mu.Lock()
	defer o.mu.Unlock()
	p := o.follow[sid]
	delete(o.follow, sid)
	if p == nil {
		for f, fp := range o.m {
			if fp.SessionID == sid {
				p = fp
				delete(o.m, f)
			}
		}
		if p == nil {
			return
		}
	}
	gone := map[*rod.Page]bool{p: true}
	for grew := true; grew; {
		grew = false
		for c, up := range o.parent {
			if gone[up] && !gone[c] {
				gone[c], grew = true, true
			}
		}
	}
	for k, fp := range o.follow {
		if gone[fp] {
			delete(o.follow, k)
		}
	}
	for f, fp := range o.m {
		if gone[fp] {
			delete(o.m, f)
		}
	}
	for f, fp := range o.owner {
		if gone[fp] {
			delete(o.owner, f)
		}
	}
	for c := range gone {
		delete(o.parent, c)
	}
}

// following says whether session sid is followed, and the frame page it
// belongs to (nil for a page's own session).
func (o *oopifs) following(sid proto.TargetSessionID) (*rod.Page, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	p, ok := o.follow[sid]
	return p, ok
}

// wait waits up to d for frame to become an out-of-process frame of ours
// (its target may be attaching right now) and returns its session.
func (o *oopifs) wait(ctx context.Context, f proto.PageFrameID, d time.Duration) *rod.Page {
	if o == nil {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		o.mu.Lock()
		p, ch := o.m[f], o.added
		o.mu.Unlock()
		if p != nil {
			return p
		}
		select {
		case <-ch:
		case <-t.C:
			return nil
		case <-ctx.Done():
			return nil
		}
	}
}

// pageFor is the CDP session a frame lives in: its own for an
// out-of-process iframe, its OOPIF's for a frame inside one, else the current
// page's.
func (s *Session) pageFor(frame proto.PageFrameID) *rod.Page {
	if s.frames != nil && frame != s.page.FrameID {
		if p := s.frames.session(frame); p != nil {
			return p
		}
	}
	return s.page
}

// preparePage readies a page target (the session's first page, or a tab it
// switches to) once: Waymark's main-world marks (marks.js) before any of its
// documents' scripts, and the following of its out-of-process frames.
func (s *Session) preparePage(p *rod.Page) {
	if s.frames == nil {
		s.frames = newOOPIFs()
	}
	s.frames.mu.Lock()
	done := s.frames.pages[p.TargetID]
	s.frames.pages[p.TargetID] = true
	s.frames.follow[p.SessionID] = nil
	s.frames.mu.Unlock()
	if done {
		return
	}
	ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
	defer cancel()
	_, _ = proto.PageAddScriptToEvaluateOnNewDocument{Source: marksJS}.Call(p.Context(ctx))
	// The change recorder, in the overlay's world from each document's start.
	_, _ = proto.PageAddScriptToEvaluateOnNewDocument{Source: settleJS, WorldName: worldName}.Call(p.Context(ctx))
	s.followFrames()
	s.ownDialogs(ctx, string(p.SessionID))
	s.autoAttach(ctx, string(p.SessionID))
}

// autoAttach asks session sid to report its out-of-process child frames,
// each paused until it is prepared.
func (s *Session) autoAttach(ctx context.Context, sid string) {
	_, _ = s.root.Call(ctx, sid, "Target.setAutoAttach", proto.TargetSetAutoAttach{
		AutoAttach: true, WaitForDebuggerOnStart: true, Flatten: true,
		Filter: proto.TargetTargetFilter{{Type: "iframe"}},
	})
}

// followFrames starts, once per session, the goroutine that follows the
// out-of-process frames of every session in s.frames.follow.
func (s *Session) followFrames() {
	s.frames.mu.Lock()
	started := s.frames.started
	s.frames.started = true
	s.frames.mu.Unlock()
	if started {
		return
	}
	events := s.root.Context(s.ctx).Event()
	go func() {
		for msg := range events {
			switch msg.Method {
			case "Target.attachedToTarget":
				parent, ok := s.frames.following(proto.TargetSessionID(msg.SessionID))
				if !ok {
					continue
				}
				var ev proto.TargetAttachedToTarget
				if !msg.Load(&ev) || ev.TargetInfo == nil {
					continue
				}
				go s.frameAttached(&ev, parent)
			case "Target.detachedFromTarget":
				if _, ok := s.frames.following(proto.TargetSessionID(msg.SessionID)); !ok {
					continue
				}
				var ev proto.TargetDetachedFromTarget
				if msg.Load(&ev) {
					s.frames.drop(ev.SessionID)
				}
			case "Debugger.paused", "Debugger.resumed":
				if _, ok := s.frames.following(proto.TargetSessionID(msg.SessionID)); ok {
					s.debuggerEvent(msg.Method, string(msg.SessionID), msg.Load)
				}
			case "Page.frameAttached", "Page.frameDetached":
				p, ok := s.frames.following(proto.TargetSessionID(msg.SessionID))
				if !ok || p == nil {
					continue // a page's own frames need no record
				}
				var at proto.PageFrameAttached
				if msg.Load(&at) {
					s.frames.setOwner(at.FrameID, p)
					continue
				}
				var dt proto.PageFrameDetached
				if msg.Load(&dt) && dt.Reason != proto.PageFrameDetachedReasonSwap {
					s.frames.setOwner(dt.FrameID, nil)
				}
			}
		}
	}()
}

// frameAttached prepares a new out-of-process frame while it waits: its
// Page domain (so the document-start scripts run), marks.js and the consent
// world's script, a rod page on it (rod's own session, which Waymark's calls
// and tests use), the following of its own OOPIFs; then it lets the frame
// run. Scripts and auto-attach go through the session Chromium auto-attached,
// which lives as long as the frame does. parent is the OOPIF whose session
// reported this one (nil: a page's).
func (s *Session) frameAttached(ev *proto.TargetAttachedToTarget, parent *rod.Page) {
	sid := string(ev.SessionID)
	ctx, cancel := context.WithTimeout(s.ctx, 5*time.Second)
	defer cancel()
	defer func() {
		_, _ = s.root.Call(ctx, sid, "Runtime.runIfWaitingForDebugger", map[string]any{})
	}()
	if ev.TargetInfo.Type != "iframe" {
		return
	}
	frame := proto.PageFrameID(ev.TargetInfo.TargetID)
	if s.ev != nil {
		s.ev.frameOutOfProcess(frame)
	}
	_, _ = s.root.Call(ctx, sid, "Page.enable", map[string]any{})
	s.ownDialogs(ctx, sid)
	_, _ = s.root.Call(ctx, sid, "Page.addScriptToEvaluateOnNewDocument", map[string]any{"source": marksJS})
	if !s.opts.Banners.Disabled && s.consentJS != "" {
		_, _ = s.root.Call(ctx, sid, "Page.addScriptToEvaluateOnNewDocument", map[string]any{"source": s.consentJS, "worldName": consentWorld})
	}
	fp, err := s.root.Context(ctx).PageFromTarget(ev.TargetInfo.TargetID)
	if err != nil {
		return
	}
	fresh := fp.GetContext().Err() == nil
	fp = fp.Context(s.ctx)
	if !fresh {
		// rod handed out its cached page of an earlier attachment of this
		// target (the frame left its process and came back): that session
		// is gone, so use the one Chromium attached.
		fp.SessionID = ev.SessionID
	}
	s.frames.add(frame, fp, ev.SessionID, parent)
	s.autoAttach(ctx, sid)
}

// sessionGone reports an error of a CDP session that no longer exists (a
// foreign message: Chromium's DevTools words are its only identity).
func sessionGone(err error) bool {
	return err != nil && (strings.Contains(err.Error(), "Session with given id not found") ||
		strings.Contains(err.Error(), "No session with given id"))
}

// toTop maps a point of frame fr's viewport to the top viewport, one
// <iframe> at a time up the frame path: the overlay of each parent adds the
// content origin of the <iframe> (scrolling the parent when the point is out
// of its view) and checks that a click there reaches the <iframe> and not
// something lying over it. Out-of-process frames scroll their parents
// asynchronously, so the chain is measured until it holds still.
func (s *Session) toTop(ctx context.Context, it *Item, x, y float64) (float64, float64, error) {
	oop := false
	for f := it.frame; f.parent != nil; f = f.parent {
		oop = oop || s.pageFor(f.frameID) != s.page
	}
	var last [2]float64
	for round := 0; ; round++ {
		tx, ty, err := s.chain(ctx, it, x, y)
		if err != nil || !oop {
			return tx, ty, err
		}
		if round > 0 && abs(tx-last[0]) < 1 && abs(ty-last[1]) < 1 {
			return tx, ty, nil
		}
		if round == 4 {
			// A click at a point still moving could land on something else.
			return 0, 0, fail(KindFrameKeptMoving, it.Number, label(it))
		}
		last = [2]float64{tx, ty}
		// The next measure comes after the top page has drawn what it laid
		// out: a click is routed into the frame by the drawn positions, and
		// on a loaded machine settle's usual 150 ms can end before any frame
		// (the likely cause of a click CI once saw go unreceived in a frame
		// two processes deep, below the fold).
		if w, err := s.topWorld(ctx); err == nil {
			_ = s.call(ctx, w, "settle", map[string]any{"max": 500}, nil)
		}
	}
}

func (s *Session) chain(ctx context.Context, it *Item, x, y float64) (float64, float64, error) {
	for f := it.frame; f.parent != nil; f = f.parent {
		pw, err := s.world(ctx, f.parent.frameID)
		if err != nil {
			return 0, 0, fail(KindFrameParentGone, it.Number, label(it))
		}
		var r struct {
			Gone    bool    `json:"gone"`
			X       float64 `json:"x"`
			Y       float64 `json:"y"`
			Covered string  `json:"covered"`
			Out     bool    `json:"out"`
		}
		if err := s.call(ctx, pw, "framePoint", map[string]any{"fid": f.fid, "x": x, "y": y}, &r); err != nil {
			return 0, 0, err
		}
		switch {
		case r.Gone:
			return 0, 0, fail(KindFrameGone, it.Number, label(it))
		case r.Covered != "":
			return 0, 0, fail(KindCoveredByOverFrame, it.Number, label(it), Cover(r.Covered))
		case r.Out:
			return 0, 0, fail(KindOutsideFrame, it.Number, label(it))
		}
		x, y = r.X, r.Y
	}
	return x, y, nil
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}
