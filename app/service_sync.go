package main

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"unicode/utf8"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/manuscript"
)

// The editor (CodeMirror, JavaScript strings) counts text in UTF-16 code units;
// the document counts bytes of UTF-8. These helpers translate between the two.

// utf16Step is the spacing of the index's checkpoints in bytes.
const utf16Step = 4096

// utf16Index maps byte offsets of a text to UTF-16 offsets with a checkpoint
// every utf16Step bytes, so one translation costs at most a few KiB of scanning
// even in a 6 MB book.
type utf16Index struct {
	src   []byte
	marks []int // UTF-16 units before byte k*utf16Step
}

// units counts the UTF-16 code units of the runes that start in b (a rune
// that starts in b counts whole, even if b cuts it).
func units(b []byte) int {
	n := 0
	for _, c := range b {
		switch {
		case c < 0x80:
			n++
		case c < 0xC0: // continuation byte
		case c < 0xF0:
			n++
		default: // a 4-byte rune: a surrogate pair
			n += 2
		}
	}
	return n
}

func newUTF16Index(src []byte) *utf16Index {
	x := &utf16Index{src: src, marks: make([]int, 0, len(src)/utf16Step+2)}
	n := 0
	for k := 0; k <= len(src); k += utf16Step {
		x.marks = append(x.marks, n)
		end := min(k+utf16Step, len(src))
		n += units(src[k:end])
	}
	return x
}

// pos is the UTF-16 offset of byte offset b (clamped to the text).
func (x *utf16Index) pos(b int) int {
	b = max(0, min(b, len(x.src)))
	k := b / utf16Step
	return x.marks[k] + units(x.src[k*utf16Step:b])
}

// byteAt is the byte offset of UTF-16 offset u; u must not split a character.
func (x *utf16Index) byteAt(u int) (int, error) {
	total := x.pos(len(x.src))
	if u < 0 || u > total {
		return 0, fmt.Errorf("position %d is outside the text (0..%d)", u, total)
	}
	k := sort.Search(len(x.marks), func(i int) bool { return x.marks[i] > u }) - 1
	b, n := k*utf16Step, x.marks[k]
	// Step back to a rune start (a checkpoint may fall inside a rune).
	for b > 0 && b < len(x.src) && !utf8.RuneStart(x.src[b]) {
		b--
	}
	n = x.pos(b)
	for n < u && b < len(x.src) {
		r, size := utf8.DecodeRune(x.src[b:])
		w := 1
		if r > 0xFFFF {
			w = 2
		}
		if n+w > u {
			return 0, fmt.Errorf("position %d falls inside a character", u)
		}
		n += w
		b += size
	}
	return b, nil
}

// index returns the UTF-16 index of the current manuscript at revision rev
// (nil if the manuscript is no longer at rev).
func (a *DesktopApp) index(rev int64) *utf16Index {
	m, err := a.current()
	if err != nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.u16 != nil && a.u16rev == rev && a.u16doc == m.Path {
		return a.u16
	}
	var x *utf16Index
	_ = m.Do(func(d *document.Document) error {
		if d.Rev() == rev {
			x = newUTF16Index(append([]byte(nil), d.Source()...))
		}
		return nil
	})
	if x != nil {
		a.u16, a.u16rev, a.u16doc = x, rev, m.Path
	}
	return x
}

// SyncResult brings the editor up to the manuscript's newest revision: either
// the whole text (Full) or one change from what the editor holds.
type SyncResult struct {
	Revision int64  `json:"revision"`
	Full     bool   `json:"full"`
	Markdown string `json:"markdown,omitempty"`
	// From and To are the replaced range of the editor's text and Insert the
	// new text, in UTF-16 units. From == To and Insert == "" means no change.
	From    int    `json:"from"`
	To      int    `json:"to"`
	Insert  string `json:"insert"`
	Summary string `json:"summary,omitempty"`
}

// Sync returns what changed since the editor's revision knownRev (after a
// command, an undo, a restore or a reload).
func (a *DesktopApp) Sync(knownRev int64) (SyncResult, error) {
	m, err := a.current()
	if err != nil {
		return SyncResult{}, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	var res SyncResult
	err = m.Do(func(d *document.Document) error {
		cur := d.Source()
		res.Revision = d.Rev()
		if a.syncedDoc != m.Path || knownRev != a.syncedRev {
			res.Full, res.Markdown = true, string(cur)
		} else {
			old := a.synced
			p := commonPrefixLen(old, cur)
			for p > 0 && ((p < len(old) && !utf8.RuneStart(old[p])) || (p < len(cur) && !utf8.RuneStart(cur[p]))) {
				p--
			}
			s := commonSuffixLen(old[p:], cur[p:])
			for s > 0 && (!utf8.RuneStart(old[len(old)-s]) || !utf8.RuneStart(cur[len(cur)-s])) {
				s--
			}
			from := units(old[:p])
			res.From, res.To = from, from+units(old[p:len(old)-s])
			res.Insert = string(cur[p : len(cur)-s])
		}
		a.synced = append(a.synced[:0], cur...)
		a.syncedRev, a.syncedDoc = d.Rev(), m.Path
		return nil
	})
	return res, err
}

func commonPrefixLen(a, b []byte) int {
	n := min(len(a), len(b))
	lo := 0
	// Compare in blocks first: books differ in one place after an edit.
	for lo+4096 <= n && bytes.Equal(a[lo:lo+4096], b[lo:lo+4096]) {
		lo += 4096
	}
	for lo < n && a[lo] == b[lo] {
		lo++
	}
	return lo
}

func commonSuffixLen(a, b []byte) int {
	n := min(len(a), len(b))
	k := 0
	for k+4096 <= n && bytes.Equal(a[len(a)-k-4096:len(a)-k], b[len(b)-k-4096:len(b)-k]) {
		k += 4096
	}
	for k < n && a[len(a)-1-k] == b[len(b)-1-k] {
		k++
	}
	return k
}

// TypeResult is the outcome of saving typed text.
type TypeResult struct {
	Revision int64  `json:"revision"`
	Summary  string `json:"summary"`
}

// TypeEdit saves what the author typed in the editor: the range [from, to) of
// the editor's text at revision baseRev (UTF-16 units) became text. It is one
// revision, undoable like any edit. If the manuscript changed meanwhile nothing
// is written and the error says so (the editor then syncs and the author retypes).
func (a *DesktopApp) TypeEdit(baseRev int64, from, to int, text string) (TypeResult, error) {
	m, err := a.current()
	if err != nil {
		return TypeResult{}, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.syncedDoc != m.Path || a.syncedRev != baseRev {
		return TypeResult{}, fmt.Errorf("%w: the editor holds revision %d, the manuscript is at revision %d; nothing was written", manuscript.ErrStale, baseRev, a.syncedRev)
	}
	if to < from {
		return TypeResult{}, fmt.Errorf("the typed change has its end (%d) before its start (%d); nothing was written", to, from)
	}
	x := newUTF16Index(a.synced)
	bFrom, err := x.byteAt(from)
	if err != nil {
		return TypeResult{}, fmt.Errorf("the typed change: %w; nothing was written", err)
	}
	bTo, err := x.byteAt(to)
	if err != nil {
		return TypeResult{}, fmt.Errorf("the typed change: %w; nothing was written", err)
	}
	out, err := m.ApplySplice(a.context(), baseRev, bFrom, bTo, []byte(text))
	if err != nil {
		if errors.Is(err, manuscript.ErrChangedOnDisk) {
			a.send("manuscript:disk", m.CheckDisk())
		}
		return TypeResult{}, err
	}
	next := make([]byte, 0, len(a.synced)-(bTo-bFrom)+len(text))
	next = append(append(append(next, a.synced[:bFrom]...), text...), a.synced[bTo:]...)
	a.synced, a.syncedRev = next, out.Rev
	return TypeResult{Revision: out.Rev, Summary: out.Summary}, nil
}
