// Package characters finds the people of a book offline, in Russian and in
// English: the capitalised words and name pairs that the text treats as
// persons, their case forms merged into one person (Наташа, Наташи, Наташей),
// with the first mention, the mentions per chapter and every mention to jump
// to.
//
// No model is involved. A candidate is a word written with a capital in the
// middle of sentences (a word that also occurs in lower case is a common word
// at a sentence's start) or a first name with its patronymic («Анна
// Павловна», "Anna Pávlovna"). What makes it a person is the evidence around
// its mentions: a title before it (князь, графиня, Prince, Mademoiselle), a
// verb of speech next to it («— сказал Пьер», "said Natásha"), a patronymic
// after it; what makes it a place is a preposition of place before it («в
// Москве», "in Moscow") and the place words a dictionary gives. Russian forms
// are merged with backend/wordforms (Hunspell's affix rules); English ones by
// their plural and possessive.
package characters

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/wordforms"
)

// Character is one person of the book.
type Character struct {
	// Name is how the book names the person most often (its first form).
	Name string `json:"name"`
	// Forms are the spellings and case forms met, most frequent first.
	Forms []string `json:"forms"`
	// Mentions is how many times the person is named.
	Mentions int `json:"mentions"`
	// First is the first mention: the item, where it is and its words.
	First Mention `json:"first"`
	// Chapters are the mentions per chapter, in the book's order.
	Chapters []ChapterCount `json:"chapters"`
	// Items are the items that name the person, in order: the jump targets.
	Items []int `json:"items"`
}

// Mention is a place a person is named.
type Mention struct {
	Index   int    `json:"index"`
	Section string `json:"section"`
	Snippet string `json:"snippet"`
}

// ChapterCount is how often a person is named in one chapter.
type ChapterCount struct {
	Section  string `json:"section"`
	Index    int    `json:"index"` // the chapter's heading item (-1: before the first heading)
	Mentions int    `json:"mentions"`
}

// Options bound the search.
type Options struct {
	// From and To limit it to the items [From, To); To 0 means the end.
	From, To int
	// MinMentions drops persons named fewer times (default 3).
	MinMentions int
}

// word is one capitalised word of the text, where it stands.
type word struct {
	item      int
	norm      string // lower case, accents dropped, ё as е
	raw       string
	initial   bool   // at a sentence's start
	prev      string // the word before, normalised ("" at a sentence's start)
	prevPunct bool   // a dash or quotation mark comes just before (dialogue)
	next      string // the word after, normalised
	nextCap   bool   // the word after is capitalised
	nextRaw   string
}

// Find lists the persons of d, most mentioned first.
func Find(d *document.Document, o Options) []Character {
	if o.To <= 0 || o.To > d.Len() {
		o.To = d.Len()
	}
	if o.MinMentions <= 0 {
		o.MinMentions = 3
	}
	var words []word
	lower := map[string]int{} // how often each word occurs in lower case
	for i := o.From; i < o.To; i++ {
		it := d.Item(i)
		if it.Type == document.Heading || !d.Candidate(i, true) {
			continue
		}
		words = scan(d.Text(i), i, words, lower)
	}
	ru := cyrillicShare(words) > 0.5
	lex := wordforms.Default()

	// Counts of each capitalised word in the middle of sentences, and the
	// evidence for and against its being a person.
	type stats struct {
		mid, all        int
		person, place   int
		patronymicAfter int
	}
	st := map[string]*stats{}
	for _, w := range words {
		s := st[w.norm]
		if s == nil {
			s = &stats{}
			st[w.norm] = s
		}
		s.all++
		if !w.initial {
			s.mid++
		}
		if titleWord(w.prev) || speechVerb(w.prev) || speechVerb(w.next) || w.prevPunct && speechVerb(w.next) {
			s.person++
		}
		if patronymic(w.next) {
			s.patronymicAfter++
			s.person++
		}
		if placePrep(w.prev, ru) || !ru && w.prev == "the" && !strings.HasSuffix(w.norm, "s") {
			s.place++ // "in Moscow", «в Москве», "the Kremlin" (not "the Rostóvs")
		}
		if personPrep(w.prev, ru) {
			s.person++
		}
	}
	candidate := func(n string) bool {
		s := st[n]
		if s == nil || stopName(n) || utf8.RuneCountInString(n) < 2 {
			return false
		}
		// A common word that starts sentences, or a word mostly in lower case.
		return lower[n]*4 <= s.all
	}
	// A name is written with a capital in the middle of sentences; a case
	// form met only at sentences' starts («Наташи не было») is one too when
	// another form of it is.
	nameSet := map[string]bool{}
	stemOf := map[string]bool{}
	for n, s := range st {
		if s.mid > 0 && candidate(n) {
			nameSet[n] = true
			if cyr(n) {
				stemOf[caseStem(n)] = true
			}
		}
	}
	for n, s := range st {
		if s.mid > 0 || !candidate(n) || !cyr(n) {
			continue
		}
		if st := caseStem(n); st != "" && stemOf[st] {
			nameSet[n] = true
			continue
		}
		for _, f := range lex.Forms(n, true) {
			if nameSet[f] && f != n {
				nameSet[n] = true
				break
			}
		}
	}
	isName := func(n string) bool { return nameSet[n] }
	// Group the case forms and spellings of one name.
	parent := map[string]string{}
	var find func(string) string
	find = func(x string) string {
		for parent[x] != "" && parent[x] != x {
			x = parent[x]
		}
		return x
	}
	union := func(a, b string) {
		ra, rb := find(a), find(b)
		if ra == "" {
			ra = a
		}
		if rb == "" {
			rb = b
		}
		if ra != rb {
			parent[rb] = ra
		}
	}
	names := make([]string, 0, len(st))
	for n := range st {
		if isName(n) {
			names = append(names, n)
			parent[n] = n
		}
	}
	sort.Slice(names, func(a, b int) bool { return st[names[a]].all > st[names[b]].all })
	stems := map[string]string{}
	for _, n := range names {
		if cyr(n) {
			for _, f := range lex.Forms(n, true) {
				if f != n && parent[f] != "" {
					union(n, f)
				}
			}
			// A name the dictionary cannot place: its case endings.
			if st := caseStem(n); st != "" {
				if o, ok := stems[st]; ok {
					union(o, n)
				} else {
					stems[st] = n
				}
			}
		} else {
			for _, suf := range []string{"s", "es"} {
				if b, ok := strings.CutSuffix(n, suf); ok && parent[b] != "" {
					union(b, n)
				}
			}
		}
	}
	// The person evidence of each group, and its mentions. A first name
	// followed by its patronymic makes a person of its own ("Anna Pavlovna").
	type group struct {
		key       string
		forms     map[string]int
		person    int
		place     int
		mentions  []int // items, one per mention
		firstItem int
		counted   map[string]bool
	}
	groups := map[string]*group{}
	get := func(key string) *group {
		g := groups[key]
		if g == nil {
			g = &group{key: key, forms: map[string]int{}, firstItem: -1, counted: map[string]bool{}}
			groups[key] = g
		}
		return g
	}
	skip := map[int]bool{}
	for k, w := range words {
		if skip[k] || !isName(w.norm) {
			continue
		}
		key := find(w.norm)
		form := w.raw
		if w.nextCap && patronymic(w.next) {
			// «Анна Павловна», «Анны Павловны»: one person, keyed by the pair.
			pk := find(w.norm) + " " + patronymicKey(w.next)
			key = pk
			form = w.raw + " " + w.nextRaw
			if k+1 < len(words) {
				skip[k+1] = true
			}
		} else if patronymic(w.norm) {
			continue // a patronymic alone («Павловна») is part of a name pair
		}
		g := get(key)
		g.forms[form]++
		g.mentions = append(g.mentions, w.item)
		if g.firstItem < 0 {
			g.firstItem = w.item
		}
		if s := st[w.norm]; s != nil && !g.counted[w.norm] {
			// Each form's evidence once (it counts all its mentions).
			g.person += s.person
			g.place += s.place
			g.counted[w.norm] = true
		}
	}
	var out []Character
	for _, g := range groups {
		if len(g.mentions) < o.MinMentions {
			continue
		}
		pair := strings.Contains(g.key, " ")
		n := len(g.mentions)
		switch {
		case pair:
		case g.place*3 >= n && g.place > g.person:
			continue // mostly after "in", «в»: a place
		case g.person == 0 && (n < 5 || g.place > 0):
			continue // no sign of a person
		}
		c := Character{Mentions: len(g.mentions)}
		type fc struct {
			f string
			n int
		}
		var fs []fc
		for f, n := range g.forms {
			fs = append(fs, fc{f, n})
		}
		sort.Slice(fs, func(a, b int) bool { return fs[a].n > fs[b].n || fs[a].n == fs[b].n && fs[a].f < fs[b].f })
		for _, f := range fs {
			c.Forms = append(c.Forms, f.f)
		}
		c.Name = c.Forms[0]
		if ru {
			c.Name = nominative(fs[0].f, c.Forms, lex)
		}
		c.First = Mention{Index: g.firstItem, Section: d.Place(g.firstItem), Snippet: document.Snippet(d.Text(g.firstItem), 160)}
		seen := map[int]bool{}
		chapter := map[int]int{}
		var order []int
		for _, i := range g.mentions {
			if !seen[i] {
				seen[i] = true
				c.Items = append(c.Items, i)
			}
			h := d.HeadingOf(i)
			if _, ok := chapter[h]; !ok {
				order = append(order, h)
			}
			chapter[h]++
		}
		for _, h := range order {
			sec := ""
			if h >= 0 {
				sec = d.Place(h)
			}
			c.Chapters = append(c.Chapters, ChapterCount{Section: sec, Index: h, Mentions: chapter[h]})
		}
		out = append(out, c)
	}
	sort.Slice(out, func(a, b int) bool {
		return out[a].Mentions > out[b].Mentions || out[a].Mentions == out[b].Mentions && out[a].Name < out[b].Name
	})
	return out
}

// scan reads the words of an item's text: each capitalised word with its
// neighbours, and a count of the words in lower case.
func scan(text string, item int, words []word, lower map[string]int) []word {
	type tk struct {
		raw, norm string
		cap       bool
		start     bool // starts a sentence
		dash      bool // a dash or quotation mark before it
	}
	var toks []tk
	start, dash := true, false
	rs := []rune(text)
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case unicode.IsLetter(r):
			j := i
			for j < len(rs) && (isLetter(rs[j]) || (rs[j] == '-' || rs[j] == '\'') && j+1 < len(rs) && unicode.IsLetter(rs[j+1])) {
				j++
			}
			raw := string(rs[i:j])
			raw = strings.TrimSuffix(strings.TrimSuffix(raw, "'s"), "’s")
			toks = append(toks, tk{raw: raw, norm: normWord(raw), cap: unicode.IsUpper(r), start: start, dash: dash})
			start, dash = false, false
			i = j
		case r == '.' || r == '!' || r == '?' || r == '…':
			start = true
			i++
		case r == '—' || r == '–' || r == '«' || r == '»' || r == '“' || r == '”' || r == '"':
			dash = true
			if r == '«' || r == '“' {
				start = true
			}
			i++
		case r == '’' && i+1 < len(rs) && rs[i+1] == 's':
			i += 2 // "Natásha’s": the name
		default:
			if !unicode.IsSpace(r) && r != ',' && r != ';' && r != ':' {
				dash = dash || r == '-'
			}
			i++
		}
	}
	for k, t := range toks {
		if !t.cap {
			lower[t.norm]++
			continue
		}
		w := word{item: item, norm: t.norm, raw: t.raw, initial: t.start, prevPunct: t.dash}
		if k > 0 && !t.start {
			w.prev = toks[k-1].norm
		}
		if k+1 < len(toks) {
			w.next = toks[k+1].norm
			w.nextCap = toks[k+1].cap
			w.nextRaw = toks[k+1].raw
		}
		words = append(words, w)
	}
	return words
}

// normWord is a word lower case, accents dropped (й kept), ё as е.
func normWord(w string) string {
	var sb strings.Builder
	for _, r := range strings.ToLower(w) {
		switch {
		case r == 'ё':
			r = 'е'
		case r >= 0xC0 && r < 0x250:
			if b, ok := accent[r]; ok {
				r = b
			}
		case unicode.Is(unicode.Mn, r):
			continue
		}
		sb.WriteRune(r)
	}
	return sb.String()
}

var accent = map[rune]rune{'à': 'a', 'á': 'a', 'â': 'a', 'ä': 'a', 'è': 'e', 'é': 'e', 'ê': 'e', 'ë': 'e', 'ì': 'i', 'í': 'i', 'î': 'i', 'ï': 'i',
	'ò': 'o', 'ó': 'o', 'ô': 'o', 'ö': 'o', 'ù': 'u', 'ú': 'u', 'û': 'u', 'ü': 'u', 'ý': 'y', 'ç': 'c', 'ñ': 'n'}

func cyr(w string) bool {
	for _, r := range w {
		return unicode.Is(unicode.Cyrillic, r)
	}
	return false
}

func cyrillicShare(ws []word) float64 {
	n := 0
	for _, w := range ws {
		if cyr(w.norm) {
			n++
		}
	}
	if len(ws) == 0 {
		return 0
	}
	return float64(n) / float64(len(ws))
}

// nominative is a Russian name's dictionary form (nominative singular): the
// form of the group that is its own lemma; for a surname the book only ever
// inflects («Кутузова», «Кутузову»), its lemma; else the most frequent form.
func nominative(top string, forms []string, lex *wordforms.Dictionary) string {
	words := strings.Fields(top)
	isLemma := func(w string) bool {
		for _, l := range lex.Lemmas(normWord(w), true) {
			if l == normWord(w) {
				return true
			}
		}
		return false
	}
	for _, f := range forms {
		fw := strings.Fields(f)
		if len(fw) != len(words) || !isLemma(fw[0]) {
			continue
		}
		if len(fw) == 2 && !patronymicBase(normWord(fw[1])) {
			continue
		}
		return f
	}
	if len(words) == 1 {
		// A name without a case ending («Алпатыч» for «Алпатычем»).
		if st := caseStem(normWord(top)); st != "" {
			for _, f := range forms {
				if normWord(f) == st {
					return f
				}
			}
		}
		for _, l := range lex.Lemmas(normWord(top), true) {
			if strings.HasSuffix(l, "ов") || strings.HasSuffix(l, "ев") || strings.HasSuffix(l, "ин") || strings.HasSuffix(l, "ский") {
				r := []rune(l)
				return strings.ToUpper(string(r[:1])) + string(r[1:])
			}
		}
	}
	return top
}

// patronymicBase: a patronymic in the nominative («Павловна», «Ильич»).
func patronymicBase(w string) bool {
	for _, s := range []string{"овна", "евна", "ична", "ович", "евич", "ьич", "ич"} {
		if strings.HasSuffix(w, s) {
			return true
		}
	}
	return false
}

// isLetter: a letter, or a combining mark inside a word (a stress mark).
func isLetter(r rune) bool { return unicode.IsLetter(r) || unicode.Is(unicode.Mn, r) }

// caseStem is a Russian name without its case ending («Мортемаром» →
// «мортемар», «Наташей» → «наташ»), "" when the stem would be short.
func caseStem(w string) string {
	for _, e := range []string{"ыми", "ами", "ями", "ого", "ому", "ой", "ою", "ей", "ею", "ом", "ем", "ым", "им", "ых", "их", "ам", "ям", "ах", "ях", "а", "я", "у", "ю", "е", "ы", "и", "й", "ь"} {
		if b, ok := strings.CutSuffix(w, e); ok {
			if utf8.RuneCountInString(b) >= 4 {
				return b
			}
			return ""
		}
	}
	if utf8.RuneCountInString(w) >= 4 {
		return w
	}
	return ""
}
