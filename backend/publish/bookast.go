package publish

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// A book goes to pandoc's EPUB and DOCX writers as pandoc's own document
// tree (JSON), read from the Markdown by pandoc and then put in order here:
//
//   - every picture is vetted by the ImagePolicy: one that goes in is
//     copied into a private folder and named there, so the writers read
//     nothing else; one left out becomes its description in italics;
//   - raw HTML becomes the book's own elements: a block through pandoc's
//     HTML reader (after the HTML5 parser has closed every element), an
//     inline tag as emphasis, strong, a line break, a picture (vetted)…, or
//     nothing; no raw HTML reaches the writers, so an EPUB's XHTML is well
//     formed whatever the manuscript holds (issue 35 point 1);
//   - a link to a file outside the book, or to a place the book does not
//     have, keeps its words and loses its address (epubcheck refuses both).

// prepared is a book's tree made safe for the writers.
type prepared struct {
	policy ImagePolicy
	stage  string            // the private folder the pictures are copied into
	staged map[string]string // a picture's real path → its copy
	left   []LeftOut
	raws   []rawBlock
	ids    map[string]bool
}

type rawBlock struct {
	html string
	node map[string]any // the Div that takes its place
}

var emptyAttr = func() []any { return []any{"", []any{}, []any{}} }

// pandocTree runs pandoc's reader from into its JSON tree.
func pandocTree(ctx context.Context, pandoc, from string, in []byte) (map[string]any, error) {
	cmd := exec.CommandContext(ctx, pandoc, "--from="+from, "--to=json")
	cmd.Stdin = bytes.NewReader(in)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("pandoc could not read the book: %v %s", err, strings.TrimSpace(stderr.String()))
	}
	d := json.NewDecoder(&stdout)
	d.UseNumber()
	var tree map[string]any
	if err := d.Decode(&tree); err != nil {
		return nil, fmt.Errorf("pandoc's reading of the book: %w", err)
	}
	return tree, nil
}

// prepareBook reads body with pandoc and returns the tree to write, with
// the pictures left out. stage is a private folder for the pictures' copies.
func prepareBook(ctx context.Context, pandoc string, body []byte, policy ImagePolicy, stage string) ([]byte, []LeftOut, error) {
	tree, err := pandocTree(ctx, pandoc, "gfm+footnotes", body)
	if err != nil {
		return nil, nil, err
	}
	tree["meta"] = map[string]any{} // the metadata is Waymark's, given on the command line
	p := &prepared{policy: policy, stage: stage, staged: map[string]string{}, ids: map[string]bool{}}
	tree["blocks"] = p.value(tree["blocks"])
	if err := p.convertRaw(ctx, pandoc); err != nil {
		return nil, nil, err
	}
	p.collectIDs(tree["blocks"])
	p.links(tree["blocks"])
	out, err := json.Marshal(tree)
	if err != nil {
		return nil, nil, err
	}
	return out, p.left, nil
}

func (p *prepared) value(v any) any {
	switch x := v.(type) {
	case []any:
		return p.list(x)
	case map[string]any:
		switch x["t"] {
		case "RawBlock":
			c, _ := x["c"].([]any)
			div := map[string]any{"t": "Div", "c": []any{emptyAttr(), []any{}}}
			if len(c) == 2 && c[0] == "html" {
				if s, ok := c[1].(string); ok {
					p.raws = append(p.raws, rawBlock{html: s, node: div})
				}
			}
			return div
		case "Header":
			// A heading with no words is no place in the contents.
			if c, ok := x["c"].([]any); ok && len(c) == 3 {
				c[2] = p.value(c[2])
				if !hasWords(c[2]) {
					return map[string]any{"t": "Div", "c": []any{emptyAttr(), []any{}}}
				}
				return x
			}
		case "Image":
			if c, ok := x["c"].([]any); ok && len(c) == 3 {
				c[1] = p.value(c[1])
			}
			return p.image(x)
		}
		if c, ok := x["c"]; ok {
			x["c"] = p.value(c)
		}
		return x
	}
	return v
}

// image vets a picture: its copy's path, or its description in its place.
func (p *prepared) image(x map[string]any) any {
	c, _ := x["c"].([]any)
	if len(c) != 3 {
		return x
	}
	target, _ := c[2].([]any)
	if len(target) != 2 {
		return x
	}
	src, _ := target[0].(string)
	img, why := p.policy.Vet(src)
	if why == "" && !img.Data {
		staged, err := p.stageImage(img, "picture")
		if err != nil {
			why = "its file cannot be read"
		} else {
			target[0] = staged
		}
	}
	if why != "" {
		p.left = append(p.left, LeftOut{Src: src, Why: why})
		alt, _ := c[1].([]any)
		if len(alt) == 0 {
			return map[string]any{"t": "Span", "c": []any{emptyAttr(), []any{}}}
		}
		return map[string]any{"t": "Emph", "c": alt}
	}
	return x
}

func (p *prepared) stageImage(img Image, name string) (string, error) {
	if s, ok := p.staged[img.Path]; ok {
		return s, nil
	}
	in, err := os.Open(img.Path)
	if err != nil {
		return "", err
	}
	defer in.Close()
	dst := filepath.Join(p.stage, fmt.Sprintf("%s%d%s", name, len(p.staged)+1, img.Ext))
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", err
	}
	if _, err := io.Copy(out, io.LimitReader(in, MaxImageBytes)); err != nil {
		out.Close()
		return "", err
	}
	if err := out.Close(); err != nil {
		return "", err
	}
	p.staged[img.Path] = dst
	return dst, nil
}

// frame is an inline HTML element open in a list of inlines.
type frame struct {
	tag      string
	node     map[string]any // the element it becomes (its inlines set on closing); nil: none
	drop     bool           // its content goes too (script, style)
	children []any
}

// list turns a list's raw inline HTML into the book's own inlines.
func (p *prepared) list(l []any) []any {
	raw := false
	for i, v := range l {
		l[i] = p.value(v)
		if m, ok := l[i].(map[string]any); ok && m["t"] == "RawInline" {
			raw = true
		}
	}
	if !raw {
		return l
	}
	st := &inlineStack{out: []any{}}
	for _, v := range l {
		m, ok := v.(map[string]any)
		if !ok || m["t"] != "RawInline" {
			st.add(v)
			continue
		}
		c, _ := m["c"].([]any)
		s := ""
		if len(c) == 2 && c[0] == "html" {
			s, _ = c[1].(string)
		}
		p.rawInline(s, st)
	}
	for len(st.stack) > 0 {
		st.closeTop()
	}
	return st.out
}

// inlineStack is a list of inlines being made, with the inline HTML
// elements open in it.
type inlineStack struct {
	out   []any
	stack []*frame
}

// add puts an inline into the innermost open element, or the list.
func (st *inlineStack) add(v any) {
	if len(st.stack) == 0 {
		st.out = append(st.out, v)
		return
	}
	top := st.stack[len(st.stack)-1]
	top.children = append(top.children, v)
}

// closeTop closes the innermost open element: it becomes its inline (or
// its content stays, or goes with it).
func (st *inlineStack) closeTop() {
	f := st.stack[len(st.stack)-1]
	st.stack = st.stack[:len(st.stack)-1]
	switch {
	case f.drop:
	case f.node == nil:
		for _, c := range f.children {
			st.add(c)
		}
	default:
		setInlines(f.node, f.children)
		st.add(f.node)
	}
}

// closeTo closes the elements open down to the innermost named tag (none
// when no such element is open).
func (st *inlineStack) closeTo(tag string) {
	for i := len(st.stack) - 1; i >= 0; i-- {
		if st.stack[i].tag == tag {
			for len(st.stack) > i {
				st.closeTop()
			}
			return
		}
	}
}

// rawInline turns one raw inline HTML's tokens into inlines on st.
func (p *prepared) rawInline(s string, st *inlineStack) {
	z := html.NewTokenizer(strings.NewReader(s))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return
		}
		tok := z.Token()
		switch tt {
		case html.TextToken:
			if t := strings.TrimSpace(tok.Data); t != "" {
				st.add(map[string]any{"t": "Str", "c": tok.Data})
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			node, void, drop := p.inlineElement(tok)
			if void || tt == html.SelfClosingTagToken {
				if node != nil {
					st.add(node)
				}
				continue
			}
			st.stack = append(st.stack, &frame{tag: tok.Data, node: node, drop: drop})
		case html.EndTagToken:
			st.closeTo(tok.Data)
		}
	}
}

// setInlines puts the inlines into an element made by inlineElement.
func setInlines(node map[string]any, inl []any) {
	if inl == nil {
		inl = []any{}
	}
	switch node["t"] {
	case "Span", "Quoted":
		node["c"].([]any)[1] = inl
	case "Link":
		node["c"].([]any)[1] = inl
	default:
		node["c"] = inl
	}
}

// inlineElement is the inline the HTML tag becomes: nil for none (its
// content stays), void for one with no content, drop when its content goes
// too.
func (p *prepared) inlineElement(tok html.Token) (node map[string]any, void, drop bool) {
	attr := func(k string) string {
		for _, a := range tok.Attr {
			if a.Key == k {
				return a.Val
			}
		}
		return ""
	}
	wrap := func(t string) map[string]any { return map[string]any{"t": t, "c": []any{}} }
	switch tok.DataAtom {
	case atom.Em, atom.I, atom.Cite, atom.Dfn, atom.Var:
		return wrap("Emph"), false, false
	case atom.Strong, atom.B:
		return wrap("Strong"), false, false
	case atom.S, atom.Strike, atom.Del:
		return wrap("Strikeout"), false, false
	case atom.U, atom.Ins:
		return wrap("Underline"), false, false
	case atom.Sup:
		return wrap("Superscript"), false, false
	case atom.Sub:
		return wrap("Subscript"), false, false
	case atom.Q:
		return map[string]any{"t": "Quoted", "c": []any{map[string]any{"t": "DoubleQuote"}, []any{}}}, false, false
	case atom.A:
		if href := attr("href"); href != "" {
			return map[string]any{"t": "Link", "c": []any{emptyAttr(), []any{}, []any{href, attr("title")}}}, false, false
		}
		return nil, false, false
	case atom.Br, atom.Hr:
		return map[string]any{"t": "LineBreak"}, true, false
	case atom.Img:
		img := map[string]any{"t": "Image", "c": []any{emptyAttr(), altInlines(attr("alt")), []any{attr("src"), attr("title")}}}
		return p.image(img).(map[string]any), true, false
	case atom.Area, atom.Base, atom.Col, atom.Embed, atom.Input, atom.Link, atom.Meta, atom.Param, atom.Source, atom.Track, atom.Wbr:
		return nil, true, false
	case atom.Script, atom.Style, atom.Textarea, atom.Title, atom.Iframe, atom.Noscript, atom.Template, atom.Object, atom.Video, atom.Audio, atom.Svg, atom.Math, atom.Select:
		return nil, false, true
	}
	return nil, false, false
}

// hasWords reports whether inlines hold any text.
func hasWords(v any) bool {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if hasWords(e) {
				return true
			}
		}
	case map[string]any:
		switch x["t"] {
		case "Str", "Code", "Math":
			return true
		case "Image":
			return false
		}
		return hasWords(x["c"])
	case string:
		return strings.TrimSpace(x) != ""
	}
	return false
}

// altInlines is a picture's description as inlines.
func altInlines(alt string) []any {
	var out []any
	for i, w := range strings.Fields(alt) {
		if i > 0 {
			out = append(out, map[string]any{"t": "Space"})
		}
		out = append(out, map[string]any{"t": "Str", "c": w})
	}
	if out == nil {
		return []any{}
	}
	return out
}

// convertRaw turns the raw HTML blocks into the book's own blocks with
// pandoc's HTML reader (no raw HTML kept), each first closed and nested by
// the HTML5 parser so one block's open <div> cannot take in the next.
func (p *prepared) convertRaw(ctx context.Context, pandoc string) error {
	if len(p.raws) == 0 {
		return nil
	}
	body := &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body}
	var doc bytes.Buffer
	doc.WriteString("<html><body>\n")
	for i, r := range p.raws {
		fmt.Fprintf(&doc, "<div id=\"waymark-raw-%d\">\n", i)
		nodes, err := html.ParseFragment(strings.NewReader(r.html), body)
		if err == nil {
			for _, n := range nodes {
				_ = html.Render(&doc, n)
			}
		}
		doc.WriteString("\n</div>\n")
	}
	doc.WriteString("</body></html>\n")
	tree, err := pandocTree(ctx, pandoc, "html-raw_html-auto_identifiers", doc.Bytes())
	if err != nil {
		return err
	}
	blocks, _ := tree["blocks"].([]any)
	for _, b := range blocks {
		m, ok := b.(map[string]any)
		if !ok || m["t"] != "Div" {
			continue
		}
		c, _ := m["c"].([]any)
		if len(c) != 2 {
			continue
		}
		attr, _ := c[0].([]any)
		if len(attr) != 3 {
			continue
		}
		id, _ := attr[0].(string)
		var i int
		if _, err := fmt.Sscanf(id, "waymark-raw-%d", &i); err != nil || i < 0 || i >= len(p.raws) {
			continue
		}
		inner := p.value(c[1]) // its pictures vetted, any raw HTML left turned too
		p.raws[i].node["c"] = []any{emptyAttr(), inner}
	}
	// A raw block inside a converted one (none: the reader keeps no raw
	// HTML) would wait for a second round; leave none waiting.
	p.raws = nil
	return nil
}

// collectIDs gathers the identifiers the book's elements have, the places
// its links may point at.
func (p *prepared) collectIDs(v any) {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			p.collectIDs(e)
		}
	case map[string]any:
		if c, ok := x["c"].([]any); ok {
			switch x["t"] {
			case "Header":
				if len(c) == 3 {
					p.addID(c[1])
				}
			case "Div", "Span", "CodeBlock", "Code", "Link", "Image", "Table", "Figure":
				if len(c) > 0 {
					p.addID(c[0])
				}
			}
			p.collectIDs(c)
		}
	}
}

func (p *prepared) addID(attr any) {
	if a, ok := attr.([]any); ok && len(a) == 3 {
		if id, ok := a[0].(string); ok && id != "" {
			if p.ids[id] {
				a[0] = "" // a second element of the same name (raw HTML's ids) loses it
				return
			}
			p.ids[id] = true
		}
	}
}

// links keeps the words of a link that points at a file outside the book
// or at a place the book does not have, without its address.
func (p *prepared) links(v any) {
	switch x := v.(type) {
	case []any:
		for i, e := range x {
			if m, ok := e.(map[string]any); ok && m["t"] == "Link" {
				c, _ := m["c"].([]any)
				if len(c) == 3 {
					target, _ := c[2].([]any)
					if len(target) == 2 {
						if href, _ := target[0].(string); !p.linkable(href) {
							x[i] = map[string]any{"t": "Span", "c": []any{emptyAttr(), c[1]}}
						}
					}
				}
			}
			p.links(x[i])
		}
	case map[string]any:
		if c, ok := x["c"]; ok {
			p.links(c)
		}
	}
}

// linkable: a web or mail address, or a place in the book.
func (p *prepared) linkable(href string) bool {
	if strings.HasPrefix(href, "#") {
		return p.ids[href[1:]]
	}
	u, err := url.Parse(href)
	if err != nil || strings.ContainsAny(href, " \\<>\"{}|^`") {
		return false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		return u.Host != "" && !strings.HasPrefix(u.Host, ".")
	case "mailto":
		return u.Opaque != ""
	}
	return false
}
