package browser

import (
	"context"

	"github.com/waymark/waymark/backend/tools"
)

// FocusPrevArgs are browser_focus_prev's arguments.
type FocusPrevArgs struct {
	Role string `json:"role,omitempty" jsonschema:"stop at the previous element of this role"`
}

// FocusPrevRef is the typed handle on browser_focus_prev.
var FocusPrevRef = tools.RefTo[FocusPrevArgs, Result[FocusResult]]("browser_focus_prev")

// focusPrevTool is browser_focus_prev: it moves the focus back with Shift+Tab.
func focusPrevTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, FocusPrevRef, "Move the keyboard focus back with real Shift+Tab presses, to the previous element (of the role, if given). Says what has the focus and its number in the current list.", (*Session).toolFocusPrev)
}

func (s *Session) toolFocusPrev(ctx context.Context, a FocusPrevArgs) (*FocusResult, error) {
	return s.FocusMove(ctx, a.Role, true)
}
