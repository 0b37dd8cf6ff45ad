package browser

import (
	"context"
	"errors"
	"fmt"

	"github.com/waymark/waymark/backend/tools"
)

// Result is every browser tool's answer (SPEC §5): {"status":"ok","data":…}
// or {"status":"error","error":"…"}. Failures of the page or the browser are
// results, not Go errors, so the assistant can read them and recover; a Go
// error from a browser tool always means invalid arguments. A failed Result
// is a tools.Failure: every door shows it as it shows a Go error.
type Result struct {
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
	Data   any    `json:"data,omitempty"`
	// Refused says what the page asked the browser for during the call (or
	// since the last one) that the policy stopped: a local file not given to
	// this session, an address carrying a password (guard.go).
	Refused []string `json:"refused,omitempty"`
}

// OK wraps data in a successful Result.
func OK(data any) Result { return Result{Status: "ok", Data: data} }

// Failed is why the call failed (tools.Failure).
func (r Result) Failed() (string, bool) { return r.Error, r.Status == "error" }

// Fail is an error Result.
func Fail(msg string) Result { return Result{Status: "error", Error: msg} }

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

// sessionTool builds a browser tool whose arguments are decoded into A (after
// the registry validated them against the schema generated from A): run gets
// the (lazily started) session, and its outcome becomes a Result. An
// invalid-arguments error stays a Go error, named for the tool.
func sessionTool[A any](ss *Sessions, name, description string, run func(s *Session, ctx context.Context, a A) (any, error)) tools.Tool {
	return tools.FuncCall(name, description, func(ctx context.Context, a A, call tools.Call, _ tools.Context) (Result, error) {
		s, err := SessionsFrom(ctx, ss).Get(ctx)
		if err != nil {
			return Fail("the browser could not be started: " + err.Error()), nil
		}
		// The browser's own requests from now on are judged by this call's
		// grant (guard.go).
		s.setGrant(GrantFrom(ctx))
		data, err := run(s, ctx, a)
		if err != nil {
			if errors.Is(err, tools.ErrInvalidArgs) {
				return Result{}, fmt.Errorf("%s: %w", call.Name, err)
			}
			r := Fail(err.Error())
			var de *DialogError
			if errors.As(err, &de) {
				// The dialog that waits, for the door to put to the user again.
				r.Data = map[string]any{"dialog_open": de.Dialog}
			}
			r.Refused = s.takeRefused()
			return r, nil
		}
		r := OK(data)
		r.Refused = s.takeRefused()
		return r, nil
	})
}
