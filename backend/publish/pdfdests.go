package publish

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
)

// The contents' page numbers are read back from a first print (issue 35
// point 4): Chromium writes every element a link points at (the contents'
// <a href="#h12">) as a named destination, /h12 [page /XYZ x y 0], in the
// catalog's /Dests. destPages reads those and the page tree, no more: a
// small reader of the classic PDF Chromium (Skia) writes (one cross-reference
// table, no object streams), bounded in depth, objects and pages.

// pdfRef is an indirect object reference ("12 0 R").
type pdfRef int

// pdfName is a PDF name (/Type); strings and numbers are Go strings and
// float64, dictionaries map[string]any, arrays []any.
type pdfName string

const (
	pdfMaxDepth = 32      // nesting of arrays and dictionaries
	pdfMaxPages = 1 << 20 // pages in a page tree
)

var errNotChromiumPDF = errors.New("not a PDF as Chromium prints it")

// pdfFile is a PDF's bytes and where each object starts.
type pdfFile struct {
	data    []byte
	offsets map[int]int
	root    pdfRef
}

// destPages reads, from a PDF Chromium printed, the 1-based page each named
// destination lies on.
func destPages(pdf []byte) (map[string]int, error) {
	f, err := openPDF(pdf)
	if err != nil {
		return nil, err
	}
	cat, err := f.dict(f.root)
	if err != nil {
		return nil, err
	}
	pages, err := f.pageNumbers(cat["Pages"])
	if err != nil {
		return nil, err
	}
	if cat["Dests"] == nil {
		return map[string]int{}, nil // no link points anywhere
	}
	dests, err := f.resolveDict(cat["Dests"])
	if err != nil {
		return nil, fmt.Errorf("the PDF's named destinations: %w", err)
	}
	out := make(map[string]int, len(dests))
	for name, d := range dests {
		d, _ = f.resolve(d)
		if dd, ok := d.(map[string]any); ok { // << /D [...] >>
			d, _ = f.resolve(dd["D"])
		}
		arr, ok := d.([]any)
		if !ok || len(arr) == 0 {
			continue
		}
		if ref, ok := arr[0].(pdfRef); ok && pages[ref] > 0 {
			out[name] = pages[ref]
		}
	}
	return out, nil
}

// openPDF reads the cross-reference table startxref points at, and those
// before it (/Prev: an incremental update, as SetPDFInfo writes), and the
// newest trailer's /Root.
func openPDF(pdf []byte) (*pdfFile, error) {
	sx := startXref.FindSubmatch(pdf)
	if sx == nil {
		return nil, fmt.Errorf("%w: no startxref", errNotChromiumPDF)
	}
	at, _ := strconv.Atoi(string(sx[1]))
	f := &pdfFile{data: pdf, offsets: map[int]int{}}
	for k := 0; k < 16; k++ {
		td, err := f.readSection(at)
		if err != nil {
			return nil, err
		}
		if k == 0 {
			root, ok := td["Root"].(pdfRef)
			if !ok {
				return nil, fmt.Errorf("%w: the trailer names no /Root", errNotChromiumPDF)
			}
			f.root = root
		}
		prev, ok := td["Prev"].(float64)
		if !ok {
			return f, nil
		}
		at = int(prev)
	}
	return nil, fmt.Errorf("%w: too many updates", errNotChromiumPDF)
}

// readSection reads the cross-reference section at offset at (entries an
// update newer than it gave are kept) and returns its trailer.
func (f *pdfFile) readSection(at int) (map[string]any, error) {
	if at < 0 || at >= len(f.data) || !bytes.HasPrefix(f.data[at:], []byte("xref")) {
		return nil, fmt.Errorf("%w: no cross-reference table where the PDF says", errNotChromiumPDF)
	}
	p := &pdfParser{b: f.data, i: at + len("xref")}
	if err := f.readXref(p); err != nil {
		return nil, err
	}
	trailer, err := p.value(0)
	if err != nil {
		return nil, fmt.Errorf("%w: the trailer: %v", errNotChromiumPDF, err)
	}
	td, ok := trailer.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: the trailer is no dictionary", errNotChromiumPDF)
	}
	return td, nil
}

// readXref reads the table's subsections ("first count", then count
// 20-byte entries) up to the word trailer.
func (f *pdfFile) readXref(p *pdfParser) error {
	for {
		p.space()
		if bytes.HasPrefix(p.b[p.i:], []byte("trailer")) {
			p.i += len("trailer")
			return nil
		}
		first, err1 := p.integer()
		count, err2 := p.integer()
		if err1 != nil || err2 != nil || first < 0 || count < 0 || count > len(p.b)/20 {
			return fmt.Errorf("%w: a broken cross-reference table", errNotChromiumPDF)
		}
		p.space()
		for k := 0; k < count; k++ {
			if p.i+20 > len(p.b) {
				return fmt.Errorf("%w: a cut cross-reference table", errNotChromiumPDF)
			}
			e := p.b[p.i : p.i+20]
			if e[17] == 'n' {
				off, err := strconv.Atoi(string(e[:10]))
				if err != nil {
					return fmt.Errorf("%w: a broken cross-reference entry", errNotChromiumPDF)
				}
				if _, newer := f.offsets[first+k]; !newer {
					f.offsets[first+k] = off
				}
			}
			p.i += 20
		}
	}
}

// object is the value of object n (its dictionary; a stream's data is not
// read).
func (f *pdfFile) object(n pdfRef) (any, error) {
	off, ok := f.offsets[int(n)]
	if !ok || off < 0 || off >= len(f.data) {
		return nil, fmt.Errorf("%w: no object %d", errNotChromiumPDF, n)
	}
	p := &pdfParser{b: f.data, i: off}
	num, err1 := p.integer()
	_, err2 := p.integer()
	p.space()
	if err1 != nil || err2 != nil || pdfRef(num) != n || !bytes.HasPrefix(p.b[p.i:], []byte("obj")) {
		return nil, fmt.Errorf("%w: object %d is not where the table says", errNotChromiumPDF, n)
	}
	p.i += len("obj")
	return p.value(0)
}

// resolve follows v when it is a reference.
func (f *pdfFile) resolve(v any) (any, error) {
	if r, ok := v.(pdfRef); ok {
		return f.object(r)
	}
	return v, nil
}

func (f *pdfFile) resolveDict(v any) (map[string]any, error) {
	v, err := f.resolve(v)
	if err != nil {
		return nil, err
	}
	d, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: a dictionary expected", errNotChromiumPDF)
	}
	return d, nil
}

func (f *pdfFile) dict(n pdfRef) (map[string]any, error) { return f.resolveDict(n) }

// pageNumbers walks the page tree from its root in order: each page
// object's 1-based number.
func (f *pdfFile) pageNumbers(root any) (map[pdfRef]int, error) {
	r, ok := root.(pdfRef)
	if !ok {
		return nil, fmt.Errorf("%w: the catalog has no page tree", errNotChromiumPDF)
	}
	pages := map[pdfRef]int{}
	seen := map[pdfRef]bool{}
	stack := []pdfRef{r}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[n] || len(seen) > pdfMaxPages {
			return nil, fmt.Errorf("%w: the page tree loops or is too big", errNotChromiumPDF)
		}
		seen[n] = true
		d, err := f.dict(n)
		if err != nil {
			return nil, err
		}
		if d["Type"] == pdfName("Page") {
			pages[n] = len(pages) + 1
			continue
		}
		kids, _ := d["Kids"].([]any)
		for k := len(kids) - 1; k >= 0; k-- { // the first kid on top
			if kr, ok := kids[k].(pdfRef); ok {
				stack = append(stack, kr)
			}
		}
	}
	return pages, nil
}

// pdfParser reads PDF values from b at i.
type pdfParser struct {
	b []byte
	i int
}

func isPDFSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == 0
}

func isPDFDelim(c byte) bool {
	return isPDFSpace(c) || bytes.IndexByte([]byte("()<>[]{}/%"), c) >= 0
}

// space skips white space and comments.
func (p *pdfParser) space() {
	for p.i < len(p.b) {
		switch c := p.b[p.i]; {
		case isPDFSpace(c):
			p.i++
		case c == '%':
			for p.i < len(p.b) && p.b[p.i] != '\n' && p.b[p.i] != '\r' {
				p.i++
			}
		default:
			return
		}
	}
}

// word is the regular characters at i (a number, a keyword, a name's
// letters).
func (p *pdfParser) word() string {
	p.space()
	s := p.i
	for p.i < len(p.b) && !isPDFDelim(p.b[p.i]) {
		p.i++
	}
	return string(p.b[s:p.i])
}

func (p *pdfParser) integer() (int, error) {
	return strconv.Atoi(p.word())
}

// value reads one value: a dictionary, array, name, string, number,
// reference or keyword.
func (p *pdfParser) value(depth int) (any, error) {
	if depth > pdfMaxDepth {
		return nil, fmt.Errorf("%w: values nested too deep", errNotChromiumPDF)
	}
	p.space()
	if p.i >= len(p.b) {
		return nil, fmt.Errorf("%w: cut short", errNotChromiumPDF)
	}
	switch c := p.b[p.i]; {
	case bytes.HasPrefix(p.b[p.i:], []byte("<<")):
		p.i += 2
		return p.dictionary(depth)
	case c == '[':
		p.i++
		return p.array(depth)
	case c == '/':
		p.i++
		return pdfName(p.word()), nil
	case c == '(':
		return p.literal()
	case c == '<':
		return p.hex()
	}
	return p.numberOrRef()
}

func (p *pdfParser) dictionary(depth int) (any, error) {
	d := map[string]any{}
	for {
		p.space()
		if bytes.HasPrefix(p.b[p.i:], []byte(">>")) {
			p.i += 2
			return d, nil
		}
		k, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		name, ok := k.(pdfName)
		if !ok {
			return nil, fmt.Errorf("%w: a dictionary key is not a name", errNotChromiumPDF)
		}
		if d[string(name)], err = p.value(depth + 1); err != nil {
			return nil, err
		}
	}
}

func (p *pdfParser) array(depth int) (any, error) {
	var a []any
	for {
		p.space()
		if p.i < len(p.b) && p.b[p.i] == ']' {
			p.i++
			return a, nil
		}
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		a = append(a, v)
	}
}

// literal reads a (string), balanced parentheses and escapes kept as they
// are (only names and references matter here).
func (p *pdfParser) literal() (any, error) {
	s, level := p.i+1, 0
	for ; p.i < len(p.b); p.i++ {
		switch p.b[p.i] {
		case '\\':
			p.i++
		case '(':
			level++
		case ')':
			level--
			if level == 0 {
				p.i++
				return string(p.b[s : p.i-1]), nil
			}
		}
	}
	return nil, fmt.Errorf("%w: an unclosed string", errNotChromiumPDF)
}

func (p *pdfParser) hex() (any, error) {
	e := bytes.IndexByte(p.b[p.i:], '>')
	if e < 0 {
		return nil, fmt.Errorf("%w: an unclosed hex string", errNotChromiumPDF)
	}
	s := string(p.b[p.i+1 : p.i+e])
	p.i += e + 1
	return s, nil
}

// numberOrRef reads a number, "n g R" or a keyword (true, false, null).
func (p *pdfParser) numberOrRef() (any, error) {
	w := p.word()
	if w == "" {
		return nil, fmt.Errorf("%w: an unexpected %q", errNotChromiumPDF, p.b[p.i])
	}
	n, err := strconv.Atoi(w)
	if err != nil {
		if f, err := strconv.ParseFloat(w, 64); err == nil {
			return f, nil
		}
		return pdfName(w), nil // true, false, null: not needed here
	}
	save := p.i
	if g := p.word(); g != "" {
		if _, err := strconv.Atoi(g); err == nil && p.word() == "R" {
			return pdfRef(n), nil
		}
	}
	p.i = save
	return float64(n), nil
}
