package agent

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/kljensen/snowball/english"
	"github.com/kljensen/snowball/russian"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/textmatch"
)

// Task is what a find / collect task asks for, read from its words: the phrase of
// a lexical task (a quoted phrase or plainly a name), or nothing for a task that
// needs understanding, and the constraints the author gave.
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
	// Scope is a chapter or part the search is limited to ("in chapter 3") or
	// starts after ("after chapter 3").
	Scope *SectionRef
	// ScopeAfter: the search starts after the section (else within it).
	ScopeAfter bool
	// CodeAndQuotes: the task speaks of code or quotes, so they are candidates.
	CodeAndQuotes bool
}

// SectionRef names a part of the book: its kind (chapter, part, book) and number.
type SectionRef struct {
	Kind string // "chapter", "part", "book"
	N    int
	Text string // as written
}

// Lexical tells whether the task is a phrase search.
func (t Task) Lexical() bool { return t.Phrase != "" }

var (
	reExclHead = regexp.MustCompile(`(?i)\(?\s*(?:excluding|except(?:\s+for)?|not\s+in|without|ignoring|but\s+not(?:\s+in)?|outside(?:\s+of)?)\s+(?:the\s+|any\s+)?(?:headings?|titles?|headers?)\s*\)?|\(?\s*(?:исключая|кроме|без|не\s+в|не\s+считая|вне)\s+заголов\p{L}*\s*\)?`)
	reOnlyCode = regexp.MustCompile(`(?i)\(?\s*\b(?:in|inside|within)\s+(?:a\s+|the\s+)?code(?:\s+blocks?)?\b\s*\)?|\(?\s*(?:^|\s)(?:в|внутри)\s+(?:блоке\s+|блоках\s+)?код\p{L}*\s*\)?`)
	reOnlyQuot = regexp.MustCompile(`(?i)\(?\s*\b(?:in|inside|within)\s+(?:a\s+|the\s+)?(?:block\s*)?(?:quotes?|quotations?)\b\s*\)?|\(?\s*(?:^|\s)(?:в|внутри)\s+цитат\p{L}*\s*\)?`)
	reExact    = regexp.MustCompile(`(?i)\(?\s*\b(?:exactly|exact(?:\s+form)?|verbatim|as\s+written)\b\s*\)?|\(?\s*(?:^|\s)(?:точно|в\s+точности|дословно|именно\s+так)(?:\s|$)\s*\)?`)
	reScope    = regexp.MustCompile(`(?i)(?:^|\s)(after|from|starting\s+(?:at|from|with)|in|within|inside|после|начиная\s+с|с|в|во)\s+(?:the\s+)?(chapter|part|book|volume|глав\p{L}*|част\p{L}*|том\p{L}*|книг\p{L}*)\s+([\p{L}\p{N}]+)`)
	reScopeRev = regexp.MustCompile(`(?i)(?:^|\s)(after|from|in|within|после|в|во)\s+(?:the\s+)?([\p{L}\p{N}]+)\s+(chapter|part|book|volume|глав\p{L}*|част\p{L}*|том\p{L}*|книг\p{L}*)(?:\s|$)`)
	reArticle  = regexp.MustCompile(`(?i)^(?:the|a|an)\s+`)
	reLead     = regexp.MustCompile(`(?i)^(?:please\s+|пожалуйста,?\s+)?(?:find|show(?:\s+me)?|locate|search\s+for|look\s+for|where\s+is|where's|collect|gather|put|найди|найти|покажи|ищи|где|собери|сложи|помести)?\s*(?:the\s+|me\s+)?(?:very\s+)?(?:first|next|last|earliest|первое|первую|первый|следующее|следующую|последнее|последнюю|самое\s+первое)?\s*(?:all\s+|every\s+|все\s+|всё\s+)?(?:(?:mentions?|occurrences?|appearances?|references?|упоминани\p{L}*|вхождени\p{L}*)[\s,:]+(?:of\s+|to\s+|about\s+|о\s+|об\s+|про\s+)?)?`)
	// Titles and particles that may stand in a name ("профессора Звёздочкина",
	// "Prince Andrew", "Anna von Berg"): compared by their Snowball stems.
	titleStems = func() map[string]bool {
		m := map[string]bool{}
		for _, w := range strings.Fields("professor prince princess count countess general captain colonel major lieutenant doctor mr mrs miss madame mademoiselle monsieur lady lord sir uncle aunt emperor tsar baron baroness field marshal old young little de von van la le du di") {
			m["en:"+english.Stem(w, false)] = true
		}
		for _, w := range strings.Fields("профессор князь княжна княгиня княжич граф графиня генерал капитан полковник майор поручик ротмистр доктор господин госпожа мадам мадемуазель месье мсье дядюшка тетушка дядя тетя барон баронесса император царь фельдмаршал адъютант старый старик молодой маленький фон де ван ля ле дю") {
			m["ru:"+russian.Stem(strings.ReplaceAll(w, "ё", "е"), false)] = true
		}
		return m
	}()
)

// ParseTask reads a task or an author's command.
func ParseTask(desc string) Task {
	var t Task
	desc = strings.TrimSpace(desc)
	qm := quoted.FindStringSubmatchIndex(desc)
	rest := desc
	if qm != nil {
		t.Phrase = strings.TrimSpace(desc[qm[2]:qm[3]])
		rest = desc[:qm[0]] + " " + desc[qm[1]:]
	}
	t.CodeAndQuotes = wantsCodeOrQuotes(desc)
	t.Russian = hasCyrillic(rest)
	if t.Phrase == "" && !hasLatin(rest) && hasCyrillic(desc) {
		t.Russian = true
	}
	cut := func(re *regexp.Regexp) bool {
		if re.MatchString(rest) {
			rest = re.ReplaceAllString(rest, " ")
			return true
		}
		return false
	}
	t.ExcludeHeadings = cut(reExclHead)
	if cut(reOnlyCode) {
		t.Only = "code"
	} else if cut(reOnlyQuot) {
		t.Only = "quote"
	}
	t.Exact = cut(reExact)
	if m := reScope.FindStringSubmatchIndex(rest); m != nil {
		if ref, ok := sectionRef(rest[m[4]:m[5]], rest[m[6]:m[7]]); ok {
			t.Scope = &ref
			t.ScopeAfter = isAfter(rest[m[2]:m[3]])
			rest = rest[:m[0]] + " " + rest[m[1]:]
		}
	} else if m := reScopeRev.FindStringSubmatchIndex(rest); m != nil {
		if ref, ok := sectionRef(rest[m[6]:m[7]], rest[m[4]:m[5]]); ok {
			t.Scope = &ref
			t.ScopeAfter = isAfter(rest[m[2]:m[3]])
			rest = rest[:m[0]] + " " + rest[m[1]:]
		}
	}
	if t.Phrase != "" {
		t.Subject = t.Phrase
		return t
	}
	subj := strings.TrimSpace(reLead.ReplaceAllString(strings.TrimSpace(rest), ""))
	subj = strings.TrimSpace(strings.Trim(subj, ".!?,;:()[] "))
	t.Subject = subj
	if name := reArticle.ReplaceAllString(subj, ""); isName(name) {
		t.Phrase = name
	}
	return t
}

func isAfter(w string) bool {
	switch strings.ToLower(strings.Join(strings.Fields(w), " ")) {
	case "after", "from", "starting at", "starting from", "starting with", "после", "начиная с", "с":
		return true
	}
	return false
}

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

func hasCyrillic(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Cyrillic, r) {
			return true
		}
	}
	return false
}

func hasLatin(s string) bool {
	for _, r := range s {
		if r < 0x250 && unicode.IsLetter(r) {
			return true
		}
	}
	return false
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

// FindSection finds the first heading that names the section: "CHAPTER VI",
// "Глава 6", «Часть первая», "Book One: 1805", «Том 1», or — for chapters — a
// heading that is only the number ("### VI", as in the Russian War and Peace).
// It returns the heading's index and level, or -1.
func FindSection(d *document.Document, ref SectionRef) (int, int) {
	words := map[string][]string{
		"chapter": {"chapter", "глава"}, "part": {"part", "часть"}, "book": {"book", "volume", "том", "книга"},
	}[ref.Kind]
	bare := -1
	for i := 0; i < d.Len(); i++ {
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
					return i, it.Level
				}
			}
		}
		if ref.Kind == "chapter" && bare < 0 && len(ws) == 1 && roman(ws[0]) == ref.N {
			bare = i
		}
	}
	if bare >= 0 {
		return bare, d.Item(bare).Level
	}
	return -1, 0
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

// Place names where item i is, as an author reads it (see
// document.Document.Place).
func Place(d *document.Document, i int) string { return d.Place(i) }

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
// everything after a section. ok is false when the section does not exist.
func (t Task) Range(d *document.Document) (lo, hi int, ok bool) {
	if t.Scope == nil {
		return 0, d.Len(), true
	}
	h, _ := FindSection(d, *t.Scope)
	if h < 0 {
		return 0, 0, false
	}
	end := SectionEnd(d, h)
	if t.ScopeAfter {
		return end, d.Len(), true
	}
	return h, end, true
}

// needsModel is the refusal of a task that needs understanding, in the author's
// language; errors.Is(err, ErrNeedsModel) holds.
type needsModel struct{ msg string }

func (e needsModel) Error() string        { return e.msg }
func (e needsModel) Is(target error) bool { return target == ErrNeedsModel }

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
	case !inRange && t.Scope != nil && t.ScopeAfter:
		return fmt.Sprintf("the task reads only after %s", t.Scope.Text)
	case !inRange && t.Scope != nil:
		return fmt.Sprintf("the task reads only within %s", t.Scope.Text)
	case t.Only == "code":
		return fmt.Sprintf("it is a %s; the task asks for code blocks only", it.Type)
	case t.Only == "quote":
		return fmt.Sprintf("it is a %s; the task asks for quotes only", it.Type)
	case t.ExcludeHeadings && it.Type == document.Heading:
		return "it is a heading, and the task excludes headings"
	}
	return fmt.Sprintf("a %s is not a candidate (headings, paragraphs, list items, table cells and image captions are; code and quotes only when the task asks for them)", it.Type)
}
