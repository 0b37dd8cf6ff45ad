package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/store"
	"github.com/waymark/waymark/backend/tools"
	"github.com/waymark/waymark/backend/waymark"
)

// cliProcessEnv makes the test binary a `waymark call` process (see
// TestCLIProcessHelper): a real second process on the same database and file.
const cliProcessEnv = "WAYMARK_TEST_CLI_PROCESS"

// TestCLIProcessHelper is `waymark call ARGS…` in a process of its own.
func TestCLIProcessHelper(t *testing.T) {
	if os.Getenv(cliProcessEnv) != "1" {
		t.Skip("helper process of TestTypingBesideAnotherDoor")
	}
	var args []string
	if err := json.Unmarshal([]byte(os.Getenv("WAYMARK_TEST_CLI_ARGS")), &args); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := Run(context.Background(), "call", args, nil, &out, &errb)
	os.Stdout.Write(out.Bytes())
	os.Exit(code)
}

// callInOtherProcess runs `waymark call --doc doc --db db TOOL ARGS` in a
// process of its own and returns its JSON answer.
func callInOtherProcess(t *testing.T, doc, db, tool, args string) map[string]any {
	t.Helper()
	res, code := callInOtherProcessStatus(t, doc, db, tool, args)
	if code != 0 {
		t.Fatalf("waymark call %s in another process: exit status %d\n%v", tool, code, res)
	}
	return res
}

// callInOtherProcessStatus is callInOtherProcess with the exit status.
func callInOtherProcessStatus(t *testing.T, doc, db, tool, args string) (map[string]any, int) {
	t.Helper()
	a, _ := json.Marshal([]string{"--doc", doc, "--db", db, tool, args})
	cmd := exec.Command(os.Args[0], "-test.run=^TestCLIProcessHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), cliProcessEnv+"=1", "WAYMARK_TEST_CLI_ARGS="+string(a))
	out, err := cmd.Output()
	code := 0
	if x, ok := err.(*exec.ExitError); ok {
		code = x.ExitCode()
	} else if err != nil {
		t.Fatalf("waymark call %s in another process: %v\n%s", tool, err, out)
	}
	var res map[string]any
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("waymark call %s: %v\n%s", tool, err, out)
	}
	return res, code
}

// window is the window's side: a workspace in this process with the tools.
type window struct {
	t    *testing.T
	reg  *tools.Registry
	doc  string
	rev  int64
	text string // the editor's text
}

func (w *window) typeAt(after, text string) manuscript.TypeTextResult {
	w.t.Helper()
	at := strings.Index(w.text, after)
	if at < 0 {
		w.t.Fatalf("no %q in the editor's text", after)
	}
	at += len(after)
	pos := len(utf16.Encode([]rune(w.text[:at])))
	args, _ := json.Marshal(manuscript.TypeTextArgs{BaseRevision: w.rev, FromUtf16: pos, ToUtf16: pos, Text: text})
	res, err := w.reg.Call(context.Background(), tools.Call{Name: "TypeText", Args: args}, tools.Context{})
	if err != nil {
		w.t.Fatalf("typing %q was refused: %v", text, err)
	}
	r := res.(manuscript.TypeTextResult)
	// The editor: its typing, then the changes taken in from elsewhere.
	w.text = w.text[:at] + text + w.text[at:]
	for _, c := range r.Changes {
		u := utf16.Encode([]rune(w.text))
		w.text = string(utf16.Decode(u[:c.FromUtf16])) + c.Insert + string(utf16.Decode(u[c.ToUtf16:]))
	}
	w.rev = r.Revision
	return r
}

// noteTyping is the editor's first key of a typing group after the text
// after: it tells the other doors where its unsaved typing is (NoteTyping).
func (w *window) noteTyping(after string) {
	w.t.Helper()
	at := strings.Index(w.text, after)
	if at < 0 {
		w.t.Fatalf("no %q in the editor's text", after)
	}
	pos := len(utf16.Encode([]rune(w.text[:at+len(after)])))
	args, _ := json.Marshal(manuscript.NoteTypingArgs{BaseRevision: w.rev, Utf16Offset: pos})
	if _, err := w.reg.Call(context.Background(), tools.Call{Name: "NoteTyping", Args: args}, tools.Context{}); err != nil {
		w.t.Fatalf("NoteTyping: %v", err)
	}
}

func (w *window) file() string {
	b, err := os.ReadFile(w.doc)
	if err != nil {
		w.t.Fatal(err)
	}
	return string(b)
}

const doorsBook = "# Книга\n\n## I\n\nНаташа вошла в комнату.\n\n## II\n\nПьер остался дома.\n\n## III\n\nКнязь Андрей уехал.\n"

// TestTypingBesideAnotherDoor is issue 19, points 1 and 2, at the tool level:
// the window types (TypeText) while `waymark call` in another process edits
// the same book on the same database, and while a program other than Waymark
// writes the file. Typing is never refused for its older revision; edits of
// other paragraphs are taken in and announced in one line naming the
// chapter; an edit of the paragraph being typed in is a conflict that keeps
// both versions. Every typed character and every other edit ends in the file.
func TestTypingBesideAnotherDoor(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	doc, db := filepath.Join(dir, "book.md"), filepath.Join(dir, "w.db")
	if err := os.WriteFile(doc, []byte(doorsBook), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ws := manuscript.NewWorkspace(st)
	if _, err := ws.Open(context.Background(), doc); err != nil {
		t.Fatal(err)
	}
	reg := waymark.New(waymark.Config{WS: ws}).Registry
	w := &window{t: t, reg: reg, doc: doc, rev: 1, text: doorsBook}

	// 1. The CLI edits chapter III while the window's editor is at revision 1
	// (and holds unsaved typing in chapter I: no matter to chapter III).
	w.noteTyping("Наташа вошла")
	res := callInOtherProcess(t, doc, db, "ReplaceText", `{"index": 6, "newMarkdown": "Князь Андрей уехал в армию."}`)
	if res["success"] != true {
		t.Fatalf("the other door's edit: %v", res)
	}
	r := w.typeAt("Наташа вошла", " тихо")
	if len(r.Merged) != 1 || r.Merged[0].Heading != "III" || r.Note != "Другая программа изменила «III»; ваш текст сохранён." || r.Conflict != nil {
		t.Fatalf("typing after the other door's edit: %+v", r)
	}
	want := strings.Replace(strings.Replace(doorsBook, "Наташа вошла", "Наташа вошла тихо", 1), "Князь Андрей уехал.", "Князь Андрей уехал в армию.", 1)
	if got := w.file(); got != want {
		t.Fatalf("the file:\n%s\nwant:\n%s", got, want)
	}
	if w.text != want {
		t.Fatalf("the editor after taking the changes in:\n%s\nwant:\n%s", w.text, want)
	}

	// 2. A program other than Waymark rewrites the file (chapter II).
	outside := strings.Replace(want, "Пьер остался дома.", "Пьер остался дома один.", 1)
	if err := os.WriteFile(doc, []byte(outside), 0o644); err != nil {
		t.Fatal(err)
	}
	r = w.typeAt("в комнату", " наконец")
	if len(r.Merged) != 1 || !r.Merged[0].Outside || r.Merged[0].Heading != "II" || r.Conflict != nil {
		t.Fatalf("typing after an outside write: %+v", r)
	}
	want = strings.Replace(outside, "в комнату", "в комнату наконец", 1)
	if got := w.file(); got != want || w.text != want {
		t.Fatalf("the file:\n%s\nthe editor:\n%s\nwant:\n%s", got, w.text, want)
	}

	// 3. The CLI edits the very paragraph being typed in (the window holds
	// typing not saved yet there): a conflict, both kept. The CLI is told
	// that its edit will be kept aside, and where — not plain success.
	w.noteTyping("наконец")
	res, code := callInOtherProcessStatus(t, doc, db, "ReplaceText", `{"index": 2, "newMarkdown": "Наташа вбежала в комнату."}`)
	aside, _ := res["keptAside"].(string)
	if code != 1 || res["success"] != false || !strings.Contains(aside, "ваша правка будет отложена") || !strings.Contains(aside, "(Книга, I)") ||
		!strings.Contains(aside, fmt.Sprintf("правкой %v", res["revision"])) {
		t.Fatalf("the other door's edit of the paragraph being typed in: exit %d, %v", code, res)
	}
	r = w.typeAt("наконец", ", смеясь")
	if r.Conflict == nil || r.Conflict.Theirs != "Наташа вбежала в комнату." || r.Conflict.Mine != "Наташа вошла тихо в комнату наконец, смеясь." || r.Conflict.Heading != "I" {
		t.Fatalf("typing into a paragraph changed elsewhere: %+v", r)
	}
	if got := w.file(); !strings.Contains(got, "Наташа вошла тихо в комнату наконец, смеясь.") || got != w.text {
		t.Fatalf("the typed paragraph is not in the file (or the editor differs):\n%s\n%s", got, w.text)
	}
	// The other version is one step back in the history.
	h, err := reg.Call(context.Background(), tools.Call{Name: "History", Args: json.RawMessage(`{}`)}, tools.Context{})
	if err != nil {
		t.Fatal(err)
	}
	hb, _ := json.Marshal(h)
	if !strings.Contains(string(hb), `"op":"ReplaceText"`) {
		t.Fatalf("history: %s", hb)
	}
	// The typing is saved: the paragraph is the CLI's to edit again.
	if res := callInOtherProcess(t, doc, db, "ReplaceText", `{"index": 2, "newMarkdown": "Наташа вошла."}`); res["success"] != true || res["keptAside"] != nil {
		t.Fatalf("an edit after the typing was saved: %v", res)
	}
}
