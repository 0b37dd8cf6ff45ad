package textmatch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func whole(s string) []Segment { return []Segment{{0, len(s)}} }

func TestFindIn(t *testing.T) {
	cases := []struct {
		name, text, query string
		want              string // the matched source bytes; "" = no match
	}{
		{"case", "Then NATASHA came", "natasha", "NATASHA"},
		{"cyrillic case", "вошла НАТАША", "наташа", "НАТАША"},
		{"ё in text", "Пётр сказал", "петр", "Пётр"},
		{"ё in query", "Петр сказал", "Пётр", "Петр"},
		{"accent in text", "said Natásha softly", "Natasha", "Natásha"},
		{"combining acute", "старый за\u0301мок", "замок", "за\u0301мок"},
		{"accent in query", "Natasha", "Natásha", "Natasha"},
		{"й stays", "мой дом", "мои", ""},
		{"и is not й", "мои дом", "мой", ""},
		{"decomposed й", "мои\u0306 дом", "мой", "мои\u0306"},
		{"bold", "**Наташа**, входя", "наташа", "Наташа"},
		{"exclamation", "Наташа!", "наташа", "Наташа"},
		{"quotes", `"Natasha" said`, "natasha", "Natasha"},
		{"whole word", "Аннушка пришла, потом Анна", "Анна", "Анна"},
		{"whole word latin", "Pierreux and Pierre", "pierre", "Pierre"},
		{"no partial", "Natashas", "natasha", ""},
		{"phrase across newline", "Анна\nПавловна вошла", "анна павловна", "Анна\nПавловна"},
		{"phrase across punctuation", "Анна — Павловна", "анна павловна", "Анна — Павловна"},
		{"phrase broken", "Анна Михайловна", "анна павловна", ""},
		{"entity amp", "Tom &amp; Jerry", "tom jerry", "Tom &amp; Jerry"},
		{"entity numeric ё", "П&#1105;тр", "петр", "П&#1105;тр"},
		{"entity hex", "caf&#xE9;", "cafe", "caf&#xE9;"},
		{"link destination skipped", "[Pierre](http://x/natasha)", "natasha", ""},
		{"link text matched", "[Pierre](http://x/natasha)", "pierre", "Pierre"},
		{"html tag skipped", `<span class="natasha">x</span>`, "natasha", ""},
		{"html content matched", `<span class="a">Natasha</span>`, "natasha", "Natasha"},
		{"first of several", "Pierre met Pierre", "pierre", "Pierre"},
		{"digits", "In 1805, July", "1805", "1805"},
		{"mark at end inside range", "за\u0301", "за", "за\u0301"},
		{"underscore boundary", "_Natasha_", "natasha", "Natasha"},
		{"query punctuation", "Ah, well, Prince", "ah well", "Ah, well"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q, err := Compile(c.query)
			if err != nil {
				t.Fatal(err)
			}
			s, e, ok := q.FindIn([]byte(c.text), whole(c.text))
			got := ""
			if ok {
				got = c.text[s:e]
			}
			if got != c.want {
				t.Fatalf("FindIn(%q, %q) = %q, want %q", c.text, c.query, got, c.want)
			}
		})
	}
}

func TestSegments(t *testing.T) {
	src := "> Анна\n> Павловна\n"
	segs := []Segment{{2, 6 + 4}, {len("> Анна\n> "), len(src) - 1}}
	// segs: "Анна" and "Павловна" without the "> " prefixes
	segs[0] = Segment{2, strings.Index(src, "\n")}
	q, _ := Compile("анна павловна")
	s, e, ok := q.FindIn([]byte(src), segs)
	if !ok || src[s:e] != "Анна\n> Павловна" {
		t.Fatalf("across segments: %v %q", ok, src[s:e])
	}
	q, _ = Compile("павловна")
	if s, _, ok := q.FindIn([]byte(src), segs); !ok || s != segs[1].Start {
		t.Fatalf("second segment: %v %d", ok, s)
	}
	q, _ = Compile("gt")
	if _, _, ok := q.FindIn([]byte("> gt"), []Segment{{2, 4}}); !ok {
		t.Fatal("segment content")
	}
}

func TestFindAllIn(t *testing.T) {
	text := "Pierre, pierre; PIERRE and Pierrot"
	q, _ := Compile("pierre")
	var got []string
	q.FindAllIn([]byte(text), whole(text), func(s, e int) bool { got = append(got, text[s:e]); return true })
	if strings.Join(got, "|") != "Pierre|pierre|PIERRE" {
		t.Fatalf("all = %v", got)
	}
	n := 0
	q.FindAllIn([]byte(text), whole(text), func(s, e int) bool { n++; return false })
	if n != 1 {
		t.Fatalf("stop: %d", n)
	}
}

func TestCompile(t *testing.T) {
	for _, bad := range []string{"", "!!!", "  ", "—…"} {
		if _, err := Compile(bad); err == nil || !strings.Contains(err.Error(), "no letters or digits") {
			t.Errorf("Compile(%q) = %v", bad, err)
		}
	}
	q, err := Compile("  Профессор   Звёздочкин! ")
	if err != nil || strings.Join(q.Words(), " ") != "профессор звездочкин" || q.Phrase() != "  Профессор   Звёздочкин! " {
		t.Fatalf("words %v %v", q.Words(), err)
	}
	if got := Normalize("  Pétr  &amp; НАТАША, ёлка!! "); got != "petr наташа елка" {
		t.Fatalf("Normalize = %q", got)
	}
}

func loadBook(tb testing.TB, lang string) []byte {
	p := filepath.Join("..", "..", "..", "shared", "corpus", "books", "war-and-peace."+lang+".md")
	b, err := os.ReadFile(p)
	if err != nil {
		tb.Skipf("CORPUS TIER SKIPPED: %s is absent (%v)", p, err)
	}
	return b
}

func TestBooks(t *testing.T) {
	ru := loadBook(t, "ru")
	q, _ := Compile("Анна Павловна")
	s, e, ok := q.FindIn(ru, whole(string(ru)))
	if !ok || Normalize(string(ru[s:e])) != "анна павловна" {
		t.Fatalf("Анна Павловна: %v %q", ok, ru[s:e])
	}
	q, _ = Compile("звездочкин")
	if _, _, ok := q.FindIn(ru, whole(string(ru))); ok {
		t.Fatal("found an absent name")
	}
	en := loadBook(t, "en")
	q, _ = Compile("anna pavlovna")
	if s, e, ok := q.FindIn(en, whole(string(en))); !ok || Normalize(string(en[s:e])) != "anna pavlovna" {
		t.Fatalf("Anna Pavlovna in English: %v", ok)
	}
}

func benchAbsent(b *testing.B, lang string) {
	src := loadBook(b, lang)
	q, _ := Compile("профессор Звёздочкин")
	segs := whole(string(src))
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, ok := q.FindIn(src, segs); ok {
			b.Fatal("found")
		}
	}
}

func BenchmarkFindAbsentRU(b *testing.B) { benchAbsent(b, "ru") }
func BenchmarkFindAbsentEN(b *testing.B) { benchAbsent(b, "en") }

func FuzzFindIn(f *testing.F) {
	f.Add("Наташа и Пьер", "наташа")
	f.Add("Tom &amp; Jerry [x](y) <b>z</b>", "tom jerry")
	f.Add("за\u0301мок ёлка", "замок")
	f.Fuzz(func(t *testing.T, text, phrase string) {
		q, err := Compile(phrase)
		if err != nil {
			return
		}
		src := []byte(text)
		segs := whole(text)
		q.FindAllIn(src, segs, func(s, e int) bool {
			if s < 0 || e > len(src) || s >= e {
				t.Fatalf("range [%d,%d) outside the text", s, e)
			}
			if got, want := Normalize(text[s:e]), strings.Join(q.Words(), " "); got != want {
				t.Fatalf("matched %q normalises to %q, phrase to %q", text[s:e], got, want)
			}
			return true
		})
	})
}
