package browser

import (
	"context"

	"github.com/waymark/waymark/backend/tools"
)

// FocusNextArgs are browser_focus_next's arguments.
type FocusNextArgs struct {
	Role string `json:"role,omitempty" jsonschema:"stop at the next element of this role"`
}

// FocusNextRef is the typed handle on browser_focus_next.
var FocusNextRef = tools.RefTo[FocusNextArgs, Result[FocusResult]]("browser_focus_next")

// focusNextTool is browser_focus_next: it moves the focus forward with Tab.
func focusNextTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, FocusNextRef, "Move the keyboard focus forward with real Tab presses, to the next element (of the role, if given: button, link, textbox, checkbox, combobox…). Says what has the focus and its number in the current list.", (*Session).toolFocusNext)
}

func (s *Session) toolFocusNext(ctx context.Context, a FocusNextArgs) (*FocusResult, error) {
	return s.FocusMove(ctx, a.Role, false)
}
