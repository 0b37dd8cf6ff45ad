package publish

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFrontMatter(t *testing.T) {
	for _, c := range []struct {
		name, src, title, author, body string
	}{
		{"none", "# Book\n\nText.\n", "", "", "# Book\n\nText.\n"},
		{"title and author", "---\ntitle: \"Война и мир\"\nauthor: Лев Толстой\ntags:\n  - novel\n---\n# Том 1\n", "Война и мир", "Лев Толстой", "# Том 1\n"},
		{"closed by dots", "---\ntitle: 'A'\n...\nText\n", "A", "", "Text\n"},
		{"not closed: not front matter", "---\ntitle: A\n\nText\n", "", "", "---\ntitle: A\n\nText\n"},
		{"a rule later is not front matter", "Text\n\n---\ntitle: A\n---\n", "", "", "Text\n\n---\ntitle: A\n---\n"},
		{"a rule and a blank line are not front matter", "---\n\ntitle: A\n---\n", "", "", "---\n\ntitle: A\n---\n"},
		{"CR line ends, as the outline reads them", "---\rtitle: A\rauthor: B\r---\rText\r", "A", "B", "Text\r"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, body := FrontMatter([]byte(c.src))
			if f["title"] != c.title || f["author"] != c.author || string(body) != c.body {
				t.Errorf("got title %q author %q body %q", f["title"], f["author"], body)
			}
		})
	}
}

// TestDescribeRealBooks: the metadata of the corpus's two War and Peace and
// of the sample, as Export sends them.
func TestDescribeRealBooks(t *testing.T) {
	for _, c := range []struct {
		file, title, lang string
		chapter           int
	}{
		{"../../app/sample/manuscript.md", "The Lighthouse Keeper's Ledger", "en", 2},
		{"../../../shared/corpus/books/war-and-peace.ru.md", "Том 1", "ru", 3},
		{"../../../shared/corpus/books/war-and-peace.en.md", "", "en", 0},
	} {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			src, err := os.ReadFile(c.file)
			if err != nil {
				if os.Getenv("CI") != "" || strings.Contains(c.file, "sample") {
					t.Fatal(err)
				}
				t.Skipf("SKIPPED: %v", err)
			}
			fields, body := FrontMatter(src)
			heads := Headings(body)
			m := Describe(fields, body, heads, "fallback", "Author From Settings")
			if (c.title != "" && m.Title != c.title) || m.Lang != c.lang || (c.chapter != 0 && m.ChapterLevel != c.chapter) || m.Author != "Author From Settings" {
				t.Errorf("%+v, want title %q, lang %s, chapter level %d", m, c.title, c.lang, c.chapter)
			}
			sections := 0
			for _, h := range heads {
				if h.Level <= m.ChapterLevel {
					sections++
				}
			}
			if len(body)/max(sections, 1) > chapterFileSize && sections < len(heads) {
				t.Errorf("sections of %d KB on average at level %d", len(body)/sections>>10, m.ChapterLevel)
			}
		})
	}
}

func TestDropMissingImages(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "here.png"), []byte("png"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := "A ![kept](here.png) B ![The lighthouse](gone.png \"title\") C ![](gone2.jpg) D ![web](https://example.org/x.png)\n"
	out, missing := DropMissingImages([]byte(src), dir)
	want := "A ![kept](here.png) B *The lighthouse* C  D ![web](https://example.org/x.png)\n"
	if string(out) != want || strings.Join(missing, ",") != "gone.png,gone2.jpg" {
		t.Errorf("got %q, missing %v", out, missing)
	}
}
