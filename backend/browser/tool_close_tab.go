package browser

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

type closeTabArgs struct {
	Index int `json:"index,omitempty" jsonschema:"the tab's number"`
}

func (closeTabArgs) Refine(s *jsonschema.Schema) {
	tools.Min(tools.Prop(s, "index"), 1)
}

// closeTabTool is browser_close_tab: it closes a tab.
func closeTabTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, "browser_close_tab", "Close a tab (default: the current one; then the previous tab becomes current). The last tab stays open.", (*Session).toolCloseTab)
}

func (s *Session) toolCloseTab(ctx context.Context, a closeTabArgs) (any, error) {
	return s.CloseTab(ctx, a.Index)
}
