package author

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The command grammar. An author's command is read as a small sentence of
// word classes, not matched against whole-sentence regular expressions:
//
//	command  = [filler] (verb | which) {constraint | scope | which | frame | object}
//	verb     = find | collect | replace | insert | delete | summarise | count | continue
//	frame    = replace: A (with|by|to|на) B        collect: (into|в набор) NAME
//	           insert:  TEXT (before|after|перед|после) ANCHOR
//	scope    = [in|в] chapter N | N-th chapter | this chapter | the selection |
//	           from here (to the end) | after/from chapter N | everywhere
//	object   = a quoted phrase, or the words left over (a name in any case form)
//
// The words of each class are listed once, in English and Russian, in
// phrase_lexicon.go as token patterns (phrasePattern): a sequence of
// alternatives, each a word, a word prefix ("найд*") or a slot (#num, #kind,
// #q). ParseCommand tokenises the command (quoted phrases stay one token),
// takes out constraints and scopes wherever they stand (Russian word order is
// free), finds the verb, applies the verb's frame, and what is left — less
// the filler words — is the object. The result, an Intent, is what the
// command agent carries out and what the tests compare (Intent.String).

// Intent is what a command asks for.
type Intent struct {
	// Verb is one of the Verb* constants; "" when the command is not understood.
	Verb string
	// Which is first, next, last or all ("" when the command does not say).
	Which string
	// Object is what is sought or changed, as written: a quoted phrase, a name
	// in any case form, or (Semantic) a description that needs understanding.
	Object   string
	Semantic bool
	// With is replace's new text; Set is collect's set name.
	With, Set string
	// Text, Heading, Where and Anchor are insert's: the text (a heading when
	// Heading), before or after, and what it goes next to.
	Text    string
	Heading bool
	Where   string
	Anchor  Scope
	// Scope limits where the command reads or changes.
	Scope Scope
	// Constraints.
	ExcludeHeadings, Exact, Forms bool
	Only                          string // "code" or "quote"
	// Russian: the command is in Russian, so is the answer.
	Russian bool
	// Rename: the verb renames (a name: every word form unless Exact).
	Rename bool
	// Names are the capitalised words of the command (outside its verbs), for
	// the nearest command a refusal offers.
	Names []string
	// Kind is what an undo or redo names ("the replacement": replace,
	// delete, insert); "" for the last change whatever it was.
	Kind string
}

// Verbs.
const (
	VerbFind      = "find"
	VerbCollect   = "collect"
	VerbReplace   = "replace"
	VerbInsert    = "insert"
	VerbDelete    = "delete"
	VerbSummarise = "summarise"
	VerbCount     = "count"
	VerbContinue  = "continue"
	// Undo and redo the book's last edit (whichever door made it).
	VerbUndo = "undo"
	VerbRedo = "redo"
	// GoTo moves to a numbered section ("go to chapter 5").
	VerbGoTo = "goto"
	// Chapters lists the chapters that mention X, with counts.
	VerbChapters = "chapters"
	// Characters lists the people of the book (the character index).
	VerbCharacters = "characters"
	// Spelling lists the misspelt words of a scope, with their places.
	VerbSpelling = "spelling"
)

// Scope kinds.
const (
	ScopeSection   = "in"        // a section: chapter, part or book N
	ScopeAfter     = "after"     // everything after a section
	ScopeFrom      = "from"      // a section and everything after it
	ScopeThis      = "this"      // the section the cursor is in
	ScopeSelection = "selection" // the selected text
	ScopeHere      = "here"      // from the cursor to the end
	ScopeBook      = "book"      // the whole book, said explicitly
	ScopePhrase    = "phrase"    // (an insert's anchor) the first mention of a phrase
)

// Scope is where a command reads or changes: Kind and, for sections, Ref
// (within the section Within when the command names both: "chapter 3 of
// part 2", «в третьей главе второй части»).
type Scope struct {
	Kind   string
	Ref    SectionRef
	Within *SectionRef
	// Phrase is an anchor phrase (Kind ScopePhrase).
	Phrase string
}

// section is "chapter 3" or "chapter 3 of part 2".
func (s Scope) section() string {
	out := fmt.Sprintf("%s %d", s.Ref.Kind, s.Ref.N)
	if s.Within != nil {
		out += fmt.Sprintf(" of %s %d", s.Within.Kind, s.Within.N)
	}
	return out
}

func (s Scope) String() string {
	switch s.Kind {
	case ScopeSection, ScopeAfter, ScopeFrom:
		return s.Kind + " " + s.section()
	case ScopeThis:
		return "in this " + s.Ref.Kind
	case ScopeSelection:
		return "in selection"
	case ScopeHere:
		return "from here"
	case ScopePhrase:
		return strconv.Quote(s.Phrase)
	}
	return ""
}

// String is the intent in a fixed notation, for tests and logs:
// `replace all "Пьер" with "Петр" in chapter 3 forms`.
func (in Intent) String() string {
	if in.Verb == "" {
		return "?"
	}
	parts := append([]string{in.Verb}, in.verbParts()...)
	if in.Verb == VerbGoTo {
		return strings.Join(parts, " ")
	}
	if in.Verb != VerbSummarise && in.Verb != VerbInsert && in.Scope.Kind != "" && in.Scope.Kind != ScopeBook {
		parts = append(parts, in.Scope.String())
	}
	if in.ExcludeHeadings {
		parts = append(parts, "-headings")
	}
	if in.Exact {
		parts = append(parts, "exact")
	}
	if in.Forms {
		parts = append(parts, "forms")
	}
	if in.Only != "" {
		parts = append(parts, in.Only)
	}
	return strings.Join(parts, " ")
}

// verbParts is the notation of what the intent's verb takes.
func (in Intent) verbParts() []string {
	var parts []string
	switch in.Verb {
	case VerbFind, VerbDelete:
		if in.Which != "" {
			parts = append(parts, in.Which)
		}
		parts = append(parts, in.objectParts()...)
	case VerbReplace:
		parts = append(parts, in.Which)
		parts = append(parts, in.objectParts()...)
		parts = append(parts, "with", strconv.Quote(in.With))
	case VerbCollect:
		parts = append(parts, in.objectParts()...)
		parts = append(parts, "into", in.Set)
	case VerbInsert:
		parts = in.insertParts()
	case VerbSummarise:
		parts = append(parts, in.summaryScope())
	case VerbCount, VerbChapters, VerbUndo, VerbRedo:
		if in.Kind != "" {
			parts = append(parts, in.Kind)
		}
		parts = append(parts, in.objectParts()...)
	case VerbGoTo:
		if in.Scope.Kind == ScopeSection {
			parts = append(parts, in.Scope.section())
		}
	}
	return parts
}

// objectParts is the object quoted, ~ before a description; none when
// there is none.
func (in Intent) objectParts() []string {
	if in.Object == "" {
		return nil
	}
	if in.Semantic {
		return []string{"~" + strconv.Quote(in.Object)}
	}
	return []string{strconv.Quote(in.Object)}
}

// insertParts is the notation of an insertion: heading, the text, where
// and its anchor.
func (in Intent) insertParts() []string {
	var parts []string
	if in.Heading {
		parts = append(parts, "heading")
	}
	parts = append(parts, strconv.Quote(in.Text), in.Where)
	if in.Anchor.Kind == ScopeSection {
		parts = append(parts, in.Anchor.section())
	} else if in.Anchor.Kind == ScopeThis {
		parts = append(parts, "this "+in.Anchor.Ref.Kind)
	} else {
		parts = append(parts, in.Anchor.String())
	}
	return parts
}

// summaryScope is the notation of what a summary is of.
func (in Intent) summaryScope() string {
	switch in.Scope.Kind {
	case ScopeSection:
		return in.Scope.section()
	case ScopeThis:
		return "this " + in.Scope.Ref.Kind
	case "", ScopeBook:
		return "book"
	}
	return in.Scope.String()
}

// Understood tells whether the intent can be carried out as it stands: a verb,
// and the object or target the verb needs.
func (in Intent) Understood() bool {
	switch in.Verb {
	case VerbFind:
		return in.Object != "" || in.Which == "next"
	case VerbCollect:
		return in.Object != "" && in.Set != ""
	case VerbCount, VerbDelete:
		return in.Object != ""
	case VerbReplace:
		return in.Object != "" && !in.Semantic && in.With != ""
	case VerbInsert:
		return in.Text != "" && in.Anchor.Kind != ""
	case VerbSummarise:
		return in.Scope.Kind != "" // "summarise each" says not what
	case VerbContinue:
		return true
	case VerbUndo, VerbRedo:
		// Nothing left over: "undo the change in chapter 3", "undo the first
		// change" or "undo the last 3 changes" are not carried out by guess.
		return in.Object == "" && (in.Scope.Kind == "" || in.Scope.Kind == ScopeBook) && (in.Which == "" || in.Which == "last" || in.Which == "next")
	case VerbCharacters, VerbSpelling:
		return in.Object == "" && !in.Semantic
	case VerbChapters:
		return in.Object != "" && !in.Semantic
	case VerbGoTo:
		return in.Scope.Kind == ScopeSection
	}
	return false
}

// tok is one token of a command: a word, a quoted phrase, or a punctuation mark.
type tok struct {
	raw    string // as written (a quote's inside)
	low    string // lower case, ё → е, accents dropped
	quoted bool
	punct  bool
	pos    int
	used   bool
}

// Quotation marks: each opener with the closers it takes.
var quotePairs = map[rune]string{'"': "\"”“", '«': "»", '“': "”\"", '„': "“”\"", '‘': "’'", '\'': "'’", '‹': "›"}

// tokenize splits a command into words, quoted phrases and punctuation marks.
// A single quote opens a phrase only at the start of a word and closes only at
// its end, so "Natasha's" and «д'Артаньян» stay words.
func tokenize(s string) []tok {
	var out []tok
	rs := []rune(s)
	byteAt := make([]int, len(rs)+1)
	for i, b := 0, 0; i < len(rs); i++ {
		byteAt[i] = b
		b += utf8.RuneLen(rs[i])
	}
	byteAt[len(rs)] = len(s)
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case unicode.IsSpace(r):
			i++
		case opensQuote(rs, i):
			j := quoteEnd(rs, i)
			if j >= len(rs) {
				// No closing mark: the mark is punctuation.
				out = append(out, tok{raw: string(r), low: string(r), punct: true, pos: byteAt[i]})
				i++
				continue
			}
			inner := strings.TrimSpace(string(rs[i+1 : j]))
			if inner != "" {
				out = append(out, tok{raw: inner, low: lowWord(inner), quoted: true, pos: byteAt[i]})
			}
			i = j + 1
		case wordRune(r):
			j := commandWordEnd(rs, i)
			w := string(rs[i:j])
			out = append(out, tok{raw: w, low: lowWord(w), pos: byteAt[i]})
			i = j
		default:
			out = append(out, tok{raw: string(r), low: string(r), punct: true, pos: byteAt[i]})
			i++
		}
	}
	return out
}

// wordRune: a letter, a digit or a mark of a word.
func wordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc)
}

// opensQuote: rs[i] is a quotation mark that opens a phrase (a single quote
// only at the start of a word).
func opensQuote(rs []rune, i int) bool {
	r := rs[i]
	return quotePairs[r] != "" && (r != '\'' && r != '‘' || i == 0 || !wordRune(rs[i-1]))
}

// quoteEnd is where the phrase the mark rs[i] opens closes (len(rs): it
// does not). «» nest; a single quote inside a word is an apostrophe.
func quoteEnd(rs []rune, i int) int {
	r := rs[i]
	closers := quotePairs[r]
	depth, j := 0, i+1
	for ; j < len(rs); j++ {
		if rs[j] == r && r == '«' {
			depth++
			continue
		}
		if strings.ContainsRune(closers, rs[j]) {
			if (r == '\'' || r == '‘') && j+1 < len(rs) && wordRune(rs[j+1]) {
				continue // an apostrophe inside a word
			}
			if depth > 0 {
				depth--
				continue
			}
			break
		}
	}
	return j
}

// commandWordEnd is where the word starting at rs[i] ends: apostrophes and
// hyphens inside it are its own.
func commandWordEnd(rs []rune, i int) int {
	j := i
	for j < len(rs) && (wordRune(rs[j]) || (rs[j] == '\'' || rs[j] == '’' || rs[j] == '-') && j+1 < len(rs) && wordRune(rs[j+1]) && j > i) {
		j++
	}
	return j
}

// lowWord is a word as the lexicon compares it: lower case, ё as е, stress
// marks and accents dropped (é → e), й kept.
func lowWord(w string) string {
	var sb strings.Builder
	for _, r := range strings.ToLower(w) {
		switch {
		case r == 'ё':
			r = 'е'
		case r == '’':
			r = '\''
		case unicode.Is(unicode.Mn, r):
			continue
		case r >= 0xC0 && r < 0x250:
			if b, ok := latinBase[r]; ok {
				r = b
			}
		}
		sb.WriteRune(r)
	}
	return sb.String()
}

// latinBase: accented Latin letters an author may type in a command.
var latinBase = map[rune]rune{'à': 'a', 'á': 'a', 'â': 'a', 'ä': 'a', 'è': 'e', 'é': 'e', 'ê': 'e', 'ë': 'e',
	'ì': 'i', 'í': 'i', 'î': 'i', 'ï': 'i', 'ò': 'o', 'ó': 'o', 'ô': 'o', 'ö': 'o', 'ù': 'u', 'ú': 'u', 'û': 'u', 'ü': 'u', 'ý': 'y', 'ç': 'c', 'ñ': 'n'}

// phrasePattern is a sequence of token alternatives, written as a string:
// elements are separated by spaces, alternatives by "|", the words of a
// multi-word alternative by "_"; a trailing "?" makes an element optional,
// a trailing "*" on a word matches every word starting so. Slots: #num (a
// number in digits, Roman numerals or words), #ord (an ordinal word), #kind (a
// section kind: chapter, part, book, глава, часть, том, книга in any case),
// #q (a quoted phrase), #w (any word), #set (a set noun).
type phrasePattern []pelem

type pelem struct {
	alts [][]string
	opt  bool
}

func pat(s string) phrasePattern {
	var p phrasePattern
	for _, f := range strings.Fields(s) {
		e := pelem{}
		if strings.HasSuffix(f, "?") && len(f) > 1 {
			e.opt, f = true, f[:len(f)-1]
		}
		for _, a := range strings.Split(f, "|") {
			e.alts = append(e.alts, strings.Split(a, "_"))
		}
		p = append(p, e)
	}
	return p
}

// match tries the pattern at token i; it returns the end and the tokens the
// slots took, in order.
func (p phrasePattern) match(ts []tok, i int) (int, []int, bool) {
	if len(p) == 0 {
		return i, nil, true
	}
	e := p[0]
	for _, alt := range e.alts {
		j := i
		var caps []int
		ok := true
		for _, w := range alt {
			if j >= len(ts) || ts[j].used {
				ok = false
				break
			}
			slot, good := slotMatch(w, ts[j])
			if !good {
				ok = false
				break
			}
			if slot {
				caps = append(caps, j)
			}
			j++
		}
		if !ok {
			continue
		}
		if end, more, ok := p[1:].match(ts, j); ok {
			return end, append(caps, more...), true
		}
	}
	if e.opt {
		return p[1:].match(ts, i)
	}
	return 0, nil, false
}

// slotMatch tells whether the pattern word w takes token t, and whether w is
// a slot (whose token the match reports).
func slotMatch(w string, t tok) (slot, ok bool) {
	switch w {
	case "#q":
		return true, t.quoted
	case "#w":
		return true, !t.quoted && !t.punct
	case "#num":
		return true, !t.quoted && !t.punct && ParseNumber(t.low) > 0
	case "#ord":
		return true, !t.quoted && !t.punct && ordinalWord(t.low)
	case "#kind":
		return true, !t.quoted && !t.punct && sectionKindOf(t.low) != ""
	case "#set":
		return true, !t.quoted && !t.punct && setNouns[t.low]
	case ",":
		return false, t.punct && (t.low == "," || t.low == ":" || t.low == "—" || t.low == "-")
	}
	if t.quoted || t.punct {
		return false, false
	}
	if strings.HasSuffix(w, "*") {
		return false, strings.HasPrefix(t.low, w[:len(w)-1])
	}
	return false, t.low == w
}

// ordinalWord: "third", «третьей», "3rd", «3-й».
func ordinalWord(w string) bool {
	if n := ParseNumber(w); n > 0 {
		if _, err := strconv.Atoi(w); err == nil {
			return false
		}
		return roman(w) == 0
	}
	return false
}

// rule is a pattern with what it means.
type rule struct {
	p  phrasePattern
	do func(in *Intent, ts []tok, caps []int)
}

// apply finds every match of the rules among the unused tokens, left to
// right, marks its tokens used and calls its action.
func apply(in *Intent, ts []tok, rules []rule) bool {
	any := false
	for i := 0; i < len(ts); i++ {
		for _, r := range rules {
			end, caps, ok := r.p.match(ts, i)
			if !ok || end == i {
				continue
			}
			for k := i; k < end; k++ {
				ts[k].used = true
			}
			r.do(in, ts, caps)
			any = true
			i = end - 1
			break
		}
	}
	return any
}

// ParseCommand reads an author's command in English or Russian.
func ParseCommand(cmd string) Intent {
	if in, ok := parseCommand(cmd, true); ok {
		return in
	}
	in, _ := parseCommand(cmd, false)
	return in
}

// parseCommand reads a command; with nouns, a noun that names what the
// command is about (the chapters, the characters, the typos) decides its
// verb — when the rest agrees (ok false: read it again without them).
func parseCommand(cmd string, nouns bool) (Intent, bool) {
	cmd = strings.TrimSpace(cmd)
	ts := tokenize(cmd)
	// A command typed inside quotes as a whole: read its inside.
	if len(ts) == 1 && ts[0].quoted && strings.ContainsRune(ts[0].raw, ' ') {
		ts = tokenize(ts[0].raw)
	}
	var in Intent
	in.Russian = commandRussian(ts)
	apply(&in, ts, constraintRules)
	apply(&in, ts, placeRules)
	noun := ""
	if nouns {
		apply(&in, ts, nounRules)
		noun, in.Kind = in.Kind, ""
	}
	verbAt := findVerb(&in, ts)
	if in.Verb == VerbUndo || in.Verb == VerbRedo {
		ok := undoCommand(&in, ts, noun)
		return in, ok
	}
	verbFrame(&in, ts, verbAt, noun)
	objectAndWhich(&in, ts)
	in.Names = namesOf(ts)
	if in.Exact {
		in.Forms = false
	}
	if noun != "" {
		ok := nounDecides(&in, noun)
		return in, ok
	}
	if in.Verb == VerbFind && in.Object == "" {
		findToGoTo(&in, ts)
	}
	return in, true
}

// undoCommand reads the rest of an undo or redo: its section, which one and
// the kind of edit it names (false: a noun named what the command is about;
// read it again without).
func undoCommand(in *Intent, ts []tok, noun string) bool {
	if noun != "" {
		return false
	}
	apply(in, ts, sectionRules)
	apply(in, ts, whichRules)
	undoObject(in, ts)
	in.Names = namesOf(ts)
	return true
}

// verbFrame reads what the verb's frame holds (an insertion's text and
// place, a collection's or a replacement's parts), the section and which
// one; a command with no verb that names a mention is a search.
func verbFrame(in *Intent, ts []tok, verbAt int, noun string) {
	if in.Verb == VerbInsert || in.Verb == "put" {
		insertFrame(in, ts, verbAt)
	}
	if in.Verb == "put" {
		in.Verb = VerbCollect
	}
	apply(in, ts, sectionRules)
	apply(in, ts, whichRules)
	switch in.Verb {
	case VerbCollect:
		collectFrame(in, ts)
	case VerbReplace:
		replaceFrame(in, ts)
	case "":
		// No verb: "first mention of X", «следующее упоминание Пьера».
		if in.Which != "" || hasMentionNoun(ts) {
			in.Verb = VerbFind
		} else if noun != "" {
			in.Object = objectOf(in, ts, false) // «в каких главах есть Элен?»
		}
	}
}

// objectAndWhich reads the command's object and, where the command leaves
// it out, which occurrence it means.
func objectAndWhich(in *Intent, ts []tok) {
	if in.Verb == VerbContinue && in.Which == "" && objectOf(in, ts, true) != "" {
		in.Verb, in.Which = VerbFind, "next" // "continue searching for Pierre"
	}
	switch in.Verb {
	case VerbFind, VerbCollect, VerbDelete, VerbCount:
		in.Object = objectOf(in, ts, false)
		defaultWhich(in, ts)
	case VerbReplace:
		in.Object = objectOf(in, ts, false)
		if in.Which == "" {
			in.Which = "all"
		}
	case VerbSummarise:
		if in.Scope.Kind == "" && bookWords[strings.ToLower(objectOf(in, ts, true))] {
			in.Scope = Scope{Kind: ScopeBook} // "summarise the book", «перескажи роман»
		}
	}
	if in.Verb == VerbFind && in.Which == "all" {
		in.Which = "first"
	}
}

// defaultWhich: a search with no which is for the first occurrence; a
// deletion deletes the first, or all when it names items in the plural.
func defaultWhich(in *Intent, ts []tok) {
	if in.Verb == VerbFind && in.Which == "" && (in.Object != "" || in.Scope.Kind == "") {
		in.Which = "first"
	}
	if in.Verb == VerbDelete && in.Which == "" {
		in.Which = "first"
		if pluralItems(ts) {
			in.Which = "all"
		}
	}
}

// nounDecides: the noun decides, when the verb says no more than show or
// list and what is left is what the noun needs: a name for the chapters,
// nothing for the characters or the typos (false: it does not).
func nounDecides(in *Intent, noun string) bool {
	switch {
	case in.Verb != "" && in.Verb != VerbFind && in.Verb != VerbCount && !(in.Verb == VerbReplace && in.With == "" && noun == VerbSpelling):
		return false
	case noun == VerbChapters && (in.Object == "" || in.Semantic):
		return false
	case noun != VerbChapters && !nounFillerOnly(in.Object):
		return false
	}
	if noun != VerbChapters {
		in.Object, in.Semantic = "", false
	}
	in.Verb, in.Which = noun, ""
	return true
}

// findToGoTo: a search for nothing in a section is a move to it.
func findToGoTo(in *Intent, ts []tok) {
	switch {
	case in.Scope.Kind == ScopeSection && in.Which != "next" && in.Which != "last":
		in.Verb, in.Which = VerbGoTo, "" // "go to chapter 5", «перейди к пятой главе»
	case mentionsSection(ts) && in.Scope.Kind != ScopeSection:
		// "go to the next chapter": a move this grammar does not read
		// (GoTo needs the section's number); never taken for "the next
		// mention" of the last search.
		in.Verb, in.Which = VerbGoTo, ""
	}
}

// nounFillerOnly: what is left of a command about the characters or the
// typos says nothing more («кто главные герои», "list the characters",
// "check the spelling").
func nounFillerOnly(obj string) bool {
	for _, w := range strings.Fields(obj) {
		if !nounFillers.match(lowWord(strings.Trim(w, ",.?!:;"))) {
			return false
		}
	}
	return true
}

var nounFillers = newWordSet(`who are is the a of in book novel list show give tell me check correct find fix look for any there
	кто такие такой есть в книге романе перечисли назови покажи дай проверь исправь найди поищи какие все`)

// mentionsSection: a word of the command names a section (chapter, part).
func mentionsSection(ts []tok) bool {
	for _, t := range ts {
		if !t.quoted && !t.punct && sectionKindOf(t.low) != "" {
			return true
		}
	}
	return false
}

// undoObject reads what is left of an undo or redo: the kind of edit it
// names («отмени замену»), and any other word, which it keeps as the object
// (such a command is not carried out by guess).
func undoObject(in *Intent, ts []tok) {
	var rest []string
	for k := range ts {
		t := &ts[k]
		if t.used || t.punct {
			continue
		}
		t.used = true
		if kind := undoKinds[t.low]; kind != "" && !t.quoted {
			in.Kind = kind
			continue
		}
		if !t.quoted && (undoFillers.match(t.low) || articles[t.low]) {
			continue
		}
		rest = append(rest, t.raw)
	}
	in.Object = strings.Join(rest, " ")
}

// commandRussian: the command's own words (quotes aside) are Russian, or it
// has only quoted words and they are Russian.
func commandRussian(ts []tok) bool {
	cyr, lat := 0, 0
	for _, t := range ts {
		if t.quoted || t.punct {
			continue
		}
		for _, r := range t.raw {
			if unicode.Is(unicode.Cyrillic, r) {
				cyr++
			} else if r < 0x250 && unicode.IsLetter(r) {
				lat++
			}
		}
	}
	if cyr == 0 && lat == 0 {
		for _, t := range ts {
			for _, r := range t.raw {
				if unicode.Is(unicode.Cyrillic, r) {
					return true
				}
			}
		}
	}
	return cyr > lat
}

// findVerb finds the command's verb: the first verb phrase, left to right. It
// returns where the verb phrase ends (-1: none).
func findVerb(in *Intent, ts []tok) int {
	for i := 0; i < len(ts); i++ {
		for _, v := range verbRules {
			end, _, ok := v.p.match(ts, i)
			if !ok || end == i {
				continue
			}
			if v.notAfterArticle && i > 0 && articles[ts[i-1].low] {
				continue
			}
			markUsed(ts, i, end)
			in.Verb = v.verb
			in.Rename = v.rename
			// A verb may be said twice («кратко перескажи», "find and show"):
			// take its synonyms right after it too.
			verbSynonyms(ts, v.verb, end)
			if v.verb == VerbFind && findThenCollect(ts, end) {
				in.Verb = VerbCollect
				return end
			}
			if v.verb == "put" {
				// add / put / save: into a set → collect; before/after → insert.
				in.Verb = VerbInsert
				if setFollows(ts, end) {
					in.Verb = "put"
				}
			}
			return end
		}
	}
	return -1
}

// markUsed marks the tokens [from, to) used.
func markUsed(ts []tok, from, to int) {
	for k := from; k < to; k++ {
		ts[k].used = true
	}
}

// verbSynonyms marks used the synonyms of verb that follow it from end on,
// one run of them.
func verbSynonyms(ts []tok, verb string, end int) {
	for j := end; j < len(ts); j++ {
		if j > end && !ts[j-1].used {
			break
		}
		for _, w := range verbRules {
			if w.verb != verb {
				continue
			}
			if e2, _, ok := w.p.match(ts, j); ok && e2 > j {
				markUsed(ts, j, e2)
				j = e2 - 1
				break
			}
		}
	}
}

// findThenCollect: a search goes on to put what it finds into a set ("find
// all mentions of X and put them into a set": a collect); the words that
// say so are marked used.
func findThenCollect(ts []tok, end int) bool {
	for j := end; j < len(ts); j++ {
		for _, w := range verbRules {
			if w.verb != "put" && w.verb != VerbCollect {
				continue
			}
			if e2, _, ok := w.p.match(ts, j); ok && e2 > j && setFollows(ts, e2) {
				markUsed(ts, j, e2)
				return true
			}
		}
	}
	return false
}

// setFollows tells whether a set is named after token i: "into …", "in/to a
// set …", «в набор …», or a preposition before a quoted name.
func setFollows(ts []tok, i int) bool {
	for j := i; j < len(ts); j++ {
		if ts[j].used || ts[j].quoted {
			continue
		}
		if ts[j].low == "into" {
			return true
		}
		if setPrep[ts[j].low] && j+1 < len(ts) {
			k := j + 1
			for k < len(ts)-1 && (articles[ts[k].low] || newWords[ts[k].low]) {
				k++
			}
			if ts[j+1].quoted || setNouns[ts[k].low] {
				return true
			}
		}
	}
	return false
}

var newWords = map[string]bool{"new": true, "новый": true, "новую": true, "новое": true}

// insertFrame reads TEXT (before|after) ANCHOR after an insert verb.
func insertFrame(in *Intent, ts []tok, from int) {
	if from < 0 {
		from = 0
	}
	if in.Scope.Kind == ScopeHere && in.Verb == VerbInsert {
		// "insert X after the cursor", «вставь X после курсора»: the place
		// rules took the anchor already.
		at := len(ts)
		for j := from; j < len(ts); j++ {
			if ts[j].used {
				at = j
				break
			}
		}
		in.Where, in.Anchor, in.Scope = "after", Scope{Kind: ScopeHere}, Scope{}
		insertText(in, ts, from, at)
		return
	}
	// The anchor: the last before/after with something after it.
	at := -1
	for j := len(ts) - 1; j >= from; j-- {
		if !ts[j].used && !ts[j].quoted && insertWhere[ts[j].low] != "" && j+1 < len(ts) {
			at = j
			break
		}
	}
	if at < 0 {
		return // no anchor: "put" is then collect's, and insert is not understood
	}
	if in.Verb == "put" {
		in.Verb = VerbInsert
	}
	in.Where = insertWhere[ts[at].low]
	ts[at].used = true
	// What follows is a section, this chapter, or a phrase.
	rest := ts[at+1:]
	var anchor Intent
	if len(rest) > 0 && rest[0].used && in.Scope.Kind == ScopeThis {
		in.Anchor, in.Scope = in.Scope, Scope{} // "after this chapter": taken by the place rules
	} else if apply(&anchor, rest, sectionRules) || apply(&anchor, rest, placeRules) {
		in.Anchor = anchor.Scope
	} else {
		apply(&Intent{}, rest, anchorFillers)
		var words []string
		for k := range rest {
			if rest[k].used || rest[k].punct && !rest[k].quoted {
				continue
			}
			rest[k].used = true
			if rest[k].quoted {
				words = []string{rest[k].raw}
				break
			}
			words = append(words, rest[k].raw)
		}
		if len(words) > 0 {
			in.Anchor = Scope{Kind: ScopePhrase, Phrase: strings.Join(words, " ")}
		}
	}
	for k := range rest {
		rest[k].used = true
	}
	insertText(in, ts, from, at)
}

// insertText is an insert's text: a quoted phrase, else the words between the
// verb and the anchor.
func insertText(in *Intent, ts []tok, from, at int) {
	apply(in, ts[from:at], insertNouns)
	var words []string
	for k := from; k < at; k++ {
		t := &ts[k]
		if t.used || t.punct {
			continue
		}
		if t.quoted {
			in.Text, t.used = t.raw, true
			return
		}
		if len(words) == 0 && articles[t.low] {
			t.used = true
			continue
		}
		words = append(words, t.raw)
		t.used = true
	}
	in.Text = strings.Join(words, " ")
}

// collectFrame takes "into (a set called) NAME" / «в набор NAME».
func collectFrame(in *Intent, ts []tok) {
	for j := len(ts) - 1; j >= 0; j-- {
		t := ts[j]
		if t.used || t.quoted || !setPrep[t.low] {
			continue
		}
		k, ok := setNameAfter(ts, j)
		if !ok {
			continue
		}
		markUsed(ts, j, k)
		in.Set = strings.TrimRight(strings.Join(takeSetName(ts, k), " "), ".!?")
		return
	}
}

// setNameAfter is where the set's name starts after the preposition ts[j]
// (past articles, "new", a set noun and the words that name it), when it
// names a set.
func setNameAfter(ts []tok, j int) (int, bool) {
	t := ts[j]
	k := j + 1
	for k < len(ts) && !ts[k].used && (articles[ts[k].low] || newWords[ts[k].low]) {
		k++
	}
	noun := k < len(ts) && setNouns[ts[k].low]
	if noun {
		k++
	}
	for k < len(ts) && !ts[k].used && setNamed[ts[k].low] {
		k++
	}
	if k >= len(ts) || ts[k].used {
		return k, false
	}
	if !noun && t.low != "into" && !ts[k].quoted && !(t.low == "to" || t.low == "in") {
		return k, false
	}
	// "to X"/"в X" without a set noun names a set only at the end.
	if !noun && !ts[k].quoted && t.low != "into" && k != lastWord(ts) {
		return k, false
	}
	return k, true
}

// takeSetName marks used and returns the set's name from ts[k]: a quoted
// phrase, or the words up to a punctuation mark.
func takeSetName(ts []tok, k int) []string {
	var name []string
	for ; k < len(ts) && !ts[k].used && !ts[k].punct; k++ {
		ts[k].used = true
		if ts[k].quoted {
			name = []string{ts[k].raw}
			break
		}
		name = append(name, ts[k].raw)
	}
	return name
}

func lastWord(ts []tok) int {
	for k := len(ts) - 1; k >= 0; k-- {
		if !ts[k].punct {
			return k
		}
	}
	return -1
}

// replaceFrame splits the rest at the connector: A (with|by|to|на) B.
func replaceFrame(in *Intent, ts []tok) {
	seen := false
	for j := range ts {
		t := &ts[j]
		if t.used || t.punct {
			continue
		}
		if !seen {
			if !articles[t.low] && !whichWord(t.low) {
				seen = true
			}
			continue
		}
		if t.quoted || !replaceWith[t.low] && t.low != "→" {
			continue
		}
		t.used = true
		var with []string
		for k := j + 1; k < len(ts); k++ {
			u := &ts[k]
			if u.used {
				if len(with) > 0 {
					break
				}
				continue
			}
			if u.punct {
				if len(with) > 0 {
					break
				}
				u.used = true
				continue
			}
			u.used = true
			if u.quoted {
				with = []string{u.raw}
				break
			}
			with = append(with, u.raw)
		}
		in.With = strings.Join(with, " ")
		return
	}
	// "→" is punctuation to the tokenizer.
	for j := range ts {
		if ts[j].punct && (ts[j].raw == "→" || ts[j].raw == ">") && !ts[j].used {
			ts[j].used = true
			for k := j + 1; k < len(ts); k++ {
				if !ts[k].used && !ts[k].punct {
					ts[k].used = true
					in.With = ts[k].raw
					return
				}
			}
		}
	}
}

func whichWord(w string) bool {
	for _, r := range whichRules {
		if end, _, ok := r.p.match([]tok{{low: w}}, 0); ok && end == 1 {
			return true
		}
	}
	return false
}

// hasMentionNoun: "mention", «упоминание», "appearance".
func hasMentionNoun(ts []tok) bool {
	for _, t := range ts {
		if !t.quoted && mentionNouns.match(t.low) {
			return true
		}
	}
	return false
}

// pluralItems: "paragraphs", «абзацы» — the command speaks of several.
func pluralItems(ts []tok) bool {
	for _, t := range ts {
		switch t.low {
		case "paragraphs", "items", "passages", "lines", "абзацы", "пункты", "строки", "места", "фрагменты":
			return true
		}
	}
	return false
}

// objectOf is what is left of the command: a quoted phrase, or the words that
// are not filler. A name (or one word, or exact words) is lexical; anything
// else is a description that needs understanding (Semantic), kept as written
// from its first content word.
func objectOf(in *Intent, ts []tok, peek bool) string {
	unused := make([]bool, len(ts))
	for k := range ts {
		unused[k] = !ts[k].used
	}
	w := objectWordsOf(ts)
	if peek {
		if w.quoted != "" {
			return w.quoted
		}
		return strings.Join(w.content, " ")
	}
	for k := range ts {
		ts[k].used = true
	}
	if w.quoted != "" {
		return w.quoted
	}
	if len(w.content) == 0 {
		return ""
	}
	obj := strings.Join(w.content, " ")
	obj = strings.TrimSuffix(strings.TrimSuffix(obj, "'s"), "’s")
	if in.Exact || !w.gap && isName(obj) && (capitalised(obj) || !describes(ts, unused) && !itemNoun(ts, w.last+1)) {
		return obj
	}
	in.Semantic = true
	return description(ts, unused, w.first, w.last)
}

// objectWords are the words of a command left for its object: the first
// quoted phrase, and the content words (not filler), where they start and
// end, and whether they are one run.
type objectWords struct {
	quoted      string
	first, last int
	content     []string
	gap         bool // the content words are not one run ("Natasha and Pierre")
}

// objectWordsOf reads the words of ts not used yet.
func objectWordsOf(ts []tok) objectWords {
	w := objectWords{first: -1, last: -1}
	for k, t := range ts {
		if t.used || t.punct {
			continue
		}
		if t.quoted {
			if w.quoted == "" {
				w.quoted = t.raw
			}
			continue
		}
		if fillerWord(t.low) {
			continue
		}
		if w.first < 0 {
			w.first = k
		} else if k != w.last+1 {
			w.gap = true
		}
		w.last = k
		w.content = append(w.content, t.raw)
	}
	return w
}

// description is an object that describes: the words as written, from the
// first that is not an article, a mention noun or a word of the command's
// frame, to the last content word.
func description(ts []tok, unused []bool, first, last int) string {
	for first > 0 {
		k := first - 1
		for k >= 0 && ts[k].punct && unused[k] {
			k--
		}
		if k < 0 || !unused[k] || ts[k].quoted || leadSkip.match(ts[k].low) {
			break
		}
		first = k
	}
	var sb strings.Builder
	for k := first; k <= last; k++ {
		if !unused[k] || ts[k].quoted {
			continue
		}
		if ts[k].punct {
			if sb.Len() > 0 && !strings.ContainsAny(ts[k].raw, "()[]") {
				sb.WriteString(ts[k].raw)
			}
			continue
		}
		if sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(ts[k].raw)
	}
	return sb.String()
}

// namesOf lists the capitalised words that are not the command's first word
// and the quoted phrases: what a refusal's nearest command can use.
func namesOf(ts []tok) []string {
	var out []string
	firstWord := true
	for _, t := range ts {
		if t.punct {
			continue
		}
		if t.quoted {
			out = append(out, t.raw)
			firstWord = false
			continue
		}
		r, _ := utf8.DecodeRuneInString(t.raw)
		if !firstWord && unicode.IsUpper(r) && !fillerWord(t.low) {
			out = append(out, t.raw)
		}
		firstWord = false
	}
	return out
}

// sectionKindOf names the section kind of a word ("chapter", «главе») or "".
func sectionKindOf(w string) string {
	return sectionKinds[w]
}

var bookWords = map[string]bool{"book": true, "novel": true, "manuscript": true, "text": true, "story": true, "everything": true,
	"книгу": true, "книга": true, "книги": true, "роман": true, "романа": true, "рукопись": true, "рукописи": true, "текст": true, "все": true, "всё": true}

// capitalised: a word of s starts with a capital letter.
func capitalised(s string) bool {
	for _, w := range strings.Fields(s) {
		r, _ := utf8.DecodeRuneInString(w)
		if unicode.IsUpper(r) {
			return true
		}
	}
	return false
}

// itemNoun: the word at k names items ("paragraphs"): a lower-case word
// before it is an adjective ("empty paragraphs"), not a phrase to find.
func itemNoun(ts []tok, k int) bool {
	if k >= len(ts) || ts[k].quoted || ts[k].punct {
		return false
	}
	switch ts[k].low {
	case "paragraph", "paragraphs", "passage", "passages", "scene", "scenes", "lines", "line", "items", "sentences", "chapters", "headings":
		return true
	}
	return strings.HasPrefix(ts[k].low, "абзац") || strings.HasPrefix(ts[k].low, "строк") || strings.HasPrefix(ts[k].low, "сцен") || strings.HasPrefix(ts[k].low, "предложени") || strings.HasPrefix(ts[k].low, "заголов")
}

// describes tells whether the words left around an object describe a passage
// ("the first scene at the ball"), so that a lone lower-case word is not
// taken for a name.
func describes(ts []tok, unused []bool) bool {
	for k, t := range ts {
		if unused[k] && !t.punct && !t.quoted && descriptive.match(t.low) {
			return true
		}
	}
	return false
}
