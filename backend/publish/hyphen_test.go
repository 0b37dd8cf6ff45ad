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
	if HyphenatorFor("ru") == nil || HyphenatorFor("en") == nil {
		if os.Getenv("CI") != "" {
			t.Fatal("the hyphenation patterns are missing: apt install hyphen-ru hyphen-en-us")
		}
		t.Skip("SKIPPED: no hyphen-ru / hyphen-en-us patterns in /usr/share/hyphen")
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
	got := strings.ReplaceAll(string(hyphenateHTML([]byte(html), ru, en)), "\u00ad", "-")
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
