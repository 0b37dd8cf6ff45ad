package browser

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

// FindArgs are browser_find's arguments.
type FindArgs struct {
	Role   string `json:"role,omitempty" jsonschema:"role such as button, link, textbox, checkbox, combobox"`
	Text   string `json:"text,omitempty" jsonschema:"part of the visible label, e.g. \"войти\" or \"search\""`
	Limit  int    `json:"limit,omitempty" jsonschema:"at most this many matches (default 10)"`
	Offset int    `json:"offset,omitempty" jsonschema:"skip this many matches (paging)"`
}

func (FindArgs) Refine(s *jsonschema.Schema) {
	tools.Range(tools.Prop(s, "limit"), 1, 100)
	tools.Min(tools.Prop(s, "offset"), 0)
}

// FindRef is the typed handle on browser_find.
var FindRef = tools.RefTo[FindArgs, Result[FindResult]]("browser_find")

// findTool is browser_find: it finds numbered elements by label or role.
func findTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, FindRef, "Orientation only: find elements of the current numbering whose label, aria-label, placeholder or title contains text (any language, case- and space-insensitive) and/or have a role (button, link, textbox, checkbox, combobox, …). Returns their numbers; then act with browser_overlay_act. Numbers the page first if needed.", (*Session).toolFind)
}

func (s *Session) toolFind(ctx context.Context, a FindArgs) (*FindResult, error) {
	return s.Find(ctx, FindOptions{Role: a.Role, Text: a.Text, Limit: a.Limit, Offset: a.Offset})
}
