package browser

import (
	"context"

	"github.com/waymark/waymark/backend/tools"
)

// TabsArgs are browser_tabs's arguments.
type TabsArgs struct{}

// TabsRef is the typed handle on browser_tabs.
var TabsRef = tools.RefTo[TabsArgs, Result[TabsResult]]("browser_tabs")

// tabsTool is browser_tabs: it lists the open tabs.
func tabsTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, TabsRef, "List the open tabs: index (from 1, in opening order), title, url and which one is current.", (*Session).toolTabs)
}

func (s *Session) toolTabs(ctx context.Context, _ TabsArgs) (*TabsResult, error) {
	return s.Tabs(ctx)
}
