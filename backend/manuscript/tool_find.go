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

// FindArgs are the Find tool's arguments.
type FindArgs struct {
	Query                string            `json:"query" jsonschema:"the phrase"`
	All                  bool              `json:"all,omitempty" jsonschema:"every match, not only the first (default false)"`
	Exact                bool              `json:"exact,omitempty" jsonschema:"only the words as given, not their inflected forms (default false: «Долохов» also finds «Долохова»)"`
	Forward              *bool             `json:"forward,omitempty" jsonschema:"search from the start (default true) or from the end"`
	IncludeCodeAndQuotes bool              `json:"includeCodeAndQuotes,omitempty" jsonschema:"also search code blocks and block quotes (default false)"`
	IncludeFrontMatter   bool              `json:"includeFrontMatter,omitempty" jsonschema:"also search the YAML front matter at the top of the book (default false)"`
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

func (FindArgs) Refine(s *jsonschema.Schema) {
	tools.MinLength(tools.Prop(s, "query"), 1)
	tools.Min(tools.Prop(s, "limit"), 1)
	refineRange(s)
}

// FindRef is the typed handle on the Find tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var FindRef = tools.RefTo[FindArgs, FindResult]("Find")

// findTool is the Find tool: a phrase found by the first-mention rules.
func findTool(ws *Workspace) tools.Tool {
	return FindRef.Func("Find a phrase with the deterministic first-mention rules: case-insensitive, ё = е, accents ignored, whole words, punctuation as word boundary, inflected forms of each word (Russian cases and numbers, English plurals; exact=true for the words as given); headings, paragraphs, list items, table cells and image captions (code and quotes only with includeCodeAndQuotes, the YAML front matter only with includeFrontMatter). Returns the first match, or all with all=true, with exact byte ranges.", ws.toolFind)
}

// FindMatch is one match: its item, the matched bytes [start, end) of the
// text at the result's revision and the same stretch in UTF-16 code units
// (as an editor counts), and the chapter it is in. An editor's occurrence
// (occurrences: true) carries no pointer, line, matched text or snippet.
type FindMatch struct {
	Index     int               `json:"index"`
	Type      document.ItemType `json:"type,omitempty"`
	Pointer   document.Pointer  `json:"pointer,omitzero"`
	Start     int               `json:"start"`
	End       int               `json:"end"`
	FromUtf16 int               `json:"fromUtf16"`
	ToUtf16   int               `json:"toUtf16"`
	Section   string            `json:"section"`
	Line      int               `json:"line,omitempty"`
	Matched   string            `json:"matched,omitempty"`
	Snippet   string            `json:"snippet,omitempty"`
}

// FindResult lists the matches of a phrase: count is the number of matches
// (with occurrences: true, of occurrences in all, of which at most limit are
// listed), occurrences (with all) the occurrences in the matched items.
type FindResult struct {
	Query       string      `json:"query"`
	Matches     []FindMatch `json:"matches"`
	Count       int         `json:"count"`
	Occurrences int         `json:"occurrences,omitempty"`
	Found       bool        `json:"found"`
	Revision    int64       `json:"revision"`
}

// sections names the chapter of each item, each heading's name found once.
type sections map[int]string

func (s sections) of(d *document.Document, i int) string {
	h := d.HeadingOf(i)
	sec, ok := s[h]
	if !ok && h >= 0 {
		sec = d.Place(h)
		s[h] = sec
	}
	return sec
}

func (ws *Workspace) toolFind(ctx context.Context, a FindArgs) (FindResult, error) {
	if a.Occurrences {
		return ws.findOccurrences(a)
	}
	if a.MatchCase || a.PartOfWord || a.Regex {
		return FindResult{}, fmt.Errorf("%w for Find: matchCase, partOfWord and regex go with occurrences: true", tools.ErrInvalidArgs)
	}
	q, err := textmatch.CompileWith(a.Query, wordforms.Options(!a.Exact))
	if err != nil {
		return FindResult{}, fmt.Errorf("%w for Find: %v", tools.ErrInvalidArgs, err)
	}
	m, err := ws.Current()
	if err != nil {
		return FindResult{}, err
	}
	res := FindResult{Query: a.Query}
	err = m.Do(func(d *document.Document) error {
		fr, err := findRangeOf(d, a)
		if err != nil {
			return err
		}
		m.findResult(d, q, a, fr.matches(d, q, a.All), &res)
		return nil
	})
	return res, err
}

// findRange is a Find's options on a document and the item range [lo, hi)
// it keeps matches in; limit is the caller's (the options count none when
// a range is given: the range counts them).
type findRange struct {
	opts   document.FindOptions
	lo, hi int
	limit  int
}

// findRangeOf reads Find's arguments on d: where the search starts
// (after, or the range's edge in its direction), its direction, the range.
func findRangeOf(d *document.Document, a FindArgs) (findRange, error) {
	opts := document.FindOptions{All: a.All, Backward: a.Forward != nil && !*a.Forward, IncludeCodeAndQuotes: a.IncludeCodeAndQuotes, IncludeFrontMatter: a.IncludeFrontMatter, After: -1, Limit: a.Limit}
	if a.After != nil {
		i, err := d.Resolve(*a.After)
		if err != nil {
			return findRange{}, fmt.Errorf("after: %w", err)
		}
		opts.After = i
	}
	lo, hi, err := a.ItemRange.bounds(d)
	if err != nil {
		return findRange{}, err
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
	return findRange{opts: opts, lo: lo, hi: hi, limit: limit}, nil
}

// matches are the matches of q in the range: the first, or with all every
// one up to the limit.
func (fr findRange) matches(d *document.Document, q *textmatch.Query, all bool) []document.Match {
	var ms []document.Match
	for _, mt := range d.Find(q, fr.opts) {
		if mt.Index < fr.lo || mt.Index >= fr.hi {
			if fr.opts.Backward && mt.Index >= fr.hi || !fr.opts.Backward && mt.Index < fr.lo {
				continue
			}
			break
		}
		ms = append(ms, mt)
		if !all || fr.limit > 0 && len(ms) >= fr.limit {
			break
		}
	}
	return ms
}

// findResult fills res with the matches ms: each with its place and words,
// and the count of occurrences (with a.All every one in the matched items).
func (m *Manuscript) findResult(d *document.Document, q *textmatch.Query, a FindArgs, ms []document.Match, res *FindResult) {
	res.Matches = make([]FindMatch, 0, len(ms))
	var idx *document.UTF16Index
	if len(ms) > 0 {
		idx = m.utf16Index(d)
	}
	secs := sections{}
	for _, mt := range ms {
		if a.All {
			q.FindAllIn(d.Source(), d.Item(mt.Index).Segs, func(int, int) bool { res.Occurrences++; return true })
		} else {
			res.Occurrences++
		}
		it := d.Item(mt.Index)
		res.Matches = append(res.Matches, FindMatch{Index: mt.Index, Type: it.Type, Pointer: d.PointerTo(mt.Index),
			Start: mt.Start, End: mt.End, FromUtf16: idx.Pos(mt.Start), ToUtf16: idx.Pos(mt.End), Section: secs.of(d, mt.Index),
			Line: mt.Line, Matched: string(d.Source()[mt.Start:mt.End]), Snippet: document.Snippet(d.Text(mt.Index), 120)})
	}
	res.Count = len(res.Matches)
	res.Found = res.Count > 0
	res.Revision = d.Rev()
}

// findOccurrences is Find for an editor's find bar: every occurrence in the
// range, read with the bar's options (whole word or part of a word, match
// case, regular expression, word forms), at most limit (default 10,000); count
// is how many there are in all.
func (ws *Workspace) findOccurrences(a FindArgs) (FindResult, error) {
	mt, err := compileMatcher(a.Query, MatchOptions{Forms: !a.Exact && !a.MatchCase && !a.PartOfWord && !a.Regex,
		MatchCase: a.MatchCase, PartOfWord: a.PartOfWord, Regex: a.Regex})
	if err != nil {
		return FindResult{}, err
	}
	m, err := ws.Current()
	if err != nil {
		return FindResult{}, err
	}
	limit := a.Limit
	if limit <= 0 {
		limit = 10000
	}
	res := FindResult{Query: a.Query, Matches: []FindMatch{}}
	err = m.Do(func(d *document.Document) error {
		lo, hi, err := a.ItemRange.bounds(d)
		if err != nil {
			return err
		}
		idx := m.utf16Index(d)
		secs := sections{}
		for i := lo; i < hi; i++ {
			if !d.Candidate(i, a.IncludeCodeAndQuotes) {
				continue
			}
			it := d.Item(i)
			mt.each(d, it, func(s, e int, _ []int) bool {
				if s < it.Start || e > it.End {
					return true
				}
				res.Count++
				if len(res.Matches) < limit {
					res.Matches = append(res.Matches, FindMatch{Index: i, Type: it.Type, Start: s, End: e,
						FromUtf16: idx.Pos(s), ToUtf16: idx.Pos(e), Section: secs.of(d, i)})
				}
				return true
			})
		}
		res.Found = res.Count > 0
		res.Revision = d.Rev()
		return nil
	})
	return res, err
}
