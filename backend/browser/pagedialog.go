package browser

import (
	"context"
	_ "embed"
	"encoding/json"
	"regexp"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

// Page dialogs without the browser's own (Options.OwnDialogs; issue 33
// point 3). A visible Chromium draws its own tab-modal dialog for a page's
// alert, confirm and prompt: it took the X focus from Waymark's window and
// the screen reader read the question a second time ("127.0.0.1 says …").
// With OwnDialogs, every document starts with pagedialog.js in its own world
// (the page's target and each out-of-process frame's session, before the
// frame runs), which stops the page at a `debugger;` statement with the
// question in a local; the Debugger domain is on in those sessions, so the
// page pauses synchronously, as under the browser's dialog. The pause is
// shown through the same pending dialog the browser's event fills
// (events.go), and AnswerDialog writes the answer into the paused frame and
// resumes it. Any other pause (a page's own `debugger;` trap) is resumed at
// once and never shown. beforeunload has no function a page calls: it stays
// the browser's own dialog.

//go:embed pagedialog.js
var pageDialogJS string

// pageDialogFunc is pagedialog.js's function that pauses, pageDialogURL
// the script's own address (its sourceURL).
const (
	pageDialogFunc = "wmPageDialog"
	pageDialogURL  = "waymark-page-dialog.js"
)

var pageDialogKinds = map[string]bool{"alert": true, "confirm": true, "prompt": true}

// ownPause is a page stopped in pagedialog.js, waiting for the user.
type ownPause struct {
	sid   string                    // the CDP session it paused in
	frame proto.DebuggerCallFrameID // the paused call frame
	d     Dialog
}

// ownDialogs readies a page's or an out-of-process frame's session sid:
// pagedialog.js in every document (the ones already there too) and the
// Debugger on. No-op unless Options.OwnDialogs.
func (s *Session) ownDialogs(ctx context.Context, sid string) {
	if !s.opts.OwnDialogs {
		return
	}
	_, _ = s.root.Call(ctx, sid, "Page.addScriptToEvaluateOnNewDocument", map[string]any{"source": pageDialogJS, "runImmediately": true})
	_, _ = s.root.Call(ctx, sid, "Debugger.enable", map[string]any{})
	// Every other script is ignore-listed: V8 skips a `debugger;` statement
	// whose function is, so a page's own (an anti-devtools trap) never
	// stops it. Stopped, a page drops the clicks and keys sent to it.
	_, _ = s.root.Call(ctx, sid, "Debugger.setBlackboxPatterns", map[string]any{
		"patterns": []string{`^(?!` + regexp.QuoteMeta(pageDialogURL) + `$)`}, "skipAnonymous": true})
}

// debuggerEvent handles a Debugger event of a followed session (followFrames).
func (s *Session) debuggerEvent(method, sid string, load func(proto.Event) bool) {
	switch method {
	case "Debugger.paused":
		var ev proto.DebuggerPaused
		if load(&ev) {
			go s.paused(sid, &ev)
		}
	case "Debugger.resumed":
		// Resumed without an answer (the frame went away): the question is gone.
		if e := s.evNow.Load(); e != nil {
			e.ownGone(sid)
		}
	}
}

// paused looks at a pause: pagedialog.js's becomes the pending dialog,
// any other is resumed at once.
func (s *Session) paused(sid string, ev *proto.DebuggerPaused) {
	ctx, cancel := context.WithTimeout(s.ctx, 5*time.Second)
	defer cancel()
	// The call frame's url is empty for a document-start script, so its
	// function's name tells. A page's own function of that name is only the
	// page asking its own question, which it may do with alert anyway.
	if len(ev.CallFrames) == 0 || ev.CallFrames[0].FunctionName != pageDialogFunc {
		s.resume(ctx, sid)
		return
	}
	cf := ev.CallFrames[0].CallFrameID
	v, err := s.evalOnFrame(ctx, sid, cf, "JSON.stringify([q.kind, q.message.slice(0, 2000), q.def.slice(0, 1000), location.href.slice(0, 4000)])")
	var q []string
	e := s.evNow.Load()
	if err != nil || json.Unmarshal([]byte(v), &q) != nil || len(q) != 4 || !pageDialogKinds[q[0]] || e == nil {
		// Not readable: the page goes on to the browser's own dialog.
		s.resume(ctx, sid)
		return
	}
	e.ownOpened(&ownPause{sid: sid, frame: cf, d: Dialog{Type: q[0], Message: clipRunes(q[1], 500), Default: clipRunes(q[2], 200), URL: q[3]}})
}

func (s *Session) resume(ctx context.Context, sid string) error {
	_, err := s.root.Call(ctx, sid, "Debugger.resume", map[string]any{})
	return err
}

// evalOnFrame evaluates expr in a paused call frame, by value.
func (s *Session) evalOnFrame(ctx context.Context, sid string, cf proto.DebuggerCallFrameID, expr string) (string, error) {
	raw, err := s.root.Call(ctx, sid, "Debugger.evaluateOnCallFrame", proto.DebuggerEvaluateOnCallFrame{CallFrameID: cf, Expression: expr, ReturnByValue: true, Silent: true})
	if err != nil {
		return "", err
	}
	var res proto.DebuggerEvaluateOnCallFrameResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return "", err
	}
	if res.ExceptionDetails != nil {
		return "", jsError(res.ExceptionDetails)
	}
	if res.Result == nil {
		return "", nil
	}
	return res.Result.Value.Str(), nil
}

// answerOwn writes the user's answer into the paused frame and lets the page
// go on; stop also makes the document's further dialogs return at once (a
// dialog loop the user stopped). The pause ends whatever happens.
func (s *Session) answerOwn(ctx context.Context, e *pageEvents, p *ownPause, accept bool, text string, stop bool) {
	t, _ := json.Marshal(text)
	expr := "q.answered = true, q.ok = " + boolJS(accept) + ", q.text = " + string(t) + ", q.stop = " + boolJS(stop)
	_, _ = s.evalOnFrame(ctx, p.sid, p.frame, expr)
	_ = s.resume(ctx, p.sid)
	e.ownClosed(p)
}

func boolJS(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// resumeOwn lets every page stopped in a dialog go on (the session ends).
func (s *Session) resumeOwn(ctx context.Context) {
	e := s.evNow.Load()
	if e == nil {
		return
	}
	for _, p := range e.ownAll() {
		s.answerOwn(ctx, e, p, false, "", true)
	}
}

// ownOpened records a page stopped in a dialog; it waits its turn behind a
// dialog already open.
func (e *pageEvents) ownOpened(p *ownPause) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.ownQ = append(e.ownQ, p)
	e.opened++
	e.promote()
	e.bump()
}

// promote opens the next waiting page dialog when none is open; e.mu held.
func (e *pageEvents) promote() {
	if e.pending == nil && len(e.ownQ) == 0 {
		e.promoteTab()
	}
	if e.pending != nil || len(e.ownQ) == 0 {
		return
	}
	p := e.ownQ[0]
	e.ownQ = e.ownQ[1:]
	d := p.d
	e.pending, e.pendingOwn = &d, p
}

// ownClosed: p was answered (or went away).
func (e *pageEvents) ownClosed(p *ownPause) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.closeOwnLocked(p)
}

func (e *pageEvents) closeOwnLocked(p *ownPause) {
	if e.pendingOwn == p {
		if len(e.dialogs) < 10 {
			e.dialogs = append(e.dialogs, p.d.Type+": "+p.d.Message)
		}
		e.pending, e.pendingOwn = nil, nil
	}
	for i, q := range e.ownQ {
		if q == p {
			e.ownQ = append(e.ownQ[:i:i], e.ownQ[i+1:]...)
			break
		}
	}
	e.promote()
	e.bump()
}

// ownGone forgets the pauses of session sid, which went on without an
// answer from Waymark.
func (e *pageEvents) ownGone(sid string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, p := range append([]*ownPause{e.pendingOwn}, e.ownQ...) {
		if p != nil && p.sid == sid {
			e.closeOwnLocked(p)
		}
	}
}

// ownPending is the open dialog when it is a page stopped by Waymark.
func (e *pageEvents) ownPending() *ownPause {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.pendingOwn
}

func (e *pageEvents) ownAll() []*ownPause {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []*ownPause
	if e.pendingOwn != nil {
		out = append(out, e.pendingOwn)
	}
	return append(out, e.ownQ...)
}
