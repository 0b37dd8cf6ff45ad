package browser

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

// ActByIndexArgs are browser_act_by_index's arguments.
type ActByIndexArgs struct {
	Index  int    `json:"index" jsonschema:"the element's number in the last list"`
	Action string `json:"action" jsonschema:"click, type or select"`
	Text   string `json:"text,omitempty" jsonschema:"text to type, or the option to select"`
}

func (ActByIndexArgs) Refine(s *jsonschema.Schema) {
	tools.Min(tools.Prop(s, "index"), 1)
	tools.Enum(tools.Prop(s, "action"), "click", "type", "select")
}

// ActByIndexResult is what browser_act_by_index did, on the element's new
// number.
type ActByIndexResult struct{ ActResult }

// ActByIndexRef is the typed handle on browser_act_by_index.
var ActByIndexRef = tools.RefTo[ActByIndexArgs, Result[ActByIndexResult]]("browser_act_by_index")

// actByIndexTool is browser_act_by_index: it acts by an old number if the same element is found again.
func actByIndexTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, ActByIndexRef, "Last resort only (prefer browser_overlay_act): act by the number of the last list even if the page changed since; the page is numbered again and the act happens only if the same element is found again, on its new number (the result says which).", (*Session).toolActByIndex)
}

func (s *Session) toolActByIndex(ctx context.Context, a ActByIndexArgs) (*ActByIndexResult, error) {
	if a.Action == "type" {
		s.noteTyped(a.Index, a.Text)
	}
	r, err := s.ActByIndex(ctx, ActOptions{Index: a.Index, Action: a.Action, Text: a.Text})
	return wrapped(r, err, func(r ActResult) ActByIndexResult { return ActByIndexResult{r} })
}
