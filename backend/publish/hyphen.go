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

// HyphenatorFor is lang's hyphenator ("ru" or "en"), nil when its patterns
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

// hyphenateHTML puts soft hyphens into the words of html's text: Cyrillic
// words by the Russian patterns, Latin ones by the English (either nil:
// none), never in tags, entities, headings, code or preformatted text.
func hyphenateHTML(src []byte, ru, en *Hyphenator) []byte {
	if ru == nil && en == nil {
		return src
	}
	var out bytes.Buffer
	out.Grow(len(src) + len(src)/6)
	skip := 0 // depth of h1–h6, pre, code
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == '<':
			j := bytes.IndexByte(src[i:], '>')
			if j < 0 {
				out.Write(src[i:])
				return out.Bytes()
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
					skip = max(skip-1, 0)
				} else {
					skip++
				}
			}
			out.Write(src[i : i+j+1])
			i += j + 1
		case c == '&':
			j := bytes.IndexByte(src[i:min(i+12, len(src))], ';')
			if j < 0 {
				out.WriteByte(c)
				i++
				continue
			}
			out.Write(src[i : i+j+1])
			i += j + 1
		default:
			r, size := utf8.DecodeRune(src[i:])
			if skip > 0 || !unicode.IsLetter(r) {
				out.Write(src[i : i+size])
				i += size
				continue
			}
			j := i
			for j < len(src) {
				r2, s2 := utf8.DecodeRune(src[j:])
				if !unicode.IsLetter(r2) {
					break
				}
				j += s2
			}
			word := string(src[i:j])
			h := en
			if unicode.Is(unicode.Cyrillic, r) {
				h = ru
			}
			if h != nil && utf8.RuneCountInString(word) >= 5 {
				out.WriteString(h.Hyphenate(word))
			} else {
				out.WriteString(word)
			}
			i = j
		}
	}
	return out.Bytes()
}
