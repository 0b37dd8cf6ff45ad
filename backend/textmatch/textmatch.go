// Package textmatch is the deterministic matcher behind "find the first mention":
// it normalises text and phrase the same way (Unicode case folding, ё = е, accents
// ignored, punctuation as word boundary, HTML entities decoded) and finds whole-word
// phrases in Markdown source, reporting exact byte ranges of the original bytes.
//
// It reads the source in one pass without making a normalised copy, because it runs
// over whole novels on every search.
package textmatch

import (
	"fmt"
	"html"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Segment is a byte range [Start, End) of the source: one content line of a
// Markdown block without its container prefix.
type Segment struct{ Start, End int }

// unit kinds
const (
	kEOF uint8 = iota
	kBoundary
	kWord
	kMark // a combining mark: part of the word, ignored in comparison
)

// Query is a compiled phrase: its words as folded runes, separated by 0.
type Query struct {
	phrase string
	pat    []rune
	words  []string
	// Quick rejection at a word start, without decoding: which single bytes and
	// which two-byte sequences can begin a character folding to pat[0].
	first1 [128]bool
	first2 [2048 / 64]uint64 // bit per code point U+0000–U+07FF
}

// Compile normalises a phrase. A phrase without letters or digits cannot match
// anything and is an error saying so.
func Compile(phrase string) (*Query, error) {
	q := &Query{phrase: phrase}
	rd := reader{src: []byte(phrase), segs: []Segment{{0, len(phrase)}}, plain: true}
	var word []rune
	flush := func() {
		if len(word) > 0 {
			if len(q.pat) > 0 {
				q.pat = append(q.pat, 0)
			}
			q.pat = append(q.pat, word...)
			q.words = append(q.words, string(word))
			word = word[:0]
		}
	}
	for {
		u := rd.next()
		if u.kind == kEOF {
			break
		}
		switch u.kind {
		case kWord:
			word = append(word, u.r)
		case kBoundary:
			flush()
		}
	}
	flush()
	if len(q.pat) == 0 {
		return nil, fmt.Errorf("search phrase %q has no letters or digits; give at least one word", phrase)
	}
	first := q.pat[0]
	for r := rune(0); r < 0x800; r++ {
		f, k := foldRune(r)
		ok := k == kWord && f == first
		if first == 'й' && (r == 'и' || r == 'И') {
			ok = true // и followed by a combining breve is й
		}
		if k == kMark {
			ok = true // a word may open with a stray combining mark
		}
		if !ok {
			continue
		}
		if r < 0x80 {
			q.first1[r] = true
		} else {
			q.first2[r/64] |= 1 << (r % 64)
		}
	}
	for _, c := range []byte{'&', ']', '<'} {
		q.first1[c] = true // entities and skipped constructs go the slow way
	}
	return q, nil
}

// maybeFirst reports whether the character at src[i] can fold to the phrase's
// first character; false is certain, true means "decode and see".
func (q *Query) maybeFirst(src []byte, i, end int) bool {
	c := src[i]
	switch {
	case c < 0x80:
		return q.first1[c]
	case c >= 0xC2 && c < 0xE0 && i+1 < end:
		r := rune(c&0x1F)<<6 | rune(src[i+1]&0x3F)
		return q.first2[r/64]&(1<<(r%64)) != 0
	}
	return true
}

// Phrase returns the phrase as given.
func (q *Query) Phrase() string { return q.phrase }

// Words returns the normalised words of the phrase.
func (q *Query) Words() []string { return append([]string(nil), q.words...) }

// FindIn reports the first whole-word occurrence of q in the text formed by the
// segments of src, read in order as if joined by a space. start is the first byte
// of the first matched character (or of the entity that produced it); end is one
// past the last matched character and the combining marks that follow it.
func (q *Query) FindIn(src []byte, segs []Segment) (start, end int, ok bool) {
	rd := reader{src: src, segs: segs}
	return q.find(&rd)
}

// FindAllIn calls fn for every non-overlapping occurrence in order; fn returns
// false to stop.
func (q *Query) FindAllIn(src []byte, segs []Segment, fn func(start, end int) bool) {
	rd := reader{src: src, segs: segs}
	for {
		s, e, ok := q.find(&rd)
		if !ok || !fn(s, e) {
			return
		}
	}
}

// find scans from the reader's position; on success the reader is left after the match.
func (q *Query) find(rd *reader) (int, int, bool) {
	first := q.pat[0]
	atStart := true
	src := rd.src
	for {
		// Fast path inside a segment: skip plain boundary bytes and reject words
		// whose first character cannot start the phrase, without decoding them.
		if rd.started && rd.si < len(rd.segs) {
			end := rd.segs[rd.si].End
			i := rd.pos
			for i < end {
				c := src[i]
				if c < utf8.RuneSelf && asciiClass[c].kind == kBoundary && c != ']' && c != '<' && c != '&' {
					i++
					atStart = true
					continue
				}
				if atStart && !q.maybeFirst(src, i, end) {
					rd.pos = i
					rd.skipWord()
					if rd.pos > i {
						atStart = false
						i = rd.pos
						continue
					}
				}
				break
			}
			rd.pos = i
		}
		u := rd.next()
		switch u.kind {
		case kEOF:
			return 0, 0, false
		case kBoundary:
			atStart = true
			continue
		case kMark:
			continue
		}
		if atStart && u.r == first {
			probe := *rd
			if end, ok := q.matchRest(&probe); ok {
				*rd = probe
				return u.start, end, true
			}
		}
		atStart = false
		rd.skipWord()
	}
}

// matchRest matches q.pat[1:] after its first rune was read, and checks that the
// phrase ends at a word boundary. It returns the end offset of the match.
func (q *Query) matchRest(rd *reader) (int, bool) {
	end := rd.lastEnd
	i := 1
	for {
		save := *rd
		u := rd.next()
		if u.kind == kMark {
			end = u.end
			continue
		}
		if i == len(q.pat) {
			if u.kind == kWord {
				return 0, false // the text word goes on: not a whole word
			}
			*rd = save
			return end, true
		}
		want := q.pat[i]
		switch {
		case want == 0:
			if u.kind != kBoundary {
				return 0, false
			}
			// any run of boundaries stands for the one space of the phrase
			for {
				save = *rd
				v := rd.next()
				if v.kind == kBoundary {
					continue
				}
				*rd = save
				break
			}
			i++
		case u.kind == kWord && u.r == want:
			end = u.end
			i++
		default:
			return 0, false
		}
	}
}

// unit is one normalised character of the text.
type unit struct {
	r          rune
	kind       uint8
	start, end int
}

// reader walks the segments of src and yields normalised units. Segment joins and
// skipped Markdown constructs read as boundaries.
type reader struct {
	src     []byte
	segs    []Segment
	si      int  // current segment
	pos     int  // position in it (absolute); -1 before the segment starts
	started bool // the current segment has been entered
	plain   bool // the text is a plain phrase: no entities or Markdown to skip
	lastEnd int
}

// next returns the next unit.
func (rd *reader) next() unit {
	for {
		if rd.si >= len(rd.segs) {
			return unit{kind: kEOF}
		}
		seg := rd.segs[rd.si]
		if !rd.started {
			rd.started = true
			rd.pos = seg.Start
			if rd.si > 0 {
				return unit{kind: kBoundary, start: rd.pos, end: rd.pos}
			}
		}
		if rd.pos >= seg.End {
			rd.si++
			rd.started = false
			continue
		}
		i := rd.pos
		c := rd.src[i]
		if c < utf8.RuneSelf {
			cl := asciiClass[c]
			if cl.kind == kBoundary && !rd.plain {
				if n := rd.skipConstruct(i, seg.End); n > i {
					rd.pos = n
					return unit{kind: kBoundary, start: i, end: n}
				}
				if c == '&' {
					if r, n, ok := entityAt(rd.src, i, seg.End); ok {
						rd.pos = n
						fr, k := foldRune(r)
						rd.lastEnd = n
						return unit{r: fr, kind: k, start: i, end: n}
					}
				}
			}
			rd.pos = i + 1
			rd.lastEnd = i + 1
			return unit{r: cl.r, kind: cl.kind, start: i, end: i + 1}
		}
		r, n := utf8.DecodeRune(rd.src[i:seg.End])
		rd.pos = i + n
		fr, k := foldRune(r)
		if (fr == 'и') && rd.pos+1 < seg.End && rd.src[rd.pos] == 0xCC && rd.src[rd.pos+1] == 0x86 {
			// и + combining breve is й written decomposed; й stays distinct from и.
			fr = 'й'
			rd.pos += 2
		}
		rd.lastEnd = rd.pos
		return unit{r: fr, kind: k, start: i, end: rd.pos}
	}
}

// skipWord advances quickly over the rest of the current word (letters, digits,
// marks), stopping before anything that is not plainly a word character.
func (rd *reader) skipWord() {
	if rd.si >= len(rd.segs) || !rd.started {
		return
	}
	end := rd.segs[rd.si].End
	src := rd.src
	i := rd.pos
	for i < end {
		c := src[i]
		if c < utf8.RuneSelf {
			if asciiClass[c].kind != kWord {
				break
			}
			i++
			continue
		}
		if (c == 0xD0 || c == 0xD1) && i+1 < end {
			// Cyrillic letters U+0400–U+047F: always word characters.
			i += 2
			continue
		}
		break
	}
	rd.pos = i
	if i > 0 {
		rd.lastEnd = i
	}
}

// skipConstruct returns the end of a Markdown construct at i that is not prose —
// a link destination "](…)" or an HTML tag "<…>" — or i if there is none.
func (rd *reader) skipConstruct(i, end int) int {
	src := rd.src
	switch src[i] {
	case ']':
		if i+1 < end && src[i+1] == '(' {
			depth := 0
			for j := i + 1; j < end; j++ {
				switch src[j] {
				case '(':
					depth++
				case ')':
					depth--
					if depth == 0 {
						return j + 1
					}
				case '\\':
					j++
				}
			}
		}
	case '<':
		if i+1 < end {
			n := src[i+1]
			if n == '/' || n == '!' || n == '?' || n >= 'a' && n <= 'z' || n >= 'A' && n <= 'Z' {
				for j := i + 1; j < end; j++ {
					if src[j] == '>' {
						return j + 1
					}
					if src[j] == '<' {
						break
					}
				}
			}
		}
	}
	return i
}

// entityAt decodes an HTML entity at i ("&amp;", "&#1105;", "&#x451;").
func entityAt(src []byte, i, end int) (rune, int, bool) {
	j := i + 1
	limit := min(end, i+34)
	for j < limit && src[j] != ';' {
		c := src[j]
		if !(c == '#' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return 0, 0, false
		}
		j++
	}
	if j >= limit || j == i+1 {
		return 0, 0, false
	}
	s := string(src[i : j+1])
	dec := html.UnescapeString(s)
	if dec == s {
		return 0, 0, false
	}
	r, _ := utf8.DecodeRuneInString(dec)
	return r, j + 1, true
}

type class struct {
	r    rune
	kind uint8
}

var (
	asciiClass    [128]class
	cyrillicClass [256]class // U+0400–U+04FF
	latinClass    [0x250 - 0x80]class
)

func init() {
	for c := 0; c < 128; c++ {
		r := rune(c)
		switch {
		case r >= 'A' && r <= 'Z':
			asciiClass[c] = class{r + 32, kWord}
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			asciiClass[c] = class{r, kWord}
		default:
			asciiClass[c] = class{' ', kBoundary}
		}
	}
	for k := range cyrillicClass {
		cyrillicClass[k] = slowFold(rune(0x400 + k))
	}
	for k := range latinClass {
		latinClass[k] = slowFold(rune(0x80 + k))
	}
}

// foldRune maps a rune to its normalised form and kind.
func foldRune(r rune) (rune, uint8) {
	switch {
	case r < 0x80:
		c := asciiClass[r]
		return c.r, c.kind
	case r >= 0x400 && r <= 0x4FF:
		c := cyrillicClass[r-0x400]
		return c.r, c.kind
	case r < 0x250:
		c := latinClass[r-0x80]
		return c.r, c.kind
	}
	c := slowFold(r)
	return c.r, c.kind
}

// slowFold is the general rule the tables are built from.
func slowFold(r rune) class {
	switch r {
	case 'ё', 'Ё':
		return class{'е', kWord}
	case 'й', 'Й':
		return class{'й', kWord}
	}
	if unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) {
		return class{r, kMark}
	}
	if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
		return class{' ', kBoundary}
	}
	// Drop accents of precomposed letters: the base of the canonical decomposition.
	if d := norm.NFD.PropertiesString(string(r)).Decomposition(); len(d) > 0 {
		if base, _ := utf8.DecodeRune(d); base != utf8.RuneError && (unicode.IsLetter(base) || unicode.IsDigit(base)) {
			r = base
		}
	}
	return class{unicode.ToLower(unicode.ToUpper(r)), kWord}
}

// Normalize returns the normalised form of s: folded, ё→е, marks dropped, entities
// decoded, every run of punctuation or space turned into one space, trimmed.
func Normalize(s string) string {
	rd := reader{src: []byte(s), segs: []Segment{{0, len(s)}}}
	var sb strings.Builder
	space := false
	for {
		u := rd.next()
		switch u.kind {
		case kEOF:
			return strings.TrimSpace(sb.String())
		case kBoundary:
			space = true
		case kWord:
			if space && sb.Len() > 0 {
				sb.WriteByte(' ')
			}
			space = false
			sb.WriteRune(u.r)
		}
	}
}
