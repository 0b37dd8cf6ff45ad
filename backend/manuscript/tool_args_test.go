package manuscript_test

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/store"
	"github.com/waymark/waymark/backend/tools"
	"github.com/waymark/waymark/backend/tools/toolstest"
)

var updateSchemas = flag.Bool("update-schemas", false, "rewrite testdata/manuscript_tool_schemas.golden")

// registerForArgsTest registers the manuscript tools the test below checks.
func registerForArgsTest(r *tools.Registry, ws *manuscript.Workspace) {
	manuscript.RegisterTools(r, ws)
}

// argRig is a fresh registry over a fresh manuscript and SQLite file, with a
// TargetSet "scenes" holding items 1 and 4, so that every valid case runs.
type argRig struct {
	reg  *tools.Registry
	dir  string
	vars *strings.Replacer
}

func newArgRig(t *testing.T) *argRig {
	t.Helper()
	dir := t.TempDir()
	doc := filepath.Join(dir, "book.md")
	if err := os.WriteFile(doc, []byte("# One\n\nNatasha came in.\n\nPierre stayed.\n\n# Two\n\nAndrei left.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(dir, "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ws := manuscript.NewWorkspace(st)
	m, err := ws.Open(context.Background(), doc)
	if err != nil {
		t.Fatal(err)
	}
	ts, err := m.CreateTargetSet(context.Background(), "scenes")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.AddToTargetSet(context.Background(), ts.ID, nil, []int{1, 4}); err != nil {
		t.Fatal(err)
	}
	var p1 string
	_ = m.Do(func(d *document.Document) error { p1 = d.PointerTo(1).Serialize(); return nil })
	r := tools.New()
	registerForArgsTest(r, ws)
	return &argRig{reg: r, dir: dir, vars: strings.NewReplacer("$SET", ts.ID, "$P1", p1, "$DIR", dir)}
}

func (g *argRig) call(t *testing.T, name, args string) (any, error) {
	t.Helper()
	return g.reg.Call(context.Background(), tools.Call{Name: name, Args: json.RawMessage(g.vars.Replace(args))}, tools.Context{})
}

// toolArgCases records, for every manuscript tool, arguments it accepts (the
// call succeeds) and arguments it refuses (an ErrInvalidArgs naming what was
// wrong). Setup calls run first on the same rig.
var toolArgCases = []struct {
	tool   string
	setup  []string // "Tool args" calls made before the case
	args   string
	refuse string // "" = accepted and succeeds; else a part of the error
}{
	{"Read", nil, `{"index": 1}`, ""},
	{"Read", nil, `{"pointer": "$P1"}`, ""},
	{"Read", nil, `{"pointer": {"serialized": "$P1"}}`, ""},
	{"Read", nil, `null`, "an item is required"},
	{"Read", nil, `{}`, "an item is required"},
	{"Read", nil, `{"index": 1, "pointer": "$P1"}`, "not both"},
	{"Read", nil, `{"index": -1}`, "minimum"},
	{"Read", nil, `{"index": "1"}`, "index"},
	{"Read", nil, `{"index": null}`, "index"},
	{"Read", nil, `{"pointer": ""}`, "pointer"},
	{"Read", nil, `{"pointer": {"label": "x"}}`, "pointer"},
	{"Read", nil, `{"pointer": null}`, "pointer"},
	{"Read", nil, `{"pointer": "nonsense"}`, "invalid arguments for Read: bad pointer: malformed pointer"}, // was a bare pointer error, not ErrInvalidArgs
	{"Read", nil, `{"page": 1}`, `unknown field "page"; allowed fields: index, pointer`},
	{"Read", nil, `[1]`, "must be a JSON object"},

	{"ReplaceText", nil, `{"index": 1, "newMarkdown": "Natasha ran in."}`, ""},
	{"ReplaceText", nil, `{"pointer": "$P1", "newMarkdown": "Natasha ran in."}`, ""},
	{"ReplaceText", nil, `{"pointer": {"serialized": "$P1"}, "newMarkdown": "Natasha ran in."}`, ""},
	{"ReplaceText", nil, `{"index": 1}`, "newMarkdown"},
	{"ReplaceText", nil, `{"index": 1, "markdown": "x"}`, `unknown field "markdown"; allowed fields: index, newMarkdown, pointer`},
	{"ReplaceText", nil, `{"newMarkdown": "x"}`, "an item is required"},
	{"ReplaceText", nil, `{"index": 1, "newMarkdown": 5}`, "newMarkdown"},
	{"ReplaceText", nil, `{"pointer": "r1:b", "newMarkdown": "x"}`, "invalid arguments for ReplaceText: bad pointer"}, // was a bare pointer error
	{"ReplaceText", nil, `{"index": 1, "pointer": "$P1", "newMarkdown": "x"}`, "not both"},

	{"InsertAfter", nil, `{"index": 1, "markdown": "New."}`, ""},
	{"InsertAfter", nil, `{"pointer": "$P1", "markdown": "New."}`, ""},
	{"InsertAfter", nil, `{"index": 1}`, "markdown"},
	{"InsertAfter", nil, `{"index": 1, "newMarkdown": "x"}`, `unknown field "newMarkdown"; allowed fields: index, markdown, pointer`},
	{"InsertAfter", nil, `{"markdown": "x"}`, "an item is required"},

	{"InsertBefore", nil, `{"index": 2, "markdown": "New."}`, ""},
	{"InsertBefore", nil, `{"pointer": {"serialized": "$P1"}, "markdown": "New."}`, ""},
	{"InsertBefore", nil, `{"index": 1}`, "markdown"},
	{"InsertBefore", nil, `{"index": -2, "markdown": "x"}`, "minimum"},

	{"Delete", nil, `{"index": 1}`, ""},
	{"Delete", nil, `{"pointer": "$P1"}`, ""},
	{"Delete", nil, `{}`, "an item is required"},
	{"Delete", nil, `{"index": 1, "markdown": "x"}`, `unknown field "markdown"; allowed fields: index, pointer`},

	{"Undo", []string{`ReplaceText {"index": 1, "newMarkdown": "x"}`}, `{}`, ""},
	{"Undo", []string{`ReplaceText {"index": 1, "newMarkdown": "x"}`}, `{"_outputPath": "†state.undo"}`, ""},
	{"Undo", nil, `{"steps": 2}`, `unknown field "steps"; allowed fields: language`},
	{"Undo", []string{`ReplaceText {"index": 1, "newMarkdown": "x"}`}, `{"language": "ru"}`, ""},
	{"Undo", nil, `{"language": "de"}`, "language"},

	{"Redo", []string{`ReplaceText {"index": 1, "newMarkdown": "x"}`, `Undo {}`}, `{}`, ""},
	{"Redo", nil, `{"all": true}`, `unknown field "all"; allowed fields: language`},
	{"Redo", []string{`ReplaceText {"index": 1, "newMarkdown": "x"}`, `Undo {}`}, `{"language": "en"}`, ""},
	{"Redo", nil, `{"language": "fr"}`, "language"},

	{"CreateCursor", nil, `{"cursorName": "c", "forward": true, "maxElements": 10, "maxBytes": 1000, "includeContent": true}`, ""},
	{"CreateCursor", nil, `{"cursorName": "c", "forward": true, "maxElements": 10, "maxBytes": 1000}`, "includeContent"},
	{"CreateCursor", nil, `{"cursorName": "c", "forward": true, "maxElements": "10", "maxBytes": 1000, "includeContent": true}`, "maxElements"},
	{"CreateCursor", nil, `{"cursorName": "c", "forward": "yes", "maxElements": 10, "maxBytes": 1000, "includeContent": true}`, "forward"},
	{"CreateCursor", nil, `{"cursorName": "c", "forward": true, "maxElements": 10, "maxBytes": 1000, "includeContent": true, "from": 3}`, `unknown field "from"`},

	{"CursorNext", nil, `{"cursorName": "CUR_WHOLE_BOOK_FORWARD"}`, ""},
	{"CursorNext", nil, `{}`, "cursorName"},
	{"CursorNext", nil, `{"cursorName": 1}`, "cursorName"},

	{"TargetSetCreate", nil, `{"name": "Natasha"}`, ""},
	{"TargetSetCreate", nil, `{}`, ""},
	{"TargetSetCreate", nil, `{"name": "` + strings.Repeat("n", 201) + `"}`, "name"},
	{"TargetSetCreate", nil, `{"name": 3}`, "name"},
	{"TargetSetCreate", nil, `{"title": "x"}`, `unknown field "title"; allowed fields: name`},

	{"TargetSetAdd", nil, `{"targetSetId": "$SET", "itemIndices": [2]}`, ""},
	{"TargetSetAdd", nil, `{"targetSetId": "$SET", "pointers": ["$P1"]}`, ""},
	{"TargetSetAdd", nil, `{"targetSetId": "$SET", "pointers": [{"serialized": "$P1"}], "itemIndices": [2]}`, ""},
	{"TargetSetAdd", nil, `{"targetSetId": "$SET"}`, "give pointers or itemIndices"},
	{"TargetSetAdd", nil, `{"targetSetId": "$SET", "itemIndices": []}`, "give pointers or itemIndices"},
	{"TargetSetAdd", nil, `{"targetSetId": "", "itemIndices": [1]}`, "targetSetId"},
	{"TargetSetAdd", nil, `{"itemIndices": [1]}`, "targetSetId"},
	{"TargetSetAdd", nil, `{"targetSetId": "$SET", "itemIndices": [-1]}`, "minimum"},
	{"TargetSetAdd", nil, `{"targetSetId": "$SET", "itemIndices": null}`, "itemIndices"},
	{"TargetSetAdd", nil, `{"targetSetId": "$SET", "pointers": [""]}`, "pointers"},
	{"TargetSetAdd", nil, `{"targetSetId": "$SET", "pointers": "$P1"}`, "pointers"},

	{"TargetSetGet", nil, `{"targetSetId": "$SET"}`, ""},
	{"TargetSetGet", nil, `{}`, "targetSetId"},
	{"TargetSetGet", nil, `{"targetSetId": ""}`, "targetSetId"},

	{"ReplaceAll", nil, `{"query": "Natasha", "with": "Natalie"}`, ""},
	{"ReplaceAll", nil, `{"query": "Пьер", "with": "Петр", "forms": true, "first": true, "fromIndex": 0, "toIndex": 2, "preview": true}`, ""},
	{"ReplaceAll", nil, `{"query": "N(a)", "with": "$1", "regex": true, "matchCase": true, "partOfWord": true, "includeCodeAndQuotes": true, "preview": true}`, ""},
	{"ReplaceAll", nil, `{"query": "", "with": "x"}`, "query"},
	{"ReplaceAll", nil, `{"query": "x"}`, "with"},
	{"ReplaceAll", nil, `{"query": "x", "with": "y", "fromIndex": -1}`, "fromIndex"},
	{"ReplaceAll", nil, `{"query": "[", "with": "y", "regex": true}`, "not valid"},
	{"DeleteAll", nil, `{"query": "Pierre"}`, ""},
	{"DeleteAll", nil, `{"query": "Natasha", "first": true, "toIndex": 3, "preview": true}`, ""},
	{"DeleteAll", nil, `{}`, "query"},
	{"DeleteAll", nil, `{"query": "x", "toIndex": -2}`, "toIndex"},
	{"Characters", nil, `{}`, ""},
	{"Characters", nil, `{"fromIndex": 0, "toIndex": 3, "minMentions": 1, "format": "csv"}`, ""},
	{"Characters", nil, `{"format": "json", "path": "$DIR/people.json"}`, ""},
	{"Characters", nil, `{"format": "xml"}`, "format"},
	{"Characters", nil, `{"minMentions": 0}`, "minMentions"},
	{"Characters", nil, `{"path": "people.md"}`, "must be absolute"},
	{"Find", nil, `{"query": "natasha", "occurrences": true, "matchCase": true, "partOfWord": true, "regex": true, "limit": 5, "fromIndex": 0, "toIndex": 3}`, ""},
	{"Find", nil, `{"query": "Natasha", "matchCase": true}`, "go with occurrences"},
	{"ReplaceAll", nil, `{"query": "Natasha", "with": "N", "fromUtf16": 0, "toUtf16": 40, "preview": true}`, ""},
	{"Characters", nil, `{"utf16": true}`, ""},
	{"Find", nil, `{"query": "Natasha"}`, ""},
	{"Find", nil, `{"query": "natasha", "all": true, "exact": true, "forward": false, "includeCodeAndQuotes": true, "includeFrontMatter": true, "limit": 2}`, ""},
	{"Find", nil, `{"query": "Andrei", "after": "$P1"}`, ""},
	{"Find", nil, `{"query": "Andrei", "after": {"serialized": "$P1"}}`, ""},
	{"Find", nil, `{}`, "query"},
	{"Find", nil, `{"query": ""}`, "query"},
	{"Find", nil, `{"query": "x", "limit": 0}`, "minimum"},
	{"Find", nil, `{"query": "x", "forward": null}`, "forward"},
	{"Find", nil, `{"query": "x", "after": ""}`, "after"},
	{"Find", nil, `{"query": "x", "after": 3}`, "after"},
	{"Find", nil, `{"query": "x", "first": true}`, `unknown field "first"; allowed fields: after, all, exact, forward, fromIndex, includeCodeAndQuotes, includeFrontMatter, limit, matchCase, occurrences, partOfWord, query, regex, toIndex`},

	{"CheckDisk", nil, `{}`, ""},
	{"CheckDisk", nil, `{"path": "x"}`, `unknown field "path"; allowed fields: none`},

	{"EditsSince", nil, `{"sinceRevision": 0}`, ""},
	{"EditsSince", []string{`ReplaceText {"index": 1, "newMarkdown": "x"}`}, `{"sinceRevision": 1}`, ""},
	{"EditsSince", nil, `{}`, "sinceRevision"},
	{"EditsSince", nil, `{"sinceRevision": -1}`, "minimum"},

	{"ResolveExternalChange", nil, `{}`, "choice"},
	{"ResolveExternalChange", nil, `{"choice": "merge"}`, "reload keep compare"},

	{"Spelling", nil, `{}`, ""},
	{"Spelling", nil, `{"limit": 5}`, ""},
	{"Spelling", nil, `{"limit": 0}`, "minimum"},
	{"Spelling", nil, `{"limit": 5001}`, "maximum"},
	{"Spelling", nil, `{"text": "wrotte"}`, ""},

	{"TextChanges", nil, `{"knownRevision": 0}`, ""},
	{"TextChanges", nil, `{}`, "knownRevision"},
	{"TextChanges", nil, `{"knownRevision": "1"}`, "knownRevision"},

	{"TypeText", nil, `{"baseRevision": 1, "fromUtf16": 2, "toUtf16": 5, "text": "Один"}`, ""},
	{"TypeText", nil, `{"baseRevision": 1, "fromUtf16": 0, "toUtf16": 0}`, "text"},
	{"TypeText", nil, `{"baseRevision": 0, "fromUtf16": 0, "toUtf16": 0, "text": "A"}`, "minimum"},
	{"TypeText", nil, `{"baseRevision": 1, "fromUtf16": -1, "toUtf16": 0, "text": "A"}`, "minimum"},
	{"TypeText", nil, `{"baseRevision": 1, "from": 0, "toUtf16": 0, "text": "A"}`, `unknown field "from"; allowed fields: baseRevision, fromUtf16, text, toUtf16`},

	{"NoteTyping", nil, `{"baseRevision": 1, "utf16Offset": 3}`, ""},
	{"NoteTyping", nil, `{"baseRevision": 1}`, "utf16Offset"},
	{"NoteTyping", nil, `{"baseRevision": 0, "utf16Offset": 0}`, "minimum"},
	{"NoteTyping", nil, `{"baseRevision": 1, "utf16Offset": -1}`, "minimum"},

	{"ItemAt", nil, `{"utf16Offset": 0}`, ""},
	{"ItemAt", nil, `{}`, "utf16Offset"},
	{"ItemAt", nil, `{"utf16Offset": -1}`, "minimum"},
	{"ItemAt", nil, `{"utf16Offset": 3, "index": 1}`, `unknown field "index"; allowed fields: utf16Offset`},

	{"UndoRevision", []string{`ReplaceText {"index": 1, "newMarkdown": "x"}`}, `{"revision": 2}`, ""},
	{"UndoRevision", nil, `{}`, "revision"},
	{"UndoRevision", nil, `{"revision": 0}`, "minimum"},

	{"Outline", nil, `{}`, ""},
	{"Outline", nil, `{"depth": 1}`, `unknown field "depth"; allowed fields: none`},

	{"History", nil, `{}`, ""},
	{"History", nil, `{"limit": 1}`, ""},
	{"History", nil, `{"limit": 5000}`, ""},
	{"History", nil, `{"limit": 0}`, "minimum"},
	{"History", nil, `{"limit": 5001}`, "maximum"},
	{"History", nil, `{"language": "ru"}`, ""},
	{"History", nil, `{"language": "Russian"}`, "language"},
	{"History", nil, `{"limit": "all"}`, "limit"},

	{"RestoreRevision", []string{`ReplaceText {"index": 1, "newMarkdown": "x"}`}, `{"revision": 1}`, ""},
	{"RestoreRevision", nil, `{}`, "revision"},
	{"RestoreRevision", nil, `{"revision": 0}`, "minimum"},
	{"RestoreRevision", nil, `{"revision": 1.5}`, "revision"},

	{"TargetSetList", nil, `{}`, ""},
	{"TargetSetList", nil, `{"name": "x"}`, `unknown field "name"; allowed fields: none`},

	{"TargetSetRemove", nil, `{"targetSetId": "$SET", "index": 1}`, ""},
	{"TargetSetRemove", nil, `{"targetSetId": "$SET"}`, "index"},
	{"TargetSetRemove", nil, `{"index": 1}`, "targetSetId"},
	{"TargetSetRemove", nil, `{"targetSetId": "$SET", "index": -1}`, "minimum"},
	{"TargetSetRemove", nil, `{"targetSetId": "", "index": 1}`, "targetSetId"},
	{"TargetSetRemove", nil, `{"targetSetId": "$SET", "pointer": "$P1"}`, `unknown field "pointer"; allowed fields: index, targetSetId`},

	{"TargetSetDelete", nil, `{"targetSetId": "$SET"}`, ""},
	{"TargetSetDelete", nil, `{}`, "targetSetId"},
	{"TargetSetDelete", nil, `{"targetSetId": ""}`, "targetSetId"},

	{"ExportMetadata", nil, `{}`, ""},
	{"ExportMetadata", nil, `{"title": "x"}`, `unknown field "title"; allowed fields: none`},

	{"Export", nil, `{"format": "markdown", "path": "$DIR/out.md"}`, ""},
	{"Export", nil, `{"format": "html", "path": "$DIR/set.html", "targetSetId": "$SET", "overwrite": true}`, ""},
	{"Export", nil, `{"format": "rtf", "path": "$DIR/x.rtf"}`, "format"},
	{"Export", nil, `{"format": "pdf", "paper": "letter", "path": "$DIR/x.pdf"}`, "paper"},
	{"Export", nil, `{"path": "$DIR/x.md"}`, "format"},
	{"Export", nil, `{"format": "html"}`, "path"},
	{"Export", nil, `{"format": "html", "path": ""}`, "path"},
	{"Export", nil, `{"format": "html", "path": "rel.html"}`, "must be absolute"},
	{"Export", nil, `{"format": "html", "path": "$DIR/o.html", "overwrite": "yes"}`, "overwrite"},

	{"ConvertToUTF8", nil, `{}`, "path"},
	{"ConvertToUTF8", nil, `{"path": ""}`, "path"},
	{"ConvertToUTF8", nil, `{"path": "$DIR/book.md", "backup": false}`, `unknown field "backup"; allowed fields: path`},
}

// TestManuscriptToolsAcceptAndRefuse calls every manuscript tool with the
// recorded arguments: the valid ones run, the invalid ones are refused with an
// invalid-arguments error saying what was wrong, and change nothing. (Written
// before the tools moved to package manuscript; it passed on both sides.)
func TestManuscriptToolsAcceptAndRefuse(t *testing.T) {
	seen := map[string]bool{}
	shared := newArgRig(t) // refusals change nothing, so they share one rig
	before, _ := os.ReadFile(filepath.Join(shared.dir, "book.md"))
	for _, c := range toolArgCases {
		seen[c.tool] = true
		t.Run(c.tool, func(t *testing.T) {
			g := shared
			if c.refuse == "" || c.setup != nil {
				g = newArgRig(t)
			}
			for _, s := range c.setup {
				name, args, _ := strings.Cut(s, " ")
				if _, err := g.call(t, name, args); err != nil {
					t.Fatalf("setup %s: %v", s, err)
				}
			}
			_, err := g.call(t, c.tool, c.args)
			if c.refuse == "" {
				if err != nil {
					t.Errorf("%s %s refused: %v", c.tool, c.args, err)
				}
				return
			}
			if err == nil || !errors.Is(err, tools.ErrInvalidArgs) || !strings.Contains(err.Error(), c.refuse) {
				t.Errorf("%s %s: err = %v; want invalid arguments naming %q", c.tool, c.args, err, c.refuse)
			}
			t.Logf("%s %.60s → %v", c.tool, c.args, err)
		})
	}
	if after, _ := os.ReadFile(filepath.Join(shared.dir, "book.md")); string(after) != string(before) {
		t.Errorf("refused calls changed the manuscript:\n%s", after)
	}
	for _, name := range shared.reg.Names() {
		if !seen[name] {
			t.Errorf("tool %s has no recorded arguments", name)
		}
	}
}

// TestManuscriptToolSchemasKeepTheirShape compares every manuscript tool's
// input schema, descriptions left out, with testdata/manuscript_tool_schemas.golden:
// property names, types, required lists and constraints change only on purpose
// (go test -run TestManuscriptToolSchemasKeepTheirShape -update-schemas).
func TestManuscriptToolSchemasKeepTheirShape(t *testing.T) {
	g := newArgRig(t)
	toolstest.CheckSchemas(t, g.reg, nil, filepath.Join("testdata", "manuscript_tool_schemas.golden"), *updateSchemas)
}
