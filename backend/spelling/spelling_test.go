package spelling

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func checker(t *testing.T) *Checker {
	t.Helper()
	c, err := New(Dir, Languages)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Languages(); !reflect.DeepEqual(got, Languages) {
		t.Fatalf("loaded %v, want both %v (Debian hunspell-ru, hunspell-en-us)", got, Languages)
	}
	t.Cleanup(c.Close)
	return c
}

func TestCorrect(t *testing.T) {
	c := checker(t)
	for _, tc := range []struct {
		word string
		ok   bool
	}{
		{"мир", true}, {"войны", true}, {"Наташа", true}, {"прыжок", true},
		{"world", true}, {"don't", true}, {"Pierre", true},
		{"каррова", false}, {"здраствуйте", false}, {"wrld", false}, {"teh", false},
	} {
		got, err := c.correct(tc.word)
		if err != nil || got != tc.ok {
			t.Errorf("Correct(%q) = %v, %v; want %v", tc.word, got, err, tc.ok)
		}
	}
}

func TestMisspelt(t *testing.T) {
	c := checker(t)
	for _, tc := range []struct {
		name, text string
		limit      int
		want       []Word
	}{
		{"clean prose in both languages", "# Глава 1\n\nНаташа вошла в комнату. The room was quiet.", 0, nil},
		{"a Russian and an English slip, counted",
			"Наташа вашла в комнату. Pierre sayd nothing; Наташа вашла.", 0,
			[]Word{{"вашла", 13, 23, 2}, {"sayd", 50, 54, 1}}},
		{"entities, link targets and words with digits are skipped",
			"G&#234;nes [see](http://exampl.invalid/qwxz) abc123 x", 0, nil},
		{"the limit keeps the first ones", "qwx zzq vvq", 2, []Word{{"qwx", 0, 3, 1}, {"zzq", 4, 7, 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := c.Misspelt(tc.text, tc.limit)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("Misspelt = %+v, want %+v", got, tc.want)
			}
			for _, w := range got {
				if tc.text[w.From:w.To] != w.Word {
					t.Fatalf("%q at %d..%d is %q", w.Word, w.From, w.To, tc.text[w.From:w.To])
				}
			}
		})
	}
}

// TestEvery: each place of each unknown word, in order, for the lines the
// window underlines.
func TestEvery(t *testing.T) {
	c := checker(t)
	for _, tc := range []struct {
		name, text string
		limit      int
		want       []Word
	}{
		{"clean prose", "Наташа вошла. The room was quiet.", 0, nil},
		{"every place, both languages",
			"Наташа вашла. Pierre sayd; вашла.", 0,
			[]Word{{"вашла", 13, 23, 1}, {"sayd", 32, 36, 1}, {"вашла", 38, 48, 1}}},
		{"the limit", "qwx zzq vvq", 2, []Word{{"qwx", 0, 3, 1}, {"zzq", 4, 7, 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := c.Every(tc.text, tc.limit)
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("Every = %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}

// TestBook checks the start of the real Russian War and Peace: most of its
// words are known.
func TestBook(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "corpus", "books", "war-and-peace.ru.md"))
	if err != nil {
		t.Skipf("the corpus is not beside the repository: %v", err)
	}
	c := checker(t)
	text := string(src[:min(len(src), 400_000)])
	words := 0
	eachWord(text, func(string, int) bool { words++; return true })
	bad, err := c.Misspelt(text, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, w := range bad {
		n += w.Count
	}
	t.Logf("%d words, %d unknown (%d distinct); first: %v", words, n, len(bad), bad[:min(5, len(bad))])
	// The opening chapters are full of French, which no dictionary here knows.
	if words < 20_000 || n*100 > words*12 {
		t.Fatalf("%d of %d words unknown: more than 12%%", n, words)
	}
}

func TestNoDictionary(t *testing.T) {
	_, err := New(t.TempDir(), Languages)
	if err == nil || !strings.Contains(err.Error(), "hunspell-ru") {
		t.Fatalf("New on an empty folder: %v", err)
	}
}
