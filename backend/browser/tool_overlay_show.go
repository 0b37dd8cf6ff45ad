package browser

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

// OverlayShowArgs are browser_overlay_show's arguments.
type OverlayShowArgs struct {
	Scheme string `json:"scheme,omitempty" jsonschema:"badge colours (default yellow-on-black)"`
}

func (OverlayShowArgs) Refine(s *jsonschema.Schema) {
	tools.Enum(tools.Prop(s, "scheme"), "yellow-on-black", "black-on-yellow", "white-on-black", "white-on-blue")
}

// OverlayShowRef is the typed handle on browser_overlay_show.
var OverlayShowRef = tools.RefTo[OverlayShowArgs, Result[OverlayResult]]("browser_overlay_show")

// overlayShowTool is browser_overlay_show: it shows the numbers as badges on the page.
func overlayShowTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, OverlayShowRef, "Show the numbers of the last list on the page as high-contrast badges (for a person looking at the screen; screen readers do not hear them). Lists first if there is no list yet; fails if the list is stale.", (*Session).toolOverlayShow)
}

func (s *Session) toolOverlayShow(ctx context.Context, a OverlayShowArgs) (*OverlayResult, error) {
	return s.ShowOverlay(ctx, a.Scheme)
}
