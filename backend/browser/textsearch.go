package browser

import (
	"context"
	"strings"
	"unicode"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

// Searching the page's text (issue 33, point 8): every occurrence of a word
// in the text browser_read reads (not only in the numbered elements' names),
// the Nth of them with the line it stands in, and where reading goes on
// from there.

// Bounds of a text search.
const (
	maxSearchText = 200 // characters of the searched text
	maxLineAround = 300 // characters of the line said around an occurrence
)

// TextSearchOptions choose the occurrence of browser_find_text.
type TextSearchOptions struct {
	Text string
	// Occurrence is the occurrence to go to, from 1 (default 1); Last goes
	// to the last one.
	Occurrence int
	Last       bool
}

// TextSearchResult is one occurrence of a text in the page's text.
type TextSearchResult struct {
	Title string `json:"title"`
	URL   string `json:"url"`
	Text  string `json:"text"`
	// Total is how many times the page's text holds Text; Occurrence is the
	// one found (from 1; 0 when Total is 0).
	Total      int `json:"total"`
	Occurrence int `json:"occurrence"`
	// At is where the occurrence starts in the text (characters, as
	// browser_read counts them); LineAt where its line starts: reading from
	// there (browser_read from) starts with that line.
	At     int `json:"at"`
	LineAt int `json:"line_at"`
	// Line is the line the occurrence stands in (at most 300 characters
	// around it).
	Line string `json:"line"`
	// Chars is the length of the page's text.
	Chars int `json:"chars"`
}

// foldRune folds case and ё to е, one rune for one rune, so positions in the
// folded text are positions in the text.
func foldRune(r rune) rune {
	r = unicode.ToLower(r)
	if r == 'ё' {
		return 'е'
	}
	if unicode.IsSpace(r) || r == '\u200b' {
		return ' '
	}
	return r
}

// occurrences are the starts of every occurrence of q in text, case- and
// ё-insensitive; a run of spaces in q matches a run of white space.
func occurrences(text []rune, q string) []int {
	words := strings.Fields(q)
	if len(words) == 0 {
		return nil
	}
	pat := []rune(strings.Join(words, " "))
	for i, r := range pat {
		pat[i] = foldRune(r)
	}
	var out []int
	for i := 0; i < len(text); i++ {
		j, k := i, 0
		for k < len(pat) && j < len(text) {
			r := foldRune(text[j])
			if pat[k] == ' ' {
				if r != ' ' {
					break
				}
				for j < len(text) && foldRune(text[j]) == ' ' {
					j++
				}
				k++
				continue
			}
			if r != pat[k] {
				break
			}
			j, k = j+1, k+1
		}
		if k == len(pat) {
			out = append(out, i)
			i = j - 1
		}
	}
	return out
}

// lineAround is the line of text that holds position at, and where it
// starts: at most maxLineAround characters, cut around at when longer.
func lineAround(text []rune, at, n int) (string, int) {
	start := at
	for start > 0 && text[start-1] != '\n' {
		start--
	}
	end := at
	for end < len(text) && text[end] != '\n' {
		end++
	}
	lo, hi := start, end
	if hi-lo > maxLineAround {
		lo = max(start, at-maxLineAround/2+n/2)
		hi = min(end, lo+maxLineAround)
		lo = max(start, hi-maxLineAround)
	}
	s := strings.TrimSpace(string(text[lo:hi]))
	if lo > start {
		s = "…" + s
	}
	if hi < end {
		s += "…"
	}
	return s, start
}

// FindText finds the Nth occurrence of a text in the page's text as it is
// now: how many there are, the line it stands in, and where reading from it
// starts.
func (s *Session) FindText(ctx context.Context, o TextSearchOptions) (*TextSearchResult, error) {
	q := strings.Join(strings.Fields(o.Text), " ")
	if q == "" {
		return nil, fail(KindFindEmpty)
	}
	if len([]rune(q)) > maxSearchText {
		return nil, fail(KindFindLong, len([]rune(q)), maxSearchText)
	}
	if o.Occurrence == 0 {
		o.Occurrence = 1
	}
	if o.Occurrence < 1 {
		return nil, fail(KindOccurrenceFrom1, o.Occurrence)
	}
	ctx, unlock, err := s.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	r, err := s.readPage(ctx)
	if err != nil {
		return nil, err
	}
	at := occurrences(r.text, q)
	res := &TextSearchResult{Title: r.title, URL: r.url, Text: q, Total: len(at), Chars: len(r.text), At: -1, LineAt: -1}
	if len(at) == 0 {
		return res, nil
	}
	if o.Last {
		o.Occurrence = len(at)
	}
	if o.Occurrence > len(at) {
		return nil, fail(KindNoOccurrence, o.Occurrence, q, len(at))
	}
	res.Occurrence, res.At = o.Occurrence, at[o.Occurrence-1]
	res.Line, res.LineAt = lineAround(r.text, res.At, len([]rune(q)))
	return res, nil
}

// countInText is how many times the page's main text holds q (the session
// lock is held); -1 when the text cannot be read.
func (s *Session) countInText(ctx context.Context, q string) int {
	r, err := s.readPage(ctx)
	if err != nil {
		return -1
	}
	return len(occurrences(r.text, q))
}

// FindTextArgs are browser_find_text's arguments.
type FindTextArgs struct {
	Text       string `json:"text" jsonschema:"the word or words to look for in the page's text (any language; case and ё/е do not matter)"`
	Occurrence int    `json:"occurrence,omitempty" jsonschema:"which occurrence, from 1 (default 1)"`
	Last       bool   `json:"last,omitempty" jsonschema:"go to the last occurrence"`
}

func (FindTextArgs) Refine(s *jsonschema.Schema) {
	one := 1
	tools.Prop(s, "text").MinLength = &one
	tools.Prop(s, "text").MaxLength = ptr(maxSearchText)
	tools.Min(tools.Prop(s, "occurrence"), 1)
}

func ptr[T any](v T) *T { return &v }

// FindTextRef is the typed handle on browser_find_text.
var FindTextRef = tools.RefTo[FindTextArgs, Result[TextSearchResult]]("browser_find_text")

// findTextTool is browser_find_text: it searches the page's text.
func findTextTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, FindTextRef, "Search the page's text as it is now (the text browser_read reads, not only the numbered elements): how many times it holds text, the Nth occurrence (occurrence, from 1) with the line it stands in, and line_at, where browser_read (from) reads on from that line.", (*Session).toolFindText)
}

func (s *Session) toolFindText(ctx context.Context, a FindTextArgs) (*TextSearchResult, error) {
	return s.FindText(ctx, TextSearchOptions{Text: a.Text, Occurrence: a.Occurrence, Last: a.Last})
}
