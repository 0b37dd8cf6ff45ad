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
	// An editor's find bar: every occurrence (not the first of each item),
	// read as the bar's options say, with positions in UTF-16.
	Occurrences bool `json:"occurrences,omitempty" jsonschema:"every occurrence, several in an item too, with positions in UTF-16 code units (an editor's find bar); count is then the number of occurrences"`
	MatchCase   bool `json:"matchCase,omitempty" jsonschema:"letters must have the query's case (with occurrences)"`
	PartOfWord  bool `json:"partOfWord,omitempty" jsonschema:"match inside words too (with occurrences; default whole words)"`
	Regex       bool `json:"regex,omitempty" jsonschema:"the query is a regular expression, RE2 syntax (with occurrences)"`
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
	if a.Occurrences {
		return ws.findOccurrences(a)
	}
	if a.MatchCase || a.PartOfWord || a.Regex {
		return nil, fmt.Errorf("%w for Find: matchCase, partOfWord and regex go with occurrences: true", tools.ErrInvalidArgs)
	}
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

// Occurrence is one match of an editor's find: the item, its bytes and its
// place in UTF-16 code units, and the chapter it is in.
type Occurrence struct {
	Index     int    `json:"index"`
	Start     int    `json:"start"`
	End       int    `json:"end"`
	FromUtf16 int    `json:"fromUtf16"`
	ToUtf16   int    `json:"toUtf16"`
	Section   string `json:"section"`
}

// findOccurrences is Find for an editor's find bar: every occurrence in the
// range, read with the bar's options (whole word or part of a word, match
// case, regular expression, word forms), at most limit (default 10,000); count
// is how many there are in all.
func (ws *Workspace) findOccurrences(a findArgs) (any, error) {
	mt, err := compileMatcher(a.Query, MatchOptions{Forms: !a.Exact && !a.MatchCase && !a.PartOfWord && !a.Regex,
		MatchCase: a.MatchCase, PartOfWord: a.PartOfWord, Regex: a.Regex})
	if err != nil {
		return nil, err
	}
	m, err := ws.Current()
	if err != nil {
		return nil, err
	}
	limit := a.Limit
	if limit <= 0 {
		limit = 10000
	}
	res := map[string]any{"query": a.Query}
	err = m.Do(func(d *document.Document) error {
		lo, hi, err := a.ItemRange.bounds(d)
		if err != nil {
			return err
		}
		idx := document.NewUTF16Index(d.Source())
		sections := map[int]string{}
		out := []Occurrence{}
		count := 0
		for i := lo; i < hi; i++ {
			if !d.Candidate(i, a.IncludeCodeAndQuotes) {
				continue
			}
			it := d.Item(i)
			mt.each(d, it, func(s, e int, _ []int) bool {
				if s < it.Start || e > it.End {
					return true
				}
				count++
				if len(out) < limit {
					h := d.HeadingOf(i)
					sec, ok := sections[h]
					if !ok && h >= 0 {
						sec = d.Place(h)
						sections[h] = sec
					}
					out = append(out, Occurrence{Index: i, Start: s, End: e, FromUtf16: idx.Pos(s), ToUtf16: idx.Pos(e), Section: sec})
				}
				return true
			})
		}
		res["matches"] = out
		res["count"] = count
		res["found"] = count > 0
		res["revision"] = d.Rev()
		return nil
	})
	return res, err
}
