package wordforms

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/waymark/waymark/backend/textmatch"
)

// Renaming a name in every case form: «Марья» → «Мария» makes Марьи →
// Марии, Марье → Марии, Марью → Марию, Марьей → Марией, Марьею → Мариею.
//
// The dictionary's affix rules give a word's forms but not which case each
// one is, so the cases come from the declension types of Russian nouns and
// surnames, chosen by the word's ending (-а, -я, -ия, a consonant, -й, -ий,
// -ь, the surnames' -ов/-ин and -ский, and the indeclinable names ending in a
// vowel, Натали). A form found in the text is read as the cases it can be in
// (Марье: dative or prepositional); the new name's form is the same case of
// its own type, and it must be one form whichever of those cases it is
// (Андрея → Андрюши or Андрюшу: not certain, so not derived). When the two
// names are of different types, the new form must also be one the dictionary
// knows for the new name. A form that cannot be derived so is reported, never
// guessed.

// slot is a case and number ("gen", "Gen" for the plural; "ins2" is the
// second instrumental, Марьею; "f." the feminine of a surname; the
// accusative is "accA" for a living being and "accI" for a thing).
type paradigm struct {
	class   string
	regular bool                // a patronymic (-ович, -евич, -овна, -евна): every form by rule
	forms   map[string][]string // slot → its forms (a stressed variant second)
}

// hush: after these, ы is written и; after these and ц an unstressed о is е.
func velarHush(r rune) bool { return strings.ContainsRune("гкхжшщч", r) }
func hushC(r rune) bool     { return strings.ContainsRune("жшщчц", r) }

func lastRune(s string) rune {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

func isVowel(r rune) bool { return strings.ContainsRune("аеёиоуыэюя", r) }

// paradigmOf declines a normalised lemma (nominative singular) by its ending.
// name: a capitalised word, a person (the accusative is the genitive).
func paradigmOf(lemma string, name bool) *paradigm {
	n := utf8.RuneCountInString(lemma)
	if n < 2 || !cyrillic(lemma) {
		return nil
	}
	for _, dc := range declensions {
		if !dc.matches(lemma, n, name) {
			continue
		}
		p := &paradigm{class: dc.class, forms: map[string][]string{}}
		dc.decline(p, lemma, name)
		if name { // a person: the accusative is the genitive
			delete(p.forms, "accI")
			delete(p.forms, "AccI")
		}
		p.regular = name && (endsIn(lemma, "ович") || endsIn(lemma, "евич") || endsIn(lemma, "овна") || endsIn(lemma, "евна"))
		return p
	}
	return nil
}

// declension is a declension type: the lemmas it declines (n is the
// lemma's length in letters), and how.
type declension struct {
	class   string
	matches func(lemma string, n int, name bool) bool
	decline func(p *paradigm, lemma string, name bool)
}

// declensions are the declension types, the first that matches a lemma
// declines it.
var declensions = []declension{
	{"ский", func(l string, _ int, name bool) bool { return name && (endsIn(l, "ский") || endsIn(l, "цкий")) }, declineSkij},
	{"ской", func(l string, _ int, name bool) bool { return name && (endsIn(l, "ской") || endsIn(l, "цкой")) }, declineSkoj},
	{"ов", func(l string, _ int, name bool) bool {
		return name && surnameBase(l) && !endsIn(l, "ский") && !endsIn(l, "цкий") && !endsIn(l, "ской") && !endsIn(l, "цкой")
	}, declineOv},
	{"ия", func(l string, _ int, _ bool) bool { return endsIn(l, "ия") }, declineIja},
	{"я", func(l string, n int, _ bool) bool {
		return endsIn(l, "я") && n > 2 && !isVowel(lastRune(strings.TrimSuffix(l, "я")))
	}, declineJa},
	{"а", func(l string, n int, _ bool) bool {
		return endsIn(l, "а") && n > 2 && !isVowel(lastRune(strings.TrimSuffix(l, "а")))
	}, declineA},
	{"ий", func(l string, n int, _ bool) bool { return endsIn(l, "ий") && n > 3 }, declineIj},
	{"й", func(l string, n int, _ bool) bool {
		return endsIn(l, "й") && n > 2 && isVowel(lastRune(strings.TrimSuffix(l, "й"))) && !endsIn(l, "ый") && !endsIn(l, "ой")
	}, declineJ},
	{"ь", func(l string, n int, _ bool) bool { return endsIn(l, "ь") && n > 2 }, declineSoft},
	{"согл", func(l string, _ int, _ bool) bool {
		return !isVowel(lastRune(l)) && lastRune(l) != 'й' && lastRune(l) != 'ъ'
	}, declineConsonant},
	{"несклон", func(l string, _ int, name bool) bool {
		return name && strings.ContainsRune("оеиуюэы", lastRune(l))
	}, declineNot},
}

// endsIn: the lemma ends in s.
func endsIn(lemma, s string) bool { return strings.HasSuffix(lemma, s) }

// set gives a slot its forms.
func (p *paradigm) set(slot string, fs ...string) { p.forms[slot] = fs }

// plain gives each slot of e the stem with the slot's endings.
func (p *paradigm) plain(stem string, e map[string][]string) {
	for slot, ends := range e {
		var fs []string
		for _, x := range ends {
			fs = append(fs, stem+x)
		}
		p.forms[slot] = fs
	}
}

// inanimate sets a thing's accusatives (not a person's).
func (p *paradigm) inanimate(name bool, acc, accPl string) {
	if !name {
		p.set("accI", acc)
		p.set("AccI", accPl)
	}
}

// yEnd is ы, or и after г к х ж ш щ ч.
func yEnd(stem string) string {
	if velarHush(lastRune(stem)) {
		return "и"
	}
	return "ы"
}

// oEnd is the ending e (ой), or soft (ей) before it after ж ш щ ч ц.
func oEnd(stem, e, soft string) []string {
	if hushC(lastRune(stem)) {
		return []string{soft, e}
	}
	return []string{e}
}

func declineSkij(p *paradigm, lemma string, _ bool) {
	stem := strings.TrimSuffix(lemma, "ий")
	p.plain(stem, map[string][]string{"nom": {"ий"}, "gen": {"ого"}, "dat": {"ому"}, "accA": {"ого"}, "ins": {"им"}, "prep": {"ом"},
		"f.nom": {"ая"}, "f.gen": {"ой"}, "f.dat": {"ой"}, "f.accA": {"ую"}, "f.ins": {"ой"}, "f.ins2": {"ою"}, "f.prep": {"ой"},
		"Nom": {"ие"}, "Gen": {"их"}, "Dat": {"им"}, "AccA": {"их"}, "Ins": {"ими"}, "Prep": {"их"}})
}

func declineSkoj(p *paradigm, lemma string, _ bool) {
	stem := strings.TrimSuffix(lemma, "ой")
	p.plain(stem, map[string][]string{"nom": {"ой"}, "gen": {"ого"}, "dat": {"ому"}, "accA": {"ого"}, "ins": {"им"}, "prep": {"ом"},
		"f.nom": {"ая"}, "f.gen": {"ой"}, "f.dat": {"ой"}, "f.accA": {"ую"}, "f.ins": {"ой"}, "f.ins2": {"ою"}, "f.prep": {"ой"},
		"Nom": {"ие"}, "Gen": {"их"}, "Dat": {"им"}, "AccA": {"их"}, "Ins": {"ими"}, "Prep": {"их"}})
}

func declineOv(p *paradigm, lemma string, _ bool) {
	p.plain(lemma, map[string][]string{"nom": {""}, "gen": {"а"}, "dat": {"у"}, "accA": {"а"}, "ins": {"ым"}, "prep": {"е"},
		"f.nom": {"а"}, "f.gen": {"ой"}, "f.dat": {"ой"}, "f.accA": {"у"}, "f.ins": {"ой"}, "f.ins2": {"ою"}, "f.prep": {"ой"},
		"Nom": {"ы"}, "Gen": {"ых"}, "Dat": {"ым"}, "AccA": {"ых"}, "Ins": {"ыми"}, "Prep": {"ых"}})
}

func declineIja(p *paradigm, lemma string, _ bool) {
	stem := strings.TrimSuffix(lemma, "я")
	p.plain(stem, map[string][]string{"nom": {"я"}, "gen": {"и"}, "dat": {"и"}, "accA": {"ю"}, "accI": {"ю"}, "ins": {"ей"}, "ins2": {"ею"}, "prep": {"и"},
		"Nom": {"и"}, "Gen": {"й"}, "Dat": {"ям"}, "Ins": {"ями"}, "Prep": {"ях"}})
	p.set("AccA", stem+"й")
	p.set("AccI", stem+"и")
}

func declineJa(p *paradigm, lemma string, _ bool) {
	stem := strings.TrimSuffix(lemma, "я")
	gpl := stem + "ь"
	if strings.HasSuffix(stem, "ь") {
		gpl = strings.TrimSuffix(stem, "ь") + "ий"
	}
	p.plain(stem, map[string][]string{"nom": {"я"}, "gen": {"и"}, "dat": {"е"}, "accA": {"ю"}, "accI": {"ю"}, "ins": {"ей"}, "ins2": {"ею"}, "prep": {"е"},
		"Nom": {"и"}, "Dat": {"ям"}, "Ins": {"ями"}, "Prep": {"ях"}})
	p.set("Gen", gpl)
	p.set("AccA", gpl)
	p.set("AccI", stem+"и")
}

func declineA(p *paradigm, lemma string, _ bool) {
	stem := strings.TrimSuffix(lemma, "а")
	p.plain(stem, map[string][]string{"nom": {"а"}, "gen": {yEnd(stem)}, "dat": {"е"}, "accA": {"у"}, "accI": {"у"},
		"ins": oEnd(stem, "ой", "ей"), "ins2": oEnd(stem, "ою", "ею"), "prep": {"е"},
		"Nom": {yEnd(stem)}, "Gen": {""}, "Dat": {"ам"}, "AccA": {""}, "AccI": {yEnd(stem)}, "Ins": {"ами"}, "Prep": {"ах"}})
}

func declineIj(p *paradigm, lemma string, name bool) {
	stem := strings.TrimSuffix(lemma, "й")
	p.plain(stem, map[string][]string{"nom": {"й"}, "gen": {"я"}, "dat": {"ю"}, "accA": {"я"}, "ins": {"ем"}, "prep": {"и"},
		"Nom": {"и"}, "Gen": {"ев"}, "Dat": {"ям"}, "AccA": {"ев"}, "Ins": {"ями"}, "Prep": {"ях"}})
	p.inanimate(name, lemma, stem+"и")
}

func declineJ(p *paradigm, lemma string, name bool) {
	stem := strings.TrimSuffix(lemma, "й")
	p.plain(stem, map[string][]string{"nom": {"й"}, "gen": {"я"}, "dat": {"ю"}, "accA": {"я"}, "ins": {"ем"}, "prep": {"е"},
		"Nom": {"и"}, "Gen": {"ев"}, "Dat": {"ям"}, "AccA": {"ев"}, "Ins": {"ями"}, "Prep": {"ях"}})
	p.inanimate(name, lemma, stem+"и")
}

func declineSoft(p *paradigm, lemma string, name bool) {
	stem := strings.TrimSuffix(lemma, "ь")
	p.plain(stem, map[string][]string{"nom": {"ь"}, "gen": {"я"}, "dat": {"ю"}, "accA": {"я"}, "ins": {"ем"}, "prep": {"е"},
		"Nom": {"и"}, "Gen": {"ей"}, "Dat": {"ям"}, "AccA": {"ей"}, "Ins": {"ями"}, "Prep": {"ях"}})
	p.inanimate(name, lemma, stem+"и")
}

func declineConsonant(p *paradigm, lemma string, name bool) {
	gpl := "ов"
	switch r := lastRune(lemma); {
	case strings.ContainsRune("жшщч", r):
		gpl = "ей"
	case r == 'ц':
		gpl = "ев"
	}
	p.plain(lemma, map[string][]string{"nom": {""}, "gen": {"а"}, "dat": {"у"}, "accA": {"а"}, "ins": oEnd(lemma, "ом", "ем"), "prep": {"е"},
		"Nom": {yEnd(lemma)}, "Gen": {gpl}, "Dat": {"ам"}, "AccA": {gpl}, "Ins": {"ами"}, "Prep": {"ах"}})
	p.inanimate(name, lemma, lemma+yEnd(lemma))
}

// declineNot: a name ending in a vowel other than а, я is indeclinable
// (Натали, Жюли, Анри): every case is the name itself.
func declineNot(p *paradigm, lemma string, _ bool) {
	for _, s := range []string{"nom", "gen", "dat", "accA", "ins", "prep", "Nom", "Gen", "Dat", "AccA", "Ins", "Prep"} {
		p.set(s, lemma)
	}
}

// slotsOf lists the slots where p has the form w.
func (p *paradigm) slotsOf(w string) map[string]bool {
	out := map[string]bool{}
	for s, fs := range p.forms {
		for _, f := range fs {
			if f == w {
				out[s] = true
			}
		}
	}
	return out
}

// reading is one way to read a typed word: its lemma's paradigm.
type reading struct {
	lemma string
	p     *paradigm
}

// readings are the lemmas w (normalised) can be a form of, with their
// paradigms, where w is in one of the cases want (nil: any): the dictionary's
// lemmas whose type holds w; without them, the lemmas the declension types
// give back (an indeclinable reading only when there is no other).
func (d *Dictionary) readings(w string, name bool, want map[string]bool) []reading {
	var out []reading
	seen := map[string]bool{}
	add := func(l string, indecl bool) {
		if seen[l] {
			return
		}
		p := paradigmOf(l, name)
		if p == nil || !indecl && p.class == "несклон" {
			return
		}
		in := p.slotsOf(w)
		if len(in) == 0 || want != nil && !overlaps(in, want) {
			return
		}
		seen[l] = true
		out = append(out, reading{l, p})
	}
	for _, l := range d.Lemmas(w, name) {
		add(l, true)
	}
	if len(out) > 0 {
		return out
	}
	rs := []rune(w)
	for cut := 0; cut <= 3 && cut < len(rs)-1; cut++ {
		stem := string(rs[:len(rs)-cut])
		for _, e := range []string{"", "а", "я", "ия", "й", "ь", "ий"} {
			add(stem+e, false)
		}
	}
	if len(out) == 0 {
		add(w, true)
	}
	return out
}

// Renamer derives, for each form of an old name or phrase found in the text,
// the same form of the new one.
type Renamer struct {
	d           *Dictionary
	query, with []string // as typed
	qn, wn      []string // normalised
	qr          [][]reading
	wr          [][]reading // the new words' readings in the query's cases
	copyOf      []int       // a new word that is a word of the query: its index
	english     bool
	cache       map[string]derived
	known       map[string]map[string]bool
}

type derived struct {
	s  string
	ok bool
}

// NewRenamer reads query and with (each one word or a phrase, written in the
// same case form) for Derive. d may be nil (no dictionary): then only the
// form typed is derived.
func NewRenamer(d *Dictionary, query, with string) *Renamer {
	r := &Renamer{d: d, query: strings.Fields(query), with: strings.Fields(with), cache: map[string]derived{}, known: map[string]map[string]bool{}}
	for _, w := range r.query {
		r.qn = append(r.qn, norm(trimPunct(w)))
	}
	for _, w := range r.with {
		r.wn = append(r.wn, norm(trimPunct(w)))
	}
	for _, w := range append(append([]string{}, r.qn...), r.wn...) {
		for _, c := range w {
			if c < 0x250 && unicode.IsLetter(c) {
				r.english = true
			}
		}
	}
	var typed map[string]bool // the cases the query is typed in
	for i, w := range r.qn {
		var rs []reading
		if d != nil && !r.english {
			rs = d.readings(w, capitalised(r.query[i]), nil)
		}
		r.qr = append(r.qr, rs)
		if len(rs) > 0 {
			typed = intersect(typed, slotsIn(rs, w))
		}
	}
	for j, w := range r.wn {
		r.copyOf = append(r.copyOf, -1)
		for i, q := range r.qn {
			if q == w {
				r.copyOf[j] = i
			}
		}
		var keep []reading
		if r.copyOf[j] < 0 && d != nil && !r.english && typed != nil {
			keep = d.readings(w, capitalised(r.with[j]), typed)
		}
		r.wr = append(r.wr, keep)
	}
	return r
}

func slotsIn(rs []reading, w string) map[string]bool {
	s := map[string]bool{}
	for _, x := range rs {
		for k := range x.p.slotsOf(w) {
			s[k] = true
		}
	}
	return s
}

func capitalised(w string) bool {
	r := firstLetter(w)
	return r != 0 && unicode.IsUpper(r)
}

func trimPunct(w string) string {
	return strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' })
}

func intersect(a, b map[string]bool) map[string]bool {
	out := map[string]bool{}
	for k := range b {
		if a == nil || a[k] {
			out[k] = true
		}
	}
	return out
}

func overlaps(a, b map[string]bool) bool {
	for k := range a {
		if b[k] {
			return true
		}
	}
	return false
}

// Derive gives the new text for found (one occurrence, as it is in the text),
// in found's case form and with its capitals; ok is false when that form
// cannot be derived with certainty.
func (r *Renamer) Derive(found string) (string, bool) {
	if c, ok := r.cache[found]; ok {
		return c.s, c.ok
	}
	s, ok := r.derive(found)
	r.cache[found] = derived{s, ok}
	return s, ok
}

func (r *Renamer) derive(found string) (string, bool) {
	fw := strings.Fields(found)
	if len(fw) != len(r.query) || len(r.with) == 0 {
		return "", false
	}
	fn := make([]string, len(fw))
	for i, w := range fw {
		fn[i] = norm(trimPunct(w))
	}
	typed := strings.Join(fn, " ") == strings.Join(r.qn, " ")
	if r.english {
		if typed {
			return KeepCase(strings.Join(r.query, " "), found, strings.Join(r.with, " ")), true
		}
		return r.deriveEnglish(fw)
	}
	// The cases the found phrase can be in: those all its words agree on.
	var slots map[string]bool
	for i, w := range fn {
		if len(r.qr[i]) == 0 {
			if w != r.qn[i] {
				return "", false // a word with no known declension, in another form
			}
			continue
		}
		slots = intersect(slots, slotsIn(r.qr[i], w))
		if len(slots) == 0 {
			return "", false
		}
	}
	if slots == nil {
		if typed { // no word of the query declines: the form typed, as typed
			return KeepCase(strings.Join(r.query, " "), found, strings.Join(r.with, " ")), true
		}
		return "", false
	}
	out := make([]string, len(r.with))
	for j := range r.with {
		if i := r.copyOf[j]; i >= 0 {
			out[j] = fw[i] // the same word: as it stands in the text
			continue
		}
		if len(r.wr[j]) == 0 {
			if !typed {
				return "", false
			}
			// A new word of no known declension, where the text has the
			// query's form as typed: the word as typed.
			out[j] = r.spell(j, r.wn[j], fw, found)
			continue
		}
		forms := map[string]bool{}
		for _, x := range r.wr[j] {
			for s := range slots {
				f, ok := r.pick(x, s, r.wn[j])
				if !ok {
					return "", false
				}
				forms[f] = true
			}
		}
		if len(forms) != 1 {
			return "", false
		}
		for f := range forms {
			out[j] = r.spell(j, f, fw, found)
		}
	}
	return strings.Join(out, " "), true
}

// knownForms are the forms the dictionary gives lemma (nil or one: it does
// not know the word).
func (r *Renamer) knownForms(lemma string) map[string]bool {
	if k, ok := r.known[lemma]; ok {
		return k
	}
	k := map[string]bool{}
	for _, f := range r.d.forms(lemma, true, false) {
		k[f] = true
	}
	for _, f := range r.d.forms(lemma, false, false) {
		k[f] = true
	}
	r.known[lemma] = k
	return k
}

// pick is the form of reading x in slot s; a stressed variant (Лапшой beside
// Наташей) only when the dictionary knows that one and not the other. The
// form must be one the dictionary knows for the new word where it knows the
// word; where it does not, the new word must decline as the old one does.
func (r *Renamer) pick(x reading, s, typed string) (string, bool) {
	fs := x.p.forms[s]
	if len(fs) == 0 {
		return "", false
	}
	known := r.knownForms(x.lemma)
	f := fs[0]
	if len(fs) > 1 && !known[fs[0]] && known[fs[1]] {
		f = fs[1]
	}
	if len(known) > 1 && !known[f] && !x.p.regular {
		return "", false
	}
	if len(known) <= 1 && f != typed && !r.sameType(x) {
		return "", false
	}
	return f, true
}

// sameType: a word of the old name is of x's declension type.
func (r *Renamer) sameType(x reading) bool {
	for _, rs := range r.qr {
		for _, q := range rs {
			if q.p.class == x.p.class {
				return true
			}
		}
	}
	return false
}

// spell writes the derived form f of the new word j with the letters' case
// typed (Мария: Марией) and the capitals of the text's word at its place: a
// sentence's capital, all capitals.
func (r *Renamer) spell(j int, f string, fw []string, found string) string {
	rs, orig := []rune(f), []rune(r.with[j])
	tr := []rune(norm(r.with[j]))
	if len(tr) == len(orig) {
		for k := range rs {
			if k < len(tr) && rs[k] == tr[k] {
				rs[k] = orig[k]
			}
		}
	}
	out := string(rs)
	if j < len(fw) {
		return KeepCase(r.query[j], fw[j], out)
	}
	if allCaps(found) && !allCaps(strings.Join(r.query, " ")) {
		return strings.ToUpper(out)
	}
	return out
}

// deriveEnglish: an English name's forms are the name and its endings (the
// possessive 's, the plural s): Natasha's → Natalie's, the Rostovs → the
// Rostoffs. Another ending is not derived.
func (r *Renamer) deriveEnglish(fw []string) (string, bool) {
	n := len(fw)
	for i := 0; i < n-1; i++ {
		if textmatch.Normalize(fw[i]) != textmatch.Normalize(r.query[i]) {
			return "", false
		}
	}
	suf, ok := englishEnding(r.query[n-1], fw[n-1])
	if !ok {
		return "", false
	}
	head := strings.Join(fw[:n-1], " ")
	if head != "" {
		head += " "
	}
	out := strings.Join(r.with, " ") + suf
	return KeepCase(strings.Join(r.query, " "), head+fw[n-1], out), true
}

// englishEnding is what w adds to q (both as written): "", "'s", "’s", "s",
// "es", "s'".
func englishEnding(q, w string) (string, bool) {
	nq := textmatch.Normalize(q)
	for i := range w {
		if i == 0 || textmatch.Normalize(w[:i]) != nq {
			continue
		}
		suf := w[i:]
		switch strings.ToLower(suf) {
		case "'s", "’s", "s", "es", "s'", "s’", "es'", "es’":
			return suf, true
		}
		return "", false
	}
	if textmatch.Normalize(w) == nq {
		return "", true
	}
	return "", false
}

// KeepCase writes with in the capitals of found, as found differs from the
// query as typed: all capitals when found is (and the query is not), a
// capital first letter when found has one and the query does not (a
// sentence's start), a small one when found has a small one and the query a
// capital; else with as typed.
func KeepCase(query, found, with string) string {
	if allCaps(found) && !allCaps(query) {
		return strings.ToUpper(with)
	}
	fq, fu := firstLetter(query), firstLetter(found)
	if fq == 0 || fu == 0 {
		return with
	}
	switch {
	case unicode.IsUpper(fu) && !unicode.IsUpper(fq):
		return setFirst(with, unicode.ToUpper)
	case !unicode.IsUpper(fu) && unicode.IsUpper(fq):
		return setFirst(with, unicode.ToLower)
	}
	return with
}

func allCaps(s string) bool {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			if !unicode.IsUpper(r) {
				return false
			}
			n++
		}
	}
	return n > 1
}

func firstLetter(s string) rune {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return r
		}
	}
	return 0
}

func setFirst(s string, f func(rune) rune) string {
	for i, r := range s {
		if unicode.IsLetter(r) {
			return s[:i] + string(f(r)) + s[i+utf8.RuneLen(r):]
		}
	}
	return s
}
