package browser

import (
	"context"

	"github.com/waymark/waymark/backend/tools"
)

// OverlayHideArgs are browser_overlay_hide's arguments.
type OverlayHideArgs struct{}

// HideResult says the badges were removed.
type HideResult struct {
	Hidden bool `json:"hidden"`
}

// OverlayHideRef is the typed handle on browser_overlay_hide.
var OverlayHideRef = tools.RefTo[OverlayHideArgs, Result[HideResult]]("browser_overlay_hide")

// overlayHideTool is browser_overlay_hide: it removes the number badges.
func overlayHideTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, OverlayHideRef, "Remove the number badges from the page (the numbers stay valid).", (*Session).toolOverlayHide)
}

func (s *Session) toolOverlayHide(ctx context.Context, _ OverlayHideArgs) (*HideResult, error) {
	if err := s.HideOverlay(ctx); err != nil {
		return nil, err
	}
	return &HideResult{Hidden: true}, nil
}
