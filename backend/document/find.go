package document

import (
	"github.com/waymark/waymark/backend/textmatch"
)

// FindOptions selects how Find searches.
type FindOptions struct {
	All                  bool // every match, not only the first
	Backward             bool // from the end towards the start
	IncludeCodeAndQuotes bool // code blocks and quotes count as candidates
	IncludeFrontMatter   bool // the YAML front matter counts as a candidate
	// After starts the search after this item index (before it when Backward);
	// -1 searches the whole document. Used for "the next mention".
	After int
	Limit int // at most this many matches with All (0 = no limit)
}

// Match is one occurrence: the item and the exact byte range in the source.
type Match struct {
	Index      int
	Start, End int
	Line       int // 0-based line of Start
}

// Candidate reports whether item i takes part in a search under the first-mention
// rules of SPEC §2: headings, paragraphs, list items, table cells and image captions;
// code blocks and quotes only on request; front matter (metadata) never.
func (d *Document) Candidate(i int, codeAndQuotes bool) bool {
	switch d.items[i].Type {
	case Heading, Paragraph, ListItem, TableCell, Image:
		return true
	case CodeBlock, Quote:
		return codeAndQuotes
	}
	return false
}

// Find searches the items in document order (or reverse) and returns the matches:
// the first one, or all with opts.All. Within an item the first occurrence counts.
func (d *Document) Find(q *textmatch.Query, opts FindOptions) []Match {
	var out []Match
	n := len(d.items)
	i, step := 0, 1
	if opts.Backward {
		i, step = n-1, -1
	}
	if opts.After >= 0 && opts.After < n {
		i = opts.After + step
	}
	for ; i >= 0 && i < n; i += step {
		if !d.Candidate(i, opts.IncludeCodeAndQuotes) && !(opts.IncludeFrontMatter && d.items[i].Type == FrontMatter) {
			continue
		}
		it := &d.items[i]
		s, e, ok := q.FindIn(d.src, it.Segs)
		if !ok {
			continue
		}
		out = append(out, Match{Index: i, Start: s, End: e, Line: it.Line + LineBreaks(d.src[it.Start:s])})
		if !opts.All || (opts.Limit > 0 && len(out) >= opts.Limit) {
			break
		}
	}
	return out
}
