package browser

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

// OpenInNewTabArgs are browser_open_in_new_tab's arguments.
type OpenInNewTabArgs struct {
	Index int `json:"index" jsonschema:"the link's number in the last list"`
}

func (OpenInNewTabArgs) Refine(s *jsonschema.Schema) {
	tools.Min(tools.Prop(s, "index"), 1)
}

// NewTabResult is the tab browser_open_in_new_tab opened and made current.
type NewTabResult struct{ TabResult }

// OpenInNewTabRef is the typed handle on browser_open_in_new_tab.
var OpenInNewTabRef = tools.RefTo[OpenInNewTabArgs, Result[NewTabResult]]("browser_open_in_new_tab")

// openInNewTabTool is browser_open_in_new_tab: it opens a numbered link in a new tab.
func openInNewTabTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, OpenInNewTabRef, "Open the numbered link of the last list in a new tab (by its address; a script link gets a Ctrl+click), make it the current tab and wait for it to load. List again before acting in it. Tabs the page opens by itself appear in browser_tabs and in a click's new_tabs.", (*Session).toolOpenInNewTab)
}

func (s *Session) toolOpenInNewTab(ctx context.Context, a OpenInNewTabArgs) (*NewTabResult, error) {
	if err := s.checkLinkTarget(ctx, a.Index); err != nil {
		return nil, err
	}
	r, err := s.OpenInNewTab(ctx, a.Index)
	return wrapped(r, err, func(r TabResult) NewTabResult { return NewTabResult{r} })
}
