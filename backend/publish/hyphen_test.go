package publish

import (
	"os"
	"strings"
	"testing"
)

// hyphenDirsForTest points HyphenDirs at Debian's patterns, or at
// WAYMARK_HYPHEN_DIR (a hyphen-ru/hyphen-en-us unpacked elsewhere); without
// them the test is skipped, in CI it fails (build/setup.sh installs them).
func hyphenDirsForTest(t *testing.T) {
	t.Helper()
	if d := os.Getenv("WAYMARK_HYPHEN_DIR"); d != "" {
		old := HyphenDirs
		HyphenDirs = []string{d}
		t.Cleanup(func() { HyphenDirs = old })
	}
	if HyphenatorFor("ru") == nil || HyphenatorFor("en") == nil || HyphenatorFor("fr") == nil {
		if os.Getenv("CI") != "" {
			t.Fatal("the hyphenation patterns are missing: apt install hyphen-ru hyphen-en-us hyphen-fr")
		}
		t.Skip("SKIPPED: no hyphen-ru / hyphen-en-us / hyphen-fr patterns in /usr/share/hyphen")
	}
}

// TestHyphenate (issue 35 point 4): Russian text was printed justified with
// no hyphen at all (Chromium has no Russian patterns here). Words now carry
// soft hyphens by Debian's patterns, Russian and English, never in
// headings, code or tags.
func TestHyphenate(t *testing.T) {
	hyphenDirsForTest(t)
	ru, en := HyphenatorFor("ru"), HyphenatorFor("en")
	for _, c := range []struct {
		h    *Hyphenator
		word string
		want string
	}{
		{ru, "превосходительство", "пре-вос-хо-ди-тель-ство"},
		{ru, "Петербург", "Пе-тер-бург"},
		{ru, "мир", "мир"},
		{en, "hyphenation", "hy-phen-ation"},
		{en, "Napoleon", "Napoleon"},
		{en, "the", "the"},
	} {
		got := strings.ReplaceAll(c.h.Hyphenate(c.word), "\u00ad", "-")
		if got != c.want {
			t.Errorf("%s: %s, want %s", c.word, got, c.want)
		}
	}
	html := `<h2 id="h1">Превосходительство</h2><p>Его превосходительство &amp; <a href="https://example.org/превосходительство">hyphenation</a> <code>превосходительство</code></p>`
	got := strings.ReplaceAll(string(hyphenateHTML([]byte(html), Hyphenators{Ru: ru, En: en})), "\u00ad", "-")
	want := `<h2 id="h1">Превосходительство</h2><p>Его пре-вос-хо-ди-тель-ство &amp; <a href="https://example.org/превосходительство">hy-phen-ation</a> <code>превосходительство</code></p>`
	if got != want {
		t.Errorf("hyphenateHTML:\n got %s\nwant %s", got, want)
	}
}

// The package carries the patterns in /usr/share/waymark/hyphen and does not
// depend on hyphen-ru (whose Recommends bring LibreOffice Writer): where
// /usr/share/hyphen has no patterns, the next folder's are used.
func TestHyphenPatternsFromTheNextFolder(t *testing.T) {
	hyphenDirsForTest(t)
	carried := t.TempDir()
	for _, name := range []string{"hyph_ru_RU.dic", "hyph_en_US.dic"} {
		var b []byte
		for _, d := range HyphenDirs {
			if got, err := os.ReadFile(d + "/" + name); err == nil {
				b = got
				break
			}
		}
		if b == nil {
			t.Fatalf("no %s to copy", name)
		}
		if err := os.WriteFile(carried+"/"+name, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old := HyphenDirs
	HyphenDirs = []string{t.TempDir(), carried}
	t.Cleanup(func() { HyphenDirs = old })
	ru := HyphenatorFor("ru")
	if ru == nil {
		t.Fatal("the Russian patterns in the second folder were not found")
	}
	if got := ru.Hyphenate("Петербург"); got != "Пе\u00adтер\u00adбург" {
		t.Errorf("Петербург hyphenated %q", got)
	}
	if HyphenatorFor("en") == nil {
		t.Fatal("the English patterns in the second folder were not found")
	}
}

// TestFrenchPassages: War and Peace's French (its salons talk French inside
// the Russian) was broken by the English patterns ("Buon-a-parte",
// "atroc-ités"). A Latin passage whose short words are French is now broken
// by the French ones; English stays English, and a passage ends at a block,
// a sentence's end, a quote, a dash or a Russian word.
func TestFrenchPassages(t *testing.T) {
	hyphenDirsForTest(t)
	for _, c := range []struct{ name, lang, html, want string }{
		{"French inside Russian (the book's first line)", "ru",
			`<p>— Eh bien, mon prince. Gênes et Lucques ne sont plus que des apanages, des поместья, de la famille Buonaparte.</p>`,
			`<p>— Eh bien, mon prince. Gênes et Lucques ne sont plus que des apa-nages, des по-ме-стья, de la fa-mille Buo-na-parte.</p>`},
		{"French in quotes inside English", "en",
			`<p>“Mais non, je vous préviens des atrocités,” said Pierre, whose hyphenation was English.</p>`,
			`<p>“Mais non, je vous pré-viens des atro-ci-tés,” said Pierre, whose hy-phen-ation was Eng-lish.</p>`},
		{"one French letter does not make English French", "en",
			`<p>The café and the atrocities of the war.</p>`,
			`<p>The café and the atroc-i-ties of the war.</p>`},
		{"a paragraph ends a passage", "en",
			`<p>Je ne sais pas, mon ami.</p><p>Hyphenation matters.</p>`,
			`<p>Je ne sais pas, mon ami.</p><p>Hy-phen-ation mat-ters.</p>`},
		{"no evidence: English", "ru",
			`<p>Buonaparte!</p>`,
			`<p>Buon-a-parte!</p>`},
		{"one French word makes French in a Russian book", "ru",
			`<p>— Ecoutez, chère Annette, — сказала она.</p>`,
			`<p>— Ecou-tez, chère An-nette, — ска-за-ла она.</p>`},
		{"not in an English book", "en",
			`<p>Hélène’s hyphenation.</p>`,
			`<p>Hélène’s hy-phen-ation.</p>`},
		{"the same in a Russian book", "ru",
			`<p>Hélène’s hyphenation.</p>`,
			`<p>Hé-lène’s hy-phe-na-tion.</p>`},
	} {
		got := strings.ReplaceAll(string(hyphenateHTML([]byte(c.html), BookHyphenators(c.lang))), "\u00ad", "-")
		if got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}
