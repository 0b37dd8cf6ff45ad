package browser

import (
	"reflect"
	"strings"
	"testing"
)

// Occurrences are found case- and ё-insensitively, a space in the text
// looked for matching any run of white space, at positions in the text as
// browser_read counts them.
func TestOccurrences(t *testing.T) {
	cases := []struct {
		text, q string
		want    []int
	}{
		{"malloc and MALLOC and xmalloc", "malloc", []int{0, 11, 23}},
		{"Ёлка и елка, ЕЛКА", "елка", []int{0, 7, 13}},
		{"free  software\nfree\tsoftware", "free software", []int{0, 15}},
		{"aaaa", "aa", []int{0, 2}},
		{"Война и мир", "мир", []int{8}},
		{"nothing here", "malloc", nil},
		{"text", "   ", nil},
	}
	for _, c := range cases {
		if got := occurrences([]rune(c.text), c.q); !reflect.DeepEqual(got, c.want) {
			t.Errorf("occurrences(%q, %q) = %v, want %v", c.text, c.q, got, c.want)
		}
	}
}

// The line said around an occurrence is its whole line, or 300 characters
// of it around the occurrence, and where the line starts.
func TestLineAround(t *testing.T) {
	text := []rune("first line\nthe second line holds malloc here\nthird")
	at := strings.Index(string(text), "malloc")
	line, start := lineAround(text, len([]rune(string(text)[:at])), 6)
	if line != "the second line holds malloc here" || start != 11 {
		t.Errorf("lineAround = %q, %d", line, start)
	}
	long := []rune(strings.Repeat("word ", 200) + "malloc" + strings.Repeat(" word", 200))
	line, start = lineAround(long, 1000, 6)
	if start != 0 || !strings.Contains(line, "malloc") || !strings.HasPrefix(line, "…") || !strings.HasSuffix(line, "…") || len([]rune(line)) > maxLineAround+2 {
		t.Errorf("a long line is not cut around the occurrence: %d characters, %q…", len([]rune(line)), string([]rune(line)[:20]))
	}
}

// read page starts past a menu only: short lines before the first heading
// of a page with no main landmark, at least three of them.
func TestMainStart(t *testing.T) {
	page := func(body bool, text string, heads ...Heading) *readable {
		return &readable{body: body, text: []rune(text), headings: heads}
	}
	menu := "Home\nAbout\nDocs\nDownload\n"
	at := len([]rune(menu))
	cases := []struct {
		name string
		r    *readable
		want int
	}{
		{"menu then h1", page(true, menu+"Title\ntext", Heading{Level: 1, At: at}), at},
		{"menu then h2 only", page(true, menu+"Title\ntext", Heading{Level: 2, At: at}), at},
		{"h1 preferred to an earlier h2", page(true, "Nav\n"+menu+"Title\ntext", Heading{Level: 2, At: 0}, Heading{Level: 1, At: at + 4}), at + 4},
		{"a main landmark: nothing passed", page(false, menu+"Title\ntext", Heading{Level: 1, At: at}), 0},
		{"a paragraph before the heading", page(true, "Home\nAbout\n"+strings.Repeat("A long introduction sentence. ", 5)+"\nTitle", Heading{Level: 1, At: 162}), 0},
		{"a heading past the text", page(true, menu, Heading{Level: 1, At: 500}), 0},
		{"two lines (PostgreSQL's header)", page(true, "8.1. Numeric Types\nPrev | Up | Home | Next\n8.1. Numeric Types", Heading{Level: 2, At: 43}), 43},
		{"one line only", page(true, "Home\nTitle", Heading{Level: 1, At: 5}), 0},
		{"no heading in the text", page(true, menu+"text", Heading{Level: 1, At: -1}), 0},
		{"too much before it", page(true, strings.Repeat("Link\n", 1000)+"Title", Heading{Level: 1, At: 5000}), 0},
	}
	for _, c := range cases {
		if got := c.r.mainStart(); got != c.want {
			t.Errorf("%s: mainStart = %d, want %d", c.name, got, c.want)
		}
	}
}

// A table's row (innerText puts tabs between its cells) is read with its
// cells apart; code keeps its tabs as spaces.
func TestReadableTextTableRows(t *testing.T) {
	in := "Name\tStorage Size\tRange\nbigint\t8 bytes\t-9223372036854775808 to +9223372036854775807\n\tempty first\t\nplain  text"
	want := "Name | Storage Size | Range\nbigint | 8 bytes | -9223372036854775808 to +9223372036854775807\nempty first\nplain text"
	if got := readableText(in); got != want {
		t.Errorf("readableText:\n%s\nwant:\n%s", got, want)
	}
	if got := readableText("if x:\n\treturn 1", "if x:\n\treturn 1"); got != "if x:\n    return 1" {
		t.Errorf("code lost its tab: %q", got)
	}
}
