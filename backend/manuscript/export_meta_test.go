package manuscript

import (
	"encoding/json"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/testenv"
)

// TestExportTitleIsTheBooksOwn (issue 35 point 3): without front matter the
// title was the first heading, "Том 1" for War and Peace (a volume's). Now
// it is the book's one level-1 heading when that is its title, else the
// file's name.
func TestExportTitleIsTheBooksOwn(t *testing.T) {
	for _, c := range []struct{ name, text, title string }{
		{"volumes", "# Том 1\n\n## Часть первая\n\nТекст.\n\n# Том 2\n\nТекст.\n", "book"},
		{"one part heading", "# Часть первая\n\nТекст.\n\n## I\n\nТекст.\n", "book"},
		{"the book's title", "# The Ledger\n\n## Chapter One\n\nText.\n", "The Ledger"},
		{"no level-1 heading", "## CHAPTER I\n\nText.\n", "book"},
		{"front matter wins", "---\ntitle: Война и мир\n---\n# Том 1\n\nТекст.\n", "Война и мир"},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc, st := testenv.BookAndStore(t, c.text)
			call := rigOn(t, st, doc)
			p := filepath.Join(t.TempDir(), "b.html")
			res, err := call("Export", `{"format": "html", "path": "`+p+`"}`)
			if err != nil {
				t.Fatal(err)
			}
			if res["title"] != c.title {
				t.Errorf("title %q, want %q", res["title"], c.title)
			}
		})
	}
}

// TestExportMetadataTheAuthorSets (issue 35 point 3): the Export tool took
// only format, overwrite, paper, path and targetSetId; the author was empty
// in all three formats without front matter or Settings. Now it takes the
// title, author, language, date, rights and a cover, which every format
// carries and the book remembers for its next export.
func TestExportMetadataTheAuthorSets(t *testing.T) {
	testenv.NeedProgram(t, "pandoc", "pandoc")
	doc, st := testenv.BookAndStore(t, "# Том 1\n\n## I\n\nТекст первой главы.\n\n# Том 2\n\n## I\n\nТекст.\n")
	cover := filepath.Join(t.TempDir(), "cover.png") // the author's choice, anywhere
	if err := os.WriteFile(cover, pngOf(t, 30, 40), 0o644); err != nil {
		t.Fatal(err)
	}
	call := rigOn(t, st, doc)
	out := t.TempDir()
	meta := map[string]any{"title": "Война и мир", "author": "Лев Толстой", "language": "ru", "date": "1869", "rights": "Общественное достояние", "cover": cover}
	first := map[string]any{"format": "epub", "path": filepath.Join(out, "first.epub")}
	for k, v := range meta {
		first[k] = v
	}
	a, _ := json.Marshal(first)
	if _, err := call("Export", string(a)); err != nil {
		t.Fatal(err)
	}
	// The dialog's reading: what the next export carries, and what was set.
	got, err := call("ExportMetadata", `{}`)
	if err != nil {
		t.Fatal(err)
	}
	set, _ := got["set"].(map[string]any)
	if got["title"] != "Война и мир" || got["cover"] != cover || set["rights"] != meta["rights"] {
		t.Errorf("ExportMetadata: %v", got)
	}
	// Every later export of the book, in every format, without them.
	for _, format := range []string{"epub", "docx", "pdf"} {
		t.Run(format, func(t *testing.T) {
			if format == "pdf" {
				if _, err := exec.LookPath("chromium"); err != nil {
					t.Skip("no chromium")
				}
			}
			p := filepath.Join(out, "book."+format)
			res, err := call("Export", `{"format": "`+format+`", "path": "`+p+`"}`)
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{"title", "author", "date", "rights"} {
				if res[k] != meta[k] {
					t.Errorf("%s: %v, want %v", k, res[k], meta[k])
				}
			}
			if res["language"] != "ru" {
				t.Errorf("language %v", res["language"])
			}
			switch format {
			case "epub":
				files := unzip(t, p)
				opf := ""
				covers := 0
				for name, body := range files {
					if strings.HasSuffix(name, ".opf") {
						opf = html.UnescapeString(body)
					}
					if strings.Contains(name, "cover") && strings.HasSuffix(name, ".png") {
						covers++
					}
				}
				for _, want := range []string{">Война и мир</dc:title>", ">Лев Толстой</dc:creator>", "<dc:language>ru</dc:language>", ">1869</dc:date>", "<dc:rights>Общественное достояние</dc:rights>", `properties="cover-image"`} {
					if !strings.Contains(opf, want) {
						t.Errorf("the package document lacks %q:\n%.2000s", want, opf)
					}
				}
				if covers != 1 {
					t.Errorf("%d cover pictures in the EPUB, want 1", covers)
				}
			case "docx":
				core := html.UnescapeString(unzip(t, p)["docProps/core.xml"])
				for _, want := range []string{">Война и мир</dc:title>", ">Лев Толстой</dc:creator>"} {
					if !strings.Contains(core, want) {
						t.Errorf("docProps/core.xml lacks %q:\n%s", want, core)
					}
				}
			case "pdf":
				info, err := exec.Command("pdfinfo", p).Output()
				if err != nil {
					t.Skipf("pdfinfo: %v", err)
				}
				for _, want := range []string{"Title:           Война и мир\n", "Author:          Лев Толстой\n"} {
					if !strings.Contains(string(info), want) {
						t.Errorf("pdfinfo lacks %q:\n%s", want, info)
					}
				}
				if pages := pdfPages(t, p); len(pages) < 3 || !strings.Contains(pages[1], "Война и мир") || !strings.Contains(pages[1], "Общественное достояние") {
					t.Errorf("the title page (after the cover) does not carry the title and rights: %q", pages)
				}
			}
		})
	}
	// Bad values are refused with what is allowed.
	for _, c := range []struct{ args, words string }{
		{`"date": "29.11.2026"`, "give YYYY, YYYY-MM or YYYY-MM-DD"},
		{`"language": "рус ский"`, "give ru or en"},
		{`"cover": "cover.png"`, "must be an absolute path"},
		{`"title": "A\nB"`, "must be one line"},
	} {
		_, err := call("Export", `{"format": "html", "path": "`+filepath.Join(out, "x.html")+`", `+c.args+`}`)
		if err == nil || !strings.Contains(err.Error(), c.words) {
			t.Errorf("%s: %v, want an error saying %q", c.args, err, c.words)
		}
	}
}
