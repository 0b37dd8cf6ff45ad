package textmatch

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
	"github.com/kljensen/snowball/russian"
)

// Word forms. With Options.Forms a phrase word also matches its inflected forms:
// in Russian the six cases and both numbers of nouns, names and patronymics
// («Долохов», «Долохова», «Долоховым», «Павловны»), in English plurals and
// verb forms ("Rostov", "Rostovs"). The stems come from the Snowball stemmers
// (github.com/kljensen/snowball: Russian for Cyrillic words, English for Latin
// ones); words of other scripts, numbers and words of one or two letters match
// exactly.
//
// A text word W is a form of a phrase word Q when stem(W) = stem(Q), or when one
// of them is the other's stem (the stemmer cuts «-ов» from «Долохов» but only
// «-а» from «Долохова», so stem(Долохова) = «долохов» = Q). When the phrase word
// is written with a capital (a name), a form that differs from it must start with
// a capital in the text too, so that «Ростов» does not find «ростом» (growth).
//
// The scan looks for the longest common prefix of Q and stem(Q), which every
// accepted form starts with, so the fast byte scan is unchanged; a candidate's
// whole word is then checked as above.

type forms struct {
	full    []string          // the phrase's normalised words
	stem    []string          // their stems ("" = exact only)
	set     []map[string]bool // their forms from the lexicon (nil: by stems)
	prefix  []string          // what the scan looks for: a prefix of every accepted form
	capital []bool            // written with a capital in the phrase
}

// Lexicon gives the inflected forms of a word: given a normalised word (lower
// case, ё as е) and whether it was written with a capital, every form of the
// entries it is a form of, itself included; nil when it knows none.
// backend/wordforms implements it from Hunspell's Russian affix rules.
type Lexicon interface {
	Forms(word string, capital bool) []string
}

func newForms(phrase string, words []string, lex Lexicon) *forms {
	f := &forms{full: words, stem: make([]string, len(words)), set: make([]map[string]bool, len(words)), prefix: make([]string, len(words)), capital: make([]bool, len(words))}
	orig := strings.FieldsFunc(phrase, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.In(r, unicode.Mn, unicode.Me, unicode.Mc) && r != 0xAD
	})
	any := false
	for i, w := range words {
		f.prefix[i] = w
		if len(orig) == len(words) {
			r, _ := utf8.DecodeRuneInString(orig[i])
			f.capital[i] = unicode.IsUpper(r)
		}
		if lex != nil {
			if fs := lex.Forms(w, f.capital[i]); len(fs) > 1 {
				set := map[string]bool{}
				p := w
				for _, x := range fs {
					x = Normalize(x)
					set[x] = true
					p = commonPrefix(p, x)
				}
				if utf8.RuneCountInString(p) >= 2 {
					f.set[i], f.prefix[i] = set, p
					any = true
					continue
				}
			}
		}
		st := stemOf(w)
		if st == "" {
			continue
		}
		p := commonPrefix(w, st)
		if utf8.RuneCountInString(p) < 2 {
			continue
		}
		f.stem[i], f.prefix[i] = st, p
		any = true
	}
	if !any {
		return nil
	}
	return f
}

// stemOf stems a normalised word by its script; "" when it has no stemmer.
func stemOf(w string) string {
	if utf8.RuneCountInString(w) < 3 {
		return ""
	}
	cyr, lat := true, true
	for _, r := range w {
		cyr = cyr && (r >= 0x430 && r <= 0x44F || r == 'ё')
		lat = lat && r >= 'a' && r <= 'z'
	}
	switch {
	case cyr:
		return russian.Stem(w, false)
	case lat:
		return english.Stem(w, false)
	}
	return ""
}

func commonPrefix(a, b string) string {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	for n > 0 && n < len(a) && !utf8.RuneStart(a[n]) {
		n--
	}
	return a[:n]
}

// accept tells whether the text word (normalised runes), whose first character
// is at src[at], is a form of the phrase's word i.
func (f *forms) accept(i int, word []rune, src []byte, at int) bool {
	w := string(word)
	q := f.full[i]
	if w == q {
		return true
	}
	if set := f.set[i]; set != nil {
		if !set[w] {
			return false
		}
		if f.capital[i] {
			r, _ := utf8.DecodeRune(src[at:])
			return unicode.IsUpper(r)
		}
		return true
	}
	sq := f.stem[i]
	if sq == "" {
		return false
	}
	if f.capital[i] {
		r, _ := utf8.DecodeRune(src[at:])
		if !unicode.IsUpper(r) {
			return false
		}
	}
	nq, nw := utf8.RuneCountInString(q), len(word)
	if word[0] < 0x400 { // English
		if f.capital[i] {
			// A name: its plural or possessive only ("Rostovs"; "Pierre's" is
			// "Pierre" and "s" already). Not "Marie" for "Mary".
			return w == q+"s" || w == q+"es"
		}
		return nw >= nq && nw <= nq+3 && stemOf(w) == sq
	}
	// Russian. A word that ends in a hard consonant (Долохов, Денисов, Борис)
	// keeps all of itself in every case, so «Дениса» is not a form of «Денисов»
	// though the stemmer cuts both to «денис»; others lose their last letters
	// (Наташа → Наташей, Андрей → Андрею).
	if last, _ := utf8.DecodeLastRuneInString(q); !strings.ContainsRune("аеёиоуыэюяйь", last) && !strings.HasPrefix(w, q) {
		return false
	}
	if nw > nq+3 {
		return false // case endings add at most three letters
	}
	if w == sq {
		// The phrase is an inflected form and this is the bare stem, as
		// «Долохов» for «Долохова»; not a short word such as «Сон» for «Соня».
		return nw >= 4
	}
	sw := stemOf(w)
	return sw == sq || sw == q
}

// Forms reports whether the query matches inflected forms.
func (q *Query) Forms() bool { return q.forms != nil }
