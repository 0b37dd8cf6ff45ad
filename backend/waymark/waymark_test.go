package waymark

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/agent/author/authortest"
	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/testenv"
	"github.com/waymark/waymark/backend/tools"
)

// TestOutputSchemasHoldTheResults runs the manuscript's and the author's
// tools on a real book and checks every result against the output schema
// the tool declares (what MCP's tools/list and `waymark tools` show, and
// what the frontend's types are generated from): a schema that does not
// describe the result is a lie to every client.
func TestOutputSchemasHoldTheResults(t *testing.T) {
	doc, st := testenv.BookAndStore(t, authortest.Book)
	ws := manuscript.NewWorkspace(st)
	if _, err := ws.Open(context.Background(), doc); err != nil {
		t.Fatal(err)
	}
	reg := New(Config{WS: ws}).Registry
	for _, tool := range reg.MustTools() {
		if len(tool.OutputSchema) == 0 {
			t.Errorf("%s declares no output schema", tool.Name)
		}
	}
	var set, plan string
	calls := []struct{ tool, args string }{
		{"Outline", `{}`},
		{"Find", `{"query": "telescope", "all": true}`},
		{"Read", `{"index": 2}`},
		{"ReplaceText", `{"index": 4, "newMarkdown": "Mira signed for it twice."}`},
		{"Undo", `{}`},
		{"Redo", `{}`},
		{"History", `{"limit": 10}`},
		{"EditsSince", `{"sinceRevision": 1}`},
		{"TextChanges", `{"knownRevision": 1}`},
		{"CheckDisk", `{}`},
		{"TargetSetCreate", `{"name": "scenes"}`},
		{"TargetSetAdd", `{"targetSetId": "$SET", "itemIndices": [2, 4]}`},
		{"TargetSetGet", `{"targetSetId": "$SET"}`},
		{"TargetSetList", `{}`},
		{"TargetSetRemove", `{"targetSetId": "$SET", "index": 4}`},
		{"CreateCursor", `{"cursorName": "c", "forward": true, "maxElements": 2, "maxBytes": 4096, "includeContent": true}`},
		{"CursorNext", `{"cursorName": "c"}`},
		{"RunCursorAgent", `{"forward": true, "maxElements": 20, "maxBytes": 8192, "includeContent": true, "mode": "FirstMatch", "taskDescription": "Find the first mention of \"Mira\""}`},
		{"RunCommand", `{"command": "find the first mention of \"Mira\""}`},
		{"RunCommand", `{"command": ` + mustQuote(authortest.Command) + `}`},
		{"PlanPropose", `{"command": "find the first mention of \"Mira\", then replace \"Mira\" with \"Mirra\""}`},
		{"PlanRun", `{"planId": "$PLAN"}`},
		{"Export", `{"format": "html", "path": "$DIR/book.html"}`},
		{"TargetSetDelete", `{"targetSetId": "$SET"}`},
	}
	dir := t.TempDir()
	for _, c := range calls {
		args := strings.NewReplacer("$SET", set, "$PLAN", plan, "$DIR", filepath.ToSlash(dir)).Replace(c.args)
		res, err := reg.Call(context.Background(), tools.Call{Name: c.tool, Args: json.RawMessage(args)}, tools.Context{})
		if err != nil {
			t.Fatalf("%s %s: %v", c.tool, args, err)
		}
		b, _ := json.Marshal(res)
		var v struct {
			ID   string `json:"targetSetId"`
			Plan string `json:"planId"`
		}
		_ = json.Unmarshal(b, &v)
		if c.tool == "TargetSetCreate" {
			set = v.ID
		}
		if c.tool == "PlanPropose" {
			plan = v.Plan
		}
		tool := reg.MustGet(c.tool)
		var s jsonschema.Schema
		if err := json.Unmarshal(tool.OutputSchema, &s); err != nil {
			t.Fatalf("%s's output schema: %v", c.tool, err)
		}
		rs, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("%s's output schema: %v", c.tool, err)
		}
		var inst any
		_ = json.Unmarshal(b, &inst)
		if err := rs.Validate(inst); err != nil {
			t.Errorf("%s's result does not fit its output schema: %v\n%s", c.tool, err, b)
		}
	}
}

func mustQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestEveryToolSchemaResolves: the registry resolves a tool's input schema at
// its first call (not at start-up), so a schema that cannot be resolved would
// show only then; every tool of every door is resolved here instead.
func TestEveryToolSchemaResolves(t *testing.T) {
	ss := browser.NewSessions(browser.Options{Headless: true})
	defer ss.Close()
	w := New(Config{Browser: ss})
	if n := len(w.Registry.Names()); n < 20 {
		t.Fatalf("only %d tools registered", n)
	}
	// Check resolves the schema before it validates: empty arguments may be
	// refused as invalid, never for a schema that cannot be resolved.
	for _, name := range w.Registry.Names() {
		if err := w.Registry.Check(name, json.RawMessage(`{}`)); err != nil && !errors.Is(err, tools.ErrInvalidArgs) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// BenchmarkNew is the registry's assembly, which every door (the window's
// start, each CLI call, the MCP server) pays before anything else.
func BenchmarkNew(b *testing.B) {
	ss := browser.NewSessions(browser.Options{Headless: true})
	defer ss.Close()
	for i := 0; i < b.N; i++ {
		New(Config{Browser: ss})
	}
}
