package browser

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

type openInNewTabArgs struct {
	Index int `json:"index" jsonschema:"the link's number in the last list"`
}

func (openInNewTabArgs) Refine(s *jsonschema.Schema) {
	tools.Min(tools.Prop(s, "index"), 1)
}

// openInNewTabTool is browser_open_in_new_tab: it opens a numbered link in a new tab.
func openInNewTabTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, "browser_open_in_new_tab", "Open the numbered link of the last list in a new tab (by its address; a script link gets a Ctrl+click), make it the current tab and wait for it to load. List again before acting in it. Tabs the page opens by itself appear in browser_tabs and in a click's new_tabs.", (*Session).toolOpenInNewTab)
}

func (s *Session) toolOpenInNewTab(ctx context.Context, a openInNewTabArgs) (any, error) {
	if err := s.checkLinkTarget(ctx, a.Index); err != nil {
		return nil, err
	}
	return s.OpenInNewTab(ctx, a.Index)
}
