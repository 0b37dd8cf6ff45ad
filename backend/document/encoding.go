package document

import (
	"bytes"
	"errors"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// UTF16 is the form of a UTF-16 file: its byte order and whether it starts
// with a byte-order mark. Word's and old Notepad's "Unicode text" is UTF-16.
type UTF16 struct {
	BigEndian, BOM bool
}

// String names the encoding as an author reads it in a message.
func (u UTF16) String() string {
	s := "UTF-16 (little-endian"
	if u.BigEndian {
		s = "UTF-16 (big-endian"
	}
	if u.BOM {
		return s + ", with a byte-order mark)"
	}
	return s + ", without a byte-order mark)"
}

// ErrUTF16 marks a file refused because it is UTF-16 text, not UTF-8 (it also
// wraps ErrBadFile): the caller may offer to convert it (see DecodeUTF16).
var ErrUTF16 = errors.New("UTF-16 text")

// DetectUTF16 tells whether b is UTF-16 text: it starts with a UTF-16
// byte-order mark, or it has an even length and NUL bytes (the high bytes of
// ASCII characters: spaces, line breaks, digits, Latin letters) at odd
// offsets only (little-endian) or even offsets only (big-endian), in at
// least one code unit of minUTF16Nul — and it decodes to text: no lone
// surrogate, no control character but tab, line breaks and form feed. A NUL
// or two in UTF-8 text is no evidence (issue 32: a UTF-8 book with one NUL
// byte was called big-endian UTF-16 and converted to mojibake).
func DetectUTF16(b []byte) (UTF16, bool) {
	var u UTF16
	switch {
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE}) && !bytes.HasPrefix(b, []byte{0xFF, 0xFE, 0, 0}):
		u.BOM = true
	case bytes.HasPrefix(b, []byte{0xFE, 0xFF}):
		u.BOM, u.BigEndian = true, true
	default:
		if len(b) < 2 || len(b)%2 != 0 {
			return u, false
		}
		var even, odd int
		for k, c := range b[:min(len(b), 1<<16)] {
			if c == 0 {
				if k%2 == 0 {
					even++
				} else {
					odd++
				}
			}
		}
		units := min(len(b), 1<<16) / 2
		switch {
		case odd > 0 && even == 0 && odd >= 2 && odd*minUTF16Nul >= units:
		case even > 0 && odd == 0 && even >= 2 && even*minUTF16Nul >= units:
			u.BigEndian = true
		default:
			return u, false
		}
	}
	if len(b)%2 != 0 {
		return u, false
	}
	_, err := DecodeUTF16(b, u)
	return u, err == nil
}

// minUTF16Nul: UTF-16 text without a byte-order mark has a NUL byte in at
// least one code unit in this many (Russian prose in UTF-16 has one in five
// or six: its spaces and line breaks; English, every one).
const minUTF16Nul = 16

// NulInUTF8 describes text that is valid UTF-8 but for NUL bytes: where the
// first one is and how many there are ("" when b has no NUL or is not UTF-8
// apart from them).
func NulInUTF8(b []byte) string {
	first := bytes.IndexByte(b, 0)
	if first < 0 || !utf8.Valid(b) {
		return ""
	}
	n := bytes.Count(b, []byte{0})
	more := ""
	if n > 1 {
		more = fmt.Sprintf(" and %d more", n-1)
	}
	return fmt.Sprintf("UTF-8 text with a NUL byte at offset %d (line %d)%s", first, LineBreaks(b[:first])+1, more)
}

// DecodeUTF16 turns UTF-16 text of form u into UTF-8 (without the byte-order
// mark). Every character is kept, so the conversion can be undone exactly; a
// lone surrogate or a control character is an error naming its offset.
func DecodeUTF16(b []byte, u UTF16) ([]byte, error) {
	if u.BOM {
		b = b[2:]
	}
	if len(b)%2 != 0 {
		return nil, fmt.Errorf("%w: an odd number of bytes (%d) cannot be UTF-16", ErrBadFile, len(b))
	}
	units := make([]uint16, len(b)/2)
	for k := range units {
		if u.BigEndian {
			units[k] = uint16(b[2*k])<<8 | uint16(b[2*k+1])
		} else {
			units[k] = uint16(b[2*k+1])<<8 | uint16(b[2*k])
		}
	}
	out := make([]byte, 0, len(units)+len(units)/2)
	for k := 0; k < len(units); k++ {
		r := rune(units[k])
		if utf16.IsSurrogate(r) {
			if k+1 < len(units) {
				if pair := utf16.DecodeRune(r, rune(units[k+1])); pair != utf8.RuneError {
					out = utf8.AppendRune(out, pair)
					k++
					continue
				}
			}
			return nil, fmt.Errorf("%w: a lone UTF-16 surrogate (0x%04X) at byte %d", ErrBadFile, r, 2*k)
		}
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' && r != '\f' {
			return nil, fmt.Errorf("%w: control character 0x%02X at byte %d: not text", ErrBadFile, r, 2*k)
		}
		out = utf8.AppendRune(out, r)
	}
	return out, nil
}

// utf16Refusal is the error for a manuscript that is UTF-16 text: it names the
// encoding and the way to convert it.
func utf16Refusal(name string, u UTF16) error {
	return fmt.Errorf("%w: %s is %s, not UTF-8; Waymark opens UTF-8 Markdown. It can convert the book — every character stays as it is, and the UTF-16 file is kept beside it as %s.utf16: in the window choose Convert; from the command line run: waymark call ConvertToUTF8 '{\"path\": %q}' (%w)",
		ErrBadFile, name, u, name, name, ErrUTF16)
}
