package browser

import (
	"context"
	"errors"
	"fmt"

	"github.com/waymark/waymark/backend/tools"
)

// Result is every browser tool's answer (SPEC §5): {"status":"ok","data":…}
// or {"status":"error","error":"…"}, with data of the tool's own type T (a
// PageState for browser_navigate, a ListResult for browser_list_interactives,
// …; each tool's Ref names it). Failures of the page or the browser are
// results, not Go errors, so the assistant can read them and recover; a Go
// error from a browser tool always means invalid arguments. A failed Result
// is a tools.Failure: every door shows it as it shows a Go error.
type Result[T any] struct {
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
	Data   *T     `json:"data,omitempty"`
	// Refused says what the page asked the browser for during the call (or
	// since the last one) that the policy stopped: a local file not given to
	// this session, an address carrying a password (guard.go).
	Refused []string `json:"refused,omitempty"`
	// Stopped are the same, by kind, for a door that says them in its own
	// words. Not in the JSON.
	Stopped []Refusal `json:"-"`
	// Blocking is the page's dialog a failed call was refused for: it
	// waits for the user's answer before anything else.
	Blocking *Dialog `json:"dialog_open,omitempty"`
	// Err is the error a failed call's Error says (an *Error, a sentinel
	// such as ErrNoList, a *NavError, …): a door says it by its identity
	// (errors.Is, errors.As), not by its text. Not in the JSON.
	Err error `json:"-"`
}

// Outcome is what every browser tool's Result has, whatever its data: for
// code that holds the result of some browser tool (the number commands'
// interpreter, the renderer).
type Outcome interface {
	// Failed is why the call failed (tools.Failure).
	Failed() (string, bool)
	// Cause is the error of a failed call, nil when it did not fail.
	Cause() error
	// Payload is the data (a *PageState, a *ListResult, …), nil when none.
	Payload() any
	// Refusals are what the policy stopped during the call.
	Refusals() []Refusal
	// WaitingDialog is the JavaScript dialog the page opened and waits
	// with, nil when none.
	WaitingDialog() *Dialog
	// BlockingDialog is the page's dialog a failed call was refused for,
	// nil when none.
	BlockingDialog() *Dialog
}

// dialogWaiter is a result that can report a dialog the page waits with.
type dialogWaiter interface{ waitingDialog() *Dialog }

func (p *PageState) waitingDialog() *Dialog    { return p.Dialog }
func (r *ActResult) waitingDialog() *Dialog    { return r.Dialog }
func (r *PressResult) waitingDialog() *Dialog  { return r.Dialog }
func (r *DialogResult) waitingDialog() *Dialog { return r.Next }

// OK wraps data in a successful Result.
func OK[T any](data *T) Result[T] { return Result[T]{Status: "ok", Data: data} }

// failed is the error Result of err, which it keeps (Cause).
func failed[T any](err error) Result[T] {
	return Result[T]{Status: "error", Error: err.Error(), Err: err}
}

// Failed is why the call failed (tools.Failure).
func (r Result[T]) Failed() (string, bool) { return r.Error, r.Status == "error" }

// Cause is the error of a failed call (Outcome): the error itself when the
// tool made the result, else one with the result's text.
func (r Result[T]) Cause() error {
	switch {
	case r.Status != "error":
		return nil
	case r.Err != nil:
		return r.Err
	}
	return errors.New(r.Error)
}

// Payload is the data, nil when none (Outcome).
func (r Result[T]) Payload() any {
	if r.Data == nil {
		return nil
	}
	return r.Data
}

// Refusals are what the policy stopped during the call (Outcome).
func (r Result[T]) Refusals() []Refusal { return r.Stopped }

// WaitingDialog is the dialog the page waits with, nil when none (Outcome).
func (r Result[T]) WaitingDialog() *Dialog {
	if w, ok := any(r.Data).(dialogWaiter); ok && r.Data != nil && r.Status == "ok" {
		return w.waitingDialog()
	}
	return nil
}

// BlockingDialog is the dialog a failed call was refused for (Outcome).
func (r Result[T]) BlockingDialog() *Dialog {
	if r.Status != "error" {
		return nil
	}
	return r.Blocking
}

// Register adds the browser tools (SPEC §5) to r; they run on ss's session,
// which starts on the first call. Element actions go strictly by number:
// list → show → act. Each tool is in the file named for it (tool_navigate.go
// for browser_navigate, …).
func Register(r *tools.Registry, ss *Sessions) {
	r.MustRegister(
		navigateTool(ss),
		waitTool(ss),
		backTool(ss),
		forwardTool(ss),
		reloadTool(ss),
		listInteractivesTool(ss),
		overlayShowTool(ss),
		overlayHideTool(ss),
		findTool(ss),
		findTextTool(ss),
		overlayActTool(ss),
		dialogTool(ss),
		focusNextTool(ss),
		focusPrevTool(ss),
		actByIndexTool(ss),
		tabsTool(ss),
		openInNewTabTool(ss),
		switchTabTool(ss),
		closeTabTool(ss),
		clickAndWaitDownloadTool(ss),
		downloadWaitTool(ss),
		uploadTool(ss),
		closeBannersTool(ss),
		pressTool(ss),
		scrollTool(ss),
		extractTool(ss),
		readTool(ss),
		tableTool(ss),
		screenshotTool(ss),
	)
}

// wrapped turns a session method's result into the tool's own result type W
// (the same JSON; a type of its own, so a door renders it as this tool's).
func wrapped[T, W any](v *T, err error, wrap func(T) W) (*W, error) {
	if err != nil || v == nil {
		return nil, err
	}
	w := wrap(*v)
	return &w, nil
}

// sessionTool builds the browser tool ref names, whose arguments are decoded
// into A (after the registry validated them against the schema generated
// from A): run gets the (lazily started) session, and its outcome becomes a
// Result[D]. An invalid-arguments error stays a Go error, named for the tool.
func sessionTool[A, D any](ss *Sessions, ref tools.Ref[A, Result[D]], description string, run func(s *Session, ctx context.Context, a A) (*D, error)) tools.Tool {
	return ref.FuncCall(description, func(ctx context.Context, a A, call tools.Call, _ tools.Context) (Result[D], error) {
		s, err := SessionsFrom(ctx, ss).Get(ctx)
		if err != nil {
			return failed[D](failWith(KindStartFailed, err)), nil
		}
		// The browser's own requests from now on are judged by this call's
		// grant (guard.go).
		s.setGrant(GrantFrom(ctx))
		data, err := run(s, ctx, a)
		if err != nil && ctx.Err() == nil {
			err = s.tabAsked(err)
		}
		if err != nil {
			if errors.Is(err, tools.ErrInvalidArgs) {
				return Result[D]{}, fmt.Errorf("%s: %w", call.Name, err)
			}
			r := failed[D](err)
			var de *DialogError
			if errors.As(err, &de) {
				// The dialog that waits, for the door to put to the user again.
				d := de.Dialog
				r.Blocking = &d
			}
			r.Stopped = s.takeRefused()
			r.Refused = refusalStrings(r.Stopped)
			return r, nil
		}
		r := OK(data)
		r.Stopped = s.takeRefused()
		r.Refused = refusalStrings(r.Stopped)
		return r, nil
	})
}
