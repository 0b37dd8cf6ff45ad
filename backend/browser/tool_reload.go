package browser

import (
	"context"

	"github.com/waymark/waymark/backend/tools"
)

// ReloadArgs are browser_reload's arguments.
type ReloadArgs struct{}

// ReloadResult is the page browser_reload loaded again.
type ReloadResult struct{ PageState }

// ReloadRef is the typed handle on browser_reload.
var ReloadRef = tools.RefTo[ReloadArgs, Result[ReloadResult]]("browser_reload")

// reloadTool is browser_reload: it reloads the page.
func reloadTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, ReloadRef, "Reload the page and wait for it to load.", (*Session).toolReload)
}

func (s *Session) toolReload(ctx context.Context, _ ReloadArgs) (*ReloadResult, error) {
	p, err := s.Reload(ctx)
	return wrapped(p, err, func(p PageState) ReloadResult { return ReloadResult{p} })
}
