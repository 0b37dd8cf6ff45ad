package browser

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

// ScrollArgs are browser_scroll's arguments.
type ScrollArgs struct {
	To       string  `json:"to,omitempty" jsonschema:"top or bottom of the page"`
	ByX      float64 `json:"by_x,omitempty" jsonschema:"pixels to the right (negative: left)"`
	ByY      float64 `json:"by_y,omitempty" jsonschema:"pixels down (negative: up)"`
	Index    int     `json:"index,omitempty" jsonschema:"scroll until this element (its number in the last list) is in view"`
	Behavior string  `json:"behavior,omitempty" jsonschema:"smooth (default): real mouse-wheel events, so pages load more as they would for a person; instant: jump there"`
}

func (ScrollArgs) Refine(s *jsonschema.Schema) {
	tools.Enum(tools.Prop(s, "to"), "top", "bottom")
	tools.Min(tools.Prop(s, "index"), 1)
	tools.Enum(tools.Prop(s, "behavior"), "smooth", "instant")
}

// ScrollRef is the typed handle on browser_scroll.
var ScrollRef = tools.RefTo[ScrollArgs, Result[ScrollResult]]("browser_scroll")

// scrollTool is browser_scroll: it scrolls the page with the mouse wheel.
func scrollTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, ScrollRef, "Scroll the page with the mouse wheel: to top or bottom, by_y / by_x pixels (positive: down/right), or until element index of the last list is in view (in_view says if it is). With no arguments scrolls down by most of a screen. Reports the position, whether the page grew (more loaded) and numbering_stale.", (*Session).toolScroll)
}

func (s *Session) toolScroll(ctx context.Context, a ScrollArgs) (*ScrollResult, error) {
	return s.Scroll(ctx, ScrollOptions{To: a.To, ByX: a.ByX, ByY: a.ByY, Index: a.Index, Behavior: a.Behavior})
}
