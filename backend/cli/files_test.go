package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
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
