package browser

import (
	"context"

	"github.com/waymark/waymark/backend/tools"
)

type forwardArgs struct{}

// forwardTool is browser_forward: it goes forward one page.
func forwardTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, "browser_forward", "Go forward one page in the browser history and wait for it to load.", (*Session).toolForward)
}

func (s *Session) toolForward(ctx context.Context, _ forwardArgs) (any, error) {
	return s.Forward(ctx)
}
