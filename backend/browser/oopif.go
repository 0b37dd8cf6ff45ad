package browser

import (
	"context"
	"math"
	"sync"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// Site isolation stays on: a cross-site iframe is a target of its own (an
// out-of-process iframe) with its own CDP session. The session attaches to
// every such frame (auto-attach, flattened, recursively), installs the same
// document-start scripts there, and runs the overlay's isolated world in the
// frame's own session. Input still goes to the top page, in top-viewport
// coordinates, and Chromium routes it into the frame.
type oopifs struct {
	mu sync.Mutex
	m  map[proto.PageFrameID]*rod.Page
}

func (o *oopifs) get(f proto.PageFrameID) *rod.Page {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.m[f]
}

func (o *oopifs) all() []*rod.Page {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := make([]*rod.Page, 0, len(o.m))
	for _, p := range o.m {
		out = append(out, p)
	}
	return out
}

// pageFor is the CDP session a frame lives in: its own for an
// out-of-process iframe, else the current page's.
func (s *Session) pageFor(frame proto.PageFrameID) *rod.Page {
	if s.frames != nil {
		if p := s.frames.get(frame); p != nil {
			return p
		}
	}
	return s.page
}

// attachFrames makes p (a page or an out-of-process frame) report its
// out-of-process child frames; each is paused until it has Waymark's
// document-start scripts, then resumed.
func (s *Session) attachFrames(ctx context.Context, p *rod.Page) {
	if s.frames == nil {
		s.frames = &oopifs{m: map[proto.PageFrameID]*rod.Page{}}
	}
	wait := p.Context(ctx).EachEvent(
		func(ev *proto.TargetAttachedToTarget) {
			// The new target waits for us (waitForDebuggerOnStart): give it the
			// document-start scripts through its own session, then let it run.
			sid := string(ev.SessionID)
			isFrame := ev.TargetInfo != nil && ev.TargetInfo.Type == "iframe"
			if isFrame && s.ev != nil {
				s.ev.frameOutOfProcess(proto.PageFrameID(ev.TargetInfo.TargetID))
			}
			go func() {
				cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
				defer cancel()
				if isFrame {
					_, _ = s.root.Call(cctx, sid, "Page.addScriptToEvaluateOnNewDocument", map[string]any{"source": marksJS})
					if !s.opts.Banners.Disabled && s.consentJS != "" {
						_, _ = s.root.Call(cctx, sid, "Page.addScriptToEvaluateOnNewDocument", map[string]any{"source": s.consentJS, "worldName": consentWorld})
					}
				}
				_, _ = s.root.Call(cctx, sid, "Runtime.runIfWaitingForDebugger", map[string]any{})
				if !isFrame {
					return // a worker
				}
				// A session of our own on the frame, for the overlay and for
				// the frames inside it.
				child, err := s.root.PageFromTarget(ev.TargetInfo.TargetID)
				if err != nil {
					return
				}
				s.frames.mu.Lock()
				s.frames.m[proto.PageFrameID(ev.TargetInfo.TargetID)] = child
				s.frames.mu.Unlock()
				s.attachFrames(ctx, child)
			}()
		},
		func(ev *proto.TargetDetachedFromTarget) {
			s.frames.mu.Lock()
			delete(s.frames.m, proto.PageFrameID(ev.TargetID))
			s.frames.mu.Unlock()
		},
	)
	go wait()
	_ = proto.TargetSetAutoAttach{AutoAttach: true, WaitForDebuggerOnStart: true, Flatten: true}.Call(p.Context(ctx))
}

// frameOrigin is where the content of an out-of-process frame starts in the
// top viewport now: its <iframe>'s content box in the parent's viewport plus
// the parent's own origin.
func (s *Session) frameOrigin(ctx context.Context, fr *frameRef) (x, y float64, ok bool) {
	if fr == nil || fr.parent == nil {
		return 0, 0, true
	}
	px, py, ok := s.frameOrigin(ctx, fr.parent)
	if !ok {
		return 0, 0, false
	}
	pw, err := s.world(ctx, fr.parent.frameID)
	if err != nil {
		return 0, 0, false
	}
	obj, err := s.ref(ctx, pw, "f", fr.fid)
	if err != nil || obj == "" {
		return 0, 0, false
	}
	q, err := proto.DOMGetContentQuads{ObjectID: obj}.Call(pw.p.Context(ctx))
	if err != nil || len(q.Quads) == 0 {
		return 0, 0, false
	}
	minX, minY := math.Inf(1), math.Inf(1)
	for _, quad := range q.Quads {
		for i := 0; i+1 < len(quad); i += 2 {
			minX, minY = math.Min(minX, quad[i]), math.Min(minY, quad[i+1])
		}
	}
	if s.pageFor(fr.parent.frameID) != s.page {
		// Quads of an element inside an out-of-process frame are in that
		// frame's viewport: add the frame's own origin.
		return px + minX, py + minY, true
	}
	return minX, minY, true
}
