package browser

import (
	"context"
	"errors"
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
		return nil, invalid("text answers only a prompt dialog; this is a %s dialog (give accept only)", d.Type)
	}
	before := s.ev.snapshot()
	call := proto.PageHandleJavaScriptDialog{Accept: accept}
	if text != nil && accept {
		call.PromptText = *text
	}
	if err := call.Call(s.page.Context(ctx)); err != nil {
		if strings.Contains(err.Error(), "No dialog is showing") {
			s.ev.mu.Lock()
			s.ev.pending = nil
			s.ev.mu.Unlock()
			return nil, ErrNoDialog
		}
		return nil, err
	}
	// The closed event clears the pending dialog; wait for it briefly so the
	// page is usable before we look at it.
	s.ev.waitFor(ctx, 20*time.Millisecond, func() bool { return s.ev.pending == nil || *s.ev.pending != *d })
	res := &DialogResult{Answered: *d, Accepted: accept}
	if next := s.ev.pendingDialog(); next != nil && *next != *d {
		res.Next = next
		return res, nil
	}
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

// PendingDialog returns the dialog waiting for the user, or nil.
func (s *Session) PendingDialog() *Dialog { return s.ev.pendingDialog() }
