package browser

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

// ReadArgs are browser_read's arguments.
type ReadArgs struct {
	From        int    `json:"from,omitempty" jsonschema:"character offset in the main text (default 0)"`
	Heading     int    `json:"heading,omitempty" jsonschema:"start at this heading (its number in browser_extract's headings)"`
	Here        bool   `json:"here,omitempty" jsonschema:"start here: at the target of the address's #fragment (an in-page link just followed), else the focused element, else the top of the screen"`
	Chars       int    `json:"chars,omitempty" jsonschema:"portion size (default 1500)"`
	ContinueURL string `json:"continue_url,omitempty" jsonschema:"the address the last portion came from: if the page is another one now, read it from the start"`
}

func (ReadArgs) Refine(s *jsonschema.Schema) {
	tools.Min(tools.Prop(s, "from"), 0)
	tools.Min(tools.Prop(s, "heading"), 1)
	tools.Range(tools.Prop(s, "chars"), 200, 6000)
}

// ReadRef is the typed handle on browser_read.
var ReadRef = tools.RefTo[ReadArgs, Result[ReadResult]]("browser_read")

// readTool is browser_read: it reads the page's main text by portions.
func readTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, ReadRef, "Read the page's main text by portions (about 1500 characters, cut at paragraph or sentence ends): from a character offset (from; browser_extract's more_at and a portion's next say where to go on) or from a numbered heading (browser_extract numbers them), or from here (an in-page link's target, the focus, the top of the screen). Returns text, from, next, total, has_more and the heading.", (*Session).toolRead)
}

func (s *Session) toolRead(ctx context.Context, a ReadArgs) (*ReadResult, error) {
	return s.Read(ctx, ReadOptions{From: a.From, Heading: a.Heading, Here: a.Here, Chars: a.Chars, ContinueURL: a.ContinueURL})
}
