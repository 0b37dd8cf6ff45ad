package browser

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

// CloseTabArgs are browser_close_tab's arguments.
type CloseTabArgs struct {
	Index int `json:"index,omitempty" jsonschema:"the tab's number"`
}

func (CloseTabArgs) Refine(s *jsonschema.Schema) {
	tools.Min(tools.Prop(s, "index"), 1)
}

// ClosedTabResult is the tabs left after browser_close_tab (the current one
// said so).
type ClosedTabResult struct{ TabsResult }

// CloseTabRef is the typed handle on browser_close_tab.
var CloseTabRef = tools.RefTo[CloseTabArgs, Result[ClosedTabResult]]("browser_close_tab")

// closeTabTool is browser_close_tab: it closes a tab.
func closeTabTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, CloseTabRef, "Close a tab (default: the current one; then the previous tab becomes current). The last tab stays open.", (*Session).toolCloseTab)
}

func (s *Session) toolCloseTab(ctx context.Context, a CloseTabArgs) (*ClosedTabResult, error) {
	r, err := s.CloseTab(ctx, a.Index)
	return wrapped(r, err, func(r TabsResult) ClosedTabResult { return ClosedTabResult{r} })
}
