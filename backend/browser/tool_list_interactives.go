package browser

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

// ListInteractivesArgs are browser_list_interactives's arguments.
type ListInteractivesArgs struct {
	Scope    string `json:"scope,omitempty" jsonschema:"page (default): everything; viewport: only what is on screen; main: the main content; dialog: the open modal dialog"`
	Limit    int    `json:"limit,omitempty" jsonschema:"how many items to return (default 50)"`
	Offset   int    `json:"offset,omitempty" jsonschema:"skip this many items (paging)"`
	FromHere bool   `json:"from_here,omitempty" jsonschema:"start the window at the place the page shows now (an in-page link's target, else the top of the screen) instead of offset"`
}

func (ListInteractivesArgs) Refine(s *jsonschema.Schema) {
	tools.Enum(tools.Prop(s, "scope"), "page", "viewport", "main", "dialog")
	tools.Range(tools.Prop(s, "limit"), 1, 500)
	tools.Min(tools.Prop(s, "offset"), 0)
}

// ListInteractivesRef is the typed handle on browser_list_interactives.
var ListInteractivesRef = tools.RefTo[ListInteractivesArgs, Result[ListResult]]("browser_list_interactives")

// listInteractivesTool is browser_list_interactives: it numbers the interactive elements and returns a window of them.
func listInteractivesTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, ListInteractivesRef, "Number every visible, uncovered interactive element of the page (links, buttons, fields, list boxes, clickable items; inside frames and shadow DOM too) in document order and return a window of them: {generation, total, total_at_least, offset, limit, has_more, items: [{number, id, role, name, tag, type, value, href, disabled, checked, frame}]}. Act only by these numbers, and list again after navigation or when an act reports numbering_stale. A first window (offset 0, limit at most 100) of a long page numbers only that far: then total_at_least is true and total is a lower bound; the next window numbers the rest, with the same numbers.", (*Session).toolListInteractives)
}

func (s *Session) toolListInteractives(ctx context.Context, a ListInteractivesArgs) (*ListResult, error) {
	if a.FromHere {
		if a.Offset != 0 {
			return nil, invalid("give offset or from_here, not both")
		}
		return s.ListFromHere(ctx, ListOptions{Scope: a.Scope, Limit: a.Limit})
	}
	return s.List(ctx, ListOptions{Scope: a.Scope, Limit: a.Limit, Offset: a.Offset})
}
