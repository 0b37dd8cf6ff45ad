package manuscript

import (
	"context"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/textmatch"
	"github.com/waymark/waymark/backend/tools"
	"github.com/waymark/waymark/backend/wordforms"
)

type findArgs struct {
	Query                string            `json:"query" jsonschema:"the phrase"`
	All                  bool              `json:"all,omitempty" jsonschema:"every match, not only the first (default false)"`
	Exact                bool              `json:"exact,omitempty" jsonschema:"only the words as given, not their inflected forms (default false: «Долохов» also finds «Долохова»)"`
	Forward              *bool             `json:"forward,omitempty" jsonschema:"search from the start (default true) or from the end"`
	IncludeCodeAndQuotes bool              `json:"includeCodeAndQuotes,omitempty" jsonschema:"also search code blocks and block quotes (default false)"`
	After                *document.Pointer `json:"after,omitempty"`
	Limit                int               `json:"limit,omitempty" jsonschema:"with all: at most this many matches"`
	ItemRange
}

func (findArgs) Refine(s *jsonschema.Schema) {
	tools.MinLength(tools.Prop(s, "query"), 1)
	tools.Min(tools.Prop(s, "limit"), 1)
	refineRange(s)
}

// findTool is the Find tool: a phrase found by the first-mention rules.
func findTool(ws *Workspace) tools.Tool {
	return tools.Func("Find", "Find a phrase with the deterministic first-mention rules: case-insensitive, ё = е, accents ignored, whole words, punctuation as word boundary, inflected forms of each word (Russian cases and numbers, English plurals; exact=true for the words as given); headings, paragraphs, list items, table cells and image captions (code and quotes only with includeCodeAndQuotes). Returns the first match, or all with all=true, with exact byte ranges.", ws.toolFind)
}

func (ws *Workspace) toolFind(ctx context.Context, a findArgs) (any, error) {
	q, err := textmatch.CompileWith(a.Query, wordforms.Options(!a.Exact))
	if err != nil {
		return nil, fmt.Errorf("%w for Find: %v", tools.ErrInvalidArgs, err)
	}
	m, err := ws.Current()
	if err != nil {
		return nil, err
	}
	res := map[string]any{"query": a.Query}
	err = m.Do(func(d *document.Document) error {
		opts := document.FindOptions{All: a.All, Backward: a.Forward != nil && !*a.Forward, IncludeCodeAndQuotes: a.IncludeCodeAndQuotes, After: -1, Limit: a.Limit}
		if a.After != nil {
			i, err := d.Resolve(*a.After)
			if err != nil {
				return fmt.Errorf("after: %w", err)
			}
			opts.After = i
		}
		lo, hi, err := a.ItemRange.bounds(d)
		if err != nil {
			return err
		}
		if opts.After < 0 && a.FromIndex != nil && !opts.Backward && lo > 0 {
			opts.After = lo - 1
		}
		if opts.After < 0 && a.ToIndex != nil && opts.Backward && hi < d.Len() {
			opts.After = hi
		}
		limit := opts.Limit
		if a.FromIndex != nil || a.ToIndex != nil {
			opts.Limit = 0 // counted below, within the range
			if !opts.All {
				opts.All = true
			}
		}
		var ms []document.Match
		for _, mt := range d.Find(q, opts) {
			if mt.Index < lo || mt.Index >= hi {
				if opts.Backward && mt.Index >= hi || !opts.Backward && mt.Index < lo {
					continue
				}
				break
			}
			ms = append(ms, mt)
			if !a.All || limit > 0 && len(ms) >= limit {
				break
			}
		}
		out := make([]map[string]any, 0, len(ms))
		occurrences := 0
		for _, mt := range ms {
			if a.All {
				q.FindAllIn(d.Source(), d.Item(mt.Index).Segs, func(int, int) bool { occurrences++; return true })
			} else {
				occurrences++
			}
			it := d.Item(mt.Index)
			out = append(out, map[string]any{"index": mt.Index, "type": it.Type, "pointer": d.PointerTo(mt.Index),
				"start": mt.Start, "end": mt.End, "line": mt.Line, "matched": string(d.Source()[mt.Start:mt.End]),
				"snippet": document.Snippet(d.Text(mt.Index), 120)})
		}
		res["matches"] = out
		res["count"] = len(out)
		res["occurrences"] = occurrences
		res["found"] = len(out) > 0
		return nil
	})
	return res, err
}
