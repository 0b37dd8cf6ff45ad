package document

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"regexp"
	"sort"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/waymark/waymark/backend/textmatch"
)

// markdown is the one goldmark configuration of the product: CommonMark plus the GFM
// extensions the manuscripts use (tables, strikethrough, task lists) and footnotes.
// GFM's linkify (bare URLs becoming links) is left out: it changes no item and no
// text, and costs a tenth of the parse of a whole book. Every parse — whole book, edit window, item text — goes through it so
// that the incremental view and a full re-parse can never disagree.
//
// Footnotes get goldmark's block and inline parsers but not its AST transformer:
// the transformer moves definitions to the end and drops unreferenced ones, which
// would make a definition's items depend on references anywhere in the book. Here a
// definition is an item where it is written, referenced or not.
//
// Lists and block quotes nest at most MaxNesting deep (nesting.go).
var markdown = goldmark.New(
	goldmark.WithParser(parser.NewParser(parser.WithBlockParsers(blockParsers()...),
		parser.WithInlineParsers(parser.DefaultInlineParsers()...),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...))),
	goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList),
	goldmark.WithParserOptions(
		parser.WithBlockParsers(util.Prioritized(extension.NewFootnoteBlockParser(), 999)),
		parser.WithInlineParsers(util.Prioritized(extension.NewFootnoteParser(), 101)),
	),
)

// parsed is the result of linearising one run of source bytes.
type parsed struct {
	items []Item
	roots []int // line starts of the top-level blocks, ascending
	refs  []parser.Reference
	// deep is 1 + where a list or block quote would have nested deeper
	// than MaxNesting (0: nowhere).
	deep int
}

// linearize parses a whole document (or Markdown standing alone) and returns
// its items with offsets relative to src.
func linearize(src []byte) parsed {
	return linearizeWith(src, nil, true)
}

// linearizeWith is linearize of a part of a document whose link reference
// definitions (refs) may lie outside the part: an image or link by reference
// in an edit's window stays one. atStart tells whether the part begins the
// document (only there can front matter be).
func linearizeWith(src []byte, refs []parser.Reference, atStart bool) parsed {
	fm := 0
	if atStart {
		fm = FrontMatterEnd(src)
	}
	// CommonMark ends a line at LF, CRLF or a lone CR; goldmark knows only the
	// first two. A lone CR (old Mac files) is read as LF in a copy of the same
	// length, so every offset is the source's and the bytes stay as they are.
	// Front matter is blanked in the copy (its line ends kept): goldmark sees
	// blank lines there, not a rule and a heading.
	cp := lfCopy(src)
	if fm > 0 {
		if len(cp) > 0 && &cp[0] == &src[0] {
			cp = append([]byte(nil), src...)
		}
		for k := 0; k < fm; k++ {
			if cp[k] != '\n' && cp[k] != '\r' {
				cp[k] = ' '
			}
		}
	}
	src = cp
	pc := parser.NewContext()
	for _, r := range refs {
		pc.AddReference(r)
	}
	root := Parser().Parse(text.NewReader(src), parser.WithContext(pc))
	b := builder{src: src, items: make([]Item, 0, len(src)/256+16)}
	if fm > 0 {
		b.roots = append(b.roots, 0)
		b.add(Item{Type: FrontMatter, Start: 0, End: fm, Segs: frontMatterLines(src, fm)})
	}
	for c := root.FirstChild(); c != nil; c = c.NextSibling() {
		if fl, ok := c.(*extast.FootnoteList); ok {
			for f := fl.FirstChild(); f != nil; f = f.NextSibling() {
				b.roots = append(b.roots, b.lineStart(b.pos(f)))
				b.visit(f, walkCtx{})
			}
			continue
		}
		if p := b.pos(c); p >= 0 {
			b.roots = append(b.roots, b.lineStart(p))
		}
		b.visit(c, walkCtx{})
	}
	// Footnote definitions are moved to the end of the AST by goldmark; the linear
	// document is in source order.
	if !sort.SliceIsSorted(b.items, func(i, j int) bool { return b.items[i].Start < b.items[j].Start }) {
		sort.SliceStable(b.items, func(i, j int) bool { return b.items[i].Start < b.items[j].Start })
	}
	if !sort.IntsAreSorted(b.roots) {
		sort.Ints(b.roots)
	}
	b.roots = dedupInts(b.roots)
	deep := 0
	if v, ok := pc.Get(deepKey).(int); ok {
		deep = v + 1
	}
	return parsed{items: b.items, roots: b.roots, refs: pc.References(), deep: deep}
}

// FrontMatterEnd returns where the YAML front matter at the top of src ends
// (after its closing "---" or "...", before that line's break), or 0 when src
// does not start with front matter. Front matter opens with a line "---" at
// the very first byte, directly followed by a "key:" line (so a book that
// opens with a thematic break and a blank line is not taken for it), and
// closes with a line "---" or "...".
func FrontMatterEnd(src []byte) int {
	line := func(p int) (int, int) { // the line at p: its end (before the break) and the next line's start
		e := p
		for e < len(src) && src[e] != '\n' && src[e] != '\r' {
			e++
		}
		next := e
		if next < len(src) && src[next] == '\r' {
			next++
		}
		if next < len(src) && src[next] == '\n' && (next == e || src[e] == '\r') {
			next++
		}
		return e, next
	}
	fence := func(p, e int, marks ...string) bool {
		l := string(bytes.TrimRight(src[p:e], " \t"))
		for _, m := range marks {
			if l == m {
				return true
			}
		}
		return false
	}
	e, p := line(0)
	if !fence(0, e, "---") || p == e {
		return 0
	}
	first, _ := line(p)
	if !yamlKey.Match(src[p:first]) {
		return 0
	}
	for p < len(src) {
		e, next := line(p)
		if fence(p, e, "---", "...") {
			return e
		}
		if next == e { // the last line, with no break after it
			break
		}
		p = next
	}
	return 0
}

// yamlKey is the first line of YAML front matter: a mapping key.
var yamlKey = regexp.MustCompile(`^[A-Za-z0-9_"'][^:]*:([ \t]|$)`)

// frontMatterLines are the lines between the fences of front matter ending at
// end: its text, for a search that asks for it.
func frontMatterLines(src []byte, end int) []textmatch.Segment {
	var out []textmatch.Segment
	p := bytes.IndexAny(src, "\r\n")
	for p >= 0 && p < end {
		if src[p] == '\r' && p+1 < len(src) && src[p+1] == '\n' {
			p++
		}
		s := p + 1
		e := s
		for e < end && src[e] != '\n' && src[e] != '\r' {
			e++
		}
		if e >= end { // the closing fence
			break
		}
		out = append(out, textmatch.Segment{Start: s, End: e})
		p = e
	}
	return out
}

func dedupInts(s []int) []int {
	if len(s) < 2 {
		return s
	}
	out := s[:1]
	for _, v := range s[1:] {
		if v != out[len(out)-1] {
			out = append(out, v)
		}
	}
	return out
}

type walkCtx struct {
	quote    int // block-quote depth
	list     int // list depth
	footnote string
}

type builder struct {
	src   []byte
	items []Item
	roots []int
}

// pos is a node's position clamped into the source (goldmark can report -1 or a
// position past the end for empty blocks).
func (b *builder) pos(n ast.Node) int {
	return min(max(n.Pos(), 0), len(b.src))
}

func (b *builder) lineStart(p int) int {
	if p < 0 {
		return 0
	}
	if p > len(b.src) {
		p = len(b.src)
	}
	return bytes.LastIndexByte(b.src[:p], '\n') + 1
}

// lineEnd returns the offset of the end of the line holding p, before "\n" or "\r\n".
func (b *builder) lineEnd(p int) int {
	if p >= len(b.src) {
		return len(b.src)
	}
	e := bytes.IndexByte(b.src[p:], '\n')
	if e < 0 {
		e = len(b.src)
	} else {
		e += p
	}
	if e > p && b.src[e-1] == '\r' {
		e--
	}
	return e
}

// nextLine returns the start of the line after the one holding p, or -1 at EOF.
func (b *builder) nextLine(p int) int {
	e := bytes.IndexByte(b.src[min(p, len(b.src)):], '\n')
	if e < 0 {
		return -1
	}
	return p + e + 1
}

func (b *builder) segsOf(n ast.Node) []textmatch.Segment {
	lines := n.Lines()
	if lines == nil || lines.Len() == 0 {
		return nil
	}
	out := make([]textmatch.Segment, 0, lines.Len())
	for i := 0; i < lines.Len(); i++ {
		s := lines.At(i)
		st, e := s.Start, s.Stop
		for e > st && (b.src[e-1] == '\n' || b.src[e-1] == '\r') {
			e--
		}
		out = append(out, textmatch.Segment{Start: st, End: e})
	}
	return out
}

// prefixOf derives the continuation prefix of the container lines holding p:
// quote markers stay, list markers and other text become spaces.
func (b *builder) prefixOf(lead, start int) string {
	if start <= lead {
		return ""
	}
	pre := []byte(string(b.src[lead:start]))
	for i, c := range pre {
		if c != '>' && c != ' ' && c != '\t' {
			pre[i] = ' '
		}
	}
	return string(pre)
}

func (b *builder) add(it Item) *Item {
	// goldmark's positions can point past the end for empty blocks after tabs;
	// keep every range inside the source.
	n := len(b.src)
	it.Start = min(max(it.Start, 0), n)
	it.End = min(max(it.End, it.Start), n)
	for k := range it.Segs {
		s := &it.Segs[k]
		s.Start = min(max(s.Start, 0), n)
		s.End = min(max(s.End, s.Start), n)
	}
	it.Lead = b.lineStart(it.Start)
	it.Prefix = b.prefixOf(it.Lead, it.Start)
	if it.SubEnd < it.End {
		it.SubEnd = it.End
	}
	b.items = append(b.items, it)
	return &b.items[len(b.items)-1]
}

// blockEnd returns the end of a leaf block's own source (before its line break).
func (b *builder) blockEnd(n ast.Node) int {
	switch n := n.(type) {
	case *ast.Heading:
		if p := b.pos(n); p >= 0 && p < len(b.src) && b.src[p] == '#' {
			return b.lineEnd(p)
		}
		// Setext heading: the underline is the line after the last text line.
		segs := b.segsOf(n)
		last := b.pos(n)
		if len(segs) > 0 {
			last = segs[len(segs)-1].Start
		}
		if nl := b.nextLine(last); nl >= 0 {
			return b.lineEnd(nl)
		}
		return b.lineEnd(last)
	case *ast.FencedCodeBlock:
		open := b.pos(n)
		last := open
		if segs := n.Lines(); segs != nil && segs.Len() > 0 {
			last = segs.At(segs.Len() - 1).Start
		}
		end := b.lineEnd(last)
		if nl := b.nextLine(last); nl >= 0 && b.isClosingFence(nl, open) {
			end = b.lineEnd(nl)
		}
		return end
	case *ast.ThematicBreak:
		return b.lineEnd(b.pos(n))
	case *ast.HTMLBlock:
		end := b.pos(n)
		if segs := b.segsOf(n); len(segs) > 0 {
			end = segs[len(segs)-1].End
		}
		if n.HasClosure() {
			e := n.ClosureLine.Stop
			for e > n.ClosureLine.Start && (b.src[e-1] == '\n' || b.src[e-1] == '\r') {
				e--
			}
			end = max(end, e)
		}
		return max(end, b.lineEnd(b.pos(n)))
	case *extast.Table:
		end := b.pos(n)
		for r := n.FirstChild(); r != nil; r = r.NextSibling() {
			end = max(end, b.lineEnd(b.pos(r)))
		}
		return end
	}
	if segs := b.segsOf(n); len(segs) > 0 {
		return segs[len(segs)-1].End
	}
	end := b.pos(n)
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if c.Type() == ast.TypeBlock {
			end = max(end, b.blockEnd(c))
		}
	}
	if end < 0 {
		return 0
	}
	return end
}

// isClosingFence reports whether the line at p closes the fence opened at open.
func (b *builder) isClosingFence(p, open int) bool {
	if open >= len(b.src) {
		return false
	}
	fc := b.src[open]
	if fc != '`' && fc != '~' {
		return false
	}
	n := 0
	for open+n < len(b.src) && b.src[open+n] == fc {
		n++
	}
	line := b.src[p:b.lineEnd(p)]
	line = bytes.TrimLeft(line, " \t>")
	m := 0
	for m < len(line) && line[m] == fc {
		m++
	}
	return m >= n && len(bytes.TrimSpace(line[m:])) == 0
}

func (b *builder) codeStart(n *ast.CodeBlock) int {
	p := b.pos(n)
	ls := b.lineStart(p)
	s := p
	for k := 0; k < 4 && s > ls && (b.src[s-1] == ' ' || b.src[s-1] == '\t'); k++ {
		s--
	}
	return s
}

func (b *builder) visit(n ast.Node, c walkCtx) {
	switch n := n.(type) {
	case *ast.Heading:
		b.visitHeading(n, c)
	case *ast.Paragraph, *ast.TextBlock:
		b.visitParagraph(n, c)
	case *ast.Blockquote:
		c.quote++
		b.visitChildren(n, c)
	case *ast.List:
		c.list++
		b.visitChildren(n, c)
	case *ast.ListItem:
		b.visitListItem(n, c)
	case *ast.FencedCodeBlock:
		b.add(Item{Type: CodeBlock, Start: b.pos(n), End: b.blockEnd(n), Segs: b.segsOf(n), Footnote: c.footnote})
	case *ast.CodeBlock:
		b.add(Item{Type: CodeBlock, Start: b.codeStart(n), End: b.blockEnd(n), Segs: b.segsOf(n), Footnote: c.footnote})
	case *ast.ThematicBreak:
		b.add(Item{Type: ThematicBreak, Start: b.pos(n), End: b.blockEnd(n)})
	case *ast.HTMLBlock:
		b.add(Item{Type: HTML, Start: b.pos(n), End: b.blockEnd(n), Segs: b.segsOf(n), Footnote: c.footnote})
	case *extast.Table:
		b.visitTable(n)
	case *ast.LinkReferenceDefinition:
		// Definitions are metadata, not text: they belong to no item.
	case *extast.Footnote:
		c.footnote = string(n.Ref)
		b.visitChildren(n, c)
	default:
		b.visitOther(n, c)
	}
}

// visitChildren visits the children of n in order.
func (b *builder) visitChildren(n ast.Node, c walkCtx) {
	for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
		b.visit(ch, c)
	}
}

// visitHeading adds a heading; a heading inside a quote or list is not part
// of the book's outline: a quote's or list's paragraph.
func (b *builder) visitHeading(n *ast.Heading, c walkCtx) {
	it := Item{Type: Heading, Level: n.Level, Start: b.pos(n), Segs: b.segsOf(n), Footnote: c.footnote}
	if c.quote > 0 || c.list > 0 {
		it.Type, it.Level = Quote, c.quote
		if c.quote == 0 {
			it.Type, it.Level = Paragraph, 0
		}
	}
	it.End = b.blockEnd(n)
	b.add(it)
}

// visitParagraph adds a paragraph: a quote's inside a quote, an image when
// it holds one image alone.
func (b *builder) visitParagraph(n ast.Node, c walkCtx) {
	it := Item{Type: Paragraph, Start: b.pos(n), Segs: b.segsOf(n), Footnote: c.footnote}
	if c.quote > 0 {
		it.Type, it.Level = Quote, c.quote
	}
	if isLoneImage(n) {
		it.Type, it.Level = Image, 0
	}
	it.End = b.blockEnd(n)
	b.add(it)
}

// visitOther adds a block of another kind (an extension's) with lines and no
// children as a paragraph, and visits the children of the others.
func (b *builder) visitOther(n ast.Node, c walkCtx) {
	if n.Type() != ast.TypeBlock {
		return
	}
	if l := n.Lines(); l != nil && l.Len() > 0 && !n.HasChildren() {
		b.add(Item{Type: Paragraph, Start: b.pos(n), End: b.blockEnd(n), Segs: b.segsOf(n), Footnote: c.footnote})
		return
	}
	b.visitChildren(n, c)
}

// markerEnd returns the end of the list marker at p ("-", "*", "+", "12.", "3)").
func (b *builder) markerEnd(p int) int {
	if p < 0 || p >= len(b.src) {
		return max(p, 0)
	}
	if c := b.src[p]; c == '-' || c == '+' || c == '*' {
		return p + 1
	}
	e := p
	for e < len(b.src) && b.src[e] >= '0' && b.src[e] <= '9' {
		e++
	}
	if e < len(b.src) && (b.src[e] == '.' || b.src[e] == ')') {
		e++
	}
	return e
}

// visitListItem emits one ListItem for the item's own content (everything before its
// first nested list) and then the nested lists' items, so that every item of every
// nested list is its own element and no bytes belong to two items.
func (b *builder) visitListItem(n *ast.ListItem, c walkCtx) {
	it := Item{Type: ListItem, Level: c.list, Start: b.pos(n), Footnote: c.footnote}
	it.End = b.markerEnd(b.pos(n))
	ch := n.FirstChild()
	for ; ch != nil; ch = ch.NextSibling() {
		if _, isList := ch.(*ast.List); isList {
			break
		}
		switch ch.(type) {
		case *ast.Paragraph, *ast.TextBlock, *ast.Heading:
			it.Segs = append(it.Segs, b.segsOf(ch)...)
			if cb, ok := ch.FirstChild().(*extast.TaskCheckBox); ok && len(it.Segs) > 0 && it.Segs[0].Start == ch.Pos() {
				it.Task, it.Checked = true, cb.IsChecked
			}
		}
		it.End = max(it.End, b.blockEnd(ch))
	}
	idx := len(b.items)
	b.add(it)
	for ; ch != nil; ch = ch.NextSibling() {
		b.visit(ch, c)
	}
	sub := b.items[idx].End
	for _, d := range b.items[idx+1:] {
		sub = max(sub, d.SubEnd)
	}
	b.items[idx].SubEnd = sub
}

func (b *builder) visitTable(t *extast.Table) {
	group := b.lineStart(b.pos(t))
	rows, cols := 0, len(t.Alignments)
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		rows++
	}
	row := 0
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		col := 0
		for cell := r.FirstChild(); cell != nil; cell = cell.NextSibling() {
			segs := b.segsOf(cell)
			if len(segs) > 0 {
				b.add(Item{Type: TableCell, Start: segs[0].Start, End: segs[0].End, Segs: segs,
					Row: row, Col: col, Group: group, Rows: rows, Cols: cols})
			} else if cell.PreviousSibling() == nil || len(b.segsOf(cell.PreviousSibling())) > 0 {
				// The first cell a row leaves out (GFM makes it empty) is an
				// item at the row's end, so that it can be given text; the
				// ones after it become items as the row grows.
				e := b.lineEnd(b.pos(r))
				for e > b.pos(r) && (b.src[e-1] == ' ' || b.src[e-1] == '\t') {
					e--
				}
				b.add(Item{Type: TableCell, Start: e, End: e, Row: row, Col: col, Group: group, Rows: rows, Cols: cols})
			}
			col++
		}
		row++
	}
}

// isLoneImage reports whether a paragraph holds nothing but one image, which the
// linear document shows as an Image item (its alt text is the caption).
func isLoneImage(n ast.Node) bool {
	var img ast.Node
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Image:
			if img != nil {
				return false
			}
			img = c
		case *ast.Text:
			if c.Segment.Len() > 0 && !c.SoftLineBreak() {
				return false
			}
		default:
			return false
		}
	}
	return img != nil
}

// position fills Line and Rune of items[from:] by counting from a known position.
func position(src []byte, items []Item, from, line, runes int) {
	for i := range items {
		st := items[i].Start
		if st >= from {
			seg := src[from:st]
			line += LineBreaks(seg)
			runes += countRunes(seg)
		} else { // cannot happen for sorted items; keep the counts monotone anyway
			seg := src[st:from]
			line -= LineBreaks(seg)
			runes -= countRunes(seg)
		}
		from = st
		items[i].Line, items[i].Rune = line, runes
	}
}

var nl = []byte{'\n'}

// LineBreaks counts the line ends in b as CommonMark does: LF, CRLF and a lone
// CR (old Mac files) each end one line. A CR at the very end of b counts as a
// line end (callers count up to an item's start, which never splits a CRLF).
func LineBreaks(b []byte) int {
	n := bytes.Count(b, nl)
	for i := bytes.IndexByte(b, '\r'); i >= 0; {
		if i+1 == len(b) || b[i+1] != '\n' {
			n++
		}
		j := bytes.IndexByte(b[i+1:], '\r')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return n
}

// lineDelta is how many lines a splice of src adds (negative: removes) when
// bytes [start, oldEnd) become new: the bytes on either side are counted with
// it, since a CR before the splice and an LF after it may pair up or part.
func lineDelta(src []byte, start, oldEnd int, new []byte) int {
	a, b := max(start-1, 0), min(oldEnd+1, len(src))
	if bytes.IndexByte(src[a:b], '\r') < 0 && bytes.IndexByte(new, '\r') < 0 {
		return bytes.Count(new, nl) - bytes.Count(src[start:oldEnd], nl)
	}
	after := make([]byte, 0, start-a+len(new)+b-oldEnd)
	after = append(append(append(after, src[a:start]...), new...), src[oldEnd:b]...)
	return LineBreaks(after) - LineBreaks(src[a:b])
}

// countRunes counts the characters of valid UTF-8 quickly: every byte that is not a
// continuation byte (10xxxxxx) starts a character. Eight bytes at a time.
func countRunes(b []byte) int {
	cont := 0
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		cont += bits.OnesCount64(w &^ (w << 1) & 0x8080808080808080)
	}
	for ; i < len(b); i++ {
		if b[i]&0xC0 == 0x80 {
			cont++
		}
	}
	return len(b) - cont
}

// Parser is goldmark's parser with the product's extensions: what every open
// parses with, and the reference the open benchmark measures the rest against.
func Parser() parser.Parser { return markdown.Parser() }

// lfCopy returns src with every lone CR read as LF, in a copy of the same
// length (so every offset is the source's), or src itself when it has none.
func lfCopy(src []byte) []byte {
	i := bytes.IndexByte(src, '\r')
	if i < 0 || onlyCRLF(src[i:]) {
		return src
	}
	cp := append([]byte(nil), src...)
	for k := i; k < len(cp); k++ {
		if cp[k] == '\r' && (k+1 == len(cp) || cp[k+1] != '\n') {
			cp[k] = '\n'
		}
	}
	return cp
}

// onlyCRLF tells whether every CR in b is followed by LF.
func onlyCRLF(b []byte) bool {
	for {
		i := bytes.IndexByte(b, '\r')
		if i < 0 {
			return true
		}
		if i+1 == len(b) || b[i+1] != '\n' {
			return false
		}
		b = b[i+2:]
	}
}

// lineBreak is the line break a text uses: "\r\n", a lone "\r" (old Mac
// files) or "\n".
func lineBreak(src []byte) string {
	i := bytes.IndexAny(src, "\r\n")
	switch {
	case i < 0 || src[i] == '\n':
		return "\n"
	case i+1 < len(src) && src[i+1] == '\n':
		return "\r\n"
	}
	return "\r"
}
