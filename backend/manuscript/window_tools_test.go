package manuscript_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/testenv"
	"github.com/waymark/waymark/backend/tools"
)

// env is a registry with the manuscript tools over a real book file and a
// real SQLite database.
type env struct {
	t   testing.TB
	reg *tools.Registry
	ws  *manuscript.Workspace
	doc string
}

func newEnv(t testing.TB, text string) *env {
	t.Helper()
	doc, st := testenv.BookAndStore(t, text)
	ws := manuscript.NewWorkspace(st)
	if _, err := ws.Open(context.Background(), doc); err != nil {
		t.Fatal(err)
	}
	return newEnvOn(t, ws, doc)
}

// newEnvOn is newEnv over a workspace already open on doc.
func newEnvOn(t testing.TB, ws *manuscript.Workspace, doc string) *env {
	r := tools.New()
	manuscript.RegisterTools(r, ws)
	return &env{t, r, ws, doc}
}

// callArgs is call with the arguments as a value.
func (e *env) callArgs(name string, args, out any) error {
	b, err := json.Marshal(args)
	if err != nil {
		e.t.Fatal(err)
	}
	return e.call(name, string(b), out)
}

// call runs a tool with JSON arguments and decodes its JSON result into out.
func (e *env) call(name, args string, out any) error {
	res, err := e.reg.Call(context.Background(), tools.Call{Name: name, Args: json.RawMessage(args)}, tools.Context{})
	if err != nil {
		return err
	}
	if out != nil {
		b, _ := json.Marshal(res)
		if err := json.Unmarshal(b, out); err != nil {
			e.t.Fatalf("%s result %s: %v", name, b, err)
		}
	}
	return nil
}

func (e *env) file() string {
	b, err := os.ReadFile(e.doc)
	if err != nil {
		e.t.Fatal(err)
	}
	return string(b)
}

func u16(s string) int { return len(utf16.Encode([]rune(s))) }

// apply turns text by a TextChanges delta, counting in UTF-16 as an editor does.
func apply(text string, d manuscript.TextChangesResult) string {
	if d.Full {
		return d.Markdown
	}
	u := utf16.Encode([]rune(text))
	return string(utf16.Decode(u[:d.FromUtf16])) + d.Insert + string(utf16.Decode(u[d.ToUtf16:]))
}

const book = "# Книга\n\nМира signed the 😀 log.\n\nThe brass telescope.\n\nЁлка и ель.\n"

// TestTypeTextWritesThroughTheManuscript: typing given in UTF-16 code units
// lands in the file as one revision; a stale base, a range inside a surrogate
// pair, an end before its start or past the text, and emptying the book are
// refused with nothing written.
func TestTypeTextWritesThroughTheManuscript(t *testing.T) {
	e := newEnv(t, book)
	at := u16(book[:strings.Index(book, "signed")])
	var r manuscript.TypeTextResult
	if err := e.call("TypeText", `{"baseRevision": 1, "fromUtf16": `+itoa(at)+`, "toUtf16": `+itoa(at+6)+`, "text": "подписала"}`, &r); err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(book, "signed", "подписала", 1)
	if e.file() != want || r.Revision != 2 || !strings.Contains(r.Summary, "typed in the editor in “Книга”") {
		t.Fatalf("typed: %+v\n%s", r, e.file())
	}
	emoji := u16(want[:strings.Index(want, "😀")])
	cases := []struct{ args, want string }{
		{`{"baseRevision": 3, "fromUtf16": 0, "toUtf16": 1, "text": "x"}`, "typed into revision 3, the manuscript is at revision 2; nothing was written"},
		{`{"baseRevision": 2, "fromUtf16": ` + itoa(emoji+1) + `, "toUtf16": ` + itoa(emoji+2) + `, "text": "x"}`, "falls inside a character; nothing was written"},
		{`{"baseRevision": 2, "fromUtf16": 5, "toUtf16": 4, "text": "x"}`, "end (4) before its start (5)"},
		{`{"baseRevision": 2, "fromUtf16": 0, "toUtf16": 100000, "text": "x"}`, "outside the text"},
		{`{"baseRevision": 2, "fromUtf16": 0, "toUtf16": ` + itoa(u16(want)) + `, "text": ""}`, "cannot become empty"},
		{`{"baseRevision": 2, "fromUtf16": -1, "toUtf16": 0, "text": "x"}`, "fromUtf16"},
		{`{"baseRevision": 2, "from": 0, "to": 0, "text": "x"}`, `unknown field "from"; allowed fields: baseRevision, fromUtf16, text, toUtf16`},
	}
	for _, c := range cases {
		err := e.call("TypeText", c.args, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.args, err, c.want)
		}
		if e.file() != want {
			t.Fatalf("%s: a refused change touched the file", c.args)
		}
	}
	if err := e.call("TypeText", cases[0].args, nil); !errors.Is(err, manuscript.ErrStale) {
		t.Errorf("a stale change is not ErrStale: %v", err)
	}
}

// TestTextChangesBringsAnEditorUpToDate: after typing and after a command's
// edit, the delta in UTF-16 code units turns the editor's text into the
// file's — from the tool's cache and, on a fresh registry, rebuilt from the
// history in SQLite; an unknown revision gets the whole text.
func TestTextChangesBringsAnEditorUpToDate(t *testing.T) {
	e := newEnv(t, book)
	editor := book
	var d manuscript.TextChangesResult
	if err := e.call("TextChanges", `{"knownRevision": 1}`, &d); err != nil || d.Full || d.Insert != "" || d.FromUtf16 != d.ToUtf16 || d.Revision != 1 {
		t.Fatalf("no change: %+v %v", d, err)
	}
	at := u16(editor[:strings.Index(editor, "😀")])
	if err := e.call("TypeText", `{"baseRevision": 1, "fromUtf16": `+itoa(at)+`, "toUtf16": `+itoa(at+2)+`, "text": "🚀"}`, nil); err != nil {
		t.Fatal(err)
	}
	editor = strings.Replace(editor, "😀", "🚀", 1)
	if err := e.call("ReplaceText", `{"index": 2, "newMarkdown": "The copper telescope."}`, nil); err != nil {
		t.Fatal(err)
	}
	if err := e.call("TextChanges", `{"knownRevision": 2}`, &d); err != nil || d.Full || d.Revision != 3 {
		t.Fatalf("after a command: %+v %v", d, err)
	}
	if got := apply(editor, d); got != e.file() {
		t.Fatalf("the delta gives %q, the file holds %q", got, e.file())
	}
	// A fresh registry (the window restarted) has no cache: the text of
	// revision 1 comes from the history.
	fresh := tools.New()
	manuscript.RegisterTools(fresh, e.ws)
	res, err := fresh.Call(context.Background(), tools.Call{Name: "TextChanges", Args: json.RawMessage(`{"knownRevision": 1}`)}, tools.Context{})
	if err != nil {
		t.Fatal(err)
	}
	if d := res.(manuscript.TextChangesResult); d.Full || apply(book, d) != e.file() {
		t.Fatalf("from the history: %+v", d)
	}
	if err := e.call("TextChanges", `{"knownRevision": 99}`, &d); err != nil || !d.Full || d.Markdown != e.file() {
		t.Fatalf("unknown revision: %+v %v", d, err)
	}
}

// TestUndoRevisionAndEditsSince: the edits since a revision come with their
// places in the newest text (re-based over later edits); only the newest edit
// not yet undone can be undone by its revision.
func TestUndoRevisionAndEditsSince(t *testing.T) {
	e := newEnv(t, book)
	if err := e.call("ReplaceText", `{"index": 2, "newMarkdown": "The copper telescope."}`, nil); err != nil {
		t.Fatal(err)
	}
	if err := e.call("ReplaceText", `{"index": 1, "newMarkdown": "Мира подписала 😀 журнал, и ещё немного."}`, nil); err != nil {
		t.Fatal(err)
	}
	var es manuscript.EditsSinceResult
	if err := e.call("EditsSince", `{"sinceRevision": 1, "language": "en"}`, &es); err != nil || es.Head != 3 || len(es.Edits) != 2 {
		t.Fatalf("edits since 1: %+v %v", es, err)
	}
	text := e.file()
	for _, ed := range es.Edits {
		if !strings.HasPrefix(text[ed.ByteOffset:], ed.After) {
			t.Errorf("revision %d: byteOffset %d holds %q, want %q", ed.Revision, ed.ByteOffset, text[ed.ByteOffset:min(len(text), ed.ByteOffset+20)], ed.After)
		}
		if ed.Utf16Offset != u16(text[:ed.ByteOffset]) {
			t.Errorf("revision %d: utf16Offset %d, want %d", ed.Revision, ed.Utf16Offset, u16(text[:ed.ByteOffset]))
		}
	}
	if es.Edits[0].Before != "The brass telescope." || es.Edits[0].After != "The copper telescope." {
		t.Errorf("first edit: %+v", es.Edits[0])
	}
	// In words, under its headings, with no tool name or item label.
	if d := es.Edits[0].Description; !strings.HasPrefix(d, "Replace «The brass telescope.» with «The copper telescope.» in ") || strings.Contains(d, "ReplaceText") {
		t.Errorf("first edit described as %q", d)
	}
	// In a Russian command's language ("ru"), and by default in the book's
	// (this one's headings are Russian).
	for _, args := range []string{`{"sinceRevision": 1, "language": "ru"}`, `{"sinceRevision": 1}`} {
		var ru manuscript.EditsSinceResult
		if err := e.call("EditsSince", args, &ru); err != nil || len(ru.Edits) != 2 {
			t.Fatalf("%s: %+v %v", args, ru, err)
		}
		if d := ru.Edits[0].Description; !strings.HasPrefix(d, "Замена «The brass telescope.» на «The copper telescope.» — ") {
			t.Errorf("%s: first edit described as %q", args, d)
		}
	}
	if err := e.call("EditsSince", `{"sinceRevision": 1, "language": "fr"}`, nil); err == nil {
		t.Errorf("EditsSince took the language fr")
	}
	if err := e.call("UndoRevision", `{"revision": 2}`, nil); err == nil || !strings.Contains(err.Error(), "a later edit (revision 3") || !strings.Contains(err.Error(), "undo that first") {
		t.Fatalf("undo of an older edit: %v", err)
	}
	if e.file() != text {
		t.Fatal("a refused undo touched the file")
	}
	var u manuscript.UndoRevisionResult
	if err := e.call("UndoRevision", `{"revision": 3}`, &u); err != nil || u.Undid != 3 || u.Revision != 4 {
		t.Fatalf("undo: %+v %v", u, err)
	}
	if !strings.Contains(e.file(), "signed the 😀 log") {
		t.Fatalf("after undo: %s", e.file())
	}
	if err := e.call("UndoRevision", `{"revision": 3}`, nil); err == nil || !strings.Contains(err.Error(), "not an edit that can be undone now") || !strings.Contains(err.Error(), "revision 2") {
		t.Fatalf("undo twice: %v", err)
	}
	if err := e.call("UndoRevision", `{"revision": 0}`, nil); !errors.Is(err, tools.ErrInvalidArgs) {
		t.Fatalf("revision 0: %v", err)
	}
}

// TestExternalChangeChoices: an outside change is seen by CheckDisk; compare
// lists the lines, keep writes Waymark's back with theirs in the history,
// reload takes theirs; an unknown choice is refused with the choices named.
func TestExternalChangeChoices(t *testing.T) {
	e := newEnv(t, "# Title\n\nOne.\n\nTwo.\n")
	var s manuscript.DiskState
	if err := e.call("CheckDisk", `{}`, &s); err != nil || s.Changed {
		t.Fatalf("untouched: %+v %v", s, err)
	}
	if err := os.WriteFile(e.doc, []byte("# Title\n\nOne, changed.\n\nTwo.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The outside change is taken in (a revision of its own) and announced.
	if err := e.call("CheckDisk", `{}`, &s); err != nil || s.Changed || len(s.Merged) != 1 || s.Note != "Another program changed “Title”; your text is kept." {
		t.Fatalf("changed: %+v %v", s, err)
	}
	var r manuscript.ExternalResult
	if err := e.call("ResolveExternalChange", `{"choice": "compare"}`, &r); err != nil {
		t.Fatal(err)
	}
	if r.Summary != "0 changed line(s) between Waymark's version and the file on disk" {
		t.Errorf("compare after the change was taken in: %q", r.Summary)
	}
	var h struct {
		Revisions []manuscript.RevisionInfo `json:"revisions"`
	}
	if err := e.call("History", `{}`, &h); err != nil || len(h.Revisions) < 2 || h.Revisions[0].Op != "external" {
		t.Fatalf("history after the outside change: %+v %v", h, err)
	}
	if err := e.call("ResolveExternalChange", `{"choice": "merge"}`, nil); !errors.Is(err, tools.ErrInvalidArgs) || !strings.Contains(err.Error(), "choice") {
		t.Fatalf("unknown choice: %v", err)
	}
	if err := os.WriteFile(e.doc, []byte("# Title\n\nTheirs.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := e.call("ResolveExternalChange", `{"choice": "reload"}`, &r); err != nil || !strings.Contains(r.Summary, "reloaded") {
		t.Fatalf("reload: %+v %v", r, err)
	}
	var item struct {
		Text string `json:"text"`
	}
	if err := e.call("Read", `{"index": 1}`, &item); err != nil || item.Text != "Theirs." {
		t.Fatalf("after reload: %+v %v", item, err)
	}
}

// TestLineDiff: lines only on one side, context kept around changes, long
// unchanged runs as gaps, and the limit.
func TestLineDiff(t *testing.T) {
	many := strings.Repeat("same\n", 20)
	cases := []struct {
		name, mine, disk string
		limit            int
		want             string
	}{
		{"identical", "a\nb", "a\nb", 100, ""},
		{"one line changed", "a\nb\nc", "a\nB\nc", 100, "same:a disk:B mine:b same:c"},
		{"added on disk", "a\nc", "a\nb\nc", 100, "same:a disk:b same:c"},
		{"gaps around", many + "x\n" + many, many + "y\n" + many, 100, "gap:17 unchanged line(s) same:same same:same same:same disk:y mine:x same:same same:same same:same gap:18 unchanged line(s)"},
		{"cut at the limit", "1\n2\n3\n4", "a\nb\nc\nd", 3, "disk:a disk:b disk:c gap:… the comparison is cut here"},
	}
	for _, c := range cases {
		var got []string
		for _, l := range manuscript.LineDiff(c.mine, c.disk, 3, c.limit) {
			got = append(got, l.Kind+":"+l.Text)
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("%s: %s\nwant %s", c.name, strings.Join(got, " "), c.want)
		}
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestSpellingListsUnknownWords: the words neither dictionary knows, in
// order, counted, placed in bytes and in UTF-16 code units; the limit says
// when there were more.
func TestSpellingListsUnknownWords(t *testing.T) {
	text := "# Глава\n\nНаташа 😀 wrotte a lettter. Потом wrotte ещё.\n"
	e := newEnv(t, text)
	var r manuscript.SpellingResult
	if err := e.call("Spelling", `{}`, &r); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range r.Words {
		got = append(got, w.Word+":"+itoa(w.Count))
		if text[w.FromByte:w.ToByte] != w.Word || w.FromUtf16 != u16(text[:w.FromByte]) || w.ToUtf16-w.FromUtf16 != u16(w.Word) {
			t.Errorf("%s placed at bytes [%d,%d), UTF-16 [%d,%d)", w.Word, w.FromByte, w.ToByte, w.FromUtf16, w.ToUtf16)
		}
	}
	if strings.Join(got, " ") != "wrotte:2 lettter:1" || r.More || r.Revision != 1 || len(r.Languages) != 2 {
		t.Fatalf("spelling: %v %+v", got, r)
	}
	if err := e.call("Spelling", `{"limit": 1}`, &r); err != nil || len(r.Words) != 1 || !r.More {
		t.Fatalf("limit 1: %+v %v", r, err)
	}
	if err := e.call("Spelling", `{"limit": 0}`, nil); !errors.Is(err, tools.ErrInvalidArgs) {
		t.Fatalf("limit 0: %v", err)
	}
	// A text of its own (the lines on screen): every place, relative to it.
	if err := e.call("Spelling", `{"text": "😀 wrotte, and wrotte"}`, &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Words) != 2 || r.Words[0].FromUtf16 != 3 || r.Words[0].ToUtf16 != 9 || r.Words[1].FromUtf16 != 15 || r.Revision != 0 {
		t.Fatalf("a text of its own: %+v", r)
	}
}
