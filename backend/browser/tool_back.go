package browser

import (
	"context"

	"github.com/waymark/waymark/backend/tools"
)

type backArgs struct{}

// backTool is browser_back: it goes back one page.
func backTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, "browser_back", "Go back one page in the browser history and wait for it to load.", (*Session).toolBack)
}

func (s *Session) toolBack(ctx context.Context, _ backArgs) (any, error) {
	return s.Back(ctx)
}
