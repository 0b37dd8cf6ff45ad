package manuscript

import (
	"fmt"
	"regexp"
	"unicode"
	"unicode/utf8"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/textmatch"
	"github.com/waymark/waymark/backend/tools"
	"github.com/waymark/waymark/backend/wordforms"
)

// MatchOptions say how a search or a replace reads its query, as an editor's
// find bar does. The default (all false) is the engine's own rule: whole
// words, any case, ё = е, accents ignored, exactly these words.
type MatchOptions struct {
	// Forms also matches the inflected forms of the words (Russian cases:
	// «Пьер» finds «Пьера»).
	Forms bool `json:"forms,omitempty" jsonschema:"also the inflected forms of the words («Пьер» finds «Пьера»; with replace, each form becomes the same form of the new text)"`
	// MatchCase compares letters with their case.
	MatchCase bool `json:"matchCase,omitempty" jsonschema:"letters must have the query's case"`
	// PartOfWord lets the query match inside a word ("ross" in "Rostov's").
	PartOfWord bool `json:"partOfWord,omitempty" jsonschema:"match inside words too (default: whole words only)"`
	// Regex reads the query as a regular expression (Go syntax, RE2).
	Regex bool `json:"regex,omitempty" jsonschema:"the query is a regular expression (RE2 syntax; with replace, $1 names a group)"`
}

// matcher finds the matches of a query in the segments of an item.
type matcher struct {
	q  *textmatch.Query // the engine's rule
	re *regexp.Regexp   // the editor's options
	o  MatchOptions
	rn *wordforms.Renamer // with Forms, for a replace: each form's new form
}

func compileMatcher(query string, o MatchOptions) (*matcher, error) {
	if !o.MatchCase && !o.PartOfWord && !o.Regex {
		q, err := textmatch.CompileWith(query, wordforms.Options(o.Forms))
		if err != nil {
			return nil, fmt.Errorf("%w: %v", tools.ErrInvalidArgs, err)
		}
		return &matcher{q: q, o: o}, nil
	}
	if o.Forms {
		return nil, fmt.Errorf("%w: word forms work with whole words in any case, not with matchCase, partOfWord or regex; turn one of them off", tools.ErrInvalidArgs)
	}
	expr := query
	if !o.Regex {
		expr = regexp.QuoteMeta(query)
	}
	if !o.MatchCase {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("%w: the regular expression %q is not valid: %v", tools.ErrInvalidArgs, query, err)
	}
	if re.MatchString("") {
		return nil, fmt.Errorf("%w: the regular expression %q matches empty text; it must match at least one character", tools.ErrInvalidArgs, query)
	}
	return &matcher{re: re, o: o}, nil
}

// each calls fn for every match in item it of d, in order, with its bytes in
// the source and, for a regular expression, the submatch indices.
func (mt *matcher) each(d *document.Document, it *document.Item, fn func(s, e int, sub []int) bool) {
	src := d.Source()
	if mt.q != nil {
		mt.q.FindAllIn(src, it.Segs, func(s, e int) bool { return fn(s, e, nil) })
		return
	}
	for _, sg := range it.Segs {
		seg := src[sg.Start:sg.End]
		for _, m := range mt.re.FindAllSubmatchIndex(seg, -1) {
			s, e := sg.Start+m[0], sg.Start+m[1]
			if !mt.o.PartOfWord && !wholeWord(src, sg.Start, sg.End, s, e) {
				continue
			}
			for k := range m {
				if m[k] >= 0 {
					m[k] += sg.Start
				}
			}
			if !fn(s, e, m) {
				return
			}
		}
	}
}

func wholeWord(src []byte, lo, hi, s, e int) bool {
	if s > lo {
		r, _ := utf8.DecodeLastRune(src[lo:s])
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return false
		}
	}
	if e < hi {
		r, _ := utf8.DecodeRune(src[e:hi])
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// replacement is what a match becomes: with's $groups expanded (Regex);
// with in the match's case form (Forms: Пьера → Петра, from the same word
// forms that found it); else with. Without matchCase, with takes the
// match's capitals (a sentence's capital, all capitals). ok is false when
// the match's form of with cannot be derived with certainty.
func (mt *matcher) replacement(src []byte, query, with string, s, e int, sub []int) (string, bool) {
	found := string(src[s:e])
	switch {
	case mt.re != nil && mt.o.Regex:
		return string(mt.re.Expand(nil, []byte(with), src, sub)), true
	case with == "":
		return "", true // the words removed
	case mt.o.Forms:
		if mt.rn == nil {
			var d *wordforms.Dictionary
			if hasCyrillic(query) || hasCyrillic(with) {
				d = wordforms.Default()
			}
			mt.rn = wordforms.NewRenamer(d, query, with)
		}
		return mt.rn.Derive(found)
	case mt.o.MatchCase:
		return with, true
	}
	return wordforms.KeepCase(query, found, with), true
}

func hasCyrillic(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Cyrillic, r) {
			return true
		}
	}
	return false
}
