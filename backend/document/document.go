package document

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"unicode/utf8"

	"github.com/yuin/goldmark/parser"
)

// DefaultMaxSize is the largest manuscript opened unless the caller says otherwise:
// far above any novel (War and Peace is 6 MB) and far below what would hurt memory.
const DefaultMaxSize = 64 << 20

// Errors callers can test for with errors.Is; the wrapped messages say what exactly
// was wrong and what is allowed.
var (
	ErrBadInput  = errors.New("bad input")
	ErrBadFile   = errors.New("not a Markdown text file")
	ErrPointer   = errors.New("bad pointer")
	ErrDeleted   = errors.New("item deleted")
	ErrHierarchy = errors.New("edit would change the document's structure")
)

// Document is a manuscript's source and its linear items. It is not safe for
// concurrent use; the manuscript service serialises access.
type Document struct {
	src     []byte
	items   []Item
	roots   []int
	heads   []int // indices of Heading items, ascending
	refs    []parser.Reference
	newline string
	bom     bool // the file starts with a UTF-8 byte-order mark (not part of src)
	// deep is 1 + the offset where lists or block quotes nest deeper than
	// MaxNesting (0: nowhere); NestingError reports it.
	deep int

	rev     int64
	baseRev int64    // the oldest revision pointers can be re-based from
	changes []Change // every change after baseRev, in order
}

// Change is one splice of the source, kept so that pointers taken at an earlier
// revision can be re-based to the current one.
type Change struct {
	Rev    int64
	Start  int // splice start in the source before the change
	OldEnd int // end of the removed bytes in the source before the change
	NewEnd int // end of the inserted bytes in the source after the change
	// Removes is true when the items that started inside [Start, OldEnd) are gone
	// (Delete, or the undo of an insertion); false when the item at Start was
	// rewritten in place (ReplaceText and its undo).
	Removes bool
	// DLines and DRunes are how many lines and characters the change added
	// (negative: removed), so line and character offsets re-base too.
	DLines, DRunes int
}

// BOM is the UTF-8 byte-order mark (U+FEFF) some editors put at the start of a
// file. The offset model: the BOM is kept on disk exactly as it was, but it is
// never text — a Document's source, every offset (byte, character, line), the
// editor's text and the revision log all start after it.
var BOM = []byte{0xEF, 0xBB, 0xBF}

// cutBOM returns src without a leading byte-order mark, and whether it had one.
func cutBOM(src []byte) ([]byte, bool) {
	if bytes.HasPrefix(src, BOM) {
		return src[len(BOM):], true
	}
	return src, false
}

// CutBOM returns the text of file bytes (without a leading byte-order mark) and the
// mark itself (nil if there is none), so that the file can be written back as
// mark + text.
func CutBOM(file []byte) (text, bom []byte) {
	if t, ok := cutBOM(file); ok {
		return t, BOM
	}
	return file, nil
}

// CheckSource validates manuscript bytes: text, UTF-8, no NUL bytes and within
// maxSize (an empty file is an empty book) (0 = DefaultMaxSize). The error names the first offending byte.
func CheckSource(name string, src []byte, maxSize int64) error {
	if maxSize <= 0 {
		maxSize = DefaultMaxSize
	}
	if int64(len(src)) > maxSize {
		return fmt.Errorf("%w: %s is %d bytes, over the limit of %d bytes; raise the limit (--max-size) or split the manuscript", ErrBadFile, name, len(src), maxSize)
	}
	nul, valid := bytes.IndexByte(src, 0), true
	if nul < 0 {
		valid = utf8.Valid(src)
	}
	if nul >= 0 || !valid {
		if u, ok := DetectUTF16(src); ok {
			return utf16Refusal(name, u)
		}
	}
	if nul >= 0 {
		if what := NulInUTF8(src); what != "" {
			return fmt.Errorf("%w: %s is %s; a NUL byte is not text: remove it (e.g. tr -d '\\000') and open the book again", ErrBadFile, name, what)
		}
		line := LineBreaks(src[:nul]) + 1
		return fmt.Errorf("%w: %s has a NUL byte at offset %d (line %d): it looks like a binary file; Waymark opens UTF-8 Markdown text", ErrBadFile, name, nul, line)
	}
	if !valid {
		i := firstInvalidUTF8(src)
		line := LineBreaks(src[:i]) + 1
		return fmt.Errorf("%w: %s is not valid UTF-8: bad byte 0x%02x at offset %d (line %d); convert the file to UTF-8 (e.g. iconv -f CP1251 -t UTF-8)", ErrBadFile, name, src[i], i, line)
	}
	return CheckHazards(name, src)
}

func firstInvalidUTF8(src []byte) int {
	for i := 0; i < len(src); {
		r, n := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(src)
}

// ReadFile reads and validates a manuscript file.
func ReadFile(path string, maxSize int64) ([]byte, error) {
	src, err := ReadRaw(path, maxSize)
	if err != nil {
		return nil, err
	}
	if err := CheckSource(path, src, maxSize); err != nil {
		return nil, err
	}
	return src, nil
}

// ReadRaw reads a manuscript file after checking it is a regular file within the
// size limit, but does not validate its bytes: callers that parse while they
// validate (CheckSource) use it.
func ReadRaw(path string, maxSize int64) ([]byte, error) {
	src, _, err := ReadRawInfo(path, maxSize)
	return src, err
}

// ReadRawInfo is ReadRaw that also returns the file's status as it was while
// its bytes were read (from the open file, not the path: a file renamed over
// the path meanwhile does not mix one file's bytes with another's status). A
// file that changed during the read is read again.
func ReadRawInfo(path string, maxSize int64) ([]byte, os.FileInfo, error) {
	for try := 0; ; try++ {
		src, fi, again, err := readRawOnce(path, maxSize)
		if err != nil || !again || try == 4 {
			return src, fi, err
		}
	}
}

func readRawOnce(path string, maxSize int64) (src []byte, info os.FileInfo, again bool, err error) {
	if maxSize <= 0 {
		maxSize = DefaultMaxSize
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, nil, false, fmt.Errorf("cannot open manuscript: %w", err)
	}
	if fi.IsDir() {
		return nil, nil, false, fmt.Errorf("%w: %s is a folder; give the path of a Markdown file", ErrBadFile, path)
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, false, fmt.Errorf("%w: %s is not a regular file (%s); Waymark opens only ordinary files, not devices, pipes or sockets", ErrBadFile, path, FileKind(fi.Mode()))
	}
	if fi.Size() > maxSize {
		return nil, nil, false, fmt.Errorf("%w: %s is %d bytes, over the limit of %d bytes; raise the limit (--max-size) or split the manuscript", ErrBadFile, path, fi.Size(), maxSize)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, false, fmt.Errorf("cannot read manuscript: %w", err)
	}
	defer f.Close()
	before, err := f.Stat()
	if err != nil {
		return nil, nil, false, fmt.Errorf("cannot read manuscript: %w", err)
	}
	if before.Size() > maxSize {
		return nil, nil, false, fmt.Errorf("%w: %s is over the limit of %d bytes; raise the limit (--max-size) or split the manuscript", ErrBadFile, path, maxSize)
	}
	// One buffer of the file's size, and a byte more to notice that it grew
	// (then it is read again, and the size checked again).
	buf := make([]byte, before.Size()+1)
	prefault(buf)
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, nil, false, fmt.Errorf("cannot read manuscript: %w", err)
	}
	src = buf[:n]
	after, err := f.Stat()
	if err != nil {
		return nil, nil, false, fmt.Errorf("cannot read manuscript: %w", err)
	}
	changed := after.Size() != before.Size() || !after.ModTime().Equal(before.ModTime()) || int64(len(src)) != after.Size()
	return src, after, changed, nil
}

// FileKind names what a file that is not a regular one is, for errors
// that say why it was refused: "a character device", "a folder"…
func FileKind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&os.ModeSymlink != 0:
		return "a symbolic link"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	}
	return "mode " + m.String()
}

// Parse builds the linear document of src at revision rev. The source is copied.
func Parse(src []byte, rev int64) *Document {
	return ParseOwned(append([]byte(nil), src...), rev)
}

// ParseOwned is Parse without the copy: the document takes src over, and edits
// splice it in place, so the caller must not use src afterwards. Opening a file
// reads it into a fresh buffer that needs no second copy.
func ParseOwned(src []byte, rev int64) *Document {
	src, hasBOM := cutBOM(src)
	d := &Document{src: src, rev: rev, baseRev: rev, bom: hasBOM}
	p := linearize(d.src)
	d.items, d.roots, d.refs, d.deep = p.items, p.roots, p.refs, p.deep
	position(d.src, d.items, 0, 0, 0)
	d.reindexHeads()
	d.newline = lineBreak(d.src)
	return d
}

func (d *Document) reindexHeads() {
	d.heads = d.heads[:0]
	for i := range d.items {
		if d.items[i].Type == Heading {
			d.heads = append(d.heads, i)
		}
	}
}

// Source returns the current Markdown text (without a byte-order mark). The slice
// must not be modified.
func (d *Document) Source() []byte { return d.src }

// FileBOM returns the byte-order mark the file starts with (written back before
// the text on every save), or nil.
func (d *Document) FileBOM() []byte {
	if d.bom {
		return BOM
	}
	return nil
}

// SetFileBOM records whether the file starts with a byte-order mark (after another
// program rewrote it).
func (d *Document) SetFileBOM(b bool) { d.bom = b }

// Len is the number of items.
func (d *Document) Len() int { return len(d.items) }

// Item returns item i; i must be in range.
func (d *Document) Item(i int) *Item { return &d.items[i] }

// Items returns the items; the slice must not be modified.
func (d *Document) Items() []Item { return d.items }

// Rev is the current revision number.
func (d *Document) Rev() int64 { return d.rev }

// Newline is the document's line break ("\n" or "\r\n"), used for inserted text.
func (d *Document) Newline() string { return d.newline }

// Markdown returns the exact source of item i.
func (d *Document) Markdown(i int) string {
	it := &d.items[i]
	return string(d.src[it.Start:it.End])
}

// HeadingOf returns the index of the nearest heading at or before item i, or -1.
func (d *Document) HeadingOf(i int) int {
	k := sort.SearchInts(d.heads, i+1)
	if k == 0 {
		return -1
	}
	return d.heads[k-1]
}

// IndexAt returns the index of the item starting exactly at byte offset off.
func (d *Document) IndexAt(off int) (int, bool) {
	i := sort.Search(len(d.items), func(i int) bool { return d.items[i].Start >= off })
	if i < len(d.items) && d.items[i].Start == off {
		return i, true
	}
	return i, false
}

// IndexContaining returns the index of the last item starting at or before off, or -1.
func (d *Document) IndexContaining(off int) int {
	return sort.Search(len(d.items), func(i int) bool { return d.items[i].Start > off }) - 1
}

// SetHistory installs the changes after baseRev (loaded from the revision log) so
// that pointers from those revisions can be re-based; rev becomes the last one.
func (d *Document) SetHistory(baseRev int64, changes []Change) {
	d.baseRev = baseRev
	d.changes = append([]Change(nil), changes...)
	d.rev = baseRev
	if n := len(changes); n > 0 {
		d.rev = changes[n-1].Rev
	}
}

// SetRev sets the revision number of the current source (after a reload that
// matches a known revision), forgetting history before it.
func (d *Document) SetRev(rev int64) {
	d.rev, d.baseRev, d.changes = rev, rev, nil
}
