package publish

import (
	"bytes"
	"fmt"
	"html"
	"net/url"
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Paper is a PDF's page size.
type Paper struct {
	Name          string  // "a5", "a4"
	Width, Height float64 // inches, as Chromium's printToPDF takes them
	FontPt        float64 // the text's size on it
}

// Papers are the page sizes a PDF export may ask for; A5 (a paperback's
// page) is the default.
var Papers = map[string]Paper{
	"a5": {Name: "a5", Width: 148 / 25.4, Height: 210 / 25.4, FontPt: 10.5},
	"a4": {Name: "a4", Width: 210 / 25.4, Height: 297 / 25.4, FontPt: 12},
}

// PaperNames lists Papers' names, default first.
var PaperNames = []string{"a5", "a4"}

// printMarkdown renders the manuscript's dialect (as the HTML export does);
// raw HTML in the manuscript is left out, so the printed page runs nothing.
var printMarkdown = goldmark.New(
	goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList, extension.Footnote),
	goldmark.WithParserOptions(parser.WithASTTransformers(util.Prioritized(headingIDs{}, 100))),
)

// headingIDs gives every heading the id "h1", "h2"… in order, for the
// table of contents' links and the PDF's outline.
type headingIDs struct{}

func (headingIDs) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	n := 0
	_ = ast.Walk(doc, func(node ast.Node, entering bool) (ast.WalkStatus, error) {
		if h, ok := node.(*ast.Heading); ok && entering {
			n++
			h.SetAttributeString("id", []byte(fmt.Sprintf("h%d", n)))
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
}

// printCSS is the print page's style (paper size, margins, font size,
// hyphens, the headings that start a new page) and the end of its head.
// A contents entry is its title and, in a box --digits wide, its page
// number, right-aligned.
const printCSS = `<style>
@page { size: %s; margin: %s; @bottom-center { content: counter(page); font-family: 'PT Serif', serif; font-size: 8pt; color: #444; } }
@page front { @bottom-center { content: none; } }
.cover, .title-page { page: front; }
html { font-family: 'PT Serif', 'DejaVu Serif', serif; font-size: %.1fpt; line-height: 1.45; }
body { margin: 0; text-align: justify; hyphens: %s; orphans: 2; widows: 2; }
p { margin: 0; text-indent: 1.5em; }
h1 + p, h2 + p, h3 + p, h4 + p, h5 + p, h6 + p, blockquote p, li p, hr + p { text-indent: 0; }
h1, h2, h3, h4, h5, h6 { text-align: center; font-weight: bold; break-after: avoid; line-height: 1.25; margin: 1.2em 0 0.8em; }
h1 { font-size: 1.6em; } h2 { font-size: 1.35em; } h3 { font-size: 1.15em; } h4, h5, h6 { font-size: 1em; }
%s { break-before: page; }
blockquote { margin: 0.6em 1.5em; font-style: italic; }
hr { border: 0; text-align: center; margin: 1em 0; }
hr::after { content: "*   *   *"; }
img { max-width: 100%%; }
table { border-collapse: collapse; margin: 0.6em auto; } td, th { border: 0.5pt solid #777; padding: 0.2em 0.4em; }
pre, code { font-family: 'PT Mono', 'DejaVu Sans Mono', monospace; font-size: 0.9em; }
.title-page { padding-top: 30%%; text-align: center; break-after: page; }
.title-page .title { font-size: 2em; font-weight: bold; margin: 0 0 1em; text-indent: 0; }
.title-page .author { font-size: 1.3em; text-indent: 0; }
.title-page .date, .title-page .rights { margin-top: 2em; text-indent: 0; font-size: 0.9em; }
.cover { break-after: page; text-align: center; }
.cover img { max-width: 100%%; max-height: 170mm; }
nav.toc { break-after: page; }
nav.toc h2 { break-before: auto; }
nav.toc ol { list-style: none; padding: 0; margin: 0; }
nav.toc li { text-indent: 0; margin: 0.15em 0; break-inside: avoid; text-align: left; }
nav.toc h2, nav.toc li:first-child { break-after: avoid; }
nav.toc li:nth-last-child(-n+2) { break-before: avoid; } /* no lone entry on a page of its own */
nav.toc a { color: inherit; text-decoration: none; display: flex; align-items: baseline; }
nav.toc .t { flex: 1 1 auto; min-width: 0; }
nav.toc .n { flex: none; width: calc(var(--digits) * 1ch); padding-left: 0.8em; text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums lining-nums; }
main.draft * { visibility: hidden; } main.draft :is(h1, h2, h3, h4, h5, h6) { visibility: visible; }
nav.toc .l2 { padding-left: 1.2em; } nav.toc .l3 { padding-left: 2.4em; } nav.toc .l4, nav.toc .l5, nav.toc .l6 { padding-left: 3.6em; }
</style>
</head>
<body>
`

// BookPage is a book laid out for printing (LayOutBook): the HTML Chromium
// prints, its contents' page numbers left open for page to fill in.
type BookPage struct {
	head, body []byte     // the page before and after the contents
	entries    []tocEntry // the contents, in order
	lang       string
}

// tocEntry is a contents entry: the heading it names, by its id (h1, h2…)
// and plain text.
type tocEntry struct {
	id, text string
	level    int
}

// tocDigits is how many digits wide the contents' page numbers are laid out
// (a fixed box, so the number printed never moves a line): four, for books
// of up to 9,999 pages; Print widens it for a longer one.
const tocDigits = 4

// LayOutBook lays the book out for printing: the book on paper-sized pages
// in PT Serif, a title page (title, author), a table of contents down to
// the chapter level, each chapter on a new page. Page numbers are the
// page's own (@page margin boxes: Chromium's footer template, rendered as a
// page of its own for every page, tripled the time of a whole book), none
// on the title page. The contents' numbers are filled in by page.
//
// Its pictures are those policy lets in, each named by its real file; the
// others are left out (returned), their descriptions in italics.
func LayOutBook(body []byte, m Meta, paper Paper, policy ImagePolicy) (*BookPage, []LeftOut, error) {
	var out bytes.Buffer
	doc := printMarkdown.Parser().Parse(text.NewReader(body))
	left := vetPrintImages(doc, body, policy)
	if err := printMarkdown.Renderer().Render(&out, body, doc); err != nil {
		return nil, nil, fmt.Errorf("render the book for printing: %w", err)
	}
	// Soft hyphens by Debian's patterns: Chromium has none for Russian here.
	hs := BookHyphenators(m.Lang)
	rendered := hyphenateHTML(out.Bytes(), hs)
	hyphens := "auto"
	if !hs.none() {
		hyphens = "manual"
	}
	bp := &BookPage{head: printHead(m, paper, hyphens), lang: m.Lang}
	for i, h := range headingsOf(body) {
		if h.Level <= m.ChapterLevel {
			bp.entries = append(bp.entries, tocEntry{id: fmt.Sprintf("h%d", i+1), text: h.Text, level: h.Level})
		}
	}
	var b bytes.Buffer
	b.Grow(len(rendered) + 64)
	b.WriteString(">\n") // the rest of <main ...>
	b.Write(rendered)
	b.WriteString("</main>\n</body>\n</html>\n")
	bp.body = b.Bytes()
	return bp, left, nil
}

// printHead is the print page up to its contents: head, style, cover and
// title page.
func printHead(m Meta, paper Paper, hyphens string) []byte {
	var b bytes.Buffer
	esc := html.EscapeString
	fmt.Fprintf(&b, "<!doctype html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n<meta http-equiv=\"Content-Security-Policy\" content=\"script-src 'none'; connect-src 'none'\">\n<title>%s</title>\n", esc(m.Lang), esc(m.Title))
	if m.Author != "" {
		fmt.Fprintf(&b, "<meta name=\"author\" content=\"%s\">\n", esc(m.Author))
	}
	breaks := make([]string, 0, m.ChapterLevel)
	for l := 1; l <= m.ChapterLevel; l++ {
		breaks = append(breaks, fmt.Sprintf("main h%d", l))
	}
	fmt.Fprintf(&b, printCSS, paper.Name, "18mm 16mm 20mm", paper.FontPt, hyphens, strings.Join(breaks, ", "))
	if m.Cover != "" {
		fmt.Fprintf(&b, "<section class=\"cover\"><img src=\"%s\" alt=\"\"></section>\n", esc((&url.URL{Scheme: "file", Path: m.Cover}).String()))
	}
	fmt.Fprintf(&b, "<section class=\"title-page\">\n<p class=\"title\">%s</p>\n", esc(m.Title))
	for _, p := range []struct{ class, text string }{{"author", m.Author}, {"date", m.Date}, {"rights", m.Rights}} {
		if p.text != "" {
			fmt.Fprintf(&b, "<p class=\"%s\">%s</p>\n", p.class, esc(p.text))
		}
	}
	b.WriteString("</section>\n")
	return b.Bytes()
}

// page is the whole print page, each contents entry with its page number
// from pages (by heading id; nil: a placeholder of zeros) in a box digits
// wide, so that the numbers printed never move the layout. A draft is only
// read for where its headings are: the book's text is laid out as ever but
// not drawn (visibility: hidden), which halves a whole book's print.
func (bp *BookPage) page(pages map[string]int, digits int, draft bool) []byte {
	var toc bytes.Buffer
	if len(bp.entries) > 0 {
		contents := "Contents"
		if bp.lang == "ru" {
			contents = "Содержание"
		}
		fmt.Fprintf(&toc, "<nav class=\"toc\" role=\"doc-toc\" style=\"--digits: %d\">\n<h2>%s</h2>\n<ol>\n", digits, contents)
		for _, e := range bp.entries {
			n := strings.Repeat("0", digits)
			if pages != nil {
				n = strconv.Itoa(pages[e.id])
			}
			fmt.Fprintf(&toc, "<li class=\"l%d\"><a href=\"#%s\"><span class=\"t\">%s</span> <span class=\"n\">%s</span></a></li>\n", e.level, e.id, html.EscapeString(e.text), n)
		}
		toc.WriteString("</ol>\n</nav>\n")
	}
	page := make([]byte, 0, len(bp.head)+toc.Len()+len(bp.body)+32)
	page = append(page, bp.head...)
	page = append(page, toc.Bytes()...)
	page = append(page, "<main"...)
	if draft {
		page = append(page, ` class="draft"`...)
	}
	return append(page, bp.body...)
}

// vetPrintImages gives each picture the policy lets in its real file's
// address and puts the others' descriptions (in italics) in their place.
func vetPrintImages(doc ast.Node, src []byte, policy ImagePolicy) []LeftOut {
	var images []*ast.Image
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if img, ok := n.(*ast.Image); ok && entering {
			images = append(images, img)
		}
		return ast.WalkContinue, nil
	})
	var left []LeftOut
	for _, img := range images {
		dest := string(img.Destination)
		vetted, why := policy.Vet(dest)
		if why == "" {
			if !vetted.Data {
				// An absolute path: the page is a file: page (goldmark
				// renders no file: address).
				img.Destination = []byte(vetted.Path)
			}
			continue
		}
		left = append(left, LeftOut{Src: dest, Why: why})
		parent := img.Parent()
		if img.ChildCount() == 0 {
			parent.RemoveChild(parent, img)
			continue
		}
		em := ast.NewEmphasis(1)
		for c := img.FirstChild(); c != nil; {
			next := c.NextSibling()
			em.AppendChild(em, c)
			c = next
		}
		parent.ReplaceChild(parent, img, em)
	}
	return left
}

// Headings lists a Markdown text's headings with their plain text, as the
// print page numbers them (h1, h2… in order).
func Headings(body []byte) []Heading { return headingsOf(body) }

func headingsOf(body []byte) []Heading {
	doc := printMarkdown.Parser().Parse(text.NewReader(body))
	var heads []Heading
	_ = ast.Walk(doc, func(node ast.Node, entering bool) (ast.WalkStatus, error) {
		h, ok := node.(*ast.Heading)
		if !ok || !entering {
			return ast.WalkContinue, nil
		}
		start := 0
		if l := h.Lines(); l.Len() > 0 {
			start = l.At(0).Start
		}
		heads = append(heads, Heading{Level: h.Level, Text: plainText(h, body), Start: start})
		return ast.WalkSkipChildren, nil
	})
	return heads
}

// plainText is a node's text without Markdown marks.
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			b.Write(t.Segment.Value(src))
			if t.SoftLineBreak() || t.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(t.Value)
		case *ast.CodeSpan:
			for k := c.FirstChild(); k != nil; k = k.NextSibling() {
				if tx, ok := k.(*ast.Text); ok {
					b.Write(tx.Segment.Value(src))
				}
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return strings.TrimSpace(b.String())
}
