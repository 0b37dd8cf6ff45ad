package manuscript

import (
	"context"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/textmatch"
	"github.com/waymark/waymark/backend/tools"
)

type findArgs struct {
	Query                string            `json:"query" jsonschema:"the phrase"`
	All                  bool              `json:"all,omitempty" jsonschema:"every match, not only the first (default false)"`
	Exact                bool              `json:"exact,omitempty" jsonschema:"only the words as given, not their inflected forms (default false: «Долохов» also finds «Долохова»)"`
	Forward              *bool             `json:"forward,omitempty" jsonschema:"search from the start (default true) or from the end"`
	IncludeCodeAndQuotes bool              `json:"includeCodeAndQuotes,omitempty" jsonschema:"also search code blocks and block quotes (default false)"`
	IncludeFrontMatter   bool              `json:"includeFrontMatter,omitempty" jsonschema:"also search the YAML front matter at the top of the book (default false)"`
	After                *document.Pointer `json:"after,omitempty"`
	Limit                int               `json:"limit,omitempty" jsonschema:"with all: at most this many matches"`
}

func (findArgs) Refine(s *jsonschema.Schema) {
	tools.MinLength(tools.Prop(s, "query"), 1)
	tools.Min(tools.Prop(s, "limit"), 1)
}

// findTool is the Find tool: a phrase found by the first-mention rules.
func findTool(ws *Workspace) tools.Tool {
	return tools.Func("Find", "Find a phrase with the deterministic first-mention rules: case-insensitive, ё = е, accents ignored, whole words, punctuation as word boundary, inflected forms of each word (Russian cases and numbers, English plurals; exact=true for the words as given); headings, paragraphs, list items, table cells and image captions (code and quotes only with includeCodeAndQuotes, the YAML front matter only with includeFrontMatter). Returns the first match, or all with all=true, with exact byte ranges.", ws.toolFind)
}

func (ws *Workspace) toolFind(ctx context.Context, a findArgs) (any, error) {
	q, err := textmatch.CompileWith(a.Query, textmatch.Options{Forms: !a.Exact})
	if err != nil {
		return nil, fmt.Errorf("%w for Find: %v", tools.ErrInvalidArgs, err)
	}
	m, err := ws.Current()
	if err != nil {
		return nil, err
	}
	res := map[string]any{"query": a.Query}
	err = m.Do(func(d *document.Document) error {
		opts := document.FindOptions{All: a.All, Backward: a.Forward != nil && !*a.Forward, IncludeCodeAndQuotes: a.IncludeCodeAndQuotes, IncludeFrontMatter: a.IncludeFrontMatter, After: -1, Limit: a.Limit}
		if a.After != nil {
			i, err := d.Resolve(*a.After)
			if err != nil {
				return fmt.Errorf("after: %w", err)
			}
			opts.After = i
		}
		ms := d.Find(q, opts)
		out := make([]map[string]any, 0, len(ms))
		for _, mt := range ms {
			it := d.Item(mt.Index)
			out = append(out, map[string]any{"index": mt.Index, "type": it.Type, "pointer": d.PointerTo(mt.Index),
				"start": mt.Start, "end": mt.End, "line": mt.Line, "matched": string(d.Source()[mt.Start:mt.End]),
				"snippet": document.Snippet(d.Text(mt.Index), 120)})
		}
		res["matches"] = out
		res["count"] = len(out)
		res["found"] = len(out) > 0
		return nil
	})
	return res, err
}
