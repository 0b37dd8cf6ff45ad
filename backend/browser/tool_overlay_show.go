package browser

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

type overlayShowArgs struct {
	Scheme string `json:"scheme,omitempty" jsonschema:"badge colours (default yellow-on-black)"`
}

func (overlayShowArgs) Refine(s *jsonschema.Schema) {
	tools.Enum(tools.Prop(s, "scheme"), "yellow-on-black", "black-on-yellow", "white-on-black", "white-on-blue")
}

// overlayShowTool is browser_overlay_show: it shows the numbers as badges on the page.
func overlayShowTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, "browser_overlay_show", "Show the numbers of the last list on the page as high-contrast badges (for a person looking at the screen; screen readers do not hear them). Lists first if there is no list yet; fails if the list is stale.", (*Session).toolOverlayShow)
}

func (s *Session) toolOverlayShow(ctx context.Context, a overlayShowArgs) (any, error) {
	return s.ShowOverlay(ctx, a.Scheme)
}
