package document

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// inlineOnly parses content lines as one paragraph: an item's text is rendered
// from its own lines, which must not be re-read as headings or lists ("1. May"
// inside a heading is text, not a list).
var inlineOnly = parser.NewParser(
	parser.WithBlockParsers(util.Prioritized(parser.NewParagraphParser(), 100)),
	parser.WithInlineParsers(parser.DefaultInlineParsers()...),
	parser.WithInlineParsers(util.Prioritized(extension.NewStrikethroughParser(), 500)),
)

// Text returns the plain text of item i: inline Markdown rendered to text, lines
// joined by spaces, images by their alt text. Code and HTML come as written.
func (d *Document) Text(i int) string {
	it := &d.items[i]
	switch it.Type {
	case ThematicBreak:
		return ""
	case CodeBlock, HTML, FrontMatter:
		var sb strings.Builder
		for k, s := range it.Segs {
			if k > 0 {
				sb.WriteByte('\n')
			}
			sb.Write(d.src[s.Start:s.End])
		}
		return sb.String()
	}
	if len(it.Segs) == 0 {
		return ""
	}
	var buf []byte
	for k, s := range it.Segs {
		if k > 0 {
			buf = append(buf, '\n')
		}
		buf = append(buf, d.src[s.Start:s.End]...)
	}
	pc := parser.NewContext()
	for _, r := range d.refs {
		pc.AddReference(r)
	}
	root := inlineOnly.Parse(text.NewReader(buf), parser.WithContext(pc))
	var sb strings.Builder
	renderText(&sb, root, buf, it.Type == Image)
	return strings.TrimSpace(sb.String())
}

func renderText(sb *strings.Builder, n ast.Node, src []byte, imageCaption bool) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			v := c.Value(src)
			if !c.IsRaw() {
				v = util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(v)))
			}
			sb.Write(v)
			if c.SoftLineBreak() || c.HardLineBreak() {
				sb.WriteByte(' ')
			}
		case *ast.String:
			sb.Write(c.Value)
		case *ast.CodeSpan:
			for t := c.FirstChild(); t != nil; t = t.NextSibling() {
				if tx, ok := t.(*ast.Text); ok {
					sb.Write(tx.Value(src))
				} else if s, ok := t.(*ast.String); ok {
					sb.Write(s.Value)
				}
			}
		case *ast.RawHTML:
			// tags are markup, not prose
		case *ast.AutoLink:
			sb.Write(c.Label(src))
		case *ast.Image:
			renderText(sb, c, src, false)
			if imageCaption && len(c.Title) > 0 {
				sb.WriteString(" — ")
				sb.Write(c.Title)
			}
		case *extast.TaskCheckBox:
			if c.IsChecked {
				sb.WriteString("[x] ")
			} else {
				sb.WriteString("[ ] ")
			}
		default:
			renderText(sb, c, src, imageCaption)
		}
	}
}

// Words counts the words of item i for word counts: runs of letters and digits in
// its content lines (code, HTML and link destinations excluded).
func (d *Document) Words(i int) int {
	it := &d.items[i]
	switch it.Type {
	case CodeBlock, HTML, ThematicBreak, FrontMatter:
		return 0
	}
	n := 0
	for _, s := range it.Segs {
		in := false
		b := d.src[s.Start:s.End]
		for k := 0; k < len(b); {
			c := b[k]
			var word bool
			size := 1
			if c < utf8.RuneSelf {
				word = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '\''
				if c == ']' && k+1 < len(b) && b[k+1] == '(' {
					// skip a link destination
					if e := bytes.IndexByte(b[k:], ')'); e > 0 {
						k += e + 1
						in = false
						continue
					}
				}
			} else {
				r, sz := utf8.DecodeRune(b[k:])
				size = sz
				word = unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || r == '’'
			}
			if word && !in {
				n++
			}
			in = word
			k += size
		}
	}
	return n
}

// Place names where item i is, as an author reads it: the headings that
// contain it, outermost first ("BOOK ONE: 1805, CHAPTER IX"; «Том 1, Часть
// первая, VI»), and "" before the first heading.
func (d *Document) Place(i int) string {
	var path []string
	lvl := 1 << 30
	for j := i; j >= 0; j-- {
		it := d.Item(j)
		if it.Type == Heading && it.Level < lvl {
			path = append(path, strings.TrimSpace(d.Text(j)))
			lvl = it.Level
			if lvl <= 1 {
				break
			}
		}
	}
	for a, b := 0, len(path)-1; a < b; a, b = a+1, b-1 {
		path[a], path[b] = path[b], path[a]
	}
	return strings.Join(path, ", ")
}
