package browser

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

// ExtractArgs are browser_extract's arguments.
type ExtractArgs struct {
	Mode         string `json:"mode,omitempty" jsonschema:"only summary"`
	HeadingsFrom int    `json:"headings_from,omitempty" jsonschema:"list the headings from this one on (0-based; a summary lists 60 at a time and says when there are more)"`
}

func (ExtractArgs) Refine(s *jsonschema.Schema) {
	tools.Enum(tools.Prop(s, "mode"), "summary")
	tools.Min(tools.Prop(s, "headings_from"), 0)
}

// ExtractRef is the typed handle on browser_extract.
var ExtractRef = tools.RefTo[ExtractArgs, Result[Summary]]("browser_extract")

// extractTool is browser_extract: it summarises the page for listening.
func extractTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, ExtractRef, "Summarise the page for listening: title, address, headings outline (60 at a time: headings_from pages on), regions, the gist of the main text (up to 1500 characters) and the form fields with their labels and numbers. data.text is the plain-text summary.", (*Session).toolExtract)
}

func (s *Session) toolExtract(ctx context.Context, a ExtractArgs) (*Summary, error) {
	return s.ExtractFrom(ctx, a.Mode, a.HeadingsFrom)
}
