package browser

import (
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"strings"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/ysmood/gson"
)

//go:embed overlay.js
var overlayJS string

// marksJS runs in the main world of every document before the page's
// scripts: it marks elements with click listeners and closed shadow roots.
//
//go:embed marks.js
var marksJS string

// settleJS records, in the overlay's world of every document from its start,
// when the document last changed (the settle after a navigation).
//
//go:embed settle.js
var settleJS string

// settleEvent is the name of the event the overlay dispatches to ask
// marks.js whether short timers set by an input are pending: random per
// process, so pages cannot listen for it or answer it.
var settleEvent = func() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return "waymark-settle-" + hex.EncodeToString(b)
}()

func init() {
	marksJS = strings.ReplaceAll(marksJS, "__WAYMARK_SETTLE__", settleEvent)
	overlayJS = strings.ReplaceAll(overlayJS, "__WAYMARK_SETTLE__", settleEvent)
	settleJS = strings.ReplaceAll(settleJS, "__WAYMARK_SETTLE__", settleEvent)
}

// worldName names the isolated JavaScript world the overlay runs in. Chromium
// keeps one world per name and document, so asking for it again returns the
// same world (and its state) until the frame navigates.
const worldName = "waymark"

const (
	missingMark = "\u0000waymark-missing"
	callFn      = `function(op, arg) {
		const W = globalThis.__waymark;
		if (!W) return "` + missingMark + `";
		return W.call(op, arg);
	}`
	refFn = `function(kind, id) {
		const W = globalThis.__waymark;
		if (!W) return null;
		if (kind === "e") return W.element(id);
		if (kind === "f") return W.frame(id);
		if (kind === "a") return W.active();
		return null;
	}`
	objectGroup = "waymark"
)

// world is the overlay's isolated world in one frame.
type world struct {
	frameID proto.PageFrameID
	ctxID   proto.RuntimeExecutionContextID
	p       *rod.Page // the CDP session the frame lives in
}

// world returns the isolated world of a frame of the session's page (creating
// it, or getting the existing one, through Page.createIsolatedWorld), in the
// CDP session the frame lives in (pageFor: its own for an out-of-process
// iframe, that iframe's for a frame in its process, else the page's).
func (s *Session) world(ctx context.Context, frame proto.PageFrameID) (*world, error) {
	return s.worldIn(ctx, s.pageFor(frame), frame)
}

// frameGone is why a numbering is stale when the frame of one of its
// elements went away.
const frameGone = "a frame went away"

// itemWorld is the isolated world of the frame that holds it, an element of
// numbering n. When that frame went away, n is marked stale (no number of
// it is acted on again until the page is listed again) and the error says
// why. A call that was ended (ctx) says so instead: the frame may be there.
func (s *Session) itemWorld(ctx context.Context, n *numbering, it *Item) (*world, error) {
	w, err := s.world(ctx, it.frame.frameID)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		n.markStale(frameGone)
		return nil, &StaleError{Generation: n.gen, Reason: frameGone}
	}
	return w, nil
}

// worldIn is world in session p. A session that went away (its frame moved
// back into its parent's process) is forgotten, and the frame is looked up
// again.
func (s *Session) worldIn(ctx context.Context, p *rod.Page, frame proto.PageFrameID) (*world, error) {
	defer since(ctx, PhaseLook, time.Now())
	res, err := proto.PageCreateIsolatedWorld{FrameID: frame, WorldName: worldName}.Call(p.Context(ctx))
	if sessionGone(err) && p != s.page && s.frames != nil {
		s.frames.drop(p.SessionID)
		p = s.pageFor(frame)
		res, err = proto.PageCreateIsolatedWorld{FrameID: frame, WorldName: worldName}.Call(p.Context(ctx))
	}
	if err != nil {
		return nil, err
	}
	return &world{frameID: frame, ctxID: res.ExecutionContextID, p: p}, nil
}

func (s *Session) topWorld(ctx context.Context) (*world, error) {
	return s.world(ctx, s.page.FrameID)
}

// contextGone: the frame's JavaScript context went away under a call (a
// foreign message: Chromium's DevTools words are its only identity).
func contextGone(err error) bool {
	if err == nil {
		return false
	}
	m := err.Error()
	return strings.Contains(m, "Cannot find context") || strings.Contains(m, "context was destroyed") ||
		strings.Contains(m, "Execution context was destroyed") || strings.Contains(m, "Inspected target navigated or closed")
}

// call runs overlay op in w and decodes its JSON answer into out. It installs
// the overlay on first use and re-creates the world once if the frame's
// document changed under it.
func (s *Session) call(ctx context.Context, w *world, op string, arg any, out any) error {
	if arg == nil {
		arg = map[string]any{}
	}
	return s.worldCall(ctx, w, callFn, overlayJS, "overlay", op, arg, out)
}

// recFn calls a function of settle.js, or says it is not there yet.
const recFn = `async function(fn, arg) {
	const R = globalThis.__waymarkRec;
	if (!R) return "` + missingMark + `";
	return JSON.stringify(await R[fn](arg));
}`

// recCall runs fn of settle.js (in the overlay's world, without the overlay)
// and decodes its answer into out; in a document older than the session it
// starts settle.js first.
func (s *Session) recCall(ctx context.Context, w *world, fn string, arg any, out any) error {
	return s.worldCall(ctx, w, recFn, settleJS, "settle", fn, arg, out)
}

// worldCall runs decl(name, arg) in w and decodes its JSON answer into out
// (nil: ignored). When decl answers missingMark, the script install (the
// overlay or settle.js) is evaluated in w first; when the frame's document
// changed under the call, the world is made again. what names the script in
// errors.
func (s *Session) worldCall(ctx context.Context, w *world, decl, install, what, name string, arg any, out any) error {
	p := w.p.Context(ctx)
	for attempt := 0; attempt < 4; attempt++ {
		t0 := time.Now()
		res, err := proto.RuntimeCallFunctionOn{
			FunctionDeclaration: decl,
			ExecutionContextID:  w.ctxID,
			Arguments:           []*proto.RuntimeCallArgument{{Value: gson.New(name)}, {Value: gson.New(arg)}},
			ReturnByValue:       true,
			AwaitPromise:        true,
		}.Call(p)
		since(ctx, PhaseLook, t0)
		if err != nil {
			if contextGone(err) && ctx.Err() == nil {
				nw, werr := s.world(ctx, w.frameID)
				if werr != nil {
					return werr
				}
				w.ctxID, w.p = nw.ctxID, nw.p
				p = w.p.Context(ctx)
				continue
			}
			return err
		}
		if res.ExceptionDetails != nil {
			return jsError(res.ExceptionDetails)
		}
		str := res.Result.Value.Str()
		if str == missingMark {
			ev, err := proto.RuntimeEvaluate{Expression: install, ContextID: w.ctxID}.Call(p)
			if err != nil {
				if contextGone(err) && ctx.Err() == nil {
					continue
				}
				return failWith(KindInstall, err, what)
			}
			if ev.ExceptionDetails != nil {
				return failWith(KindInstall, jsError(ev.ExceptionDetails), what)
			}
			continue
		}
		if out == nil {
			return nil
		}
		t1 := time.Now()
		if err := json.Unmarshal([]byte(str), out); err != nil {
			return failWith(KindBadAnswer, err, what, name)
		}
		since(ctx, PhaseDecode, t1)
		return nil
	}
	return fail(KindCallFrameChanging, what, name)
}

// ref returns a handle (remote object id) on an element the overlay knows:
// kind "e" a numbered element by blind id, "f" an iframe by frame id, "a" the
// focused element. Empty id and nil error: no such element any more.
func (s *Session) ref(ctx context.Context, w *world, kind, id string) (proto.RuntimeRemoteObjectID, error) {
	p := w.p.Context(ctx)
	for attempt := 0; attempt < 3; attempt++ {
		res, err := proto.RuntimeCallFunctionOn{
			FunctionDeclaration: refFn,
			ExecutionContextID:  w.ctxID,
			Arguments:           []*proto.RuntimeCallArgument{{Value: gson.New(kind)}, {Value: gson.New(id)}},
			ObjectGroup:         objectGroup,
		}.Call(p)
		if err != nil {
			if contextGone(err) && ctx.Err() == nil {
				nw, werr := s.world(ctx, w.frameID)
				if werr != nil {
					return "", werr
				}
				w.ctxID, w.p = nw.ctxID, nw.p
				continue
			}
			return "", err
		}
		if res.ExceptionDetails != nil {
			return "", jsError(res.ExceptionDetails)
		}
		return res.Result.ObjectID, nil
	}
	return "", fail(KindFrameChanging)
}

// release frees the handles taken during one action.
func (s *Session) release(ctx context.Context) {
	if s.ev.pendingDialog() != nil {
		return // the page is frozen; the handles go with the next release
	}
	// Best effort, and never a hang: a frame that closed may not answer.
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	_ = proto.RuntimeReleaseObjectGroup{ObjectGroup: objectGroup}.Call(s.page.Context(ctx))
	if s.frames != nil {
		for _, p := range s.frames.all() {
			_ = proto.RuntimeReleaseObjectGroup{ObjectGroup: objectGroup}.Call(p.Context(ctx))
		}
	}
}

func jsError(d *proto.RuntimeExceptionDetails) error {
	msg := d.Text
	if d.Exception != nil && d.Exception.Description != "" {
		msg = d.Exception.Description
	}
	if i := strings.IndexByte(msg, '\n'); i > 0 {
		msg = msg[:i]
	}
	return fail(KindScript, msg)
}
