package publish

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// HyphenDirs are the folders the hyphenation patterns are read from:
// Debian's hyphen-ru and hyphen-en-us (libhyphen's .dic files, Liang's
// patterns, the ones LibreOffice uses) where they are installed, else the
// copies Waymark's package carries (it does not depend on hyphen-ru, whose
// Recommends would bring LibreOffice Writer). Chromium cannot hyphenate
// Russian offline, so the print page carries soft hyphens of its own
// (issue 35 point 4).
var HyphenDirs = []string{"/usr/share/hyphen", "/usr/share/waymark/hyphen"}

// hyphenFiles are each language's pattern files, first found wins.
var hyphenFiles = map[string][]string{
	"ru": {"hyph_ru_RU.dic", "hyph_ru.dic"},
	"en": {"hyph_en_US.dic", "hyph_en_GB.dic", "hyph_en.dic"},
	"fr": {"hyph_fr.dic", "hyph_fr_FR.dic"},
}

// Hyphenator puts the places a word may break at, by Liang's patterns.
type Hyphenator struct {
	patterns    map[string][]uint8 // letters → the values between them (len+1)
	maxLen      int                // the longest pattern, in letters
	left, right int                // letters kept together at the start and end
}

var (
	hyphMu    sync.Mutex
	hyphCache = map[string]*Hyphenator{}
)

// HyphenatorFor is lang's hyphenator ("ru", "en" or "fr"), nil when its patterns
// are not installed (then the book is printed without hyphens).
func HyphenatorFor(lang string) *Hyphenator {
	hyphMu.Lock()
	defer hyphMu.Unlock()
	key := strings.Join(HyphenDirs, "\x00") + "\x00" + lang
	if h, ok := hyphCache[key]; ok {
		return h
	}
	var h *Hyphenator
	for _, dir := range HyphenDirs {
		for _, name := range hyphenFiles[lang] {
			if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
				if h = parseHyphenDic(b); h != nil {
					break
				}
			}
		}
		if h != nil {
			break
		}
	}
	hyphCache[key] = h
	return h
}

// parseHyphenDic reads a libhyphen .dic file: its first line names its
// encoding (UTF-8 or KOI8-R here), then LEFTHYPHENMIN/RIGHTHYPHENMIN and
// one pattern a line. Lines of non-standard hyphenation (with / or =) are
// skipped; of two levels (NEXTLEVEL), the one with more patterns is taken.
func parseHyphenDic(b []byte) *Hyphenator {
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 4096), 1<<20)
	if !sc.Scan() {
		return nil
	}
	decode := dicDecoder(strings.ToUpper(strings.TrimSpace(sc.Text())))
	if decode == nil {
		return nil
	}
	h := &Hyphenator{left: 2, right: 2}
	levels := []map[string][]uint8{{}}
	for sc.Scan() {
		l := strings.TrimSpace(decode(sc.Text()))
		switch {
		case l == "" || l[0] == '%' || l[0] == '#':
		case h.setMin(l):
		case l == "NEXTLEVEL":
			levels = append(levels, map[string][]uint8{})
		case nonStandardLine(l):
		default:
			addPattern(levels[len(levels)-1], l)
		}
	}
	for _, lv := range levels {
		if len(lv) > len(h.patterns) {
			h.patterns = lv
		}
	}
	if len(h.patterns) == 0 {
		return nil
	}
	for k := range h.patterns {
		h.maxLen = max(h.maxLen, utf8.RuneCountInString(k))
	}
	return h
}

// dicDecoder decodes a .dic file's lines from the encoding its first line
// names (UTF-8, KOI8-R or ISO 8859-1); nil for another.
func dicDecoder(enc string) func(string) string {
	switch enc {
	case "UTF-8":
		return func(s string) string { return s }
	case "KOI8-R":
		d := charmap.KOI8R.NewDecoder()
		return func(s string) string { out, _ := d.String(s); return out }
	case "ISO8859-1", "ISO-8859-1":
		d := charmap.ISO8859_1.NewDecoder()
		return func(s string) string { out, _ := d.String(s); return out }
	}
	return nil
}

// setMin takes a line of two fields (LEFTHYPHENMIN 2, RIGHTHYPHENMIN 3, or
// another setting, ignored): true when the line was one.
func (h *Hyphenator) setMin(l string) bool {
	f := strings.Fields(l)
	if len(f) != 2 {
		return false
	}
	n, err := strconv.Atoi(f[1])
	switch {
	case f[0] == "LEFTHYPHENMIN" && err == nil:
		h.left = max(n, 1)
	case f[0] == "RIGHTHYPHENMIN" && err == nil:
		h.right = max(n, 1)
	}
	return true
}

// nonStandardLine: a line of non-standard hyphenation (with / or =) or a
// setting, not a pattern.
func nonStandardLine(l string) bool {
	if strings.ContainsAny(l, "/= \t") {
		return true
	}
	for _, p := range []string{"LEFTHYPHENMIN", "RIGHTHYPHENMIN", "COMPOUND", "NOHYPHEN"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// addPattern adds a pattern line (letters with digits between them) to
// level: its letters, lower-cased, and the value before, between and after
// them.
func addPattern(level map[string][]uint8, l string) {
	var letters []rune
	vals := []uint8{0}
	for _, r := range strings.ToLower(l) {
		if r >= '0' && r <= '9' {
			vals[len(vals)-1] = uint8(r - '0')
			continue
		}
		letters = append(letters, r)
		vals = append(vals, 0)
	}
	if len(letters) > 0 {
		level[string(letters)] = vals
	}
}

// Points are the places word may break at: after its i-th letter for each
// i returned (letters counted from 1).
func (h *Hyphenator) Points(word []rune) []int {
	n := len(word)
	if n < h.left+h.right {
		return nil
	}
	w := make([]rune, 0, n+2)
	w = append(w, '.')
	for _, r := range word {
		w = append(w, unicode.ToLower(r))
	}
	w = append(w, '.')
	vals := make([]uint8, len(w)+1)
	for i := range w {
		for l := 1; l <= h.maxLen && i+l <= len(w); l++ {
			if p, ok := h.patterns[string(w[i:i+l])]; ok {
				for k, v := range p {
					if v > vals[i+k] {
						vals[i+k] = v
					}
				}
			}
		}
	}
	var pts []int
	// vals[j] is between w[j-1] and w[j]; a break after the word's letter
	// i (1-based) is between w[i] and w[i+1]: vals[i+1].
	for i := h.left; i <= n-h.right; i++ {
		if vals[i+1]%2 == 1 {
			pts = append(pts, i)
		}
	}
	return pts
}

// Hyphenate puts soft hyphens (U+00AD) into word where it may break.
func (h *Hyphenator) Hyphenate(word string) string {
	rs := []rune(word)
	pts := h.Points(rs)
	if len(pts) == 0 {
		return word
	}
	var b strings.Builder
	b.Grow(len(word) + 2*len(pts))
	k := 0
	for i, r := range rs {
		b.WriteRune(r)
		if k < len(pts) && pts[k] == i+1 {
			b.WriteString("\u00ad")
			k++
		}
	}
	return b.String()
}

// Hyphenators are the patterns a book's words are broken by: Cyrillic
// words by the Russian, Latin ones by the French where their passage reads
// as French (War and Peace's salons talk French inside its Russian), else by
// the English. Any of them nil: those words are left whole.
type Hyphenators struct {
	Ru, En, Fr *Hyphenator
	// Book is the book's language: in a Russian book a Latin passage is
	// foreign anyway, and one French word with no English one makes it
	// French; in an English book it takes two, and more than its English.
	Book string
}

// BookHyphenators are the patterns installed here (HyphenDirs), for a book
// in lang.
func BookHyphenators(lang string) Hyphenators {
	return Hyphenators{Ru: HyphenatorFor("ru"), En: HyphenatorFor("en"), Fr: HyphenatorFor("fr"), Book: lang}
}

func (hs Hyphenators) none() bool { return hs.Ru == nil && hs.En == nil && hs.Fr == nil }

// hyphenateHTML puts soft hyphens into the words of html's text by hs,
// never in tags, entities, headings, code or preformatted text.
func hyphenateHTML(src []byte, hs Hyphenators) []byte {
	if hs.none() {
		return src
	}
	words := textWords(src, hs)
	var out bytes.Buffer
	out.Grow(len(src) + len(src)/6)
	last := 0
	for _, w := range words {
		out.Write(src[last:w.start])
		out.WriteString(w.h.Hyphenate(string(src[w.start:w.end])))
		last = int(w.end)
	}
	out.Write(src[last:])
	return out.Bytes()
}

// htmlWord is a word of the page's text long enough to be broken (5 letters
// or more), and the patterns it is broken by.
type htmlWord struct {
	start, end int32
	h          *Hyphenator
}

// wordScan walks html's text: the words outside tags, entities and the
// elements never hyphenated (headings, pre, code, nav…), and the places a
// passage ends (a block's edge, a sentence's end, a quote, a dash).
type wordScan struct {
	src  []byte
	skip int // depth of h1–h6, pre, code, nav, title, style, script
}

// next returns the next word's span from i (start < 0: none left) and
// whether a passage ended before it.
func (s *wordScan) next(i int) (start, end int, ended bool) {
	src := s.src
	for i < len(src) {
		c := src[i]
		switch {
		case c == '<':
			j := bytes.IndexByte(src[i:], '>')
			if j < 0 {
				return -1, -1, true
			}
			tag := src[i+1 : i+j]
			closing := len(tag) > 0 && tag[0] == '/'
			name := strings.ToLower(string(bytes.TrimLeft(tag, "/")))
			if k := strings.IndexAny(name, " \t\n/"); k >= 0 {
				name = name[:k]
			}
			switch name {
			case "h1", "h2", "h3", "h4", "h5", "h6", "pre", "code", "nav", "title", "style", "script":
				if closing {
					s.skip = max(s.skip-1, 0)
				} else {
					s.skip++
				}
				ended = true
			case "p", "li", "blockquote", "div", "td", "th", "tr", "dd", "dt", "br", "hr", "section", "figcaption", "sup", "ol", "ul", "table":
				ended = true
			}
			i += j + 1
		case c == '&':
			j := bytes.IndexByte(src[i:min(i+12, len(src))], ';')
			if j < 0 {
				i++
				continue
			}
			ended = ended || string(src[i:i+j+1]) == "&quot;"
			i += j + 1
		default:
			r, size := utf8.DecodeRune(src[i:])
			if s.skip > 0 || !unicode.IsLetter(r) {
				ended = ended || strings.ContainsRune(passageEnds, r)
				i += size
				continue
			}
			j := i + size
			for j < len(src) {
				r2, s2 := utf8.DecodeRune(src[j:])
				if !unicode.IsLetter(r2) {
					break
				}
				j += s2
			}
			return i, j, ended
		}
	}
	return -1, -1, ended
}

// passageEnds are the marks a passage in another language ends at.
const passageEnds = ".!?…;:()\"«»“”„—–"

// textWords are html's words of 5 letters or more, each with its patterns:
// a Latin passage (the Latin words between two passage ends or Cyrillic
// words) is French when its short words say so (frenchPassage).
func textWords(src []byte, hs Hyphenators) []htmlWord {
	var words []htmlWord
	s := wordScan{src: src}
	run := 0           // words[run:] are the current Latin passage's
	var fr, en int     // its French and English evidence
	endRun := func() { // the passage's words get their patterns
		h := hs.En
		if hs.Fr != nil && frenchPassage(fr, en, hs.Book == "ru") {
			h = hs.Fr
		}
		for k := run; k < len(words); k++ {
			words[k].h = h
		}
		words = dropNil(words, run)
		run, fr, en = len(words), 0, 0
	}
	for i := 0; ; {
		start, end, ended := s.next(i)
		if ended || start < 0 {
			endRun()
		}
		if start < 0 {
			return words
		}
		i = end
		word := src[start:end]
		r, _ := utf8.DecodeRune(word)
		long := utf8.RuneCount(word) >= 5
		if unicode.Is(unicode.Cyrillic, r) {
			endRun()
			if long && hs.Ru != nil {
				words = append(words, htmlWord{int32(start), int32(end), hs.Ru})
				run = len(words)
			}
			continue
		}
		f, e := latinEvidence(word)
		fr, en = fr+f, en+e
		if long {
			words = append(words, htmlWord{start: int32(start), end: int32(end)})
		}
	}
}

// dropNil removes words[from:] that got no patterns.
func dropNil(words []htmlWord, from int) []htmlWord {
	k := from
	for _, w := range words[from:] {
		if w.h != nil {
			words[k] = w
			k++
		}
	}
	return words[:k]
}

// frenchPassage: more French evidence than English, and at least two
// pieces of it unless there is no English at all and the book is Russian.
func frenchPassage(fr, en int, inRussian bool) bool {
	return fr > en && (fr >= 2 || inRussian)
}

// latinEvidence says whether a Latin word speaks for French (a function word
// English does not have, or a letter only French uses here) or for English
// (a function word).
func latinEvidence(word []byte) (fr, en int) {
	w := strings.ToLower(string(word))
	switch {
	case frenchWords[w]:
		return 1, 0
	case englishWords[w]:
		return 0, 1
	case strings.ContainsAny(w, "àâçèêëîïôœùûÿ"):
		return 1, 0
	}
	return 0, 0
}

// frenchWords and englishWords are short function words of each language
// that the other does not use ("a", "on", "me", "son" are in neither).
var frenchWords = setOf("le la les l de des du un une et est sont je tu il elle nous vous ils elles ce c cette ces qui que qu ne pas mais ou où pour par avec dans sur au aux mon ma mes ton ta tes sa ses notre votre leur leurs se y été être avoir ai ont très bien oui non monsieur madame tout toute tous rien comme chez eh")

var englishWords = setOf("the and of to in i is was he she it that with for his her him not but have has had this what are am be you your they we us our my which by at from an were been will would there their them who said one all can so as if or do did how when then now well very why into about out up")

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}
