package browser

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

// SwitchTabArgs are browser_switch_tab's arguments.
type SwitchTabArgs struct {
	Index         int    `json:"index,omitempty" jsonschema:"the tab's number"`
	TitleContains string `json:"title_contains,omitempty" jsonschema:"part of the tab's title, any case"`
}

func (SwitchTabArgs) Refine(s *jsonschema.Schema) {
	tools.Min(tools.Prop(s, "index"), 1)
}

// SwitchTabRef is the typed handle on browser_switch_tab.
var SwitchTabRef = tools.RefTo[SwitchTabArgs, Result[TabResult]]("browser_switch_tab")

// switchTabTool is browser_switch_tab: it makes another tab current.
func switchTabTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, SwitchTabRef, "Make another tab current: by index (from 1, in opening order; tabs the site opened count too) or by part of its title. List again before acting by number.", (*Session).toolSwitchTab)
}

func (s *Session) toolSwitchTab(ctx context.Context, a SwitchTabArgs) (*TabResult, error) {
	return s.SwitchTab(ctx, a.Index, a.TitleContains)
}
