package author

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
	"github.com/kljensen/snowball/russian"

	"github.com/waymark/waymark/backend/agent"
	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/textmatch"
)

// Task is what a find / collect task asks for, read from its words by the
// command grammar (ParseCommand): the phrase of a lexical task (a quoted
// phrase or plainly a name), or nothing for a task that needs understanding,
// and the constraints the author gave.
type Task struct {
	// Phrase is what the text must contain; "" for a semantic task.
	Phrase string
	// Subject is what is sought as the author wrote it, constraints removed.
	Subject string
	// Exact asks for the words as given, not their inflected forms.
	Exact bool
	// Russian: the author wrote in Russian (answers are given in Russian).
	Russian bool
	// ExcludeHeadings: headings are not candidates.
	ExcludeHeadings bool
	// Only restricts the candidates to "code" blocks or "quote"s.
	Only string
	// Scope is a section the task reads within, after or from ("in chapter
	// 3", "after chapter 3", «начиная с главы 3»); Kind "" for the whole book.
	Scope Scope
	// CodeAndQuotes: the task speaks of code or quotes, so they are candidates.
	CodeAndQuotes bool
	// Names are the names of a semantic task ("the scene where Natasha
	// sings": Natasha), which the passages it is about must hold; Words are
	// its other content words ("sings"), which make a passage likelier.
	Names, Words []string
}

// SectionRef names a part of the book: its kind (chapter, part, book) and number.
type SectionRef struct {
	Kind string // "chapter", "part", "book"
	N    int
	Text string // as written
}

// Lexical tells whether the task is a phrase search.
func (t Task) Lexical() bool { return t.Phrase != "" }

// Titles and particles that may stand in a name ("профессора Звёздочкина",
// "Prince Andrew", "Anna von Berg"): compared by their Snowball stems.
var titleStems = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields("professor prince princess count countess general captain colonel major lieutenant doctor mr mrs miss madame mademoiselle monsieur lady lord sir uncle aunt emperor tsar baron baroness field marshal old young little de von van la le du di") {
		m["en:"+english.Stem(w, false)] = true
	}
	for _, w := range strings.Fields("профессор князь княжна княгиня княжич граф графиня генерал капитан полковник майор поручик ротмистр доктор господин госпожа мадам мадемуазель месье мсье дядюшка тетушка дядя тетя барон баронесса император царь фельдмаршал адъютант старый старик молодой маленький фон де ван ля ле дю") {
		m["ru:"+russian.Stem(strings.ReplaceAll(w, "ё", "е"), false)] = true
	}
	return m
}()

// ParseTask reads a task or an author's command with the command grammar.
func ParseTask(desc string) Task {
	in := ParseCommand(desc)
	t := Task{Subject: in.Object, Exact: in.Exact, Russian: in.Russian, ExcludeHeadings: in.ExcludeHeadings,
		Only: in.Only, CodeAndQuotes: wantsCodeOrQuotes(desc)}
	if in.Object != "" && !in.Semantic {
		t.Phrase = in.Object
	}
	switch in.Scope.Kind {
	case ScopeSection, ScopeAfter, ScopeFrom:
		t.Scope = in.Scope
	}
	if in.Semantic {
		t.Names, t.Words = namesAndWords(in.Object)
	}
	return t
}

// namesAndWords splits a description into its names (capitalised words, not
// the first) and its other content words.
func namesAndWords(s string) (names, words []string) {
	for k, t := range tokenize(s) {
		if t.punct || t.quoted || fillerWord(t.low) || leadSkip.match(t.low) {
			if t.quoted {
				names = append(names, t.raw)
			}
			continue
		}
		r, _ := utf8.DecodeRuneInString(t.raw)
		if unicode.IsUpper(r) && k > 0 || unicode.IsUpper(r) && isName(t.raw) && !stopWords[t.low] {
			names = append(names, strings.TrimSuffix(strings.TrimSuffix(t.raw, "'s"), "’s"))
		} else if utf8.RuneCountInString(t.low) > 2 && !stopWords[t.low] {
			words = append(words, t.low)
		}
	}
	return names, words
}

// stopWords are the function words a description's content words leave out.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`under over into onto from after before while when then than very what how why who has have had will would should could
		his her its their our your him them they she not but for are was were being been this that with without
		под над при для без после перед когда тогда очень что как почему кто его ее их они она оно не но или это тот эта этот`) {
		m[w] = true
	}
	return m
}()

// isName tells whether a subject is plainly a name or a word to look up: one
// word, or up to four words each written with a capital or a title/particle
// ("профессора Звёздочкина", "Prince Andrew"), ending with a capitalised word.
func isName(s string) bool {
	words := strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == ',' })
	if len(words) == 0 || len(words) > 4 {
		return false
	}
	if _, err := textmatch.Compile(s); err != nil {
		return false
	}
	if len(words) == 1 {
		return true
	}
	capital := func(w string) bool {
		for _, r := range w {
			return unicode.IsUpper(r)
		}
		return false
	}
	if !capital(words[len(words)-1]) {
		return false
	}
	for _, w := range words {
		if capital(w) {
			continue
		}
		n := textmatch.Normalize(w)
		if titleStems["en:"+english.Stem(n, false)] || titleStems["ru:"+russian.Stem(n, false)] {
			continue
		}
		return false
	}
	return true
}

// Section kinds and numbers as authors write them.
var (
	kindWords = map[string]string{"chapter": "chapter", "part": "part", "book": "book", "volume": "book",
		"глав": "chapter", "част": "part", "том": "book", "книг": "book"}
	numbersEN = map[string]int{}
	numbersRU = map[string]int{}
)

func init() {
	for i, w := range strings.Fields("one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty") {
		numbersEN[w] = i + 1
	}
	for i, w := range strings.Fields("first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth") {
		numbersEN[w] = i + 1
	}
	for i, w := range strings.Fields("первая вторая третья четвертая пятая шестая седьмая восьмая девятая десятая одиннадцатая двенадцатая тринадцатая четырнадцатая пятнадцатая шестнадцатая семнадцатая восемнадцатая девятнадцатая двадцатая") {
		numbersRU[russian.Stem(w, false)] = i + 1
	}
	for i, w := range strings.Fields("один два три четыре пять шесть семь восемь девять десять") {
		numbersRU[russian.Stem(w, false)] = i + 1
	}
	numbersRU["треть"] = 3 // «третью», «третьей»: the stemmer keeps the soft sign
}

// sectionRef reads "chapter" + "6" / "VI" / "six" / «шестую».
func sectionRef(kind, num string) (SectionRef, bool) {
	k := ""
	kl := strings.ToLower(kind)
	for pre, v := range kindWords {
		if strings.HasPrefix(kl, pre) {
			k = v
		}
	}
	n := ParseNumber(num)
	if k == "" || n <= 0 {
		return SectionRef{}, false
	}
	return SectionRef{Kind: k, N: n, Text: kind + " " + num}, true
}

// ParseNumber reads a number in digits, Roman numerals or words (English or
// Russian, cardinal or ordinal, any case: «шестую», «шестой»); 0 when it is none.
func ParseNumber(s string) int {
	s = strings.Trim(strings.ToLower(strings.ReplaceAll(s, "ё", "е")), ".,!?;:")
	if n, err := strconv.Atoi(s); err == nil && n > 0 {
		return n
	}
	if n := roman(s); n > 0 {
		return n
	}
	if n := numbersEN[s]; n > 0 {
		return n
	}
	return numbersRU[russian.Stem(s, false)]
}

// roman reads a Roman numeral up to 3999 (lower or upper case); 0 when s is none.
func roman(s string) int {
	val := map[byte]int{'i': 1, 'v': 5, 'x': 10, 'l': 50, 'c': 100, 'd': 500, 'm': 1000}
	if s == "" {
		return 0
	}
	n := 0
	for i := 0; i < len(s); i++ {
		v, ok := val[s[i]]
		if !ok {
			return 0
		}
		if i+1 < len(s) && val[s[i+1]] > v {
			n -= v
		} else {
			n += v
		}
	}
	if toRoman(n) != s {
		return 0 // not canonical ("iiii", "vx"): not a numeral
	}
	return n
}

func toRoman(n int) string {
	var sb strings.Builder
	for _, p := range []struct {
		v int
		s string
	}{{1000, "m"}, {900, "cm"}, {500, "d"}, {400, "cd"}, {100, "c"}, {90, "xc"}, {50, "l"}, {40, "xl"}, {10, "x"}, {9, "ix"}, {5, "v"}, {4, "iv"}, {1, "i"}} {
		for n >= p.v {
			sb.WriteString(p.s)
			n -= p.v
		}
	}
	return sb.String()
}

// findSectionRange finds the first heading among the items [lo, hi) that names the
// section: "CHAPTER VI", "Глава 6", «Часть первая», "Book One: 1805", «Том 1», or —
// for chapters — a heading that is only the number ("### VI", as in the Russian War
// and Peace); -1 when none does. The kind is as given.
func findSectionRange(d *document.Document, ref SectionRef, lo, hi int) int {
	words := map[string][]string{
		"chapter": {"chapter", "глава"}, "part": {"part", "часть"}, "book": {"book", "volume", "том", "книга"},
	}[ref.Kind]
	bare := -1
	for i := lo; i < hi; i++ {
		it := d.Item(i)
		if it.Type != document.Heading {
			continue
		}
		ws := strings.Fields(textmatch.Normalize(d.Text(i)))
		for k, w := range ws {
			for _, kw := range words {
				if w != kw {
					continue
				}
				if k+1 < len(ws) && ParseNumber(ws[k+1]) == ref.N || k > 0 && ParseNumber(ws[k-1]) == ref.N {
					return i
				}
			}
		}
		if ref.Kind == "chapter" && bare < 0 && len(ws) == 1 && roman(ws[0]) == ref.N {
			bare = i
		}
	}
	return bare
}

// SectionEnd is the index after the section that starts at heading i.
func SectionEnd(d *document.Document, i int) int {
	lvl := d.Item(i).Level
	for j := i + 1; j < d.Len(); j++ {
		if it := d.Item(j); it.Type == document.Heading && it.Level <= lvl {
			return j
		}
	}
	return d.Len()
}

// admissible tells whether item i may be the answer under the task's rules:
// the first-mention candidates (SPEC §2), code or quotes only when asked, no
// headings when excluded.
func (t Task) admissible(d *document.Document, i int) bool {
	it := d.Item(i)
	switch t.Only {
	case "code":
		return it.Type == document.CodeBlock
	case "quote":
		return it.Type == document.Quote
	}
	if t.ExcludeHeadings && it.Type == document.Heading {
		return false
	}
	return d.Candidate(i, t.CodeAndQuotes)
}

// Range is the items [lo, hi) the task reads: the whole book, a section, or
// everything after (or from) a section. ok is false when the section does not
// exist.
func (t Task) Range(d *document.Document) (lo, hi int, ok bool) {
	return sectionRange(d, t.Scope)
}

// sectionRange is the items a section scope names; the whole book for any
// other scope.
func sectionRange(d *document.Document, s Scope) (lo, hi int, ok bool) {
	switch s.Kind {
	case ScopeSection, ScopeAfter, ScopeFrom:
	default:
		return 0, d.Len(), true
	}
	h := FindScope(d, s)
	if h < 0 {
		return 0, 0, false
	}
	end := SectionEnd(d, h)
	switch s.Kind {
	case ScopeAfter:
		return end, d.Len(), true
	case ScopeFrom:
		return h, d.Len(), true
	}
	return h, end, true
}

// FindScope finds the heading of a section scope: the section within its
// outer section when the scope names one ("chapter 3 of part 2"). A book with
// no "part" headings reads "part N" as its N-th book ("BOOK ONE: 1805" in the
// English War and Peace), and one with no "book" headings reads "book N" as
// its part N. It returns -1 when no heading names it.
func FindScope(d *document.Document, s Scope) int {
	lo, hi := 0, d.Len()
	if s.Within != nil {
		p := findSectionIn(d, *s.Within, lo, hi)
		if p < 0 {
			return -1
		}
		lo, hi = p, SectionEnd(d, p)
	}
	return findSectionIn(d, s.Ref, lo, hi)
}

func findSectionIn(d *document.Document, ref SectionRef, lo, hi int) int {
	if h := findSectionRange(d, ref, lo, hi); h >= 0 {
		return h
	}
	alt := map[string]string{"part": "book", "book": "part"}[ref.Kind]
	if alt == "" {
		return -1
	}
	other := ref
	other.Kind = alt
	return findSectionRange(d, other, lo, hi)
}

// needsModel is the refusal of a task that needs understanding, in the author's
// language; errors.Is(err, ErrNeedsModel) holds.
type needsModel struct{ msg string }

func (e needsModel) Error() string        { return e.msg }
func (e needsModel) Is(target error) bool { return target == agent.ErrNeedsModel }

// NeedsModelError says that the task needs a model server, in Russian for a
// Russian task.
func NeedsModelError(t Task) error {
	subj := t.Subject
	if subj == "" {
		subj = "…"
	}
	if t.Russian {
		return needsModel{fmt.Sprintf("нужен сервер модели: «%s» — не имя и не фраза в кавычках, и чтобы это найти, текст надо понимать. Укажите сервер модели (Настройки или WAYMARK_MODEL_URL) или возьмите точные слова в кавычки, например: найди первое упоминание «Долохов»", subj)}
	}
	return needsModel{fmt.Sprintf("needs a model server: %q is not a name or a quoted phrase, so finding it takes understanding. Set a model server (Settings, or WAYMARK_MODEL_URL), or put the exact words in quotes, e.g. find the first mention of \"Dolokhov\"", subj)}
}

// rules says why item i is not an answer to the task, for the model.
func (t Task) rules(d *document.Document, i int, inRange bool) string {
	it := d.Item(i)
	switch {
	case !inRange && t.Scope.Kind == ScopeAfter:
		return fmt.Sprintf("the task reads only after %s", t.Scope.section())
	case !inRange && t.Scope.Kind == ScopeFrom:
		return fmt.Sprintf("the task reads only from %s on", t.Scope.section())
	case !inRange && t.Scope.Kind != "":
		return fmt.Sprintf("the task reads only within %s", t.Scope.section())
	case t.Only == "code":
		return fmt.Sprintf("it is a %s; the task asks for code blocks only", it.Type)
	case t.Only == "quote":
		return fmt.Sprintf("it is a %s; the task asks for quotes only", it.Type)
	case t.ExcludeHeadings && it.Type == document.Heading:
		return "it is a heading, and the task excludes headings"
	}
	return fmt.Sprintf("a %s is not a candidate (headings, paragraphs, list items, table cells and image captions are; code and quotes only when the task asks for them)", it.Type)
}
