package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const cliBook = `# Book

## One

Natasha came in.

Pierre stayed.

## Two

The end.
`

// run is app's run for the subcommands: the command line as a user types it.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd, rest := Split(args)
	return Run(ctx, cmd, rest, stdin, stdout, stderr)
}

type cli struct {
	t        *testing.T
	doc, db  string
	lastCode int
}

func newCLI(t *testing.T) *cli {
	dir := t.TempDir()
	c := &cli{t: t, doc: filepath.Join(dir, "book.md"), db: filepath.Join(dir, "w.db")}
	if err := os.WriteFile(c.doc, []byte(cliBook), 0o644); err != nil {
		t.Fatal(err)
	}
	return c
}

// call runs "waymark call TOOL --doc … --db … ARGS" in-process and decodes stdout.
func (c *cli) call(tool, args string, extra ...string) (map[string]any, int) {
	c.t.Helper()
	argv := append([]string{"call", tool, "--doc", c.doc, "--db", c.db}, extra...)
	if args != "" {
		argv = append(argv, args)
	}
	var out, errb bytes.Buffer
	code := run(context.Background(), argv, strings.NewReader(""), &out, &errb)
	c.lastCode = code
	if code == 2 {
		return map[string]any{"usage": errb.String()}, code
	}
	var res map[string]any
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		c.t.Fatalf("%s %s: stdout is not one JSON object: %q (stderr %q)", tool, args, out.String(), errb.String())
	}
	return res, code
}

func (c *cli) file() string {
	b, err := os.ReadFile(c.doc)
	if err != nil {
		c.t.Fatal(err)
	}
	return string(b)
}

func TestCLIToolsListsEveryTool(t *testing.T) {
	var out bytes.Buffer
	if code := run(context.Background(), []string{"tools"}, nil, &out, &out); code != 0 {
		t.Fatalf("exit %d: %s", code, out.String())
	}
	var list []struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"inputSchema"`
	}
	if err := json.Unmarshal(out.Bytes(), &list); err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, e := range list {
		if e.Description == "" || len(e.InputSchema) == 0 {
			t.Errorf("tool %s lacks a description or schema", e.Name)
		}
		have[e.Name] = true
	}
	for _, n := range []string{"Read", "ReplaceText", "InsertAfter", "InsertBefore", "Delete", "Undo", "Redo", "CreateCursor", "CursorNext", "TargetSetCreate", "TargetSetAdd", "TargetSetGet", "Find", "Outline"} {
		if !have[n] {
			t.Errorf("tool %s missing from waymark tools", n)
		}
	}
}

func TestCLIContract(t *testing.T) {
	c := newCLI(t)
	res, code := c.call("Find", `{"query":"natasha"}`)
	if code != 0 || res["count"].(float64) != 1 {
		t.Fatalf("Find: %d %v", code, res)
	}
	m := res["matches"].([]any)[0].(map[string]any)
	ptr := m["pointer"].(map[string]any)
	for _, k := range []string{"serialized", "heading", "lineIndex", "charOffset", "index", "label"} {
		if _, ok := ptr[k]; !ok {
			t.Errorf("pointer object lacks %q: %v", k, ptr)
		}
	}
	if m["start"].(float64) != float64(strings.Index(cliBook, "Natasha")) || m["line"].(float64) != 4 || ptr["label"] != "H2.p2" {
		t.Fatalf("match %v", m)
	}
	// Edit by pointer object, then by serialized string; the file is saved.
	pj, _ := json.Marshal(ptr)
	res, code = c.call("ReplaceText", `{"pointer":`+string(pj)+`,"newMarkdown":"Natasha ran in."}`)
	if code != 0 || res["success"] != true || !strings.Contains(res["context"].(string), "[Current] Paragraph H2.p2: \"Natasha ran in.\"") {
		t.Fatalf("ReplaceText: %d %v", code, res)
	}
	if !strings.Contains(c.file(), "Natasha ran in.") {
		t.Fatal("edit not saved to the file")
	}
	res, code = c.call("Read", `{"pointer":"`+ptr["serialized"].(string)+`"}`)
	if code != 0 || res["markdown"] != "Natasha ran in." {
		t.Fatalf("Read by an old serialized pointer: %d %v", code, res)
	}
	res, code = c.call("Undo", "")
	if code != 0 || c.file() != cliBook {
		t.Fatalf("Undo: %d %v", code, res)
	}
	res, code = c.call("Outline", "")
	if code != 0 || len(res["headings"].([]any)) != 3 || res["totalWords"].(float64) != 10 {
		t.Fatalf("Outline: %v", res)
	}
	res, code = c.call("TargetSetCreate", `{"name":"scenes"}`)
	id, _ := res["targetSetId"].(string)
	if code != 0 || id == "" {
		t.Fatalf("TargetSetCreate: %v", res)
	}
	res, code = c.call("TargetSetAdd", `{"targetSetId":"`+id+`","itemIndices":[3,2]}`)
	if code != 0 || res["count"].(float64) != 2 {
		t.Fatalf("TargetSetAdd: %v", res)
	}
	res, code = c.call("TargetSetGet", `{"targetSetId":"`+id+`"}`)
	if code != 0 || res["itemIndices"].([]any)[0].(float64) != 2 {
		t.Fatalf("TargetSetGet: %v", res)
	}
	res, code = c.call("CreateCursor", `{"cursorName":"C","forward":true,"maxElements":4,"maxBytes":65536,"includeContent":true}`)
	if code != 0 {
		t.Fatalf("CreateCursor: %v", res)
	}
	res, _ = c.call("CursorNext", `{"cursorName":"C"}`)
	if len(res["items"].([]any)) != 4 || res["hasMore"] != true {
		t.Fatalf("CursorNext 1: %v", res)
	}
	// The position persists across processes.
	res, _ = c.call("CursorNext", `{"cursorName":"C"}`)
	if len(res["items"].([]any)) != 2 || res["hasMore"] != false {
		t.Fatalf("CursorNext 2: %v", res)
	}
	res, code = c.call("CursorNext", `{"cursorName":"C"}`)
	if code != 1 || res["error"] != "Cursor 'C' is complete, reset it before requesting more portions." {
		t.Fatalf("complete cursor: %d %v", code, res)
	}
}

func TestCLIBadInput(t *testing.T) {
	c := newCLI(t)
	cases := []struct {
		name, tool, args string
		code             int
		want             string
	}{
		{"unknown tool", "Frobnicate", `{}`, 1, "unknown tool \"Frobnicate\"; known tools: BrowseCommand, BrowserGoal, Characters, CheckDisk, ConvertToUTF8, CreateCursor"},
		{"not an object", "Find", `[1,2]`, 1, "arguments must be a JSON object"},
		{"not JSON", "Find", `{query:`, 1, "arguments must be a JSON object"},
		{"wrong type", "Find", `{"query": 5}`, 1, "invalid arguments for Find"},
		{"unknown field", "Find", `{"query": "x", "colour": 1}`, 1, "unknown field \"colour\"; allowed fields: after, all, exact, forward, fromIndex, includeCodeAndQuotes, includeFrontMatter, limit, matchCase, occurrences, partOfWord, query, regex, toIndex"},
		{"missing field", "CursorNext", `{}`, 1, "cursorName"},
		{"malformed pointer", "Read", `{"pointer":"r1:zz"}`, 1, "malformed pointer"},
		{"pointer object without serialized", "Read", `{"pointer":{"label":"x"}}`, 1, "invalid arguments for Read"},
		{"index out of range", "Read", `{"index": 999}`, 1, "out of range; the document has items 0..5"},
		{"no address", "Read", `{}`, 1, "give pointer"},
		{"limit 0", "CreateCursor", `{"cursorName":"x","forward":true,"maxElements":0,"maxBytes":10,"includeContent":true}`, 1, "maxElements 0 is out of range; allowed 1..200"},
		{"limit 201", "CreateCursor", `{"cursorName":"x","forward":true,"maxElements":201,"maxBytes":10,"includeContent":true}`, 1, "maxElements 201 is out of range"},
		{"limit 65537", "CreateCursor", `{"cursorName":"x","forward":true,"maxElements":2,"maxBytes":65537,"includeContent":true}`, 1, "maxBytes 65537 is out of range; allowed 1..65536"},
		{"empty cursor name", "CreateCursor", `{"cursorName":"","forward":true,"maxElements":2,"maxBytes":10,"includeContent":true}`, 1, "cursor name is required"},
		{"long cursor name", "CreateCursor", `{"cursorName":"` + strings.Repeat("x", 97) + `","forward":true,"maxElements":2,"maxBytes":10,"includeContent":true}`, 1, "at most 96"},
		{"unknown cursor", "CursorNext", `{"cursorName":"NOPE"}`, 1, "Cursor 'NOPE' is not defined"},
		{"missing target set", "TargetSetAdd", `{"targetSetId":"ts_000000000000","itemIndices":[1]}`, 1, "ts_000000000000"},
		{"target set add without items", "TargetSetAdd", `{"targetSetId":"ts_000000000000"}`, 1, "give pointers or itemIndices"},
		{"paragraph to heading", "ReplaceText", `{"index":2,"newMarkdown":"## Sneaky"}`, 1, "would add a heading"},
		{"heading into list", "InsertAfter", `{"index":2,"markdown":"# Top"}`, 1, "would add a heading"},
		{"empty query", "Find", `{"query":"..."}`, 1, "no letters or digits"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, code := c.call(tc.tool, tc.args)
			msg, _ := res["error"].(string)
			if code != tc.code || !strings.Contains(msg, tc.want) {
				t.Fatalf("exit %d, %v; want exit %d and an error containing %q", code, res, tc.code, tc.want)
			}
			if c.file() != cliBook {
				t.Fatal("the manuscript changed")
			}
		})
	}
	// Pointer to a deleted item.
	res, _ := c.call("Read", `{"index":3}`)
	ser := res["pointer"].(map[string]any)["serialized"].(string)
	if _, code := c.call("Delete", `{"index":3}`); code != 0 {
		t.Fatal("delete failed")
	}
	res, code := c.call("Read", `{"pointer":"`+ser+`"}`)
	if code != 1 || !strings.Contains(res["error"].(string), "deleted in revision 2") {
		t.Fatalf("pointer to deleted item: %v", res)
	}
}

func TestCLIBadFilesAndUsage(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "w.db")
	files := map[string][]byte{"bin.md": []byte("\x00\x01\x02"), "cp1251.md": []byte("\xcf\xf0\xe8\xe2\xe5\xf2\n")}
	for name, content := range files {
		p := filepath.Join(dir, name)
		os.WriteFile(p, content, 0o644)
		var out bytes.Buffer
		code := run(context.Background(), []string{"call", "Outline", "--doc", p, "--db", db}, nil, &out, &out)
		if code != 1 || !strings.Contains(out.String(), `"error"`) {
			t.Errorf("%s: exit %d %s", name, code, out.String())
		}
	}
	// An empty file is an empty book; a device is refused before it is read.
	empty := filepath.Join(dir, "empty.md")
	os.WriteFile(empty, nil, 0o644)
	var out bytes.Buffer
	if code := run(context.Background(), []string{"call", "Outline", "--doc", empty, "--db", db}, nil, &out, &out); code != 0 || !strings.Contains(out.String(), `"items":0`) {
		t.Errorf("empty book: exit %d %s", code, out.String())
	}
	out.Reset()
	if code := run(context.Background(), []string{"call", "Outline", "--doc", "/dev/zero", "--db", db}, nil, &out, &out); code != 1 || !strings.Contains(out.String(), "not a regular file") {
		t.Errorf("/dev/zero: exit %d %s", code, out.String())
	}
	out.Reset()
	if code := run(context.Background(), []string{"call", "Outline", "--doc", filepath.Join(dir, "missing.md"), "--db", db}, nil, &out, &out); code != 1 || !strings.Contains(out.String(), "no such file") {
		t.Errorf("missing file: %d %s", code, out.String())
	}
	big := filepath.Join(dir, "big.md")
	os.WriteFile(big, bytes.Repeat([]byte("word "), 300), 0o644)
	out.Reset()
	if code := run(context.Background(), []string{"call", "Outline", "--doc", big, "--db", db, "--max-size", "1000"}, nil, &out, &out); code != 1 || !strings.Contains(out.String(), "over the limit of 1000 bytes") {
		t.Errorf("size limit: %d %s", code, out.String())
	}
	for _, argv := range [][]string{{"call"}, {"call", "Find", "--colour", "red"}, {"call", "Find", "{}", "extra"}, {"frobnicate"}, {"call", "Find", "--doc"}} {
		out.Reset()
		if code := run(context.Background(), argv, nil, &out, &out); code != 2 {
			t.Errorf("%v: exit %d, want 2", argv, code)
		}
	}
	// The benchmarks left the product for a command of their own: say where.
	out.Reset()
	if code := run(context.Background(), []string{"bench", "window"}, nil, &out, &out); code != 2 || !strings.Contains(out.String(), "go run -tags sqlite_fts5 ./cmd/waymark-bench") || strings.Contains(out.String(), "waymark bench") {
		t.Errorf("bench: exit %d, want 2 pointing to cmd/waymark-bench, and no bench in the usage:\n%s", code, out.String())
	}
	out.Reset()
	if code := run(context.Background(), []string{"call", "Outline", "--db", db}, nil, &out, &out); code != 1 || !strings.Contains(out.String(), "no manuscript is open") {
		t.Errorf("no doc: %d %s", code, out.String())
	}
}

func TestCLIAgentAndRunCursorAgent(t *testing.T) {
	c := newCLI(t)
	res, code := c.call("RunCursorAgent", `{"forward":true,"maxElements":20,"maxBytes":8192,"includeContent":true,"mode":"FirstMatch","taskDescription":"Find the first mention of \"Pierre\""}`)
	if code != 0 || res["success"] != true || res["firstItemIndex"].(float64) != 3 || res["markdown"] != "Pierre stayed." {
		t.Fatalf("RunCursorAgent: %d %v", code, res)
	}
	if _, ok := res["semanticPointer"].(map[string]any)["serialized"]; !ok {
		t.Fatalf("semanticPointer is not a pointer object: %v", res["semanticPointer"])
	}
	res, code = c.call("RunCursorAgent", `{"forward":true,"maxElements":20,"maxBytes":8192,"includeContent":true,"mode":"Grep","taskDescription":"x"}`)
	if code != 1 || !strings.Contains(res["error"].(string), "FirstMatch, CollectToTargetSet, AggregateSummary") {
		t.Fatalf("unknown mode: %v", res)
	}
	var out, errb bytes.Buffer
	code = run(context.Background(), []string{"agent", "--doc", c.doc, "--db", c.db, `replace "Pierre stayed" with "Pierre left"`}, nil, &out, &errb)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if code != 0 || len(lines) < 5 || !strings.Contains(c.file(), "Pierre left.") {
		t.Fatalf("agent: exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	for _, l := range lines {
		var ev map[string]any
		if err := json.Unmarshal([]byte(l), &ev); err != nil || ev["event"] == nil {
			t.Fatalf("not a JSON event line: %q", l)
		}
	}
	out.Reset()
	code = run(context.Background(), []string{"agent", "--doc", c.doc, "--db", c.db, "make it better"}, nil, &out, &errb)
	if code != 1 || !strings.Contains(out.String(), "needs a model server") {
		t.Fatalf("not understood: %d %s", code, out.String())
	}
}

// TestCLIAgentExitsNonZeroWhenNothingWasDone: `waymark agent` exits 1 when the
// command found or changed nothing (a phrase that is not in the book), as
// `waymark call` does for a failed tool, and 0 when it did something.
func TestCLIAgentExitsNonZeroWhenNothingWasDone(t *testing.T) {
	c := newCLI(t)
	for _, k := range []struct {
		cmd  string
		code int
		says string
	}{
		{`find the first mention of "Zvezdochkin"`, 1, `No mention of`},
		{"найди первое упоминание «Звёздочкин»", 1, "Упоминаний «Звёздочкин» не найдено"},
		{`replace "Zvezdochkin" with "Z"`, 1, "does not occur"},
		{`delete the paragraph with "Zvezdochkin"`, 1, "does not occur"},
		{`count "Zvezdochkin"`, 1, "does not occur"},
		{`find the first mention of "Pierre"`, 0, "Pierre stayed."},
	} {
		var out, errb bytes.Buffer
		code := run(context.Background(), []string{"agent", "--doc", c.doc, "--db", c.db, k.cmd}, nil, &out, &errb)
		if code != k.code || !strings.Contains(out.String(), k.says) {
			t.Errorf("%s: exit %d, want %d; %s", k.cmd, code, k.code, out.String())
		}
	}
}

// One error convention (issue 24, point 7): "waymark call" exits 1 with
// the reason under "error" for a manuscript tool's Go error and for a
// browser tool's failed result alike. Before, a page that could not be
// opened exited 0.
func TestCallFailuresLookAlike(t *testing.T) {
	c := newCLI(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String() + "/"
	l.Close()
	for _, tc := range []struct {
		tool, args string
		extra      []string
	}{
		{"Read", `{"index": 999}`, nil},
		{"browser_navigate", `{"url": "` + closed + `"}`, []string{"--headless"}},
	} {
		res, code := c.call(tc.tool, tc.args, tc.extra...)
		if msg, _ := res["error"].(string); code != 1 || msg == "" {
			t.Errorf("%s %s: exit %d, %v; want exit 1 and why under \"error\"", tc.tool, tc.args, code, res)
		}
	}
}
