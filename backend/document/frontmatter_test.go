package document

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/testenv"
	"github.com/waymark/waymark/backend/textmatch"
)

// TestFrontMatter: YAML front matter at the top of a book is one FrontMatter
// item — not a heading, not a first-mention candidate, searched only when
// asked, its bytes kept through edits next to it — and only a real front
// matter block is taken for one. The old code made it a level-2 heading
// ("title: … author: …") that Find returned.
func TestFrontMatter(t *testing.T) {
	const fm = "---\ntitle: War and Peace\nauthor: Tolstoy\n---"
	for _, nl := range []string{"\n", "\r\n", "\r"} {
		src := strings.ReplaceAll(fm+"\n\n# Chapter 1\n\nTolstoy wrote it.\n\n---\n\nThe end.\n", "\n", nl)
		d := Parse([]byte(src), 1)
		if d.Len() != 5 || d.Item(0).Type != FrontMatter || d.Markdown(0) != strings.ReplaceAll(fm, "\n", nl) {
			t.Fatalf("%q: items %d, first %s %q", nl, d.Len(), d.Item(0).Type, d.Markdown(0))
		}
		for i := 0; i < d.Len(); i++ {
			if it := d.Item(i); it.Type == Heading && d.Text(i) != "Chapter 1" {
				t.Fatalf("%q: heading %q", nl, d.Text(i))
			}
		}
		if got := d.Text(0); got != "title: War and Peace\nauthor: Tolstoy" || d.Words(0) != 0 {
			t.Fatalf("%q: front matter text %q, %d words", nl, got, d.Words(0))
		}
		q, _ := textmatch.Compile("Tolstoy")
		if m := d.Find(q, FindOptions{After: -1}); len(m) != 1 || d.Item(m[0].Index).Type != Paragraph {
			t.Fatalf("%q: Find %+v: want the paragraph, not the front matter", nl, m)
		}
		if m := d.Find(q, FindOptions{After: -1, IncludeFrontMatter: true}); len(m) != 1 || m[0].Index != 0 || m[0].Line != 2 {
			t.Fatalf("%q: Find with includeFrontMatter %+v", nl, m)
		}
		// An edit whose window starts at the top keeps the front matter's bytes.
		e, err := d.PlanReplaceText(1, "# Chapter One")
		if err != nil {
			t.Fatal(err)
		}
		e.Apply()
		consistent(t, d)
		if want := strings.Replace(src, "# Chapter 1", "# Chapter One", 1); string(d.Source()) != want {
			t.Fatalf("%q: after an edit %q", nl, d.Source())
		}
		// The front matter itself: given without fences, it keeps them; it
		// cannot become something else, nor be pushed down by text before it.
		e, err = d.PlanReplaceText(0, "title: Война и мир")
		if err != nil {
			t.Fatal(err)
		}
		e.Apply()
		consistent(t, d)
		if want := strings.ReplaceAll("---\ntitle: Война и мир\n---", "\n", nl); d.Markdown(0) != want {
			t.Fatalf("%q: front matter after ReplaceText %q", nl, d.Markdown(0))
		}
		if _, err := d.PlanReplaceText(0, "Just a paragraph."); err == nil {
			t.Fatalf("%q: front matter replaced by a paragraph", nl)
		}
		if _, err := d.PlanInsertBefore(0, "A paragraph first."); err == nil {
			t.Fatalf("%q: text inserted before the front matter", nl)
		}
		html, err := RenderHTML(d.Source(), "t")
		if err != nil || bytes.Contains(html, []byte("title:")) || bytes.Contains(html, []byte("<hr")) == false {
			t.Fatalf("%q: HTML export shows the front matter or lost the rule: %s", nl, html)
		}
	}
	// Not front matter: a rule then a blank line, a block that never closes,
	// "---" below the first line, text that is not YAML.
	for _, src := range []string{
		"---\n\nText.\n\n---\n\nMore.\n",
		"---\ntitle: x\n\nNo closing fence.\n",
		"# Title\n\n---\ntitle: x\n---\n",
		"---\nJust a line\n---\n",
	} {
		if d := Parse([]byte(src), 1); d.Item(0).Type == FrontMatter {
			t.Errorf("%q taken for front matter", src)
		}
	}
}

// TestFrontMatterOnTheCorpus: the Russian War and Peace with front matter
// naming its author: the outline starts with the book's first heading, the
// first mention of «Толстой» is in the text, and the bytes stay.
func TestFrontMatterOnTheCorpus(t *testing.T) {
	book, err := os.ReadFile(filepath.Join(corpusDir(t), "books", "war-and-peace.ru.md"))
	if err != nil {
		t.Fatal(err)
	}
	testenv.SkipSweepInShortMode(t)
	src := append([]byte("---\ntitle: Война и мир\nauthor: Лев Толстой\nlang: ru\n---\n\n"), book...)
	d := Parse(src, 1)
	if d.Item(0).Type != FrontMatter || d.Item(1).Type != Heading || d.Text(1) != "Том 1" {
		t.Fatalf("first items: %s, %s %q", d.Item(0).Type, d.Item(1).Type, d.Text(1))
	}
	q, _ := textmatch.Compile("Толстой")
	if m := d.Find(q, FindOptions{After: -1}); len(m) != 1 || d.Text(m[0].Index) != "Лев Николаевич Толстой" {
		t.Fatalf("first mention: %+v", m)
	}
	if !bytes.Equal(d.Source(), src) {
		t.Fatal("bytes changed")
	}
}
