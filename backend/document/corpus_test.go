package document

import (
	"encoding/json"
	"github.com/waymark/waymark/backend/testenv"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/waymark/waymark/backend/textmatch"
)

// corpusDir is ../shared/corpus seen from the repository root.
func corpusDir(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("CORPUS TIER SKIPPED: %s is absent (%v); the corpus tier did not run", dir, err)
	}
	return dir
}

type cmExample struct {
	Markdown string `json:"markdown"`
	Example  int    `json:"example"`
	Section  string `json:"section"`
}

func loadCommonMark(t testing.TB) []cmExample {
	b, err := os.ReadFile(filepath.Join(corpusDir(t), "commonmark", "spec.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ex []cmExample
	if err := json.Unmarshal(b, &ex); err != nil {
		t.Fatal(err)
	}
	return ex
}

// TestCommonMarkTier runs every CommonMark example through the model: parse keeps
// the bytes, replacing every item with its own Markdown is the identity, and a real
// replacement changes only the item's bytes (or is refused with nothing changed).
func TestCommonMarkTier(t *testing.T) {
	testenv.SkipSweepInShortMode(t)
	ex := loadCommonMark(t)
	var identical, items, selfOK, edited, refused int
	for _, e := range ex {
		src := []byte(e.Markdown)
		d := Parse(src, 1)
		if string(d.Source()) != e.Markdown {
			t.Fatalf("example %d: parse changed the bytes", e.Example)
		}
		identical++
		consistent(t, d)
		for i := 0; i < d.Len(); i++ {
			items++
			pe, err := d.PlanReplaceText(i, d.Markdown(i))
			if err != nil {
				if d.Item(i).Type != TableCell && strings.TrimSpace(d.Markdown(i)) == "" {
					selfOK++ // an item with blank Markdown (e.g. an empty list item) cannot be "replaced" by nothing
					continue
				}
				t.Errorf("example %d (%s) item %d %s %q: replace with own markdown refused: %v", e.Example, e.Section, i, d.Item(i).Type, d.Markdown(i), err)
				continue
			}
			pe.Apply()
			if string(d.Source()) != e.Markdown {
				t.Errorf("example %d item %d: self-replacement changed the file:\n%q\n%q", e.Example, i, e.Markdown, d.Source())
				d = Parse(src, 1)
				continue
			}
			selfOK++
		}
		consistent(t, d)
		// One real edit per item, each on a fresh copy.
		for i := 0; i < d.Len(); i++ {
			fresh := Parse(src, 1)
			it := *fresh.Item(i)
			pe, err := fresh.PlanReplaceText(i, "Waymark edit")
			if err != nil {
				refused++
				if string(fresh.Source()) != e.Markdown {
					t.Fatalf("example %d: refused edit changed the source", e.Example)
				}
				continue
			}
			pe.Apply()
			out := string(fresh.Source())
			if !strings.HasPrefix(out, e.Markdown[:it.Start]) || !strings.HasSuffix(out, e.Markdown[it.End:]) {
				t.Errorf("example %d item %d: bytes outside the item changed", e.Example, i)
			}
			consistent(t, fresh)
			edited++
		}
	}
	t.Logf("CommonMark tier: %d examples byte-identical after parse; %d items, %d self-replacements identical; %d real edits applied (only the item changed), %d refused with nothing changed",
		identical, items, selfOK, edited, refused)
	if identical != len(ex) || selfOK != items {
		t.Fatalf("CommonMark tier failed: %d/%d identical, %d/%d self-replacements", identical, len(ex), selfOK, items)
	}
}

// oracleNorm is an independent, slow normalisation of plain text for checking
// Find: lower case, ё→е, marks dropped, anything but letters and digits a space.
func oracleNorm(s string) string {
	s = norm.NFD.String(strings.ToLower(s))
	var sb strings.Builder
	sb.WriteByte(' ')
	for _, r := range s {
		switch {
		case r == 'ё':
			sb.WriteRune('е')
		case unicode.Is(unicode.Mn, r) && r != '\u0306':
			// marks: dropped (й keeps its breve U+0306 and is recomposed below)
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\u0306':
			sb.WriteRune(r)
		default:
			sb.WriteByte(' ')
		}
	}
	sb.WriteByte(' ')
	out := norm.NFC.String(sb.String())
	return " " + strings.Join(strings.Fields(out), " ") + " "
}

// oracleFirst finds the first candidate item whose plain text holds the phrase.
func oracleFirst(d *Document, phrase string, codeAndQuotes bool) int {
	q := oracleNorm(phrase)
	for i := 0; i < d.Len(); i++ {
		if d.Candidate(i, codeAndQuotes) && strings.Contains(oracleNorm(d.Text(i)), q) {
			return i
		}
	}
	return -1
}

// TestBooksFind checks Find on both books against the rules of SPEC §2: a table of
// cases built from the books, each checked against an independent oracle.
func TestBooksFind(t *testing.T) {
	testenv.SkipSweepInShortMode(t)
	type tc struct {
		book, phrase string
		code         bool
		wantType     ItemType
		wantText     string // a substring the found item's text must hold ("" = any)
	}
	cases := []tc{
		{"ru", "Анна Павловна", false, Paragraph, "Анна Павловна Шерер"},
		{"ru", "АННА ПАВЛОВНА", false, Paragraph, "Анна Павловна Шерер"},   // case
		{"ru", "анна, павловна!", false, Paragraph, "Анна Павловна Шерер"}, // punctuation in the phrase
		{"ru", "ещё", false, Paragraph, ""},                                // ё in the phrase
		{"ru", "еще", false, Paragraph, ""},                                // е in the phrase
		{"ru", "её", false, Paragraph, ""},
		{"ru", "бретер", false, Paragraph, "бретёр"},           // ё in the text, е asked
		{"ru", "Genes", false, Paragraph, "Eh bien"},           // entity &#234; decoded, accent ignored
		{"ru", "Часть первая", false, Heading, "Часть первая"}, // heading before the paragraphs after it
		{"ru", "Пьер", false, Paragraph, ""},
		{"ru", "Наташа Ростова", false, Paragraph, ""},
		{"ru", "Болконский", false, Paragraph, ""},
		{"ru", "Бородино", false, Paragraph, ""},
		{"ru", "Анн", false, 0, ""}, // whole words only: no "Анна"
		{"en", "Anna Pavlovna", false, Paragraph, "Anna Pávlovna"},
		{"en", "anna pavlovna", false, Paragraph, "Anna Pávlovna"}, // accents in the text
		{"en", "BOOK ONE 1805", false, Heading, "BOOK ONE"},        // CONTENTS code block skipped
		{"en", "BOOK ONE 1805", true, CodeBlock, "BOOK ONE"},       // unless code is asked for
		{"en", "Discretion, the keeping of the secrets", false, ListItem, "Discretion"},
		{"en", "Natasha", false, Paragraph, ""},
		{"en", "Pierre", false, Paragraph, ""},
		{"en", "Borodino", false, Paragraph, ""},
		{"en", "Zvezdochkin", false, 0, ""},
	}
	books := map[string]*Document{}
	for _, lang := range []string{"ru", "en"} {
		src, err := os.ReadFile(filepath.Join(corpusDir(t), "books", "war-and-peace."+lang+".md"))
		if err != nil {
			t.Fatal(err)
		}
		books[lang] = Parse(src, 1)
		counts := map[ItemType]int{}
		for _, it := range books[lang].Items() {
			counts[it.Type]++
		}
		t.Logf("%s book: %d bytes, %d items %v", lang, len(src), books[lang].Len(), counts)
	}
	for _, c := range cases {
		d := books[c.book]
		q, err := textmatch.Compile(c.phrase)
		if err != nil {
			t.Fatal(err)
		}
		ms := d.Find(q, FindOptions{After: -1, IncludeCodeAndQuotes: c.code})
		want := oracleFirst(d, c.phrase, c.code)
		got := -1
		if len(ms) > 0 {
			got = ms[0].Index
		}
		if got != want {
			gt, wt := "", ""
			if got >= 0 {
				gt = Snippet(d.Text(got), 80)
			}
			if want >= 0 {
				wt = Snippet(d.Text(want), 80)
			}
			t.Errorf("%s %q: Find says item %d (%s), the oracle %d (%s)", c.book, c.phrase, got, gt, want, wt)
			continue
		}
		if c.wantType == 0 {
			if got >= 0 {
				t.Errorf("%s %q: found item %d, want none", c.book, c.phrase, got)
			}
			continue
		}
		if got < 0 {
			t.Errorf("%s %q: not found", c.book, c.phrase)
			continue
		}
		it := d.Item(got)
		if it.Type != c.wantType || !strings.Contains(d.Text(got), c.wantText) {
			t.Errorf("%s %q: item %d is %s %q", c.book, c.phrase, got, it.Type, Snippet(d.Text(got), 80))
		}
		m := ms[0]
		if oracleNorm(string(d.Source()[m.Start:m.End])) != oracleNorm(c.phrase) && !strings.Contains(string(d.Source()[m.Start:m.End]), "&#") {
			t.Errorf("%s %q: byte range holds %q", c.book, c.phrase, d.Source()[m.Start:m.End])
		}
	}
	// A match in a nested list sub-item returns the sub-item (a real paragraph of
	// the book, made into a nested list).
	ru := books["ru"]
	q, _ := textmatch.Compile("Анна Павловна")
	first := ru.Find(q, FindOptions{After: -1})[0].Index
	para := ru.Text(first)
	nested := Parse([]byte("- Пролог\n  - "+para+"\n- Конец\n"), 1)
	if ms := nested.Find(q, FindOptions{After: -1}); len(ms) != 1 || ms[0].Index != 1 || nested.Item(1).Level != 2 {
		t.Fatalf("nested list: %+v", ms)
	}
	// "Next mention" continues after a pointer.
	all := ru.Find(q, FindOptions{After: -1, All: true, Limit: 3})
	next := ru.Find(q, FindOptions{After: all[0].Index})
	if len(all) < 2 || next[0].Index != all[1].Index {
		t.Fatalf("next mention: %v %v", all, next)
	}
}
