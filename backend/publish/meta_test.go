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
		{"../../../shared/corpus/books/war-and-peace.ru.md", "fallback", "ru", 3}, // its level-1 headings are its volumes
		{"../../../shared/corpus/books/war-and-peace.en.md", "fallback", "en", 0},
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

// TestImagePolicy (issue 32 point 2): only real pictures (by content)
// inside the book's folder, after every symbolic link, or a folder the
// author chose, go into a book.
func TestImagePolicy(t *testing.T) {
	root := t.TempDir()
	book := filepath.Join(root, "book")
	chosen := filepath.Join(root, "chosen")
	for _, d := range []string{book, filepath.Join(book, "img"), chosen} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89")
	write := func(p string, b []byte) {
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(book, "img", "a b.png"), png)
	write(filepath.Join(book, "fake.png"), []byte("PRIVATE KEY"))
	write(filepath.Join(book, "pic.svg"), []byte("<?xml version=\"1.0\"?>\n<!-- c -->\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>"))
	write(filepath.Join(root, "secret.png"), png)
	write(filepath.Join(chosen, "c.png"), png)
	if err := os.Symlink(filepath.Join(root, "secret.png"), filepath.Join(book, "link.png")); err != nil {
		t.Fatal(err)
	}
	pol := ImagePolicy{BookDir: book}
	withChosen := ImagePolicy{BookDir: book, Folders: []string{chosen}}
	for _, c := range []struct {
		name string
		pol  ImagePolicy
		src  string
		why  string // "" when it goes in
	}{
		{"a picture beside the book", pol, "img/a b.png", ""},
		{"its name %-encoded", pol, "img/a%20b.png", ""},
		{"an SVG", pol, "pic.svg", ""},
		{"by file: address", pol, "file://" + filepath.Join(book, "img", "a b.png"), ""},
		{"a data: picture", pol, "data:image/png;base64,iVBORw0KGgo=", ""},
		{"not a picture by its content", pol, "fake.png", "not a picture"},
		{"an absolute path outside", pol, "/etc/hostname", "outside the book's folder"},
		{"up and out", pol, "../secret.png", "outside the book's folder"},
		{"a link out of the folder", pol, "link.png", "outside the book's folder"},
		{"a missing file", pol, "gone.png", "not there"},
		{"a folder", pol, "img", "not a regular file"},
		{"a web address", pol, "http://127.0.0.1:8080/x.png", "web address"},
		{"a chosen folder", withChosen, filepath.Join(chosen, "c.png"), ""},
		{"not chosen", pol, filepath.Join(chosen, "c.png"), "outside the book's folder"},
	} {
		t.Run(c.name, func(t *testing.T) {
			img, why := c.pol.Vet(c.src)
			if c.why == "" && (why != "" || img.Path == "" && !img.Data) || c.why != "" && !strings.Contains(why, c.why) {
				t.Errorf("Vet(%q) = %+v, %q; want %q", c.src, img, why, c.why)
			}
		})
	}
}
