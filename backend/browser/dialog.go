package browser

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

// watchInput runs an input action (a click, typing, a key) and returns as soon
// as it finished or the page opened a JavaScript dialog, whichever comes
// first. A dialog freezes the page, so the action's remaining CDP calls would
// wait for it; they are abandoned (their context ends with the action's) and
// the dialog is returned for the user to answer.
func (s *Session) watchInput(ctx context.Context, fn func(ctx context.Context) error) (*Dialog, error) {
	actx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- fn(actx) }()
	for {
		s.ev.mu.Lock()
		d, ch := s.ev.pending, s.ev.changed
		s.ev.mu.Unlock()
		if d != nil {
			// Leave fn running on actx until the action's context ends: its
			// mouse-up or key-up may still be in flight behind the dialog.
			go func() { <-ctx.Done(); cancel() }()
			dd := *d
			return &dd, nil
		}
		select {
		case err := <-done:
			cancel()
			return nil, err
		case <-ch:
		case <-ctx.Done():
			cancel()
			if d := s.ev.pendingDialog(); d != nil {
				return d, nil // it ended the action (another tab's)
			}
			return nil, ctx.Err()
		}
	}
}

// DialogResult reports the answer given to a dialog and where the page is now.
type DialogResult struct {
	Answered       Dialog `json:"answered"`
	Accepted       bool   `json:"accepted"`
	Navigated      bool   `json:"navigated"`
	URL            string `json:"url"`
	Title          string `json:"title"`
	NumberingStale bool   `json:"numbering_stale"`
	// Next is a further dialog the page opened right after (answer it too).
	Next *Dialog `json:"next_dialog,omitempty"`
	// Stopped: the page kept opening dialogs; Waymark closed them and
	// stopped the page's scripts (Note says so).
	Stopped int    `json:"dialogs_stopped,omitempty"`
	Note    string `json:"note,omitempty"`
	// LeftPage: the page kept opening dialogs, so they were closed and the
	// page was left (the note says so; for the doors that say it in their
	// own words).
	LeftPage bool `json:"-"`
}

// dialogLoop is how many dialogs in a row, each opened as soon as the one
// before was answered, make a loop that Waymark stops.
const dialogLoop = 3

// stopDialogs ends a page's dialog loop (issue 32 point 9: a page looping on
// alert() kept the user answering, or silent, for minutes). A page inside a
// dialog takes no script command, and a looping script opens the next
// dialog as soon as one is answered, so the page is left: the tab goes to an
// empty page (the browser closes the dialog for that). It returns how many
// dialogs it closed; every call is bounded.
func (s *Session) stopDialogs(ctx context.Context) int {
	n := 0
	// A page stopped in Waymark's own dialog cannot leave: it is let go
	// first, its further dialogs answered at once.
	for p := s.ev.ownPending(); p != nil && n < 50; p = s.ev.ownPending() {
		s.answerOwn(ctx, s.ev, p, false, "", true)
		n++
	}
	c, cancel := context.WithTimeout(ctx, 3*time.Second)
	_, err := proto.PageNavigate{URL: "about:blank"}.Call(s.page.Context(c))
	cancel()
	for i := 0; i < 50 && ctx.Err() == nil; i++ {
		d := s.ev.pendingDialog()
		if d == nil && err == nil {
			// Left: one still on its way from the old page is closed too.
			c, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
			s.ev.waitFor(c, 20*time.Millisecond, func() bool { return s.ev.pending != nil })
			cancel()
			if d = s.ev.pendingDialog(); d == nil {
				break
			}
		}
		if d == nil {
			c, cancel := context.WithTimeout(ctx, 3*time.Second)
			_, err = proto.PageNavigate{URL: "about:blank"}.Call(s.page.Context(c))
			cancel()
			continue
		}
		c, cancel := context.WithTimeout(ctx, time.Second)
		herr := s.closeDialog(c, false, nil, true)
		s.ev.waitFor(c, 20*time.Millisecond, func() bool { return s.ev.pending == nil || *s.ev.pending != *d })
		cancel()
		n++
		s.ev.mu.Lock()
		if s.ev.pending != nil && *s.ev.pending == *d && herr != nil {
			s.ev.pending = nil // the browser closed it already
		}
		s.ev.mu.Unlock()
	}
	s.markStale("the page kept opening dialogs and was left")
	s.ev.takeDialogs()
	return n
}

// ErrNoDialog is returned when there is no dialog to answer.
var ErrNoDialog = errors.New("no dialog is open on the page")

// AnswerDialog gives the user's answer to the open JavaScript dialog: accept
// (OK, or leave the page) or not (Cancel, stay), with text for a prompt. Only
// the user decides this; the assistant loop asks them first.
func (s *Session) AnswerDialog(ctx context.Context, accept bool, text *string) (*DialogResult, error) {
	ctx, unlock, err := s.lockDialog(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	d := s.ev.pendingDialog()
	if d == nil {
		return nil, ErrNoDialog
	}
	if text != nil && d.Type != string(proto.PageDialogTypePrompt) {
		return nil, fail(KindPromptOnly, d.Type)
	}
	before := s.ev.snapshot()
	s.ev.mu.Lock()
	opened := s.ev.opened
	s.ev.mu.Unlock()
	if err := s.closeDialog(ctx, accept, text, false); err != nil {
		return nil, err
	}
	// The closed event clears the pending dialog; wait for it briefly so the
	// page is usable before we look at it.
	s.ev.waitFor(ctx, 20*time.Millisecond, func() bool { return s.ev.pending == nil || s.ev.opened > opened })
	res := &DialogResult{Answered: *d, Accepted: accept}
	// A page that answers a dialog with another opens it at once.
	wctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	s.ev.waitFor(wctx, 20*time.Millisecond, func() bool { return s.ev.opened > opened })
	cancel()
	s.ev.mu.Lock()
	again := s.ev.opened > opened && s.ev.pending != nil
	s.ev.mu.Unlock()
	if next := s.ev.pendingDialog(); next != nil && again {
		s.dialogRun++
		if s.dialogRun < dialogLoop {
			res.Next = next
			return res, nil
		}
		res.Stopped = s.stopDialogs(ctx)
		res.LeftPage = true
		res.Note = fmt.Sprintf("The page keeps opening dialogs (%d in a row): they were closed and the page was left (the tab is empty now); go to a page to go on.", s.dialogRun+res.Stopped)
		s.dialogRun = 0
		return res, nil
	}
	s.dialogRun = 0
	navigated, _, _ := s.settle(ctx, before, false)
	if next := s.ev.pendingDialog(); next != nil {
		res.Next = next
		return res, nil
	}
	st := &PageState{}
	s.describe(ctx, st)
	res.Navigated, res.URL, res.Title = navigated, st.URL, st.Title
	if s.current.Load() != nil {
		res.NumberingStale = navigated || s.isStale(ctx)
	}
	return res, nil
}

// closeDialog answers the open dialog: a page stopped in Waymark's own
// (pagedialog.go) or the browser's. stop: the page loops on dialogs, so its
// document's further ones are answered at once (Waymark's own only).
func (s *Session) closeDialog(ctx context.Context, accept bool, text *string, stop bool) error {
	if a := s.ev.tabPending(); a != nil {
		return s.answerTab(ctx, a, accept, text)
	}
	if p := s.ev.ownPending(); p != nil {
		t := ""
		if text != nil && accept {
			t = *text
		}
		s.answerOwn(ctx, s.ev, p, accept, t, stop)
		return nil
	}
	call := proto.PageHandleJavaScriptDialog{Accept: accept}
	if text != nil && accept {
		call.PromptText = *text
	}
	if err := call.Call(s.page.Context(ctx)); err != nil {
		if noDialogShowing(err) {
			s.ev.mu.Lock()
			s.ev.pending = nil
			s.ev.mu.Unlock()
			return ErrNoDialog
		}
		return err
	}
	return nil
}

// noDialogShowing says whether DevTools refused to answer a dialog because
// none is open (closed already): a foreign message, Chromium's DevTools
// answer has no other identity.
func noDialogShowing(err error) bool {
	return strings.Contains(err.Error(), "No dialog is showing")
}

// PendingDialog returns the dialog waiting for the user, or nil.
func (s *Session) PendingDialog() *Dialog { return s.ev.pendingDialog() }
