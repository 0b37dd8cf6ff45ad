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
	words, lower := scanItems(d, o.From, o.To)
	ru := cyrillicShare(words) > 0.5
	lex := wordforms.Default()
	st := evidence(words, ru)
	nameSet := nameForms(st, lower, lex)
	forms := mergeForms(st, nameSet, lex)
	var out []Character
	for _, g := range groupMentions(words, nameSet, forms, st) {
		if len(g.mentions) < o.MinMentions || !g.isPerson() {
			continue
		}
		out = append(out, g.character(d, ru, lex))
	}
	sort.Slice(out, func(a, b int) bool {
		return out[a].Mentions > out[b].Mentions || out[a].Mentions == out[b].Mentions && out[a].Name < out[b].Name
	})
	return out
}

// scanItems reads the capitalised words of the items [from, to) that are
// text (no headings), and counts the words met in lower case.
func scanItems(d *document.Document, from, to int) ([]word, map[string]int) {
	var words []word
	lower := map[string]int{} // how often each word occurs in lower case
	for i := from; i < to; i++ {
		it := d.Item(i)
		if it.Type == document.Heading || !d.Candidate(i, true) {
			continue
		}
		words = scan(d.Text(i), i, words, lower)
	}
	return words, lower
}

// stats counts a capitalised word's uses: in the middle of sentences, in
// all, and the evidence for and against its being a person.
type stats struct {
	mid, all        int
	person, place   int
	patronymicAfter int
}

// evidence is the stats of each capitalised word.
func evidence(words []word, ru bool) map[string]*stats {
	st := map[string]*stats{}
	for _, w := range words {
		s := st[w.norm]
		if s == nil {
			s = &stats{}
			st[w.norm] = s
		}
		s.add(w, ru)
	}
	return st
}

// add counts one use of the word.
func (s *stats) add(w word, ru bool) {
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

// nameForms is the set of words that are names. A name is written with a
// capital in the middle of sentences; a case form met only at sentences'
// starts («Наташи не было») is one too when another form of it is.
func nameForms(st map[string]*stats, lower map[string]int, lex *wordforms.Dictionary) map[string]bool {
	candidate := func(n string) bool {
		s := st[n]
		if s == nil || stopName(n) || utf8.RuneCountInString(n) < 2 {
			return false
		}
		// A common word that starts sentences, or a word mostly in lower case.
		return lower[n]*4 <= s.all
	}
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
	return nameSet
}

// formSets groups the case forms and spellings of one name: each name's
// parent, up to the group's key (a union-find).
type formSets map[string]string

func (p formSets) find(x string) string {
	for p[x] != "" && p[x] != x {
		x = p[x]
	}
	return x
}

func (p formSets) union(a, b string) {
	ra, rb := p.find(a), p.find(b)
	if ra == "" {
		ra = a
	}
	if rb == "" {
		rb = b
	}
	if ra != rb {
		p[rb] = ra
	}
}

// mergeForms groups the names' forms: Russian case forms by the dictionary
// and by their case endings, English ones by their plural.
func mergeForms(st map[string]*stats, nameSet map[string]bool, lex *wordforms.Dictionary) formSets {
	parent := formSets{}
	names := make([]string, 0, len(st))
	for n := range st {
		if nameSet[n] {
			names = append(names, n)
			parent[n] = n
		}
	}
	sort.Slice(names, func(a, b int) bool { return st[names[a]].all > st[names[b]].all })
	stems := map[string]string{}
	for _, n := range names {
		if cyr(n) {
			parent.mergeRussian(n, stems, lex)
		} else {
			parent.mergeEnglish(n)
		}
	}
	return parent
}

// mergeRussian joins a Russian name to its dictionary forms, and to the
// names with its case stem (a name the dictionary cannot place).
func (p formSets) mergeRussian(n string, stems map[string]string, lex *wordforms.Dictionary) {
	for _, f := range lex.Forms(n, true) {
		if f != n && p[f] != "" {
			p.union(n, f)
		}
	}
	if st := caseStem(n); st != "" {
		if o, ok := stems[st]; ok {
			p.union(o, n)
		} else {
			stems[st] = n
		}
	}
}

// mergeEnglish joins an English plural to its singular.
func (p formSets) mergeEnglish(n string) {
	for _, suf := range []string{"s", "es"} {
		if b, ok := strings.CutSuffix(n, suf); ok && p[b] != "" {
			p.union(b, n)
		}
	}
}

// group is one person's mentions and the evidence of its forms.
type group struct {
	key       string
	forms     map[string]int
	person    int
	place     int
	mentions  []int // items, one per mention
	firstItem int
	counted   map[string]bool
}

// groupMentions gathers the mentions of each group of forms, with the
// person evidence of each group. A first name followed by its patronymic
// makes a person of its own ("Anna Pavlovna").
func groupMentions(words []word, nameSet map[string]bool, forms formSets, st map[string]*stats) map[string]*group {
	groups := map[string]*group{}
	skip := map[int]bool{}
	for k, w := range words {
		if skip[k] || !nameSet[w.norm] {
			continue
		}
		key := forms.find(w.norm)
		form := w.raw
		if w.nextCap && patronymic(w.next) {
			// «Анна Павловна», «Анны Павловны»: one person, keyed by the pair.
			key = forms.find(w.norm) + " " + patronymicKey(w.next)
			form = w.raw + " " + w.nextRaw
			if k+1 < len(words) {
				skip[k+1] = true
			}
		} else if patronymic(w.norm) {
			continue // a patronymic alone («Павловна») is part of a name pair
		}
		g := groups[key]
		if g == nil {
			g = &group{key: key, forms: map[string]int{}, firstItem: -1, counted: map[string]bool{}}
			groups[key] = g
		}
		g.mention(w, form, st[w.norm])
	}
	return groups
}

// mention counts one mention of the group in the given form; s is the
// word's evidence, counted once per form (it counts all its mentions).
func (g *group) mention(w word, form string, s *stats) {
	g.forms[form]++
	g.mentions = append(g.mentions, w.item)
	if g.firstItem < 0 {
		g.firstItem = w.item
	}
	if s != nil && !g.counted[w.norm] {
		g.person += s.person
		g.place += s.place
		g.counted[w.norm] = true
	}
}

// isPerson: a name pair, or a name with more signs of a person than of a
// place.
func (g *group) isPerson() bool {
	n := len(g.mentions)
	switch {
	case strings.Contains(g.key, " "):
		return true
	case g.place*3 >= n && g.place > g.person:
		return false // mostly after "in", «в»: a place
	case g.person == 0 && (n < 5 || g.place > 0):
		return false // no sign of a person
	}
	return true
}

// character is the group as a person of the book: its forms, most frequent
// first, its name, its first mention, its items and its mentions per chapter.
func (g *group) character(d *document.Document, ru bool, lex *wordforms.Dictionary) Character {
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
	c.Items, c.Chapters = g.places(d)
	return c
}

// places is the items that name the person, each once, and the mentions per
// chapter in the book's order.
func (g *group) places(d *document.Document) ([]int, []ChapterCount) {
	var items []int
	var chapters []ChapterCount
	seen := map[int]bool{}
	chapter := map[int]int{}
	var order []int
	for _, i := range g.mentions {
		if !seen[i] {
			seen[i] = true
			items = append(items, i)
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
		chapters = append(chapters, ChapterCount{Section: sec, Index: h, Mentions: chapter[h]})
	}
	return items, chapters
}

// scan reads the words of an item's text: each capitalised word with its
// neighbours, and a count of the words in lower case.
func scan(text string, item int, words []word, lower map[string]int) []word {
	toks := tokens(text)
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

// token is one word of a text and what stands before it.
type token struct {
	raw, norm string
	cap       bool
	start     bool // starts a sentence
	dash      bool // a dash or quotation mark before it
}

// tokens splits a text into its words.
func tokens(text string) []token {
	var toks []token
	start, dash := true, false
	rs := []rune(text)
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case unicode.IsLetter(r):
			j := wordEnd(rs, i)
			raw := string(rs[i:j])
			raw = strings.TrimSuffix(strings.TrimSuffix(raw, "'s"), "’s")
			toks = append(toks, token{raw: raw, norm: normWord(raw), cap: unicode.IsUpper(r), start: start, dash: dash})
			start, dash = false, false
			i = j
		case r == '’' && i+1 < len(rs) && rs[i+1] == 's':
			i += 2 // "Natásha’s": the name
		default:
			start, dash = punctuation(r, start, dash)
			i++
		}
	}
	return toks
}

// wordEnd is where the word starting at rs[i] ends: letters (and stress
// marks), with hyphens and apostrophes between letters.
func wordEnd(rs []rune, i int) int {
	j := i
	for j < len(rs) && (isLetter(rs[j]) || (rs[j] == '-' || rs[j] == '\'') && j+1 < len(rs) && unicode.IsLetter(rs[j+1])) {
		j++
	}
	return j
}

// punctuation is what a character between words says of the next word:
// whether it starts a sentence, whether a dash or quotation mark comes
// before it.
func punctuation(r rune, start, dash bool) (bool, bool) {
	switch {
	case r == '.' || r == '!' || r == '?' || r == '…':
		return true, dash
	case r == '—' || r == '–' || r == '«' || r == '»' || r == '“' || r == '”' || r == '"':
		return start || r == '«' || r == '“', true
	case !unicode.IsSpace(r) && r != ',' && r != ';' && r != ':':
		return start, dash || r == '-'
	}
	return start, dash
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
