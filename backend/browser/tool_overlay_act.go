package browser

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

// OverlayActArgs are browser_overlay_act's arguments.
type OverlayActArgs struct {
	Index  int    `json:"index" jsonschema:"the element's number in the last list"`
	Action string `json:"action" jsonschema:"click, type or select"`
	Text   string `json:"text,omitempty" jsonschema:"text to type, or the option to select"`
	Limit  *int   `json:"limit,omitempty" jsonschema:"the limit of the list the number comes from (optional check)"`
	Offset *int   `json:"offset,omitempty" jsonschema:"the offset of the list the number comes from (optional check)"`
}

func (OverlayActArgs) Refine(s *jsonschema.Schema) {
	tools.Min(tools.Prop(s, "index"), 1)
	tools.Enum(tools.Prop(s, "action"), "click", "type", "select")
	tools.Range(tools.Prop(s, "limit"), 1, 500)
	tools.Min(tools.Prop(s, "offset"), 0)
}

// OverlayActRef is the typed handle on browser_overlay_act.
var OverlayActRef = tools.RefTo[OverlayActArgs, Result[ActResult]]("browser_overlay_act")

// overlayActTool is browser_overlay_act: it clicks, types into or selects in a numbered element.
func overlayActTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, OverlayActRef, "Act on the element with this number in the last list: click (real mouse click at its centre), type (focuses the field, clears it and types text with real key events; on failure presses Tab and retries once) or select (picks the option of a list box by visible text or value). Fails with a clear error, never a wrong click, if the numbering is stale or the element is gone, hidden, covered or disabled. Returns url, title, navigated, numbering_stale, focused.", (*Session).toolOverlayAct)
}

func (s *Session) toolOverlayAct(ctx context.Context, a OverlayActArgs) (*ActResult, error) {
	if a.Action == "type" {
		s.noteTyped(a.Index, a.Text)
	}
	return s.Act(ctx, ActOptions{Index: a.Index, Action: a.Action, Text: a.Text, Limit: a.Limit, Offset: a.Offset})
}
