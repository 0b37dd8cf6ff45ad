package document

import (
	"strings"
	"testing"
	"unicode/utf16"
)

// TestUTF16Index checks the byte ↔ UTF-16 translation on ASCII, Cyrillic,
// accents and characters outside the BMP, across checkpoints.
func TestUTF16Index(t *testing.T) {
	text := strings.Repeat("ab «Наташа» Natásha 😀 ", 700) // > 4 KiB, runes cut by checkpoints
	x := NewUTF16Index([]byte(text))
	u := 0
	for b, r := range text {
		if got := x.Pos(b); got != u {
			t.Fatalf("Pos(%d) = %d, want %d", b, got, u)
		}
		if got, err := x.ByteAt(u); err != nil || got != b {
			t.Fatalf("ByteAt(%d) = %d, %v, want %d", u, got, err, b)
		}
		if r > 0xFFFF {
			if _, err := x.ByteAt(u + 1); err == nil {
				t.Fatalf("ByteAt(%d) inside a surrogate pair was accepted", u+1)
			}
		}
		u += len(utf16.Encode([]rune{r}))
	}
	if x.Len() != u {
		t.Fatalf("end: %d, want %d", x.Len(), u)
	}
	if _, err := x.ByteAt(u + 1); err == nil {
		t.Fatal("a position past the end was accepted")
	}
}

// TestRuneDelta: the one change between two texts never splits a character.
func TestRuneDelta(t *testing.T) {
	cases := []struct{ old, cur, removed, inserted string }{
		{"same", "same", "", ""},
		{"Наташа", "Натаща", "ш", "щ"}, // differ in the second byte of a rune
		{"a😀b", "a😁b", "😀", "😁"},
		{strings.Repeat("x", 9000) + "1" + strings.Repeat("y", 9000), strings.Repeat("x", 9000) + "22" + strings.Repeat("y", 9000), "1", "22"},
	}
	for _, c := range cases {
		p, oe, ne := RuneDelta([]byte(c.old), []byte(c.cur))
		if c.old[p:oe] != c.removed || c.cur[p:ne] != c.inserted {
			t.Errorf("%.20q → %.20q: removed %q inserted %q", c.old, c.cur, c.old[p:oe], c.cur[p:ne])
		}
	}
}
