package wordforms

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/textmatch"
)

// TestForms: the forms of names from the dictionary (first names), from the
// surname rules (-ов, -ин, -ский) and by analogy (names it lacks), asked in
// any case form; and what must not be a form.
func TestForms(t *testing.T) {
	d, err := Russian()
	if err != nil {
		t.Skipf("hunspell-ru is not installed: %v", err)
	}
	for _, c := range []struct {
		word    string
		has     string
		hasNot  string
		capital bool
	}{
		{"андрей", "андрея андрею андреем андрее", "андреевич", true},
		{"николай", "николая николаю николаем николае", "", true},
		{"наташа", "наташи наташе наташу наташей", "наташка", true},
		{"наташей", "наташа наташи", "", true},
		{"пьера", "пьер пьеру пьером пьере", "", true},
		{"соня", "сони соне соню соней", "сон", true},
		{"сони", "соня соней", "сон", true},
		{"долохов", "долохова долохову долоховым долохове долоховы долоховых", "долоховом", true},
		{"денисова", "денисов денисовым", "денис дениса", true},
		{"ростов", "ростова ростовым ростовы", "рост ростом", true},
		{"болконский", "болконского болконская болконской болконские", "", true},
		{"курагин", "курагина курагиным курагины", "", true},
		{"анатоль", "анатоля анатолю анатолем", "", true},
		{"безухов", "безухова безуховым", "безухий", true},
		// A family in the plural: the Бергs, the Мюратs (the dictionary
		// gives these names only in the singular).
		{"берг", "берга берги бергов бергам бергами бергах", "", true},
		{"мюрат", "мюрата мюраты мюратов", "", true},
		{"пьер", "пьера пьеры", "", true},
	} {
		got := d.Forms(c.word, c.capital)
		for _, w := range strings.Fields(c.has) {
			if !slices.Contains(got, w) {
				t.Errorf("%s: %v lacks %s", c.word, got, w)
			}
		}
		for _, w := range strings.Fields(c.hasNot) {
			if slices.Contains(got, w) {
				t.Errorf("%s: %v holds %s", c.word, got, w)
			}
		}
	}
	if f := d.Forms("pierre", true); f != nil {
		t.Errorf("a Latin word: %v", f)
	}
}

// TestMatcherWithForms: the matcher with the lexicon finds every case form of
// a name and keeps «Ростов» apart from «ростом»; English possessives and
// accented spellings match the plain name.
func TestMatcherWithForms(t *testing.T) {
	for _, c := range []struct{ query, text, want string }{
		{"Андрей", "— сказал князь Андрея не видя", "Андрея"},
		{"Андрей", "с князем Андреем", "Андреем"},
		{"Николай", "у Николая", "Николая"},
		{"Ростов", "он был ростом мал", ""},
		{"Ростов", "граф Ростов", "Ростов"},
		{"Ростов", "к Ростовым", "Ростовым"},
		{"Сони", "вошла Соня", "Соня"},
		{"Болконский", "у княжны Болконской", "Болконской"},
		{"Natasha", "Natásha’s eyes", "Natásha"},
		{"Natasha", "Natasha's eyes", "Natasha"},
		{"Bolkonski", "Prince Bolkónski came", "Bolkónski"},
		{"Rostov", "the Rostóvs’ house", "Rostóvs"},
	} {
		q, err := textmatch.CompileWith(c.query, Options(true))
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if s, e, ok := q.FindIn([]byte(c.text), []textmatch.Segment{{Start: 0, End: len(c.text)}}); ok {
			got = c.text[s:e]
		}
		if got != c.want {
			t.Errorf("%q in %q: %q, want %q", c.query, c.text, got, c.want)
		}
	}
}

// BenchmarkFindAllForms: every paragraph with a form of «Андрей» in the
// Russian book, by Hunspell's forms against the Snowball stems, in one run.
func BenchmarkFindAllForms(b *testing.B) {
	src, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "corpus", "books", "war-and-peace.ru.md"))
	if err != nil {
		b.Skipf("corpus absent: %v", err)
	}
	segs := []textmatch.Segment{{Start: 0, End: len(src)}}
	for _, c := range []struct {
		name string
		o    textmatch.Options
	}{{"stems", textmatch.Options{Forms: true}}, {"hunspell", Options(true)}} {
		b.Run(c.name, func(b *testing.B) {
			q, _ := textmatch.CompileWith("Андрей", c.o)
			n := 0
			for b.Loop() {
				n = 0
				q.FindAllIn(src, segs, func(int, int) bool { n++; return true })
			}
			b.ReportMetric(float64(n), "matches")
		})
	}
}

// TestSearchesReadNoDictionaryTheyDoNotNeed: a search with word forms for
// English words (a CLI Find on the English book) does not read the Russian
// dictionary (0.3 s of CPU, most of a CLI call); a Russian word does, once:
// the next process searching for it takes its forms from the forms cache and
// reads no dictionary either. Each step runs in a process of its own (the
// dictionary is read once per process), with a cache folder of the test's.
func TestSearchesReadNoDictionaryTheyDoNotNeed(t *testing.T) {
	if !installed() {
		t.Skip("hunspell-ru is not installed")
	}
	found := func(q *textmatch.Query, text string) bool {
		_, _, ok := q.FindIn([]byte(text), []textmatch.Segment{{Start: 0, End: len(text)}})
		return ok
	}
	search := func(query, text string) {
		q, err := textmatch.CompileWith(query, Options(true))
		if err != nil {
			t.Fatal(err)
		}
		if !found(q, text) {
			t.Fatalf("%q not found in %q", query, text)
		}
		fmt.Printf("dictionary read: %v\n", ruDone.Load())
	}
	switch os.Getenv("WAYMARK_WF_CHILD") {
	case "english":
		search("Natasha Rostova", "Natasha Rostova came in.")
		return
	case "russian":
		search("Наташа", "вошла Наташей")
		return
	}
	cache := t.TempDir()
	run := func(step string) string {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSearchesReadNoDictionaryTheyDoNotNeed$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), "WAYMARK_WF_CHILD="+step, "XDG_CACHE_HOME="+cache, "HOME="+cache)
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS") {
			t.Fatalf("%s: %v\n%s", step, err, out)
		}
		return string(out)
	}
	for _, c := range []struct{ step, read string }{
		{"english", "false"}, {"russian", "true"}, {"russian", "false"}, {"english", "false"},
	} {
		if out := run(c.step); !strings.Contains(out, "dictionary read: "+c.read) {
			t.Errorf("%s search: want dictionary read: %s\n%s", c.step, c.read, out)
		}
	}
}
