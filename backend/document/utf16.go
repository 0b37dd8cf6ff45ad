package document

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"
	"sort"
	"unicode/utf8"
)

// The window's editor (CodeMirror, JavaScript strings) counts text in UTF-16
// code units; the document counts bytes of UTF-8. UTF16Index translates
// between the two.

// utf16Step is the spacing of the index's checkpoints in bytes.
const utf16Step = 4096

// UTF16Index maps byte offsets of a text to UTF-16 offsets with a checkpoint
// every 4 KiB, so one translation costs at most a few KiB of scanning even in
// a 6 MB book. The checkpoints are counted as far as the places asked need
// them: the first match of a search near the start of a book does not count
// the whole book. An index is not safe for use by several goroutines at once.
type UTF16Index struct {
	src   []byte
	marks []int // UTF-16 units before byte k*utf16Step, counted so far
}

// UTF16Units counts the UTF-16 code units of the runes that start in b (a
// rune that starts in b counts whole, even if b cuts it).
func UTF16Units(b []byte) int {
	const high = 0x8080808080808080
	n, i := 0, 0
	// Eight bytes at a time (a 6 MB book in about a millisecond): a byte
	// counts one unit unless it continues a rune (10xxxxxx), and one more
	// when it starts a 4-byte rune (11110xxx: a surrogate pair). Bit 7 of a
	// byte of w<<k is bit 7-k of the same byte.
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		cont := bits.OnesCount64(w &^ (w << 1) & high)
		four := bits.OnesCount64(w & (w << 1) & (w << 2) & (w << 3) & high)
		n += 8 - cont + four
	}
	for _, c := range b[i:] {
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

// NewUTF16Index indexes src, which it keeps: src must not change while the
// index is in use.
func NewUTF16Index(src []byte) *UTF16Index {
	return &UTF16Index{src: src, marks: []int{0}}
}

// upTo counts the checkpoints up to checkpoint k (at most the last).
func (x *UTF16Index) upTo(k int) {
	for len(x.marks) <= k {
		at := (len(x.marks) - 1) * utf16Step
		x.marks = append(x.marks, x.marks[len(x.marks)-1]+UTF16Units(x.src[at:min(at+utf16Step, len(x.src))]))
	}
}

// Len is the text's length in UTF-16 code units.
func (x *UTF16Index) Len() int { return x.Pos(len(x.src)) }

// Pos is the UTF-16 offset of byte offset b (clamped to the text).
func (x *UTF16Index) Pos(b int) int {
	b = max(0, min(b, len(x.src)))
	k := b / utf16Step
	x.upTo(k)
	return x.marks[k] + UTF16Units(x.src[k*utf16Step:b])
}

// ByteAt is the byte offset of UTF-16 offset u; u must not split a character.
func (x *UTF16Index) ByteAt(u int) (int, error) {
	total := x.Pos(len(x.src))
	if u < 0 || u > total {
		return 0, fmt.Errorf("UTF-16 position %d is outside the text (0..%d)", u, total)
	}
	x.upTo(len(x.src) / utf16Step) // total (above) counted them all
	k := sort.Search(len(x.marks), func(i int) bool { return x.marks[i] > u }) - 1
	b := k * utf16Step
	// Step back to a rune start (a checkpoint may fall inside a rune).
	for b > 0 && b < len(x.src) && !utf8.RuneStart(x.src[b]) {
		b--
	}
	n := x.Pos(b)
	for n < u && b < len(x.src) {
		r, size := utf8.DecodeRune(x.src[b:])
		w := 1
		if r > 0xFFFF {
			w = 2
		}
		if n+w > u {
			return 0, fmt.Errorf("UTF-16 position %d falls inside a character", u)
		}
		n += w
		b += size
	}
	return b, nil
}

// CommonPrefix is the length of the longest common prefix of a and b, in bytes.
func CommonPrefix(a, b []byte) int {
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

// CommonSuffix is the length of the longest common suffix of a and b, in bytes.
func CommonSuffix(a, b []byte) int {
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

// RuneDelta is the one change that turns old into cur: bytes [Start, OldEnd)
// of old became cur[Start:NewEnd]; neither end splits a character.
func RuneDelta(old, cur []byte) (start, oldEnd, newEnd int) {
	p := CommonPrefix(old, cur)
	for p > 0 && ((p < len(old) && !utf8.RuneStart(old[p])) || (p < len(cur) && !utf8.RuneStart(cur[p]))) {
		p--
	}
	s := CommonSuffix(old[p:], cur[p:])
	for s > 0 && (!utf8.RuneStart(old[len(old)-s]) || !utf8.RuneStart(cur[len(cur)-s])) {
		s--
	}
	return p, len(old) - s, len(cur) - s
}
