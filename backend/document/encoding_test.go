package document

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf16"
)

// EncodeUTF16 is the inverse of DecodeUTF16, for tests: text as UTF-16 of form u.
func EncodeUTF16(text string, u UTF16) []byte {
	var out []byte
	if u.BOM {
		if u.BigEndian {
			out = append(out, 0xFE, 0xFF)
		} else {
			out = append(out, 0xFF, 0xFE)
		}
	}
	for _, c := range utf16.Encode([]rune(text)) {
		if u.BigEndian {
			out = append(out, byte(c>>8), byte(c))
		} else {
			out = append(out, byte(c), byte(c>>8))
		}
	}
	return out
}

// TestUTF16Books: a UTF-16 book — little- or big-endian, with or without a
// byte-order mark, Russian or English — is refused with its encoding named
// (the old code said "it looks like a binary file"), and decodes to exactly
// its text; a binary file and broken UTF-16 are not taken for UTF-16.
func TestUTF16Books(t *testing.T) {
	texts := []string{"# Война и мир\r\n\r\n— Eh bien, mon prince. Наташа 🙂\r\n", "# War and Peace\n\nWell, Prince, so Genoa and Lucca…\n"}
	for _, text := range texts {
		for _, u := range []UTF16{{}, {BOM: true}, {BigEndian: true}, {BigEndian: true, BOM: true}} {
			b := EncodeUTF16(text, u)
			err := CheckSource("book.md", b, 0)
			if !errors.Is(err, ErrUTF16) || !errors.Is(err, ErrBadFile) || !strings.Contains(err.Error(), "book.md is "+u.String()+", not UTF-8") || !strings.Contains(err.Error(), "ConvertToUTF8") {
				t.Fatalf("%s of %.12q: %v", u, text, err)
			}
			got, ok := DetectUTF16(b)
			if !ok || got != u {
				t.Fatalf("%s detected as %s (%v)", u, got, ok)
			}
			dec, err := DecodeUTF16(b, got)
			if err != nil || string(dec) != text {
				t.Fatalf("%s decodes to %q, %v", u, dec, err)
			}
		}
	}
	for name, b := range map[string][]byte{
		"zip":            []byte("PK\x03\x04\x14\x00\x00\x00\x08\x00"),
		"lone surrogate": EncodeUTF16("ab", UTF16{BOM: true})[:4],
		"odd length":     append(EncodeUTF16("abc", UTF16{}), 'x'),
	} {
		if name == "lone surrogate" {
			b = append(b, 0x00, 0xD8, 'a', 0) // D800 then 'a'
		}
		if err := CheckSource("f.md", b, 0); err == nil || errors.Is(err, ErrUTF16) {
			t.Errorf("%s: %v; want a refusal that is not UTF-16", name, err)
		}
	}
}

// TestNulInUTF8IsNotUTF16: UTF-8 text with a NUL byte or two (at even or
// odd offsets, the length even) is no UTF-16: it is refused as UTF-8 with a
// NUL, naming where (the old code called it big-endian UTF-16, and
// converting it made mojibake).
func TestNulInUTF8IsNotUTF16(t *testing.T) {
	cases := []struct {
		name string
		src  []byte
		want string
	}{
		{"one NUL at an even offset", []byte("# Title\n\nSome text\x00 and more text.\n"), "is UTF-8 text with a NUL byte at offset 18 (line 3); a NUL byte is not text"},
		{"one NUL at an odd offset", []byte("# Title\n\nSome text \x00 and more text\n"), "is UTF-8 text with a NUL byte at offset 19 (line 3)"},
		{"two NULs in Russian", []byte("# Война\n\nНаташа\x00\x00 — текст.\n\n"), "is UTF-8 text with a NUL byte at offset 26 (line 3) and 1 more"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if len(c.src)%2 != 0 {
				c.src = append(c.src, '\n')
			}
			if u, ok := DetectUTF16(c.src); ok {
				t.Fatalf("detected as %s", u)
			}
			err := CheckSource("book.md", c.src, 0)
			if err == nil || errors.Is(err, ErrUTF16) || !strings.Contains(err.Error(), "book.md "+c.want) {
				t.Fatalf("%v; want %q", err, c.want)
			}
		})
	}
}
