// Package publish turns a manuscript into files an author can send: the book's
// metadata (title, author, language, where its chapters are), DOCX and EPUB
// through pandoc, and a print layout of the HTML export that Chromium prints
// to PDF. It reads Markdown and headings; it never changes the manuscript.
package publish

import (
	"bytes"
	"regexp"
	"strings"
	"unicode"

	"github.com/waymark/waymark/backend/document"
)

// Heading is one heading of the book, in order: its level (1–6) and its plain
// text (no # marks, no emphasis).
type Heading struct {
	Level int
	Text  string
	// Start is the heading's byte offset in the source (after any front
	// matter), to measure the sections between headings.
	Start int
}

// Meta is what a book is sent with.
type Meta struct {
	Title  string `json:"title"`
	Author string `json:"author,omitempty"`
	// Lang is the book's language as a BCP 47 tag: "ru" or "en", from the
	// front matter or detected from the text.
	Lang   string `json:"lang"`
	Date   string `json:"date,omitempty"`   // YYYY[-MM[-DD]]
	Rights string `json:"rights,omitempty"` // the copyright or licence line
	Cover  string `json:"-"`                // the cover picture's file, vetted
	// ChapterLevel is the heading level of the chapters: EPUB sections
	// start there (and at every level above), PDF chapters start on a new
	// page, the table of contents goes that deep.
	ChapterLevel int `json:"chapterLevel"`
}

// FrontMatter splits a YAML front matter block off the top of src — the
// block the manuscript model takes for front matter (document.FrontMatterEnd):
// a first line "---", a "key:" line, and a closing "---" or "..." line. Its
// simple "key: value" lines are returned (keys in lower case, quotes taken off
// the values; lists and nested values are skipped); body is src without the
// block. Without a block, fields is nil and body is src.
func FrontMatter(src []byte) (fields map[string]string, body []byte) {
	s := bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	end := document.FrontMatterEnd(s)
	if end == 0 {
		return nil, src
	}
	rest := s[end:]
	for _, br := range []string{"\r\n", "\n", "\r"} {
		if bytes.HasPrefix(rest, []byte(br)) {
			rest = rest[len(br):]
			break
		}
	}
	fields = map[string]string{}
	lines := strings.FieldsFunc(string(s[:end]), func(r rune) bool { return r == '\n' || r == '\r' })
	for _, l := range lines[1 : len(lines)-1] { // between the fences
		l = strings.TrimRight(l, " \t")
		if l == "" || l[0] == ' ' || l[0] == '\t' || l[0] == '#' || l[0] == '-' {
			continue
		}
		k, v, has := strings.Cut(l, ":")
		if !has {
			continue
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
			v = v[1 : len(v)-1]
		}
		if v != "" && v != "|" && v != ">" {
			fields[strings.ToLower(strings.TrimSpace(k))] = v
		}
	}
	return fields, rest
}

// Describe works out a book's metadata. The front matter's title, author and
// lang (or language) win; else the title is the first heading's text (else
// fallbackTitle, the file's name), the author is author (the one in
// Settings), and the language is detected from body's letters.
func Describe(fields map[string]string, body []byte, heads []Heading, fallbackTitle, author string) Meta {
	m := Meta{Title: fields["title"], Author: fields["author"], Lang: normLang(fields["lang"])}
	if m.Lang == "" {
		m.Lang = normLang(fields["language"])
	}
	if m.Title == "" {
		m.Title = BookTitle(heads)
	}
	if m.Title == "" {
		m.Title = fallbackTitle
	}
	if m.Author == "" {
		m.Author = strings.TrimSpace(author)
	}
	if m.Lang == "" {
		m.Lang = DetectLang(body)
	}
	m.ChapterLevel = ChapterLevel(heads, len(body))
	return m
}

// BookTitle is the book's title as its headings give it: its first heading
// when that is its one level-1 heading and not a part's ("Том 1", "Part
// One", "Book II"…); "" when the book has none (its level-1 headings are its
// volumes or parts).
func BookTitle(heads []Heading) string {
	if len(heads) == 0 || heads[0].Level != 1 || partHeading.MatchString(heads[0].Text) {
		return ""
	}
	for _, h := range heads[1:] {
		if h.Level == 1 {
			return ""
		}
	}
	return heads[0].Text
}

// partHeading is a heading that names a part of a book, not the book.
var partHeading = regexp.MustCompile(`(?i)^(том|часть|книга|глава|эпилог|пролог|volume|vol\.|part|book|chapter|epilogue|prologue)(\s|$|[.:])`)

// Lang is s as a language tag ("ru", "en", "ru-RU"…; "russian" and
// "english" too), "" when it is not one.
func Lang(s string) string { return normLang(s) }

// normLang accepts "ru", "ru-RU", "en", "en_GB", "russian", "english" and
// returns the tag as given when it looks like one; "" otherwise.
func normLang(s string) string {
	s = strings.TrimSpace(s)
	switch strings.ToLower(s) {
	case "":
		return ""
	case "russian", "русский":
		return "ru"
	case "english", "английский":
		return "en"
	}
	s = strings.ReplaceAll(s, "_", "-")
	for _, r := range s {
		if !(r == '-' || r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r))) {
			return ""
		}
	}
	return s
}

// DetectLang tells Russian from English by the letters of the text (the
// first 256 KB are plenty): "ru" when Cyrillic letters outnumber Latin ones,
// else "en". War and Peace's French passages do not tip its Russian.
func DetectLang(text []byte) string {
	if len(text) > 256<<10 {
		text = text[:256<<10]
	}
	var cyr, lat int
	for _, r := range string(text) {
		switch {
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			lat++
		case unicode.Is(unicode.Cyrillic, r):
			cyr++
		}
	}
	if cyr > lat {
		return "ru"
	}
	return "en"
}

// chapterFileSize is how much text an EPUB section may hold on average
// before the chapters are taken one level deeper: reading systems open a
// section of a few hundred KB at once, not a volume of 1.5 MB.
const chapterFileSize = 200 << 10

// ChapterLevel is the level of a book's chapters: the highest heading level
// that occurs at least twice (a single top heading is the book's title),
// taken deeper while its sections average more than chapterFileSize bytes
// (War and Peace: four volumes, then 23 parts, then its 361 chapters).
// 1 for a book without headings.
func ChapterLevel(heads []Heading, size int) int {
	count := map[int]int{}
	for _, h := range heads {
		count[h.Level]++
	}
	level := 0
	for l := 1; l <= 6; l++ {
		if count[l] >= 2 {
			level = l
			break
		}
	}
	if level == 0 {
		return 1
	}
	for {
		n := 0
		for l := 1; l <= level; l++ {
			n += count[l]
		}
		if size/max(n, 1) <= chapterFileSize {
			return level
		}
		next := 0
		for l := level + 1; l <= 6; l++ {
			if count[l] > 0 {
				next = l
				break
			}
		}
		if next == 0 {
			return level
		}
		level = next
	}
}
