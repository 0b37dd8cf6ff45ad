package browser

import (
	"context"
	"errors"
	"strings"
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
	p  *rod.Page // a session of that tab's own, to answer it
	d  Dialog
}

// watchTabDialogs follows the JavaScript dialogs of tab id for the
// session's life.
func (s *Session) watchTabDialogs(id proto.TargetTargetID) {
	if s.browser == nil || s.ctx.Err() != nil {
		return
	}
	p, err := s.browser.PageFromTarget(id)
	if err != nil {
		return
	}
	wait := p.Context(s.ctx).EachEvent(
		func(ev *proto.PageJavascriptDialogOpening) { s.tabAsks(id, p, ev) },
		func(ev *proto.PageJavascriptDialogClosed) { s.tabAnswered(id) },
	)
	wait()
}

// tabAsks records tab id's dialog when that tab is not the current one; it
// waits its turn behind a dialog already open.
func (s *Session) tabAsks(id proto.TargetTargetID, p *rod.Page, ev *proto.PageJavascriptDialogOpening) {
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
	if err != nil && strings.Contains(err.Error(), "No dialog is showing") {
		// A foreign message: closed already (Chromium's only word for it).
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
	dctx, cancel := context.WithCancel(ctx)
	go func() {
		e.waitFor(dctx, 50*time.Millisecond, func() bool { return e.pendingTab != nil })
		cancel()
	}()
	return dctx, cancel
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
