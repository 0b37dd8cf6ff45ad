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

// TestUTF16UnitsEightAtATime: the word-at-a-time count agrees with the
// byte-by-byte rule on every byte value (continuations, 4-byte starts, bytes
// no UTF-8 has) at every alignment and length, and on the Russian book's kind
// of text.
func TestUTF16UnitsEightAtATime(t *testing.T) {
	byByte := func(b []byte) int {
		n := 0
		for _, c := range b {
			switch {
			case c < 0x80, c >= 0xC0 && c < 0xF0:
				n++
			case c >= 0xF0:
				n += 2
			}
		}
		return n
	}
	all := make([]byte, 0, 512)
	for i := 0; i < 256; i++ {
		all = append(all, byte(i), byte(255-i))
	}
	for _, text := range [][]byte{all, []byte(strings.Repeat("«Наташа» Natásha 😀\r\n", 50))} {
		for from := 0; from < 16; from++ {
			for to := from; to <= len(text); to++ {
				if got, want := UTF16Units(text[from:to]), byByte(text[from:to]); got != want {
					t.Fatalf("UTF16Units(text[%d:%d]) = %d, want %d", from, to, got, want)
				}
			}
		}
	}
}

// TestUTF16IndexInAnyOrder: the index counts its checkpoints only as far as
// it is asked; places asked in any order, on fresh indexes and on one that
// has counted part of the text, translate the same as a whole count.
func TestUTF16IndexInAnyOrder(t *testing.T) {
	text := []byte(strings.Repeat("Пьер 😀 Natásha «и» ", 3000)) // ~80 KiB, 20 checkpoints
	want := func(b int) int { return len(utf16.Encode([]rune(string(text[:b])))) }
	// Byte offsets at rune starts, from the end back, and scattered.
	var places []int
	for b := len(text); b >= 0; b -= 4099 {
		for b > 0 && b < len(text) && text[b]&0xC0 == 0x80 {
			b--
		}
		places = append(places, b)
	}
	shared := NewUTF16Index(text)
	for _, b := range places {
		if got, w := NewUTF16Index(text).Pos(b), want(b); got != w {
			t.Fatalf("fresh index: Pos(%d) = %d, want %d", b, got, w)
		}
		if got, w := shared.Pos(b), want(b); got != w {
			t.Fatalf("shared index: Pos(%d) = %d, want %d", b, got, w)
		}
	}
	near := NewUTF16Index(text)
	if got := near.Pos(9); got != want(9) { // "Пьер " is 9 bytes, 5 units
		t.Fatalf("Pos(9) = %d, want %d", got, want(9))
	}
	if len(near.marks) != 1 {
		t.Fatalf("a place in the first 4 KiB counted %d checkpoints; it needs none past the start", len(near.marks)-1)
	}
	mid := len(text) / 2
	for text[mid]&0xC0 == 0x80 {
		mid--
	}
	if b, err := near.ByteAt(want(mid)); err != nil || b != mid {
		t.Fatalf("ByteAt(%d) after a near place = %d, %v, want %d", want(mid), b, err, mid)
	}
}
