package browser

import (
	"context"

	"github.com/waymark/waymark/backend/tools"
)

type overlayHideArgs struct{}

// overlayHideTool is browser_overlay_hide: it removes the number badges.
func overlayHideTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, "browser_overlay_hide", "Remove the number badges from the page (the numbers stay valid).", (*Session).toolOverlayHide)
}

func (s *Session) toolOverlayHide(ctx context.Context, _ overlayHideArgs) (any, error) {
	if err := s.HideOverlay(ctx); err != nil {
		return nil, err
	}
	return map[string]bool{"hidden": true}, nil
}
