package textmatch

import (
	"fmt"
	"github.com/waymark/waymark/backend/testenv"
	"html"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// Test texts mark the expected match with ⟦ and ⟧; a text without them expects no
// match. marked returns the text without the markers and the expected range.
func marked(t testing.TB, s string) (text string, start, end int, ok bool) {
	i := strings.Index(s, "⟦")
	if i < 0 {
		return s, 0, 0, false
	}
	s = s[:i] + s[i+len("⟦"):]
	j := strings.Index(s, "⟧")
	if j < 0 {
		t.Fatalf("unbalanced markers in %q", s)
	}
	return s[:j] + s[j+len("⟧"):], i, j, true
}

func whole(s string) []Segment { return []Segment{{0, len(s)}} }

func TestFindIn(t *testing.T) {
	cases := []struct{ name, text, query string }{
		// case
		{"upper text", "Then ⟦NATASHA⟧ came", "natasha"},
		{"upper query", "⟦Natasha⟧ came", "NATASHA"},
		{"cyrillic upper text", "вошла ⟦НАТАША⟧", "наташа"},
		{"cyrillic mixed query", "вошла ⟦наташа⟧", "НаТаШа"},
		{"kelvin sign", "⟦\u212Aate⟧", "kate"},
		{"final sigma", "⟦ΛΌΓΟΣ⟧", "λόγος"},
		// ё and е
		{"ё in text", "⟦Пётр⟧ сказал", "петр"},
		{"ё in query", "⟦Петр⟧ сказал", "Пётр"},
		{"Ё in text", "⟦ЁЛКА⟧", "елка"},
		{"Ё in query", "⟦елка⟧", "Ёлка"},
		{"decomposed ё", "⟦Пе\u0308тр⟧", "петр"},
		// accents and marks
		{"accent in text", "said ⟦Natásha⟧ softly", "Natasha"},
		{"accent in query", "⟦Natasha⟧", "Natásha"},
		{"stress mark in text", "старый ⟦за\u0301мок⟧", "замок"},
		{"stress mark in query", "старый ⟦замок⟧", "за\u0301мок"},
		{"grave stress", "⟦мо\u0300й⟧", "мой"},
		{"precomposed é", "⟦CAFÉ⟧ noir", "cafe"},
		{"mark ends the range", "⟦cafe\u0301⟧ noir", "cafe"},
		{"marks end the range", "⟦за\u0301\u0300⟧, да", "за"},
		{"soft hyphen", "⟦Ната\u00adша⟧", "наташа"},
		// й is not и
		{"й found", "⟦Мой⟧ дом", "МОЙ"},
		{"й is not и", "мой дом", "мои"},
		{"и is not й", "мои дом", "мой"},
		{"Й is not И", "Иод", "йод"},
		{"decomposed й", "⟦мои\u0306⟧ дом", "мой"},
		{"decomposed й is not и", "мои\u0306 дом", "мои"},
		{"decomposed Й", "⟦И\u0306од⟧", "йод"},
		// punctuation is a boundary
		{"bold", "**⟦Наташа⟧**, входя", "наташа"},
		{"exclamation", "⟦Наташа⟧!", "наташа"},
		{"double quotes", `"⟦Natasha⟧" said`, "natasha"},
		{"guillemets", "«⟦Наташа⟧»", "наташа"},
		{"underscores", "_⟦Natasha⟧_", "natasha"},
		{"code span", "`⟦Natasha⟧`", "natasha"},
		{"heading", "## ⟦Natasha⟧", "natasha"},
		{"table", "| ⟦Natasha⟧ |", "natasha"},
		{"strike", "~~⟦Natasha⟧~~", "natasha"},
		{"escapes", `\*⟦Natasha⟧\*`, "natasha"},
		{"apostrophe", "⟦Natasha⟧'s", "natasha"},
		{"nbsp", "Анна\u00a0⟦Павловна⟧", "павловна"},
		// whole words only
		{"not inside a longer word", "Аннушка пришла, потом ⟦Анна⟧", "Анна"},
		{"not a prefix, cyrillic", "Наташины", "наташа"},
		{"not a suffix, cyrillic", "Анна", "нна"},
		{"not a prefix, latin", "Natashas", "natasha"},
		{"not a suffix, latin", "ANatasha", "natasha"},
		{"latin then the word", "Pierreux and ⟦Pierre⟧", "pierre"},
		{"scripts glued", "Natashaнаташа", "natasha"},
		{"digits are word characters", "2Natasha", "natasha"},
		{"digits", "In ⟦1805⟧, July", "1805"},
		{"longer number", "18050", "1805"},
		{"accented letter continues a word", "Natashá", "natash"},
		{"mark does not split a word", "Ната\u0301ша", "ната"},
		// phrases
		{"across a newline", "⟦Анна\nПавловна⟧ вошла", "анна павловна"},
		{"across a dash", "⟦Анна — Павловна⟧", "анна павловна"},
		{"across punctuation runs", "⟦Анна,  …Павловна⟧", "анна павловна"},
		{"across a tag", "⟦Анна<br>Павловна⟧", "анна павловна"},
		{"across an entity space", "⟦Анна&nbsp;Павловна⟧", "анна павловна"},
		{"punctuation in the query", "⟦Ah, well⟧, Prince", "ah... well!"},
		{"different second word", "Анна Михайловна", "анна павловна"},
		{"no boundary between words", "АннаПавловна", "анна павловна"},
		{"second word longer", "Анна Павловная", "анна павловна"},
		{"retry after a false start", "Анна Анна ⟦Анна Павловна⟧", "анна павловна"},
		// entities
		{"entity between words", "⟦Tom &amp; Jerry⟧", "tom jerry"},
		{"decimal ё", "⟦П&#1105;тр⟧", "петр"},
		{"hex ё", "⟦П&#x451;тр⟧", "пётр"},
		{"entity starts the match", "⟦&#1055;ётр⟧", "петр"},
		{"entity ends the match", "⟦caf&#xE9;⟧ au lait", "cafe"},
		{"named entity", "⟦caf&eacute; au⟧ lait", "cafe au"},
		{"entity letter glues words", "&#1040;нна", "нна"},
		{"entity letter starts the word", "⟦&#1040;нна⟧", "анна"},
		{"entity mark", "⟦за&#769;мок⟧", "замок"},
		{"entity dash", "⟦Анна&#x2014;Павловна⟧", "анна павловна"},
		{"entity in glued text", "⟦Tom⟧&amp;Jerry", "tom"},
		{"no semicolon, no entity", "Tom &⟦amp Jerry⟧", "amp jerry"},
		{"unknown entity", "&⟦bogus⟧;", "bogus"},
		{"two-character entity", "⟦&fjlig;ord⟧", "fjord"},
		{"windows-1252 range", "⟦&#138;koda⟧", "skoda"},
		// Markdown constructs that are not prose
		{"link destination skipped", "[Pierre](http://x/natasha)", "natasha"},
		{"link text matched", "[⟦Pierre⟧](http://x/natasha)", "pierre"},
		{"link title skipped", `[a](http://x "Natasha (title")`, "natasha"},
		{"link with parentheses", "[x](http://x/(natasha)/y)", "natasha"},
		{"link in angle brackets", "[x](<natasha here>)", "natasha"},
		{"image alt matched", "![⟦Наташа⟧](img/natasha.png)", "наташа"},
		{"after the link", "[x](natasha) ⟦natasha⟧", "natasha"},
		{"unclosed link is text", "x](⟦natasha⟧", "natasha"},
		{"html attribute skipped", `<span class="natasha">x</span>`, "natasha"},
		{"html content matched", `<span class="a">⟦Natasha⟧</span>`, "natasha"},
		{"closing tag skipped", `</natasha>`, "natasha"},
		{"autolink skipped", `<http://natasha.example>`, "natasha"},
		{"comment skipped", `<!-- natasha -->`, "natasha"},
		{"less-than is text", "a < ⟦natasha⟧ > b", "natasha"},
		{"unclosed tag is text", "<⟦natasha⟧ is here", "natasha"},
		// several occurrences: the first
		{"first of several", "⟦Pierre⟧ met Pierre", "pierre"},
		{"first whole one", "Pierrot, ⟦Pierre⟧, Pierre", "pierre"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text, ws, we, want := marked(t, c.text)
			q, err := Compile(c.query)
			if err != nil {
				t.Fatal(err)
			}
			s, e, ok := q.FindIn([]byte(text), whole(text))
			switch {
			case ok != want:
				got := ""
				if ok {
					got = text[s:e]
				}
				t.Fatalf("FindIn(%q, %q) = %v %q, want %v", text, c.query, ok, got, want)
			case ok && (s != ws || e != we):
				t.Fatalf("FindIn(%q, %q) = [%d,%d) %q, want [%d,%d) %q", text, c.query, s, e, text[s:e], ws, we, text[ws:we])
			}
			checkAgainstReference(t, q, []byte(text), whole(text))
		})
	}
}

func TestSegments(t *testing.T) {
	// Container prefixes are outside the segments: never read, never matched.
	src := "xx Анна\nxx Павловна, xx\n"
	segs := []Segment{{3, strings.Index(src, "\n")}, {strings.LastIndex(src, "xx П") + 3, len(src) - 1}}
	find := func(phrase string) (string, int, bool) {
		q, err := Compile(phrase)
		if err != nil {
			t.Fatal(err)
		}
		checkAgainstReference(t, q, []byte(src), segs)
		s, e, ok := q.FindIn([]byte(src), segs)
		if !ok {
			return "", -1, false
		}
		return src[s:e], s, true
	}
	if got, _, ok := find("анна павловна"); !ok || got != "Анна\nxx Павловна" {
		t.Errorf("across segments: %v %q", ok, got)
	}
	if got, s, ok := find("xx"); !ok || s != strings.LastIndex(src, "xx") {
		t.Errorf("xx: found %v %q at %d; only the last one is inside a segment", ok, got, s)
	}
	if _, _, ok := find("анна xx павловна"); ok {
		t.Error("a prefix between segments was read")
	}
	if _, s, ok := find("павловна"); !ok || s != segs[1].Start {
		t.Errorf("second segment: %v at %d", ok, s)
	}
	// Segments read as joined by a space even when their bytes touch.
	glued := "НаташаПьер"
	gs := []Segment{{0, len("Наташа")}, {len("Наташа"), len(glued)}}
	for _, phrase := range []string{"наташа", "пьер", "наташа пьер"} {
		q, _ := Compile(phrase)
		if _, _, ok := q.FindIn([]byte(glued), gs); !ok {
			t.Errorf("%q not found across a segment join", phrase)
		}
	}
	// Empty segments, segments out of range, no segments.
	q, _ := Compile("natasha")
	odd := "> Natasha"
	for _, segs := range [][]Segment{nil, {{5, 5}}, {{-3, 1000}}, {{100, 200}}, {{2, 2}, {2, 9}, {9, 9}}} {
		s, e, ok := q.FindIn([]byte(odd), segs)
		if ok && odd[s:e] != "Natasha" {
			t.Errorf("segments %v: %q", segs, odd[s:e])
		}
	}
	// A construct does not run on into the next segment.
	src = "[x](a\nnatasha)"
	if s, _, ok := q.FindIn([]byte(src), []Segment{{0, 5}, {6, len(src)}}); !ok || s != 6 {
		t.Errorf("link across segments: %v %d", ok, s)
	}
}

func TestFindAllIn(t *testing.T) {
	text := "Pierre, pierre; PIERRE and Pierrot, <b>pierre</b>"
	q, _ := Compile("pierre")
	var got []string
	q.FindAllIn([]byte(text), whole(text), func(s, e int) bool { got = append(got, fmt.Sprintf("%d %s", s, text[s:e])); return true })
	if want := []string{"0 Pierre", "8 pierre", "16 PIERRE", "39 pierre"}; !slices.Equal(got, want) {
		t.Fatalf("all = %q, want %q", got, want)
	}
	n := 0
	q.FindAllIn([]byte(text), whole(text), func(s, e int) bool { n++; return n < 2 })
	if n != 2 {
		t.Fatalf("fn returned false at the second call, yet it was called %d times", n)
	}
	// Occurrences do not overlap.
	text = "а а а а а"
	q, _ = Compile("а а")
	n = 0
	q.FindAllIn([]byte(text), whole(text), func(s, e int) bool { n++; return true })
	if n != 2 {
		t.Fatalf("%d non-overlapping matches of «а а» in %q, want 2", n, text)
	}
}

func TestCompile(t *testing.T) {
	for _, bad := range []string{"", "!!!", "  ", "—…", "\u0301", "<b></b>", "[](x)"} {
		_, err := Compile(bad)
		want := fmt.Sprintf("search phrase %q has no letters or digits; give at least one word", bad)
		if err == nil || err.Error() != want {
			t.Errorf("Compile(%q) = %v, want %s", bad, err, want)
		}
	}
	q, err := Compile("  Профессор   Звёздочкин! ")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(q.Words(), []string{"профессор", "звездочкин"}) || q.Phrase() != "  Профессор   Звёздочкин! " {
		t.Fatalf("words %q, phrase %q", q.Words(), q.Phrase())
	}
	q.Words()[0] = "x"
	if q.Words()[0] != "профессор" {
		t.Fatal("Words shares its slice")
	}
}

func TestNormalize(t *testing.T) {
	cases := map[string]string{
		"  Pétr  &amp; НАТАША, ёлка!! ":     "petr наташа елка",
		"за\u0301мок, Ёж и йод; И\u0306ОД":  "замок еж и йод йод",
		"**Анна**\n\n— _Павловна_":          "анна павловна",
		"[Pierre](http://x/natasha \"t\")!": "pierre",
		"<span class=\"x\">Natasha</span>":  "natasha",
		"Straße ΣΑΣ \u212A":                 "straße σασ k",
		"Ната\u00adша &#1105;&#x401;":       "наташа ее",
		"1805–1812":                         "1805 1812",
		"":                                  "",
		"!!! …":                             "",
	}
	for in, want := range cases {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestWideLeads proves that wideLeads holds the lead byte of every character of
// three or more bytes that folds to a character below U+0800, so a scan that does
// not stop at other lead bytes misses no form of such a first character.
func TestWideLeads(t *testing.T) {
	if testing.Short() {
		t.Skip("walks all of Unicode")
	}
	for r := rune(0x800); r <= utf8.MaxRune; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		f, k := unpack(foldOf(r))
		if k != kWord || f >= 0x800 {
			continue
		}
		var b [4]byte
		utf8.EncodeRune(b[:], r)
		if !slices.Contains(wideLeads[:], b[0]) {
			t.Errorf("%U folds to %U but its lead byte %#x is not in wideLeads", r, f, b[0])
		}
	}
}

func TestConcurrent(t *testing.T) {
	text := []byte("Война и мир: Пьер, Наташа, Андрей &amp; Ἀνδρέας, 東京 ⟦x⟧")
	var wg sync.WaitGroup
	for _, p := range []string{"пьер", "наташа андрей", "ανδρεας", "東京", "x"} {
		q, err := Compile(p)
		if err != nil {
			t.Fatal(err)
		}
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, _, ok := q.FindIn(text, whole(string(text))); !ok {
					t.Errorf("%q not found", p)
				}
			}()
		}
	}
	wg.Wait()
}

// refWord is a word of the reference reading: its folded text and byte range.
type refWord struct {
	text       []rune
	start, end int
}

// refWords reads the text unit by unit with the general reader, the slow way:
// the reference the fast scan must agree with.
func refWords(src []byte, segs []Segment) []refWord {
	rd := newReader(src, segs, 0, -1)
	var ws []refWord
	in := false
	for {
		r, k, s, e := rd.next()
		switch k {
		case kEOF:
			return ws
		case kBoundary:
			in = false
		case kMark:
			if in {
				ws[len(ws)-1].end = e
			}
		case kWord:
			if !in {
				ws = append(ws, refWord{start: s})
				in = true
			}
			w := &ws[len(ws)-1]
			w.text = append(w.text, r)
			w.end = e
		}
	}
}

// refFindAll finds the non-overlapping occurrences of q's words in ws.
func refFindAll(q *Query, ws []refWord) [][2]int {
	var out [][2]int
	n := len(q.words)
	for i := 0; i+n <= len(ws); {
		ok := true
		for j := range n {
			if string(ws[i+j].text) != q.words[j] {
				ok = false
				break
			}
		}
		if ok && ws[i+n-1].end > ws[i].start {
			out = append(out, [2]int{ws[i].start, ws[i+n-1].end})
			i += n
		} else {
			i++
		}
	}
	return out
}

func findAll(q *Query, src []byte, segs []Segment) [][2]int {
	var out [][2]int
	q.FindAllIn(src, segs, func(s, e int) bool { out = append(out, [2]int{s, e}); return true })
	return out
}

// checkAgainstReference asserts that FindAllIn and FindIn agree with the
// reference reading, and that every match normalises to the phrase.
func checkAgainstReference(t testing.TB, q *Query, src []byte, segs []Segment) {
	t.Helper()
	got, want := findAll(q, src, segs), refFindAll(q, refWords(src, segs))
	if !slices.Equal(got, want) {
		t.Fatalf("%q in %q %v: FindAllIn %v, reference %v", q.Phrase(), src, segs, got, want)
	}
	s, e, ok := q.FindIn(src, segs)
	if ok != (len(want) > 0) || ok && [2]int{s, e} != want[0] {
		t.Fatalf("%q in %q: FindIn [%d,%d) %v, reference %v", q.Phrase(), src, s, e, ok, want)
	}
}

// lineSegments splits text into lines without their "\n" and a leading "> ", the
// way a block quote's segments look.
func lineSegments(text string) []Segment {
	var segs []Segment
	for start := 0; start <= len(text); {
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		s := start
		if strings.HasPrefix(text[s:end], "> ") {
			s += 2
		}
		segs = append(segs, Segment{s, end})
		start = end + 1
	}
	return segs
}

func FuzzFindIn(f *testing.F) {
	for _, s := range [][2]string{
		{"Наташа и Пьер", "наташа"},
		{"Tom &amp; Jerry [x](y) <b>z</b>", "tom jerry"},
		{"за\u0301мок ёлка мои\u0306", "замок елка мой"},
		{"> Анна\n> Павловна\nАнна Павловна", "анна павловна"},
		{"&fjlig;ord caf&#xE9; &#1055;ётр", "fjord"},
		{"Ἀνδρέας K東京 İstanbul", "istanbul"},
		{"a](x\n) b <c\n> d", "a b"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, text, phrase string) {
		q, err := Compile(phrase)
		if err != nil {
			if !strings.Contains(err.Error(), "no letters or digits") {
				t.Fatalf("Compile(%q): %v", phrase, err)
			}
			return
		}
		src := []byte(text)
		for _, segs := range [][]Segment{whole(text), lineSegments(text)} {
			checkAgainstReference(t, q, src, segs)
			for _, m := range findAll(q, src, segs) {
				s, e := m[0], m[1]
				inSeg := func(p int, atEnd bool) bool {
					for _, g := range segs {
						if !atEnd && p >= g.Start && p < g.End || atEnd && p > g.Start && p <= g.End {
							return true
						}
					}
					return false
				}
				if s >= e || !inSeg(s, false) || !inSeg(e, true) {
					t.Fatalf("range [%d,%d) is not inside the segments %v", s, e, segs)
				}
				if got, want := Normalize(text[s:e]), strings.Join(q.Words(), " "); got != want {
					t.Fatalf("matched %q normalises to %q, the phrase to %q", text[s:e], got, want)
				}
			}
		}
	})
}

// TestRandomTexts checks the fast scan against the reference reading on many texts
// built from the pieces that are hard for it: marks, й written two ways, ё,
// entities, constructs, container prefixes, several scripts.
func TestRandomTexts(t *testing.T) {
	pieces := []string{
		" ", " ", " ", "\n", "\n> ", ", ", "—", ";", "&", "#", "(", ")", "[", "]", "](", "<", ">", "<b>", "](x)", "](<a b>)",
		"и", "й", "и\u0306", "И\u0306", "\u0306", "\u0301", "\u00ad", "е", "ё", "Ё", "а", "Анна", "анна", "АННА", "П", "п", "Пьер",
		"e", "é", "e\u0301", "E", "K", "\u212A", "k", "x", "1", "Ἀ", "東",
		"&amp;", "&#1105;", "&#x451;", "&#1080;", "&#774;", "&#769;", "&fjlig;", "&eacute;", "&nbsp;", "&bogus;", "&#1105", "&#x;",
		"\xd0", "\xbf", "\xcc\x86",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	piece := func() string { return pieces[rng.IntN(len(pieces))] }
	for n := 0; n < 20000; n++ {
		var sb strings.Builder
		for range 1 + rng.IntN(30) {
			sb.WriteString(piece())
		}
		text := sb.String()
		// A phrase made of words of the text, or of random pieces.
		var phrase string
		if ws := strings.Fields(Normalize(text)); len(ws) > 0 && rng.IntN(3) > 0 {
			k := rng.IntN(len(ws))
			phrase = strings.Join(ws[k:min(len(ws), k+1+rng.IntN(3))], " ")
		} else {
			phrase = piece() + piece() + piece()
		}
		q, err := Compile(phrase)
		if err != nil {
			continue
		}
		src := []byte(text)
		for _, segs := range [][]Segment{whole(text), lineSegments(text)} {
			checkAgainstReference(t, q, src, segs)
			for _, m := range findAll(q, src, segs) {
				if got, want := Normalize(text[m[0]:m[1]]), strings.Join(q.Words(), " "); got != want {
					t.Fatalf("%q in %q: matched %q normalises to %q", phrase, text, text[m[0]:m[1]], got)
				}
			}
		}
	}
}

// loadBook reads a book of the shared corpus, or skips loudly without it.
func loadBook(tb testing.TB, lang string) []byte {
	tb.Helper()
	p := filepath.Join("..", "..", "..", "shared", "corpus", "books", "war-and-peace."+lang+".md")
	b, err := os.ReadFile(p)
	if err != nil {
		tb.Skipf("CORPUS TESTS SKIPPED: %s is absent (%v); the real-book checks did not run", p, err)
	}
	return b
}

func TestBooks(t *testing.T) {
	testenv.SkipSweepInShortMode(t)
	for _, c := range []struct {
		lang    string
		found   []string // phrase, then what its first match normalises to
		absent  []string
		compare []string // checked against the reference reading on the whole book
	}{
		{"ru",
			[]string{"Анна Павловна", "анна павловна", "АННА, ПАВЛОВНА!", "анна павловна", "Пьер", "пьер", "Gênes", "genes", "ещё", "еще"},
			[]string{"звездочкин", "профессор Звёздочкин", "Анн"},
			[]string{"Анна Павловна", "Наташа", "и", "князь Андрей", "Genes", "за\u0301мок", "Пьер Безухов", "мой"}},
		{"en",
			[]string{"anna pavlovna", "anna pavlovna", "ANNA PÁVLOVNA", "anna pavlovna", "Natasha", "natasha"},
			[]string{"zvezdochkin", "professor Zvezdochkin"},
			[]string{"Anna Pavlovna", "Natasha", "the", "Prince Andrew", "Pierre"}},
	} {
		src := loadBook(t, c.lang)
		segs := whole(string(src))
		for k := 0; k < len(c.found); k += 2 {
			q, _ := Compile(c.found[k])
			s, e, ok := q.FindIn(src, segs)
			if !ok || Normalize(string(src[s:e])) != c.found[k+1] {
				t.Errorf("%s %q: %v %q", c.lang, c.found[k], ok, src[s:min(e, len(src))])
			}
		}
		for _, p := range c.absent {
			q, _ := Compile(p)
			if s, e, ok := q.FindIn(src, segs); ok {
				t.Errorf("%s %q: found %q", c.lang, p, src[s:e])
			}
		}
		ws := refWords(src, segs)
		lines := lineSegments(string(src))
		for _, p := range c.compare {
			q, _ := Compile(p)
			got, want := findAll(q, src, segs), refFindAll(q, ws)
			if !slices.Equal(got, want) {
				t.Errorf("%s %q: %d matches, the reference %d", c.lang, p, len(got), len(want))
			}
			byLine := findAll(q, src, lines)
			t.Logf("%s %q: %d matches in the whole book, %d within lines", c.lang, p, len(got), len(byLine))
			if len(byLine) < len(got) && len(q.words) == 1 {
				t.Errorf("%s %q: one-word phrase found less often in lines", c.lang, p)
			}
		}
	}
	ru := loadBook(t, "ru")
	q, _ := Compile("Анна Павловна")
	s, _, _ := q.FindIn(ru, whole(string(ru)))
	if want := strings.Index(string(ru), "Анна Павловна Шерер"); s != want {
		t.Errorf("first «Анна Павловна» at %d, want %d", s, want)
	}
}

func benchFind(b *testing.B, lang, phrase string) {
	src := loadBook(b, lang)
	q, err := Compile(phrase)
	if err != nil {
		b.Fatal(err)
	}
	segs := whole(string(src))
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, ok := q.FindIn(src, segs); ok {
			b.Fatal("found an absent phrase")
		}
	}
}

// BenchmarkFindAbsentRU scans the whole Russian book for a phrase it lacks.
func BenchmarkFindAbsentRU(b *testing.B) {
	benchFind(b, "ru", "профессор Звёздочкин")
}

// BenchmarkFindAbsentEN scans the whole English book for a phrase it lacks.
func BenchmarkFindAbsentEN(b *testing.B) { benchFind(b, "en", "professor Zvezdochkin") }

// BenchmarkFindAbsentCommonRU starts with the commonest Russian word, so nearly
// every stop of the scan is a word start to verify.
func BenchmarkFindAbsentCommonRU(b *testing.B) { benchFind(b, "ru", "и Звёздочкин") }

// TestWin1252AsHTML: the written-out table reads &#128;–&#159; as
// html.UnescapeString does.
func TestWin1252AsHTML(t *testing.T) {
	for x := 0x80; x <= 0x9F; x++ {
		want := []rune(html.UnescapeString(fmt.Sprintf("&#%d;", x)))[0]
		if win1252[x-0x80] != want {
			t.Errorf("&#%d; is %U here, %U for html", x, win1252[x-0x80], want)
		}
	}
}
