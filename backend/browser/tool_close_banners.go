package browser

import (
	"context"

	"github.com/waymark/waymark/backend/tools"
)

// CloseBannersArgs are browser_close_banners's arguments.
type CloseBannersArgs struct{}

// CloseBannersRef is the typed handle on browser_close_banners.
var CloseBannersRef = tools.RefTo[CloseBannersArgs, Result[BannerReport]]("browser_close_banners")

// closeBannersTool is browser_close_banners: it closes cookie and consent banners.
func closeBannersTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, CloseBannersRef, "Close cookie and consent banners now (they are also closed after navigation, clicks, reloads and tab changes): known consent platforms through the autoconsent rules, others by their reject or close button; non-essential cookies are refused. Returns found, closed, passes, rules, ms, leftovers_fixed (inert / aria-hidden / scroll lock undone) and renumbered (the new list, if a numbering was active).", (*Session).toolCloseBanners)
}

func (s *Session) toolCloseBanners(ctx context.Context, _ CloseBannersArgs) (*BannerReport, error) {
	return s.CloseBanners(ctx)
}
