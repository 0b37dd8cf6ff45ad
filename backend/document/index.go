package document

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/yuin/goldmark/parser"

	"github.com/waymark/waymark/backend/textmatch"
)

// IndexVersion changes whenever linearisation changes, so that a stored index made
// by another version is never used.
const IndexVersion = 6 // 4: a byte-order mark is not part of the text; 5: a lone CR ends a line; 6: and counts as one, YAML front matter is one item, a table cell a row leaves out is one

// ErrIndex is returned for an index that does not fit the source.
var ErrIndex = errors.New("stale or damaged document index")

// MarshalIndex encodes the linear items (and the top-level block starts and link
// references) compactly, so that reopening an unchanged book can skip goldmark:
// decoding is several times faster than parsing 6 MB of Markdown.
func (d *Document) MarshalIndex() []byte {
	b := make([]byte, 0, len(d.items)*24+len(d.roots)*3+64)
	b = binary.AppendUvarint(b, IndexVersion)
	b = binary.AppendUvarint(b, uint64(len(d.src)))
	b = binary.AppendUvarint(b, uint64(len(d.items)))
	prev := 0
	for i := range d.items {
		it := &d.items[i]
		b = append(b, byte(it.Type))
		b = binary.AppendUvarint(b, uint64(it.Level))
		b = binary.AppendUvarint(b, uint64(it.Start-prev))
		b = binary.AppendUvarint(b, uint64(it.End-it.Start))
		b = binary.AppendUvarint(b, uint64(it.Start-it.Lead))
		b = binary.AppendUvarint(b, uint64(it.SubEnd-it.End))
		b = binary.AppendUvarint(b, uint64(len(it.Segs)))
		last := it.Lead
		for _, s := range it.Segs {
			b = binary.AppendVarint(b, int64(s.Start-last))
			b = binary.AppendUvarint(b, uint64(s.End-s.Start))
			last = s.End
		}
		flags := byte(0)
		if it.Task {
			flags |= 1
		}
		if it.Checked {
			flags |= 2
		}
		if it.Type == TableCell {
			flags |= 4
		}
		b = append(b, flags)
		if it.Type == TableCell {
			for _, v := range []int{it.Row, it.Col, it.Start - it.Group, it.Rows, it.Cols} {
				b = binary.AppendUvarint(b, uint64(v))
			}
		}
		b = appendString(b, it.Prefix)
		b = appendString(b, it.Footnote)
		prev = it.Start
	}
	b = binary.AppendUvarint(b, uint64(len(d.roots)))
	prev = 0
	for _, r := range d.roots {
		b = binary.AppendUvarint(b, uint64(r-prev))
		prev = r
	}
	b = binary.AppendUvarint(b, uint64(len(d.refs)))
	for _, r := range d.refs {
		b = appendString(b, string(r.Label()))
		b = appendString(b, string(r.Destination()))
		b = appendString(b, string(r.Title()))
	}
	return b
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

type indexReader struct {
	b   []byte
	err error
}

func (r *indexReader) uvarint() int {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 || v > 1<<40 {
		r.err = ErrIndex
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

func (r *indexReader) varint() int {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.err = ErrIndex
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

func (r *indexReader) byte1() byte {
	if r.err != nil || len(r.b) == 0 {
		r.err = ErrIndex
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *indexReader) str() string {
	n := r.uvarint()
	if r.err != nil || n > len(r.b) {
		r.err = ErrIndex
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

// ParseWithIndex builds the document of src from an index MarshalIndex made of the
// same bytes, taking src over like ParseOwned. Every range is checked against the
// source; an index that does not fit is ErrIndex and the caller parses instead.
func ParseWithIndex(src []byte, rev int64, index []byte) (*Document, error) {
	src, hasBOM := cutBOM(src)
	r := &indexReader{b: index}
	if v := r.uvarint(); v != IndexVersion {
		return nil, fmt.Errorf("%w: version %d, this build writes %d", ErrIndex, v, IndexVersion)
	}
	if n := r.uvarint(); n != len(src) {
		return nil, fmt.Errorf("%w: made for %d bytes, the source has %d", ErrIndex, n, len(src))
	}
	items, err := r.items(len(src))
	if err != nil {
		return nil, err
	}
	roots, err := r.roots(len(src))
	if err != nil {
		return nil, err
	}
	refs := r.refs()
	if r.err != nil || len(r.b) != 0 {
		return nil, ErrIndex
	}
	d := &Document{src: src, items: items, roots: roots, refs: refs, rev: rev, baseRev: rev, bom: hasBOM}
	position(d.src, d.items, 0, 0, 0)
	d.reindexHeads()
	d.newline = lineBreak(d.src)
	return d, nil
}

// items reads the index's items, each checked against a source of srcLen
// bytes.
func (r *indexReader) items(srcLen int) ([]Item, error) {
	n := r.uvarint()
	if r.err != nil || n > srcLen+1 {
		return nil, ErrIndex
	}
	items := make([]Item, n)
	segs := make([]textmatch.Segment, 0, n+n/4)
	prefaultSlice(items) // megabytes filled at once (prefault_linux.go)
	prefaultSlice(segs[:cap(segs)])
	prev := 0
	for i := range items {
		it := &items[i]
		ns, err := r.itemRange(it, prev, srcLen)
		if err != nil {
			return nil, err
		}
		if cap(segs)-len(segs) < ns {
			// A new block for the items to come; those before keep theirs (a
			// book of hard-wrapped lines has several segments an item: growing
			// one slice copied megabytes into memory touched for the first time).
			segs = make([]textmatch.Segment, 0, max(ns, n/4+16))
			prefaultSlice(segs[:cap(segs)])
		}
		if segs, err = r.segments(it, ns, segs, srcLen); err != nil {
			return nil, err
		}
		r.itemRest(it)
		if r.err != nil || it.Type < Heading || it.Type > HTML {
			return nil, ErrIndex
		}
		prev = it.Start
	}
	return items, nil
}

// inSource: [a, b) is a range of a source of srcLen bytes.
func inSource(a, b, srcLen int) bool { return a >= 0 && a <= b && b <= srcLen }

// itemRange reads an item's type, level and offsets (Start after prev, the
// item before's) and its number of segments.
func (r *indexReader) itemRange(it *Item, prev, srcLen int) (int, error) {
	it.Type = ItemType(r.byte1())
	it.Level = r.uvarint()
	it.Start = prev + r.uvarint()
	it.End = it.Start + r.uvarint()
	it.Lead = it.Start - r.uvarint()
	it.SubEnd = it.End + r.uvarint()
	ns := r.uvarint()
	if r.err != nil || ns > srcLen+1 || !inSource(it.Lead, it.Start, srcLen) || !inSource(it.Start, it.End, srcLen) || !inSource(it.End, it.SubEnd, srcLen) || it.Start < prev {
		return 0, ErrIndex
	}
	if ns > len(r.b)/2 { // two bytes of the index a segment at least
		return 0, ErrIndex
	}
	return ns, nil
}

// segments reads an item's ns text segments into segs (which has room).
func (r *indexReader) segments(it *Item, ns int, segs []textmatch.Segment, srcLen int) ([]textmatch.Segment, error) {
	base := len(segs)
	last := it.Lead
	for k := 0; k < ns; k++ {
		s := last + r.varint()
		e := s + r.uvarint()
		if r.err != nil || !inSource(s, e, srcLen) {
			return nil, ErrIndex
		}
		segs = append(segs, textmatch.Segment{Start: s, End: e})
		last = e
	}
	if ns > 0 {
		it.Segs = segs[base:len(segs):len(segs)]
	}
	return segs, nil
}

// itemRest reads an item's flags, table place, prefix and footnote.
func (r *indexReader) itemRest(it *Item) {
	flags := r.byte1()
	it.Task, it.Checked = flags&1 != 0, flags&2 != 0
	if flags&4 != 0 {
		it.Row, it.Col = r.uvarint(), r.uvarint()
		it.Group = it.Start - r.uvarint()
		it.Rows, it.Cols = r.uvarint(), r.uvarint()
	}
	it.Prefix = r.str()
	it.Footnote = r.str()
}

// roots reads the offsets of the top-level blocks.
func (r *indexReader) roots(srcLen int) ([]int, error) {
	nr := r.uvarint()
	if r.err != nil || nr > srcLen+1 {
		return nil, ErrIndex
	}
	roots := make([]int, nr)
	prev := 0
	for i := range roots {
		roots[i] = prev + r.uvarint()
		if roots[i] > srcLen {
			return nil, ErrIndex
		}
		prev = roots[i]
	}
	return roots, nil
}

// refs reads the link reference definitions.
func (r *indexReader) refs() []parser.Reference {
	nrefs := r.uvarint()
	var refs []parser.Reference
	for k := 0; k < nrefs && r.err == nil; k++ {
		label, dest, title := r.str(), r.str(), r.str()
		refs = append(refs, parser.NewReference([]byte(label), []byte(dest), []byte(title)))
	}
	return refs
}
