// Package textmatch is the deterministic matcher behind "find the first mention":
// it normalises a phrase and the manuscript the same way (simple Unicode case
// folding, ё = е, accents and other combining marks ignored but й kept apart from
// и, punctuation and Markdown syntax as word boundaries, HTML entities decoded,
// link destinations and raw HTML tags skipped) and finds whole-word occurrences of
// the phrase in Markdown source, reporting exact byte ranges of the original bytes
// so that an edit can be spliced in exactly there.
//
// It exists as its own pure package (no I/O) because it runs over whole novels on
// every search: the text is read in one pass over the bytes, without building a
// normalised copy and without allocating. Each compiled phrase has a 256-entry
// table of the bytes at which a form of its first character (for a Cyrillic
// letter, the letter's second byte), an entity or a skipped construct can begin.
// The scan passes over all other bytes eight at a time and only at those stops
// decodes, checks backwards that a word starts there, and matches the phrase
// forwards; the full Unicode rules are applied through fold tables built once per
// 256-character block.
//
// # Rules
//
//   - Letters (Unicode L*), decimal digits (Nd) and spacing marks (Mc) are word
//     characters. Everything else is a boundary and behaves like a space: white
//     space, punctuation, symbols, Markdown syntax (* _ ` # | > [ ] ~ \ …).
//   - Combining marks (Mn, Me) and the invisible format characters U+00AD (soft
//     hyphen), U+200C, U+200D, U+2060 and U+FEFF are dropped: they neither split
//     nor form words ("за́мок" is "замок", "Ната\u00adша" is "наташа").
//   - Precomposed letters lose their accents (the base of their canonical
//     decomposition when the rest of it is combining marks: "é" → "e", "ї" → "і"),
//     except й/Й, which stays й; и followed by U+0306 (a decomposed й) is й too.
//     ё/Ё is е.
//   - Case is folded with Unicode simple case folding ("NATASHA" = "natasha",
//     "K" (Kelvin) = "k", "ς" = "σ"); full folding such as ß = ss is not done.
//   - HTML entities (&name;, &#1105;, &#x451;) are decoded with the semantics of
//     html.UnescapeString; the semicolon is required, as in CommonMark. A character
//     that comes from an entity occupies the byte range of the whole entity.
//   - Markdown constructs that are not prose read as one boundary and cannot be
//     matched: a link destination and title from "](" to its closing ")", and raw
//     HTML — "<" followed by an ASCII letter, "/"+letter, "!" or "?", up to the next
//     ">" in the same segment (this also covers autolinks such as <http://x>). A
//     construct never spans segments or line breaks and is at most 16 KiB long;
//     one that does not close in time is read as ordinary text.
//   - A phrase matches whole words only. Between two words of the phrase the text
//     may have any non-empty run of boundaries — spaces, line breaks, segment joins,
//     punctuation, skipped constructs — so "Анна Павловна" matches "Анна\nПавловна"
//     and "Анна — Павловна", and the phrase "анна, павловна!" is the same query as
//     "анна павловна". This follows from punctuation being a boundary: the phrase is
//     compared as the word sequence that Normalize produces.
package textmatch

import (
	"bytes"
	"fmt"
	"html"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Segment is a byte range [Start, End) of the source: one content line of a
// Markdown block without its container prefix ("> ", list indentation). Callers
// pass the segments of a block so that container syntax is never read as text;
// consecutive segments read as if joined by one space.
type Segment struct{ Start, End int }

// Unit kinds. A unit is one normalised character of the text.
const (
	kBoundary uint8 = iota // space, punctuation, a skipped construct, a segment join
	kWord                  // a letter or digit, folded
	kMark                  // dropped: combining marks and invisible format characters
	kEOF                   // end of the segments
)

// A unit is packed into a uint32: the folded rune in the low 24 bits, its kind in
// the high 8, so tables stay small and lookups are one load.
func pack(r rune, k uint8) uint32 { return uint32(r)&0xFFFFFF | uint32(k)<<24 }

func unpack(u uint32) (rune, uint8) { return rune(u & 0xFFFFFF), uint8(u >> 24) }

// ASCII byte classes for the fast path.
const (
	aBoundary uint8 = iota
	aWord
	aSpecial // '&', '<', ']': may start an entity or a skipped construct
)

var (
	asciiKind [128]uint8
	asciiUnit [128]uint32
	cyrFold   [128]rune // folded U+0400–U+047F, all letters
	packedI   = pack('и', kWord)
	packedY   = pack('й', kWord)
)

func init() {
	for c := 0; c < 128; c++ {
		r := rune(c)
		switch {
		case r >= 'A' && r <= 'Z':
			asciiKind[c], asciiUnit[c] = aWord, pack(r+'a'-'A', kWord)
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			asciiKind[c], asciiUnit[c] = aWord, pack(r, kWord)
		default:
			asciiKind[c], asciiUnit[c] = aBoundary, pack(' ', kBoundary)
		}
	}
	asciiKind['&'], asciiKind['<'], asciiKind[']'] = aSpecial, aSpecial, aSpecial
	for k := range cyrFold {
		cyrFold[k], _ = unpack(foldOf(rune(0x400 + k)))
	}
}

// Fold tables for the Basic Multilingual Plane, one 256-rune block at a time, built
// on first use so that a program pays only for the scripts its texts contain.
var blocks [256]atomic.Pointer[[256]uint32]

// foldOf returns the packed unit of a rune: its folded form and kind.
func foldOf(r rune) uint32 {
	if r < 0 || r >= 0x10000 {
		return slowFold(r)
	}
	b := blocks[r>>8].Load()
	if b == nil {
		b = new([256]uint32)
		base := r &^ 0xFF
		for k := range b {
			b[k] = slowFold(base + rune(k))
		}
		blocks[r>>8].Store(b) // racing builders store identical tables
	}
	return b[r&0xFF]
}

// slowFold is the general rule the tables are built from.
func slowFold(r rune) uint32 {
	switch r {
	case 'ё', 'Ё':
		return pack('е', kWord)
	case 'й', 'Й':
		return pack('й', kWord)
	case 0xAD, 0x200C, 0x200D, 0x2060, 0xFEFF:
		return pack(r, kMark)
	}
	if !utf8.ValidRune(r) {
		return pack(' ', kBoundary)
	}
	if unicode.In(r, unicode.Mn, unicode.Me) {
		return pack(r, kMark)
	}
	if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mc, r) {
		return pack(' ', kBoundary)
	}
	// Drop the accents of a precomposed letter: take the base of its canonical
	// decomposition when everything after the base is a combining mark (so Hangul
	// syllables, which decompose into letters, stay whole).
	var buf [utf8.UTFMax]byte
	n := utf8.EncodeRune(buf[:], r)
	if d := norm.NFD.Properties(buf[:n]).Decomposition(); len(d) > 0 {
		base, w := utf8.DecodeRune(d)
		ok := unicode.IsLetter(base) || unicode.IsDigit(base)
		for rest := d[w:]; ok && len(rest) > 0; {
			m, w := utf8.DecodeRune(rest)
			ok = unicode.Is(unicode.Mn, m)
			rest = rest[w:]
		}
		if ok {
			r = base
		}
	}
	return pack(foldCase(r), kWord)
}

// foldCase maps every member of a simple case-folding orbit to one rune: the lower
// case of the orbit's smallest member (K, k and U+212A all become k).
func foldCase(r rune) rune {
	m := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		m = min(m, f)
	}
	return unicode.ToLower(m)
}

// Query is a compiled phrase: its normalised words and a table of the bytes at
// which a scan must stop and look — the bytes that can begin a source form of the
// phrase's first character, and the bytes that can begin an entity or a skipped
// construct. All other bytes are passed over without decoding. A Query is
// immutable and safe for concurrent use.
type Query struct {
	phrase   string
	words    []string
	forms    *forms // nil: exact word forms only
	pat      []rune // the words' runes, one ' ' between words
	first    rune
	trig     [256]uint8 // nonzero: a scan stops at this byte
	firstCyr [128]bool  // U+0400–U+047F runes (lead byte D0/D1) that can begin the phrase
}

// wideLeads are the lead bytes of the three-byte characters that can fold to a
// character below U+0800 (Latin and Greek extended letters, Cyrillic Extended-C,
// the Kelvin, Ohm and Ångström signs, Latin Extended-C/D capitals, Hebrew
// presentation forms); TestWideLeads checks that the list is complete.
var wideLeads = [...]byte{0xE1, 0xE2, 0xEA, 0xEF}

// Compile normalises phrase into words, once, and prepares the byte table the scan
// uses, so that a search over a whole book does no per-call preparation. A phrase
// with no letters or digits could match nothing and is an error that says so.
func Compile(phrase string) (*Query, error) { return CompileWith(phrase, Options{}) }

// Options select how a phrase is compiled.
type Options struct {
	// Forms matches the inflected forms of each word (see forms.go): «Долохов»
	// finds «Долохова», "Rostov" finds "Rostovs". Off, only the words as given.
	Forms bool
	// Lexicon, when set, gives the forms of the words it knows (Russian, from
	// Hunspell's affix rules: backend/wordforms); the others go by stems.
	Lexicon Lexicon
}

// CompileWith is Compile with options.
func CompileWith(phrase string, o Options) (*Query, error) {
	n := Normalize(phrase)
	if n == "" {
		return nil, fmt.Errorf("search phrase %q has no letters or digits; give at least one word", phrase)
	}
	q := &Query{phrase: phrase, words: strings.Split(n, " "), pat: []rune(n)}
	if o.Forms {
		q.forms = newForms(phrase, q.words, o.Lexicon)
		if q.forms != nil {
			q.pat = []rune(strings.Join(q.forms.prefix, " "))
		}
	}
	q.first = q.pat[0]
	// A form is any character that reads as the first character; и/И may be the
	// start of a decomposed й (и + U+0306), so they are forms of й.
	form := func(u uint32) bool {
		r, k := unpack(u)
		return k == kWord && (r == q.first || q.first == 'й' && r == 'и')
	}
	for c := 0; c < utf8.RuneSelf; c++ {
		if form(asciiUnit[c]) {
			q.trig[c] = 1
		}
	}
	q.trig['&'], q.trig['<'], q.trig[']'] = 1, 1, 1
	for r := rune(0x80); r < 0x800; r++ {
		if !form(foldOf(r)) {
			continue
		}
		lead, last := byte(0xC0|r>>6), byte(0x80|r&0x3F)
		if lead == 0xD0 || lead == 0xD1 {
			// Every Cyrillic letter starts with D0 or D1: stop at the second byte.
			q.trig[last] = 1
			q.firstCyr[r-0x400] = true
		} else {
			q.trig[lead] = 1
		}
	}
	if q.first < 0x800 {
		for _, b := range wideLeads {
			q.trig[b] = 1
		}
	} else {
		for b := 0xE0; b <= 0xF4; b++ {
			q.trig[b] = 1
		}
	}
	return q, nil
}

// Phrase returns the phrase as given to Compile, for messages and logs.
func (q *Query) Phrase() string { return q.phrase }

// Words returns the normalised words of the phrase (a copy), so callers can show
// what is actually searched for.
func (q *Query) Words() []string { return append([]string(nil), q.words...) }

// FindIn reports the first whole-word occurrence of q in the text formed by the
// given segments of src, read in order as if joined by a single space; "first
// mention" is exactly this. start is the first byte of the first matched word's
// first character (or of the entity that produced it); end is one past the last
// byte of the last matched word, including combining marks that follow it. A match
// may span segments; then [start, end) includes the bytes between them. Segments
// are expected in increasing order, as a block's lines are; out-of-range ones are
// clamped to src. It does not allocate.
func (q *Query) FindIn(src []byte, segs []Segment) (start, end int, ok bool) {
	start, end, _, _, ok = q.scan(src, segs, 0, -1)
	return start, end, ok
}

// FindAllIn calls fn for every non-overlapping occurrence of q in order, as FindIn
// would find them one after the other, so that "all mentions" and "first mention"
// agree; fn returns false to stop.
func (q *Query) FindAllIn(src []byte, segs []Segment, fn func(start, end int) bool) {
	si, pos := 0, -1
	for {
		s, e, nsi, npos, ok := q.scan(src, segs, si, pos)
		if !ok || !fn(s, e) {
			return
		}
		si, pos = nsi, npos
	}
}

// bounds clamps a segment to the source.
func bounds(s Segment, n int) (int, int) {
	a, b := s.Start, s.End
	if b > n {
		b = n
	}
	if a < 0 {
		a = 0
	}
	if a > b {
		a = b
	}
	return a, b
}

// scan looks for the phrase from segment si, byte pos (pos below the segment's
// start means "from its start"). It skips, eight bytes at a time, everything that
// cannot begin a form of the first character, an entity or a skipped construct;
// at a form it checks backwards that a word starts there and then matches the
// phrase forwards. Entities and constructs are met at their first byte, so the scan
// never stops inside one. On success it also returns where to resume.
func (q *Query) scan(src []byte, segs []Segment, si, pos int) (start, end, rsi, rpos int, ok bool) {
	trig := &q.trig
	for ; si < len(segs); si++ {
		s, e := bounds(segs[si], len(src))
		i := max(pos, s)
		pos = -1
		buf := src[:e]
		for {
			for i+8 <= len(buf) {
				b := buf[i : i+8 : i+8]
				if trig[b[0]]|trig[b[1]]|trig[b[2]]|trig[b[3]]|trig[b[4]]|trig[b[5]]|trig[b[6]]|trig[b[7]] != 0 {
					break
				}
				i += 8
			}
			for i < len(buf) && trig[buf[i]] == 0 {
				i++
			}
			if i >= len(buf) {
				break
			}
			c0, w := i, 1 // the candidate character
			quick := true // whether mayFollow may read from c0+w
			switch c := buf[i]; {
			case c == '&':
				ent, n, ok := entityAt(buf, i, len(buf))
				if !ok {
					i++
					continue
				}
				if r, k := unpack(ent.u[0]); k != kWord || r != q.first {
					i += n
					continue
				}
				w, quick = n, ent.n == 1
			case c == '<':
				if j := tagEnd(buf, i, len(buf)); j > 0 {
					i = j
				} else {
					i++
				}
				continue
			case c == ']':
				if j := linkTailEnd(buf, i, len(buf)); j > 0 {
					i = j
				} else {
					i++
				}
				continue
			case c < utf8.RuneSelf: // an ASCII form
			case c < 0xC0: // the second byte of a Cyrillic form
				if i == s || buf[i-1]&0xFE != 0xD0 || !q.firstCyr[int(buf[i-1]&1)<<6|int(c&0x3F)] {
					i++
					continue
				}
				c0, w = i-1, 2
			default: // the lead byte of another form
				r, n := utf8.DecodeRune(buf[i:])
				if u := foldOf(r); u != pack(q.first, kWord) && !(q.first == 'й' && u == packedI) {
					i += n
					continue
				}
				w = n
			}
			if (!quick || q.mayFollow(buf, c0+w)) && wordStart(buf, s, c0) {
				if st, en, rd, ok := q.matchAt(src, segs, si, c0); ok {
					return st, en, rd.si, rd.pos, true
				}
			}
			i = c0 + w
		}
	}
	return 0, 0, 0, 0, false
}

// mayFollow is a quick reject before the full match: it compares the characters
// after the first one, from byte j, as long as they are ASCII or Cyrillic letters
// or plain ASCII boundaries, and reports false only on a certain mismatch.
func (q *Query) mayFollow(buf []byte, j int) bool {
	pat := q.pat
	for p := 1; p < len(pat) && j < len(buf); p++ {
		var r rune
		c := buf[j]
		switch {
		case c < utf8.RuneSelf:
			switch asciiKind[c] {
			case aSpecial:
				return true
			case aBoundary:
				if pat[p] != ' ' {
					return false // the word ends early
				}
				for j < len(buf) && buf[j] < utf8.RuneSelf && asciiKind[buf[j]] == aBoundary {
					j++
				}
				continue
			}
			r, _ = unpack(asciiUnit[c])
			j++
		case c&0xFE == 0xD0 && j+1 < len(buf) && buf[j+1]&0xC0 == 0x80:
			r = cyrFold[int(c&1)<<6|int(buf[j+1]&0x3F)]
			j += 2
		default:
			return true
		}
		if r != pat[p] {
			if pat[p] == ' ' && q.forms != nil {
				return true // the word may go on with an ending
			}
			// A letter where the phrase has a space or another letter; but и
			// may turn into й with a combining breve after it.
			return r == 'и' && pat[p] == 'й'
		}
	}
	return true
}

// wordStart reports whether no word character comes before byte j in the segment
// that starts at s, reading backwards over combining marks and entities exactly as
// the forward reader would have read them.
func wordStart(src []byte, s, j int) bool {
	for j > s {
		c := src[j-1]
		if c < utf8.RuneSelf {
			if c != ';' {
				return asciiKind[c] != aWord
			}
			// Perhaps the end of an entity: entities hold no '&', so it would
			// start at the last '&' within reach.
			lo := max(s, j-maxEntity)
			k := bytes.LastIndexByte(src[lo:j], '&')
			if k < 0 {
				return true
			}
			k += lo
			ent, n, ok := entityAt(src, k, j)
			if !ok || k+n != j {
				return true
			}
			switch _, kind := unpack(ent.u[ent.n-1]); kind {
			case kWord:
				return false
			case kMark:
				j = k
				continue
			}
			return true
		}
		r, n := utf8.DecodeLastRune(src[s:j])
		switch _, kind := unpack(foldOf(r)); kind {
		case kWord:
			return false
		case kMark:
			j -= n
			continue
		}
		return true
	}
	return true
}

// matchAt matches the whole phrase at byte i of segment si, where a word starts.
// It returns the byte range and a reader positioned after the match.
func (q *Query) matchAt(src []byte, segs []Segment, si, i int) (start, end int, rd reader, ok bool) {
	rd = newReader(src, segs, si, i)
	pat := q.pat
	r, k, s, e := rd.next()
	if k != kWord || r != pat[0] {
		return 0, 0, rd, false
	}
	start, end = s, e
	// With forms, each text word is gathered whole (its pattern is a prefix) and
	// checked when it ends.
	var wbuf [48]rune
	word, wi, wstart := append(wbuf[:0], r), 0, s
	wordStart := false
	for p := 1; p < len(pat); {
		r, k, s, e = rd.next()
		if k == kMark {
			continue
		}
		if pat[p] == ' ' {
			if q.forms != nil {
				if k == kWord {
					word, end = append(word, r), e
					continue
				}
				if !q.forms.accept(wi, word, src, wstart) {
					return 0, 0, rd, false
				}
				word, wi = word[:0], wi+1
			}
			if k != kBoundary {
				return 0, 0, rd, false // the text word goes on, or the text ends
			}
			for { // any run of boundaries stands for the phrase's one space
				save := rd
				if _, k, _, _ = rd.next(); k != kBoundary && k != kMark {
					rd = save
					break
				}
			}
			p++
			wordStart = true
			continue
		}
		if k != kWord || r != pat[p] {
			return 0, 0, rd, false
		}
		if wordStart {
			wstart, wordStart = s, false
		}
		word = append(word, r)
		end = e
		p++
	}
	// Trailing marks belong to the last character; then the word must end (with
	// forms: the word's ending is taken in, then the word is checked).
	for {
		save := rd
		r, k, _, e = rd.next()
		if k == kMark {
			end = e
			continue
		}
		if k == kWord {
			if q.forms == nil {
				return 0, 0, rd, false
			}
			word, end = append(word, r), e
			continue
		}
		rd = save
		if q.forms != nil && !q.forms.accept(wi, word, src, wstart) {
			return 0, 0, rd, false
		}
		// Segments out of order could put the end before the start; such a
		// range could not be sliced, so it is not a match.
		return start, end, rd, end > start
	}
}

// reader yields the units of the text formed by the segments, one at a time. It is
// the slow, general path used to verify a candidate match and by Normalize.
type reader struct {
	src      []byte
	segs     []Segment
	si       int
	pos, end int    // next byte and end of segs[si]
	pend     uint32 // the second unit of an entity that decodes to two characters
	pendOK   bool
	ps, pe   int // the pending unit's byte range
}

func newReader(src []byte, segs []Segment, si, pos int) reader {
	rd := reader{src: src, segs: segs, si: si}
	if si < len(segs) {
		s, e := bounds(segs[si], len(src))
		rd.pos, rd.end = max(pos, s), e
	}
	return rd
}

// next returns the next unit with the byte range it came from. A segment join is a
// boundary of zero width.
func (rd *reader) next() (rune, uint8, int, int) {
	if rd.pendOK {
		rd.pendOK = false
		r, k := unpack(rd.pend)
		return r, k, rd.ps, rd.pe
	}
	if rd.pos >= rd.end {
		if rd.si+1 >= len(rd.segs) {
			return 0, kEOF, rd.pos, rd.pos
		}
		rd.si++
		rd.pos, rd.end = bounds(rd.segs[rd.si], len(rd.src))
		return ' ', kBoundary, rd.pos, rd.pos
	}
	i := rd.pos
	if c := rd.src[i]; c < utf8.RuneSelf && asciiKind[c] != aSpecial {
		rd.pos = i + 1
		r, k := unpack(asciiUnit[c])
		return r, k, i, i + 1
	}
	u, n, next := unitAt(rd.src, i, rd.end)
	rd.pos = next
	if n == 2 {
		rd.pend, rd.pendOK, rd.ps, rd.pe = u[1], true, i, next
	}
	r, k := unpack(u[0])
	return r, k, i, next
}

// maxConstruct bounds how far a link destination or an HTML tag is looked for, so
// that a stray "<a" or "](" in a huge segment cannot make a scan quadratic.
const maxConstruct = 16 << 10

// unitAt reads what starts at src[i] (i < e, e the segment's end): one or two units
// (an entity may decode to two characters) and the offset after their bytes.
func unitAt(src []byte, i, e int) (u [2]uint32, n, next int) {
	c := src[i]
	switch {
	case c == '&':
		if ent, w, ok := entityAt(src, i, e); ok {
			return ent.u, ent.n, i + w
		}
	case c == ']':
		if j := linkTailEnd(src, i, e); j > 0 {
			u[0] = pack(' ', kBoundary)
			return u, 1, j
		}
	case c == '<':
		if j := tagEnd(src, i, e); j > 0 {
			u[0] = pack(' ', kBoundary)
			return u, 1, j
		}
	case c >= utf8.RuneSelf:
		r, w := utf8.DecodeRune(src[i:e])
		f := foldOf(r) // an invalid byte decodes to U+FFFD: a boundary
		next = i + w
		if f == packedI && next+1 < e && src[next] == 0xCC && src[next+1] == 0x86 {
			f, next = packedY, next+2 // и + U+0306 is a decomposed й
		}
		u[0] = f
		return u, 1, next
	}
	u[0] = asciiUnit[c]
	return u, 1, i + 1
}

// linkTailEnd returns the end of an inline link's destination and title starting
// with "](" at src[i] — one past its closing ")" — or -1 if there is none.
func linkTailEnd(src []byte, i, e int) int {
	if i+1 >= e || src[i+1] != '(' {
		return -1
	}
	lim := min(e, i+maxConstruct)
	j := skipBlank(src, i+2, lim)
	if j < lim && src[j] == '<' { // <destination with spaces>
		if j = angleDestEnd(src, j, lim); j < 0 {
			return -1
		}
	} else { // balanced parentheses, no spaces
		j = plainDestEnd(src, j, lim)
	}
	j = skipBlank(src, j, lim)
	if j < lim && (src[j] == '"' || src[j] == '\'' || src[j] == '(') {
		if j = titleEnd(src, j, lim); j < 0 {
			return -1
		}
		j = skipBlank(src, j, lim)
	}
	if j < lim && src[j] == ')' {
		return j + 1
	}
	return -1
}

// angleDestEnd returns one past the ">" of a link destination "<…>" at
// src[j], or -1 if there is none before lim.
func angleDestEnd(src []byte, j, lim int) int {
	for j++; j < lim && src[j] != '>'; j++ {
		if src[j] == '\\' {
			j++
		} else if src[j] == '<' || src[j] == '\n' {
			return -1
		}
	}
	if j >= lim {
		return -1
	}
	return j + 1
}

// plainDestEnd returns the end of a link destination at src[j] written
// without "<>": balanced parentheses, no spaces.
func plainDestEnd(src []byte, j, lim int) int {
	depth := 0
	for ; j < lim; j++ {
		switch c := src[j]; {
		case c == '\\':
			j++
		case c == '(':
			depth++
		case c == ')':
			if depth == 0 {
				return j
			}
			depth--
		case c <= ' ':
			return j
		}
	}
	return j
}

// titleEnd returns one past the closing mark of a link title at src[j]
// ("…", '…' or (…)), or -1 if it does not close on its line before lim.
func titleEnd(src []byte, j, lim int) int {
	closing := src[j]
	if closing == '(' {
		closing = ')'
	}
	for j++; j < lim && src[j] != closing; j++ {
		if src[j] == '\\' {
			j++
		} else if src[j] == '\n' {
			return -1
		}
	}
	if j >= lim {
		return -1
	}
	return j + 1
}

func skipBlank(src []byte, j, lim int) int {
	for j < lim && (src[j] == ' ' || src[j] == '\t') {
		j++
	}
	return j
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// tagEnd returns one past the ">" of a raw HTML tag, comment, declaration or
// autolink starting with "<" at src[i], or -1 if there is none.
func tagEnd(src []byte, i, e int) int {
	if i+1 >= e {
		return -1
	}
	c := src[i+1]
	var d byte
	if i+2 < e {
		d = src[i+2]
	}
	if !(isASCIILetter(c) || c == '/' && isASCIILetter(d) || c == '!' && (d == '-' || isASCIILetter(d)) || c == '?') {
		return -1
	}
	lim := min(e, i+maxConstruct)
	k := bytes.IndexByte(src[i+2:lim], '>')
	if k < 0 || bytes.IndexByte(src[i+2:i+2+k], '\n') >= 0 {
		return -1
	}
	return i + 2 + k + 1
}

// entity is a decoded HTML entity: one or two packed units.
type entity struct {
	u [2]uint32
	n int
}

func entityOf(s string) entity {
	var ent entity
	for _, r := range s {
		if ent.n == 2 {
			break
		}
		ent.u[ent.n] = foldOf(r)
		ent.n++
	}
	return ent
}

// maxEntity is the longest entity looked for: '&', a name of up to 32 characters,
// ';'. Numeric entities are shorter.
const maxEntity = 34

// win1252 is how html.UnescapeString reads &#128;–&#159;: as Windows-1252
// (TestWin1252AsHTML). Written out, not asked of html at init: its first
// unescape builds the table of every named entity, a millisecond of every
// process's start.
var win1252 = [32]rune{
	'\u20AC', '\u0081', '\u201A', '\u0192', '\u201E', '\u2026', '\u2020', '\u2021',
	'\u02C6', '\u2030', '\u0160', '\u2039', '\u0152', '\u008D', '\u017D', '\u008F',
	'\u0090', '\u2018', '\u2019', '\u201C', '\u201D', '\u2022', '\u2013', '\u2014',
	'\u02DC', '\u2122', '\u0161', '\u203A', '\u0153', '\u009D', '\u017E', '\u0178',
}

// entityAt decodes an HTML entity at src[i] == '&' and returns its width.
func entityAt(src []byte, i, e int) (entity, int, bool) {
	j := i + 1
	if j >= e {
		return entity{}, 0, false
	}
	if src[j] == '#' {
		return numericEntityAt(src, i, e)
	}
	if !isASCIILetter(src[j]) {
		return entity{}, 0, false
	}
	for j < e && j-i <= maxEntity-2 && (isASCIILetter(src[j]) || src[j] >= '0' && src[j] <= '9') {
		j++
	}
	if j >= e || src[j] != ';' {
		return entity{}, 0, false
	}
	ent := namedEntity(src[i+1 : j])
	return ent, j + 1 - i, ent.n > 0
}

// numericEntityAt decodes a numeric entity at src[i:] == "&#": 1–7 decimal
// or 1–6 hex digits (CommonMark); &#128;–&#159; as Windows-1252, a code
// point that is no character as U+FFFD.
func numericEntityAt(src []byte, i, e int) (entity, int, bool) {
	j := i + 2
	hex := j < e && src[j]|0x20 == 'x'
	if hex {
		j++
	}
	d0, maxd := j, 7
	if hex {
		maxd = 6
	}
	for j < e && j-d0 <= maxd && (src[j] >= '0' && src[j] <= '9' || hex && src[j]|0x20 >= 'a' && src[j]|0x20 <= 'f') {
		j++
	}
	nd := j - d0
	if nd == 0 || nd > maxd || j >= e || src[j] != ';' {
		return entity{}, 0, false
	}
	x := parseNum(src[d0:j], hex)
	switch {
	case x >= 0x80 && x <= 0x9F:
		x = win1252[x-0x80]
	case x == 0 || x >= 0xD800 && x <= 0xDFFF || x > 0x10FFFF:
		x = utf8.RuneError
	}
	return entity{u: [2]uint32{foldOf(x)}, n: 1}, j + 1 - i, true
}

func parseNum(d []byte, hex bool) rune {
	var x rune
	for _, c := range d {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		default:
			c = c | 0x20 - 'a' + 10
		}
		if hex {
			x = x*16 + rune(c)
		} else {
			x = x*10 + rune(c)
		}
	}
	return x
}

// Named entities are decoded by html.UnescapeString once per name and kept in a
// copy-on-write map, so that a scan does not allocate. Names that are not entities
// are remembered too (n == 0); the map is bounded.
var (
	entCache atomic.Pointer[map[string]entity]
	entMu    sync.Mutex
)

const maxEntCache = 4096

func namedEntity(name []byte) entity {
	if m := entCache.Load(); m != nil {
		if ent, ok := (*m)[string(name)]; ok {
			return ent
		}
	}
	s := "&" + string(name) + ";"
	var ent entity
	// A longer name that only starts with a legacy entity ("&ampx;" → "&x;")
	// leaves at least two characters behind; real entities decode to at most two.
	if d := html.UnescapeString(s); d != s && utf8.RuneCountInString(d) <= 2 {
		ent = entityOf(d)
	}
	entMu.Lock()
	defer entMu.Unlock()
	old := entCache.Load()
	if old == nil || len(*old) < maxEntCache {
		m := make(map[string]entity, 1+lenOf(old))
		if old != nil {
			for k, v := range *old {
				m[k] = v
			}
		}
		m[string(name)] = ent
		entCache.Store(&m)
	}
	return ent
}

func lenOf(m *map[string]entity) int {
	if m == nil {
		return 0
	}
	return len(*m)
}

// Normalize returns the normalised form of s — folded, ё→е, marks dropped,
// entities decoded, link destinations and HTML tags removed, every run of
// punctuation or space turned into one space, trimmed — exactly as FindIn sees
// text. Tests and callers that compare texts use it; Compile derives a phrase's
// words from it.
func Normalize(s string) string {
	src := []byte(s)
	rd := newReader(src, []Segment{{0, len(src)}}, 0, 0)
	var sb strings.Builder
	sb.Grow(len(s))
	space := false
	for {
		r, k, _, _ := rd.next()
		switch k {
		case kEOF:
			return sb.String()
		case kBoundary:
			space = true
		case kWord:
			if space && sb.Len() > 0 {
				sb.WriteByte(' ')
			}
			space = false
			sb.WriteRune(r)
		}
	}
}
