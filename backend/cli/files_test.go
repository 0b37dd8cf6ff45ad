package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unicode/utf16"

	"github.com/waymark/waymark/backend/testenv"
)

// TestCLIFrontMatter: a book with YAML front matter, through `waymark call`:
// the outline starts at the book's first heading, Find and the first-mention
// agent answer from the text (the front matter is searched only when asked),
// and an edit next to it keeps its bytes. The old code showed the front
// matter as a level-2 heading and returned it as the first mention.
func TestCLIFrontMatter(t *testing.T) {
	c := newCLI(t)
	const fm = "---\ntitle: Война и мир\nauthor: Лев Толстой\n---\n\n"
	book := fm + "# Том 1\n\nЛев Николаевич Толстой\n\n## Часть первая\n\nНаташа вбежала.\n"
	if err := os.WriteFile(c.doc, []byte(book), 0o644); err != nil {
		t.Fatal(err)
	}
	res, code := c.call("Outline", `{}`)
	heads := res["headings"].([]any)
	if code != 0 || len(heads) != 2 || heads[0].(map[string]any)["text"] != "Том 1" {
		t.Fatalf("Outline: %d %v", code, res)
	}
	res, code = c.call("Find", `{"query":"Толстой"}`)
	m := res["matches"].([]any)
	if code != 0 || len(m) != 1 || m[0].(map[string]any)["snippet"] != "Лев Николаевич Толстой" {
		t.Fatalf("Find: %d %v", code, res)
	}
	res, code = c.call("Find", `{"query":"Толстой","includeFrontMatter":true}`)
	m = res["matches"].([]any)
	if code != 0 || len(m) != 1 || m[0].(map[string]any)["type"] != "FrontMatter" || m[0].(map[string]any)["line"].(float64) != 2 {
		t.Fatalf("Find with includeFrontMatter: %d %v", code, res)
	}
	res, code = c.call("RunCursorAgent", `{"forward":true,"maxElements":20,"maxBytes":8192,"includeContent":true,"mode":"FirstMatch","taskDescription":"Найди первое упоминание «Толстой»"}`)
	if code != 0 || res["success"] != true || res["markdown"] != "Лев Николаевич Толстой" {
		t.Fatalf("RunCursorAgent: %d %v", code, res)
	}
	if _, code = c.call("ReplaceText", `{"index": 1, "newMarkdown": "# Том первый"}`); code != 0 {
		t.Fatal("ReplaceText of the first heading failed")
	}
	if got := c.file(); !strings.HasPrefix(got, fm+"# Том первый\n") {
		t.Fatalf("after the edit: %q", got)
	}
}

// TestCLITableCells: through `waymark call`, a '|' in a table cell's new text
// is escaped and stays in its cell, and the trailing cell a row leaves out is
// an item that ReplaceText fills (then Undo gives the row back). The old code
// refused the '|' (or, in the last cell, dropped the text after it from the
// table) and had no item for the left-out cell.
func TestCLITableCells(t *testing.T) {
	c := newCLI(t)
	book := "# Счета\n\n| Кто | Сколько |\n|---|---|\n| Ростов | 43 000 |\n| Долохов |\n"
	if err := os.WriteFile(c.doc, []byte(book), 0o644); err != nil {
		t.Fatal(err)
	}
	if res, code := c.call("ReplaceText", `{"index": 4, "newMarkdown": "43 000 | проиграно"}`); code != 0 {
		t.Fatalf("ReplaceText with a pipe: %v", res)
	}
	res, code := c.call("Read", `{"index": 6}`)
	if code != 0 || res["type"] != "TableCell" || res["markdown"] != "" {
		t.Fatalf("the left-out cell: %d %v", code, res)
	}
	if res, code := c.call("ReplaceText", `{"index": 6, "newMarkdown": "долг"}`); code != 0 {
		t.Fatalf("ReplaceText of the left-out cell: %v", res)
	}
	want := "# Счета\n\n| Кто | Сколько |\n|---|---|\n| Ростов | 43 000 \\| проиграно |\n| Долохов | долг |\n"
	if got := c.file(); got != want {
		t.Fatalf("the book %q, want %q", got, want)
	}
	res, _ = c.call("Read", `{"index": 4}`)
	if res["text"] != "43 000 | проиграно" {
		t.Fatalf("the cell's text: %v", res)
	}
	if _, code := c.call("Undo", `{}`); code != 0 || !strings.Contains(c.file(), "| Долохов |\n") {
		t.Fatalf("undo: %q", c.file())
	}
}

// TestCLISaveKeepsOwnerAndLinks: `waymark call ReplaceText` run as root on a
// book another user owns (chown 4242:4243, mode 0640) that has a second name
// (ln book.md second.md): the book keeps its owner, group and mode, and both
// names show the edit (the old code made the book root's, and left the second
// name with the old text).
func TestCLISaveKeepsOwnerAndLinks(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root, to give the book to another user")
	}
	c := newCLI(t)
	second := filepath.Join(filepath.Dir(c.doc), "second.md")
	if err := os.Link(c.doc, second); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(c.doc, 4242, 4243); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(c.doc, 0o640); err != nil {
		t.Fatal(err)
	}
	if res, code := c.call("ReplaceText", `{"index": 2, "newMarkdown": "Natasha ran in."}`); code != 0 {
		t.Fatalf("ReplaceText: %v", res)
	}
	fi, err := os.Stat(c.doc)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	b, _ := os.ReadFile(second)
	if st.Uid != 4242 || st.Gid != 4243 || fi.Mode().Perm() != 0o640 || st.Nlink != 2 || string(b) != c.file() || !strings.Contains(string(b), "Natasha ran in.") {
		t.Fatalf("owner %d, group %d, mode %o, %d names, second name %q", st.Uid, st.Gid, fi.Mode().Perm(), st.Nlink, b)
	}
}

// utf16Of is text as UTF-16 (little- or big-endian, with or without a BOM).
func utf16Of(text []byte, big, bom bool) []byte {
	var out []byte
	if bom {
		out = append(out, map[bool][]byte{false: {0xFF, 0xFE}, true: {0xFE, 0xFF}}[big]...)
	}
	for _, c := range utf16.Encode([]rune(string(text))) {
		if big {
			out = append(out, byte(c>>8), byte(c))
		} else {
			out = append(out, byte(c), byte(c>>8))
		}
	}
	return out
}

// TestCLIUTF16Books: both War and Peace books saved as UTF-16 (little- and
// big-endian, with and without a byte-order mark), through `waymark call`:
// opening one is refused with its encoding named and the way to convert it
// (the old code: "it looks like a binary file"); ConvertToUTF8 — the author's
// consent — writes the book as its UTF-8 text, keeps the UTF-16 file beside
// it byte for byte, and opens it: Find answers on the converted book.
func TestCLIUTF16Books(t *testing.T) {
	testenv.SkipSweepInShortMode(t)
	books := filepath.Join("..", "..", "..", "shared", "corpus", "books")
	forms := []struct {
		big, bom bool
		name     string
	}{{false, true, "little-endian, with a byte-order mark"}, {false, false, "little-endian, without a byte-order mark"},
		{true, true, "big-endian, with a byte-order mark"}, {true, false, "big-endian, without a byte-order mark"}}
	for k, lang := range []string{"ru", "en"} {
		orig, err := os.ReadFile(filepath.Join(books, "war-and-peace."+lang+".md"))
		if err != nil {
			t.Skipf("CORPUS TIER SKIPPED: %v", err)
		}
		text := bytes.TrimPrefix(orig, []byte("\xEF\xBB\xBF"))
		for _, f := range forms[k*2 : k*2+2] { // two forms per book keeps the tier short
			c := newCLI(t)
			raw := utf16Of(text, f.big, f.bom)
			if err := os.WriteFile(c.doc, raw, 0o644); err != nil {
				t.Fatal(err)
			}
			res, code := c.call("Outline", `{}`)
			if msg, _ := res["error"].(string); code != 1 || !strings.Contains(msg, "is UTF-16 ("+f.name+"), not UTF-8") || !strings.Contains(msg, "ConvertToUTF8") {
				t.Fatalf("%s %s: opening: %d %v", lang, f.name, code, res)
			}
			if c.file() != string(raw) {
				t.Fatal("the refused book was changed")
			}
			res, code = c.call("ConvertToUTF8", `{"path": "`+c.doc+`"}`, "--doc=")
			if code != 0 || res["from"] != "UTF-16 ("+f.name+")" {
				t.Fatalf("%s %s: ConvertToUTF8: %d %v", lang, f.name, code, res)
			}
			if c.file() != string(text) {
				t.Fatalf("%s %s: the converted book is not the text", lang, f.name)
			}
			if kept, err := os.ReadFile(c.doc + ".utf16"); err != nil || !bytes.Equal(kept, raw) {
				t.Fatalf("%s %s: the UTF-16 file was not kept beside the book: %v", lang, f.name, err)
			}
			q := map[string]string{"ru": "Наташа", "en": "Natasha"}[lang]
			res, code = c.call("Find", `{"query": "`+q+`"}`)
			if code != 0 || res["found"] != true {
				t.Fatalf("%s %s: Find after the conversion: %v", lang, f.name, res)
			}
		}
	}
}

// TestCLIUTF8WithANul: a UTF-8 book with one NUL byte is refused as such
// (where the NUL is), and ConvertToUTF8 leaves it as it is, saying why; the
// old code called it big-endian UTF-16 and converted it to mojibake.
func TestCLIUTF8WithANul(t *testing.T) {
	c := newCLI(t)
	raw := []byte("# Война и мир\n\nНаташа\x00 вошла.\n")
	if len(raw)%2 != 0 {
		raw = append(raw, '\n')
	}
	if err := os.WriteFile(c.doc, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	res, code := c.call("Outline", `{}`)
	if msg, _ := res["error"].(string); code != 1 || !strings.Contains(msg, "is UTF-8 text with a NUL byte at offset 36 (line 3)") || strings.Contains(msg, "UTF-16") {
		t.Fatalf("opening: %d %v", code, res)
	}
	res, code = c.call("ConvertToUTF8", `{"path": "`+c.doc+`"}`, "--doc=")
	if msg, _ := res["error"].(string); code != 1 || !strings.Contains(msg, "is UTF-8 text with a NUL byte at offset 36 (line 3), not UTF-16; nothing was changed") {
		t.Fatalf("ConvertToUTF8: %d %v", code, res)
	}
	if c.file() != string(raw) {
		t.Fatal("the book was changed")
	}
	if _, err := os.Stat(c.doc + ".utf16"); err == nil {
		t.Fatal("a UTF-16 copy was written")
	}
}
