package browser

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

// PressArgs are browser_press's arguments.
type PressArgs struct {
	Key string `json:"key" jsonschema:"key name, one character, or Modifier+Key"`
}

func (PressArgs) Refine(s *jsonschema.Schema) {
	tools.MinLength(tools.Prop(s, "key"), 1)
}

// PressRef is the typed handle on browser_press.
var PressRef = tools.RefTo[PressArgs, Result[PressResult]]("browser_press")

// pressTool is browser_press: it presses a key on the focused element.
func pressTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, PressRef, "Press a key on the focused element: Enter, Tab, Shift+Tab, Escape, Space, ArrowDown/Up/Left/Right, Backspace, Home, End, PageDown, F5, or one character such as k (play/pause video). Returns what has the focus afterwards.", (*Session).toolPress)
}

func (s *Session) toolPress(ctx context.Context, a PressArgs) (*PressResult, error) {
	return s.Press(ctx, a.Key)
}
