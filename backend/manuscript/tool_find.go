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
	After                *document.Pointer `json:"after,omitempty"`
	Limit                int               `json:"limit,omitempty" jsonschema:"with all: at most this many matches"`
}

func (findArgs) Refine(s *jsonschema.Schema) {
	tools.MinLength(tools.Prop(s, "query"), 1)
	tools.Min(tools.Prop(s, "limit"), 1)
}

// findTool is the Find tool: a phrase found by the first-mention rules.
func findTool(ws *Workspace) tools.Tool {
	return tools.Func("Find", "Find a phrase with the deterministic first-mention rules: case-insensitive, ё = е, accents ignored, whole words, punctuation as word boundary, inflected forms of each word (Russian cases and numbers, English plurals; exact=true for the words as given); headings, paragraphs, list items, table cells and image captions (code and quotes only with includeCodeAndQuotes). Returns the first match, or all with all=true, with exact byte ranges.", ws.toolFind)
}

// FindMatch is one match: its item, and the matched bytes [start, end) of the
// text at the pointer's revision.
type FindMatch struct {
	Index   int               `json:"index"`
	Type    document.ItemType `json:"type"`
	Pointer document.Pointer  `json:"pointer"`
	Start   int               `json:"start"`
	End     int               `json:"end"`
	Line    int               `json:"line"`
	Matched string            `json:"matched"`
	Snippet string            `json:"snippet"`
}

// FindResult lists the matches of a phrase.
type FindResult struct {
	Query   string      `json:"query"`
	Matches []FindMatch `json:"matches"`
	Count   int         `json:"count"`
	Found   bool        `json:"found"`
}

func (ws *Workspace) toolFind(ctx context.Context, a findArgs) (FindResult, error) {
	q, err := textmatch.CompileWith(a.Query, textmatch.Options{Forms: !a.Exact})
	if err != nil {
		return FindResult{}, fmt.Errorf("%w for Find: %v", tools.ErrInvalidArgs, err)
	}
	m, err := ws.Current()
	if err != nil {
		return FindResult{}, err
	}
	res := FindResult{Query: a.Query}
	err = m.Do(func(d *document.Document) error {
		opts := document.FindOptions{All: a.All, Backward: a.Forward != nil && !*a.Forward, IncludeCodeAndQuotes: a.IncludeCodeAndQuotes, After: -1, Limit: a.Limit}
		if a.After != nil {
			i, err := d.Resolve(*a.After)
			if err != nil {
				return fmt.Errorf("after: %w", err)
			}
			opts.After = i
		}
		ms := d.Find(q, opts)
		res.Matches = make([]FindMatch, 0, len(ms))
		for _, mt := range ms {
			it := d.Item(mt.Index)
			res.Matches = append(res.Matches, FindMatch{Index: mt.Index, Type: it.Type, Pointer: d.PointerTo(mt.Index),
				Start: mt.Start, End: mt.End, Line: mt.Line, Matched: string(d.Source()[mt.Start:mt.End]),
				Snippet: document.Snippet(d.Text(mt.Index), 120)})
		}
		res.Count = len(res.Matches)
		res.Found = res.Count > 0
		return nil
	})
	return res, err
}
