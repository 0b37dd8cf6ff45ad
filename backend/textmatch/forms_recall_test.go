package textmatch_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/testenv"
	"github.com/waymark/waymark/backend/textmatch"
	"github.com/waymark/waymark/backend/wordforms"
)

// caseForms is the independent list the word-form recall is measured
// against: for each name, its case forms written out by hand from Russian
// grammar (singular cases; the plural and the feminine of family names),
// not produced by the code under test.
var caseForms = []struct {
	name  string
	forms string
}{
	{"Андрей", "Андрей Андрея Андрею Андреем Андрее"},
	{"Николай", "Николай Николая Николаю Николаем Николае"},
	{"Наташа", "Наташа Наташи Наташе Наташу Наташей Наташею"},
	{"Пьер", "Пьер Пьера Пьеру Пьером Пьере"},
	{"Соня", "Соня Сони Соне Соню Соней Сонею"},
	{"Марья", "Марья Марьи Марье Марью Марьей Марьею"},
	{"Борис", "Борис Бориса Борису Борисом Борисе"},
	{"Петя", "Петя Пети Пете Петю Петей"},
	{"Анатоль", "Анатоль Анатоля Анатолю Анатолем Анатоле"},
	{"Элен", "Элен"},
	{"Долохов", "Долохов Долохова Долохову Долоховым Долохове Долоховы Долоховых Долоховой"},
	{"Кутузов", "Кутузов Кутузова Кутузову Кутузовым Кутузове"},
	{"Денисов", "Денисов Денисова Денисову Денисовым Денисове"},
	{"Ростов", "Ростов Ростова Ростову Ростовым Ростове Ростовы Ростовых Ростовыми Ростовой Ростовою"},
	{"Безухов", "Безухов Безухова Безухову Безуховым Безухове Безуховы Безуховых Безуховой"},
	{"Болконский", "Болконский Болконского Болконскому Болконским Болконском Болконская Болконской Болконскую Болконские Болконских Болконскими"},
	{"Курагин", "Курагин Курагина Курагину Курагиным Курагине Курагины Курагиных Курагиной"},
	{"Багратион", "Багратион Багратиона Багратиону Багратионом Багратионе"},
	{"Наполеон", "Наполеон Наполеона Наполеону Наполеоном Наполеоне"},
	{"Анна Павловна", "Анна_Павловна Анны_Павловны Анне_Павловне Анну_Павловну Анной_Павловной"},
}

// formWords splits an item's text into words as the matcher reads them
// (letters and digits; accents and ё folded), keeping whether each word
// starts with a capital.
func formWords(s string) []string {
	return strings.Fields(keepCase(s))
}

// keepCase is the text with ё as е, accents dropped (й kept) and every
// non-letter a space; the case is kept.
func keepCase(s string) string {
	s = strings.NewReplacer("й", "\x00", "Й", "\x01", "ё", "е", "Ё", "Е").Replace(s)
	var sb strings.Builder
	for _, r := range norm.NFD.String(s) {
		switch {
		case r == 0:
			sb.WriteRune('й')
		case r == 1:
			sb.WriteRune('Й')
		case unicode.Is(unicode.Mn, r):
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			sb.WriteRune(r)
		default:
			sb.WriteByte(' ')
		}
	}
	return sb.String()
}

// TestWordFormRecall measures, on the Russian book, for each name: the
// paragraphs that hold one of its listed forms (written with a capital, as a
// name is), how many of them Find with word forms returns (recall), and how
// many paragraphs it returns that hold none of them (precision). The docs
// report the figures it logs.
func TestWordFormRecall(t *testing.T) {
	testenv.SkipSweepInShortMode(t)
	p := filepath.Join("..", "..", "..", "shared", "corpus", "books", "war-and-peace.ru.md")
	src, err := os.ReadFile(p)
	if err != nil {
		t.Skipf("CORPUS TIER SKIPPED: %s is absent (%v)", p, err)
	}
	d := document.Parse(src, 1)
	words := make([][]string, d.Len())
	for i := range words {
		if d.Candidate(i, false) {
			words[i] = formWords(d.Text(i))
		}
	}
	var truth, found, missed, extra int
	for _, c := range caseForms {
		want := map[int]bool{}
		seqs := [][]string{}
		for _, f := range strings.Fields(c.forms) {
			seqs = append(seqs, strings.Split(strings.TrimSpace(keepCase(strings.ReplaceAll(f, "_", " "))), " "))
		}
		for i, ws := range words {
			for _, seq := range seqs {
				if holds(ws, seq) {
					want[i] = true
				}
			}
		}
		q, err := textmatch.CompileWith(c.name, textmatch.Options{Forms: true, Lexicon: wordforms.Default()})
		if err != nil {
			t.Fatal(err)
		}
		got := map[int]bool{}
		for _, m := range d.Find(q, document.FindOptions{All: true, After: -1}) {
			got[m.Index] = true
		}
		miss, more := 0, 0
		var example string
		for i := range want {
			if !got[i] {
				miss++
				if example == "" {
					example = document.Snippet(d.Text(i), 100)
				}
			}
		}
		var wrong string
		for i := range got {
			if !want[i] {
				more++
				if wrong == "" {
					wrong = document.Snippet(d.Text(i), 100)
				}
			}
		}
		truth += len(want)
		found += len(want) - miss
		missed += miss
		extra += more
		t.Logf("%-14s %4d paragraphs hold a form; found %4d (missed %3d), %3d found hold none%s%s", c.name, len(want), len(want)-miss, miss, more,
			map[bool]string{true: "; missed e.g. «" + example + "»", false: ""}[example != ""],
			map[bool]string{true: "; extra e.g. «" + wrong + "»", false: ""}[wrong != ""])
	}
	recall := float64(found) / float64(truth)
	precision := float64(found) / float64(found+extra)
	t.Logf("word forms on the Russian book: recall %.2f%% (%d of %d paragraphs), precision %.2f%% (%d found hold no listed form)", 100*recall, found, truth, 100*precision, extra)
	if recall < 0.99 {
		t.Errorf("recall %.2f%% is below 99%%", 100*recall)
	}
	if precision < 0.99 {
		t.Errorf("precision %.2f%% is below 99%%", 100*precision)
	}
}

// holds tells whether the words ws hold the sequence seq, each word equal and
// the first capitalised as in seq.
func holds(ws, seq []string) bool {
	for k := 0; k+len(seq) <= len(ws); k++ {
		ok := true
		for j, w := range seq {
			if ws[k+j] != w {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}
