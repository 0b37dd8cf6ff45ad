package browser

import (
	"context"

	"github.com/waymark/waymark/backend/tools"
)

type focusNextArgs struct {
	Role string `json:"role,omitempty" jsonschema:"stop at the next element of this role"`
}

// focusNextTool is browser_focus_next: it moves the focus forward with Tab.
func focusNextTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, "browser_focus_next", "Move the keyboard focus forward with real Tab presses, to the next element (of the role, if given: button, link, textbox, checkbox, combobox…). Says what has the focus and its number in the current list.", (*Session).toolFocusNext)
}

func (s *Session) toolFocusNext(ctx context.Context, a focusNextArgs) (any, error) {
	return s.FocusMove(ctx, a.Role, false)
}
