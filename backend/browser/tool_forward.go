package browser

import (
	"context"

	"github.com/waymark/waymark/backend/tools"
)

// ForwardArgs are browser_forward's arguments.
type ForwardArgs struct{}

// ForwardRef is the typed handle on browser_forward.
var ForwardRef = tools.RefTo[ForwardArgs, Result[HistoryResult]]("browser_forward")

// forwardTool is browser_forward: it goes forward one page.
func forwardTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, ForwardRef, "Go forward one page in the browser history and wait for it to load.", (*Session).toolForward)
}

func (s *Session) toolForward(ctx context.Context, _ ForwardArgs) (*HistoryResult, error) {
	p, err := s.Forward(ctx)
	return wrapped(p, err, func(p PageState) HistoryResult { return HistoryResult{p} })
}
