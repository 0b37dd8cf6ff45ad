package publish

import (
	"bytes"
	"fmt"
	"html"
	"net/url"
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

// PrintPage is the HTML Chromium prints to PDF: the book on paper-sized
// pages in PT Serif, a title page (title, author), a table of contents down
// to the chapter level, each chapter on a new page. Page numbers are the
// page's own (@page margin boxes: Chromium's footer template, rendered as a
// page of its own for every page, tripled the time of a whole book), none
// on the title page.
//
// Its pictures are those policy lets in, each named by its real file; the
// others are left out (returned), their descriptions in italics.
func PrintPage(body []byte, m Meta, paper Paper, policy ImagePolicy) ([]byte, []LeftOut, error) {
	var out bytes.Buffer
	doc := printMarkdown.Parser().Parse(text.NewReader(body))
	left := vetPrintImages(doc, body, policy)
	if err := printMarkdown.Renderer().Render(&out, body, doc); err != nil {
		return nil, nil, fmt.Errorf("render the book for printing: %w", err)
	}
	// Soft hyphens by Debian's patterns: Chromium has none for Russian here.
	ru, en := HyphenatorFor("ru"), HyphenatorFor("en")
	rendered := hyphenateHTML(out.Bytes(), ru, en)
	hyphens := "auto"
	if ru != nil || en != nil {
		hyphens = "manual"
	}
	heads := headingsOf(body)
	var b bytes.Buffer
	b.Grow(out.Len() + 8192)
	esc := html.EscapeString
	fmt.Fprintf(&b, "<!doctype html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n<meta http-equiv=\"Content-Security-Policy\" content=\"script-src 'none'; connect-src 'none'\">\n<title>%s</title>\n", esc(m.Lang), esc(m.Title))
	if m.Author != "" {
		fmt.Fprintf(&b, "<meta name=\"author\" content=\"%s\">\n", esc(m.Author))
	}
	breaks := make([]string, 0, m.ChapterLevel)
	for l := 1; l <= m.ChapterLevel; l++ {
		breaks = append(breaks, fmt.Sprintf("main h%d", l))
	}
	fmt.Fprintf(&b, `<style>
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
nav.toc li { text-indent: 0; margin: 0.15em 0; break-inside: avoid; }
nav.toc h2, nav.toc li:first-child { break-after: avoid; }
nav.toc li:nth-last-child(-n+2) { break-before: avoid; } /* no lone entry on a page of its own */
nav.toc a { color: inherit; text-decoration: none; }
nav.toc .l2 { padding-left: 1.2em; } nav.toc .l3 { padding-left: 2.4em; } nav.toc .l4, nav.toc .l5, nav.toc .l6 { padding-left: 3.6em; }
</style>
</head>
<body>
`, paper.Name, "18mm 16mm 20mm", paper.FontPt, hyphens, strings.Join(breaks, ", "))
	if m.Cover != "" {
		fmt.Fprintf(&b, "<section class=\"cover\"><img src=\"%s\" alt=\"\"></section>\n", esc((&url.URL{Scheme: "file", Path: m.Cover}).String()))
	}
	fmt.Fprintf(&b, "<section class=\"title-page\">\n<p class=\"title\">%s</p>\n", esc(m.Title))
	if m.Author != "" {
		fmt.Fprintf(&b, "<p class=\"author\">%s</p>\n", esc(m.Author))
	}
	if m.Date != "" {
		fmt.Fprintf(&b, "<p class=\"date\">%s</p>\n", esc(m.Date))
	}
	if m.Rights != "" {
		fmt.Fprintf(&b, "<p class=\"rights\">%s</p>\n", esc(m.Rights))
	}
	b.WriteString("</section>\n")
	contents := "Contents"
	if m.Lang == "ru" {
		contents = "Содержание"
	}
	var toc strings.Builder
	for i, h := range heads {
		if h.Level <= m.ChapterLevel {
			fmt.Fprintf(&toc, "<li class=\"l%d\"><a href=\"#h%d\">%s</a></li>\n", h.Level, i+1, esc(h.Text))
		}
	}
	if toc.Len() > 0 {
		fmt.Fprintf(&b, "<nav class=\"toc\" role=\"doc-toc\">\n<h2>%s</h2>\n<ol>\n%s</ol>\n</nav>\n", contents, toc.String())
	}
	b.WriteString("<main>\n")
	b.Write(rendered)
	b.WriteString("</main>\n</body>\n</html>\n")
	return b.Bytes(), left, nil
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
