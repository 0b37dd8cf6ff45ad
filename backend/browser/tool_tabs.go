package browser

import (
	"context"

	"github.com/waymark/waymark/backend/tools"
)

type tabsArgs struct{}

// tabsTool is browser_tabs: it lists the open tabs.
func tabsTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, "browser_tabs", "List the open tabs: index (from 1, in opening order), title, url and which one is current.", (*Session).toolTabs)
}

func (s *Session) toolTabs(ctx context.Context, _ tabsArgs) (any, error) {
	return s.Tabs(ctx)
}
