package document

import (
	"bytes"
	"fmt"
	"html"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// htmlMarkdown renders the same dialect the document is parsed in (tables,
// strikethrough, task lists, footnotes); raw HTML in the manuscript is left out
// of the output, as goldmark does by default, so an export never runs a script.
var htmlMarkdown = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList, extension.Footnote))

// RenderHTML turns a manuscript into a standalone HTML page with a title, for
// exporting a book to read in a browser or to hand to another program.
func RenderHTML(src []byte, title string) ([]byte, error) {
	src = lfCopy(src[FrontMatterEnd(src):]) // front matter is metadata, not text; a lone CR ends a line
	var body bytes.Buffer
	if err := htmlMarkdown.Convert(src, &body); err != nil {
		return nil, fmt.Errorf("render HTML: %w", err)
	}
	var out bytes.Buffer
	out.Grow(body.Len() + 512)
	fmt.Fprintf(&out, "<!doctype html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>%s</title>\n"+
		"<style>body{max-width:42rem;margin:2rem auto;padding:0 1rem;font-family:serif;line-height:1.5}</style>\n</head>\n<body>\n", html.EscapeString(title))
	out.Write(body.Bytes())
	out.WriteString("</body>\n</html>\n")
	return out.Bytes(), nil
}
