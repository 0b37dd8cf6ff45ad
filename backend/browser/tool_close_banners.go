package browser

import (
	"context"

	"github.com/waymark/waymark/backend/tools"
)

type closeBannersArgs struct{}

// closeBannersTool is browser_close_banners: it closes cookie and consent banners.
func closeBannersTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, "browser_close_banners", "Close cookie and consent banners now (they are also closed after navigation, clicks, reloads and tab changes): known consent platforms through the autoconsent rules, others by their reject or close button; non-essential cookies are refused. Returns found, closed, passes, rules, ms, leftovers_fixed (inert / aria-hidden / scroll lock undone) and renumbered (the new list, if a numbering was active).", (*Session).toolCloseBanners)
}

func (s *Session) toolCloseBanners(ctx context.Context, _ closeBannersArgs) (any, error) {
	return s.CloseBanners(ctx)
}
