package browser

import (
	"context"

	"github.com/waymark/waymark/backend/tools"
)

type reloadArgs struct{}

// reloadTool is browser_reload: it reloads the page.
func reloadTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, "browser_reload", "Reload the page and wait for it to load.", (*Session).toolReload)
}

func (s *Session) toolReload(ctx context.Context, _ reloadArgs) (any, error) {
	return s.Reload(ctx)
}
