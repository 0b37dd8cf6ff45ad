package browser

import (
	"context"
	"errors"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// Questions of the other tabs (issue 33). A tab the site opened itself
// (window.open, target=_blank) that shows an alert, confirm or prompt while
// the user is on another tab is frozen until it is answered, and so is every
// tab of its page process (window.open shares the opener's: the current tab
// froze with it, and the next step took the session for dead after 3 s and
// started a new browser). Each tab's dialogs are followed from its opening;
// one of a tab that is not current becomes the session's pending dialog,
// named by its tab (Dialog.Tab), said at once like the current tab's and
// answered from where the user is (AnswerDialog); the current tab's own
// follower (events.go) has the current tab's.

// tabAsk is another tab's open dialog.
type tabAsk struct {
	id proto.TargetTargetID
	p  tabSession // a session of that tab's own, to answer it
	d  Dialog
}

// tabSession is a CDP session of a tab's own, outside rod's page cache: its
// calls carry their own context. rod's PageFromTarget holds the browser's
// one target lock while it enables the Page domain, and Chromium does not
// answer Page.enable while the tab's page shows a dialog: a follower that
// attached a moment too late held that lock for good, and every later tab
// switch waited on it (issue 33).
type tabSession struct {
	b   *rod.Browser
	ctx context.Context
	id  proto.TargetSessionID
}

func (t tabSession) Call(ctx context.Context, sessionID, method string, params any) ([]byte, error) {
	return t.b.Call(ctx, sessionID, method, params)
}
func (t tabSession) GetSessionID() proto.TargetSessionID { return t.id }
func (t tabSession) GetContext() context.Context         { return t.ctx }

// Context is t with ctx for its calls.
func (t tabSession) Context(ctx context.Context) tabSession {
	t.ctx = ctx
	return t
}

// watchTabDialogs follows the JavaScript dialogs of tab id for the
// session's life, on a session of its own.
func (s *Session) watchTabDialogs(id proto.TargetTargetID) {
	if s.root == nil || s.ctx.Err() != nil {
		return
	}
	wctx, stop := context.WithCancel(s.ctx)
	defer stop()
	events := s.root.Context(wctx).Event() // before Page.enable: no event is missed
	actx, cancel := context.WithTimeout(s.ctx, 5*time.Second)
	att, err := proto.TargetAttachToTarget{TargetID: id, Flatten: true}.Call(s.root.Context(actx))
	cancel()
	if err != nil {
		return
	}
	ts := tabSession{b: s.root, ctx: s.ctx, id: att.SessionID}
	s.tw.mu.Lock()
	s.tw.sess[id] = ts
	s.tw.mu.Unlock()
	go func() {
		// Not answered while the page shows a dialog: bounded, its answer
		// not needed (the events are).
		ectx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
		defer cancel()
		_ = proto.PageEnable{}.Call(ts.Context(ectx))
	}()
	s.followTabEvents(id, ts, events)
}

// followTabEvents hands tab id's dialog events to the session until the tab
// or its session ends.
func (s *Session) followTabEvents(id proto.TargetTargetID, ts tabSession, events <-chan *rod.Message) {
	for msg := range events {
		var (
			open     proto.PageJavascriptDialogOpening
			detached proto.TargetDetachedFromTarget
			gone     proto.TargetTargetDestroyed
		)
		switch {
		case msg.SessionID == ts.id && msg.Load(&open):
			s.tabAsks(id, ts, &open)
		case msg.SessionID == ts.id && msg.Method == (proto.PageJavascriptDialogClosed{}).ProtoEvent():
			s.tabAnswered(id)
		case msg.Load(&detached) && detached.SessionID == ts.id, msg.Load(&gone) && gone.TargetID == id:
			s.tw.mu.Lock()
			delete(s.tw.sess, id)
			s.tw.mu.Unlock()
			return
		}
	}
}

// tabAsks records tab id's dialog when that tab is not the current one; it
// waits its turn behind a dialog already open.
func (s *Session) tabAsks(id proto.TargetTargetID, p tabSession, ev *proto.PageJavascriptDialogOpening) {
	e := s.evNow.Load()
	if e == nil || e.target == id {
		return // the current tab's follower has it
	}
	a := &tabAsk{id: id, p: p, d: Dialog{Type: string(ev.Type), Message: clipRunes(ev.Message, 500),
		Default: clipRunes(ev.DefaultPrompt, 200), URL: ev.URL, Tab: s.tabNumber(id)}}
	// The tab's title is the browser's: its page is frozen.
	ctx, cancel := context.WithTimeout(s.ctx, time.Second)
	defer cancel()
	if info, err := (proto.TargetGetTargetInfo{TargetID: id}).Call(s.root.Context(ctx)); err == nil && info.TargetInfo != nil {
		a.d.TabTitle = clipRunes(spaced(info.TargetInfo.Title), 200)
	}
	if a.d.TabTitle == "" {
		a.d.TabTitle = clipRunes(ev.URL, 200)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.tabQ = append(e.tabQ, a)
	e.promote()
	e.bump()
}

// tabAnswered forgets tab id's dialog: answered, or the tab went away.
func (s *Session) tabAnswered(id proto.TargetTargetID) {
	e := s.evNow.Load()
	if e == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.pendingTab != nil && e.pendingTab.id == id {
		if len(e.dialogs) < 10 {
			e.dialogs = append(e.dialogs, e.pendingTab.d.Type+": "+e.pendingTab.d.Message)
		}
		e.pending, e.pendingTab = nil, nil
	}
	kept := e.tabQ[:0]
	for _, a := range e.tabQ {
		if a.id != id {
			kept = append(kept, a)
		}
	}
	e.tabQ = kept
	e.promote()
	e.bump()
}

// promoteTab opens the next waiting question of another tab; e.mu held,
// no dialog open.
func (e *pageEvents) promoteTab() {
	if len(e.tabQ) == 0 {
		return
	}
	a := e.tabQ[0]
	e.tabQ = e.tabQ[1:]
	d := a.d
	e.pending, e.pendingTab = &d, a
}

// tabPending is the open dialog when it is another tab's.
func (e *pageEvents) tabPending() *tabAsk {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.pendingTab
}

// answerTab answers another tab's dialog in that tab.
func (s *Session) answerTab(ctx context.Context, a *tabAsk, accept bool, text *string) error {
	call := proto.PageHandleJavaScriptDialog{Accept: accept}
	if text != nil && accept {
		call.PromptText = *text
	}
	err := call.Call(a.p.Context(ctx))
	if err != nil && noDialogShowing(err) {
		s.tabAnswered(a.id)
		return ErrNoDialog
	}
	return err
}

// tabNumber is tab id's number in the tabs list (opening order, from 1).
func (s *Session) tabNumber(id proto.TargetTargetID) int {
	s.tw.mu.Lock()
	defer s.tw.mu.Unlock()
	b, ok := s.tw.born[id]
	if !ok {
		return 0
	}
	n := 1
	for o, ob := range s.tw.born {
		if o != id && !s.tw.gone[o] && ob < b {
			n++
		}
	}
	return n
}

// untilTabDialog is ctx ended also when another tab's question opens.
func (e *pageEvents) untilTabDialog(ctx context.Context) (context.Context, context.CancelFunc) {
	return e.until(ctx, func() bool { return e.pendingTab != nil })
}

// tabAsked is the error of an action cut short by another tab's question
// (err, a context's end): that question, for the door to put to the user;
// any other error as it is.
func (s *Session) tabAsked(err error) error {
	if !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	if e := s.evNow.Load(); e != nil {
		if a := e.tabPending(); a != nil {
			return &DialogError{Dialog: a.d}
		}
	}
	return err
}

// tabHeldWait bounds the check that a tab's page answers before it becomes
// current.
const tabHeldWait = 3 * time.Second

// tabHeld checks that tab id's page answers before the session follows it
// (rod's page set-up waits without end on a page held by a dialog): the
// tab's question when it asks one (the user hears it and answers it from
// here), an error naming the tab when its page does not answer in time,
// nil when it answers.
func (s *Session) tabHeld(ctx context.Context, id proto.TargetTargetID) error {
	s.tw.mu.Lock()
	ts, ok := s.tw.sess[id]
	s.tw.mu.Unlock()
	if !ok {
		return nil // not followed: nothing to ask it through (rare; rod's own wait then)
	}
	pctx, cancel := context.WithTimeout(ctx, tabHeldWait)
	defer cancel()
	_, err := proto.RuntimeEvaluate{Expression: "1", ReturnByValue: true}.Call(ts.Context(pctx))
	if err == nil {
		return nil
	}
	if e := s.evNow.Load(); e != nil {
		if d := e.pendingDialog(); d != nil {
			return &DialogError{Dialog: *d} // its question came meanwhile
		}
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if pctx.Err() != nil {
		return fail(KindTabHeld, s.tabNumber(id), tabHeldWait)
	}
	return nil // a page between documents: followed as before
}
