package browser

import (
	"context"

	"github.com/waymark/waymark/backend/tools"
)

// BackArgs are browser_back's arguments.
type BackArgs struct{}

// HistoryResult is the page browser_back or browser_forward went to: a
// PageState whose Focused is the element that had the focus there before.
type HistoryResult struct{ PageState }

// BackRef is the typed handle on browser_back.
var BackRef = tools.RefTo[BackArgs, Result[HistoryResult]]("browser_back")

// backTool is browser_back: it goes back one page.
func backTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, BackRef, "Go back one page in the browser history and wait for it to load.", (*Session).toolBack)
}

func (s *Session) toolBack(ctx context.Context, _ BackArgs) (*HistoryResult, error) {
	p, err := s.Back(ctx)
	return wrapped(p, err, func(p PageState) HistoryResult { return HistoryResult{p} })
}
