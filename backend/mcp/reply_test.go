package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/waymark"
)

// An MCP reply carries a result once as data and once as words (issue 33
// point 14): its structured content is the whole result, fitting the tool's
// output schema, and its text is the answer the other doors give for it (a
// list's numbered lines, as `waymark browse` says them), not the result's
// JSON a second time. A result with no words of its own (the overlay's, the
// manuscript tools') keeps its JSON as its text.
func TestReplyTextIsTheAnswerStructuredIsTheResult(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		var b strings.Builder
		b.WriteString(`<!doctype html><html lang="en"><title>Many links</title><main><h1>Archive</h1><ul>`)
		for i := 1; i <= 600; i++ {
			fmt.Fprintf(&b, `<li><a href="/item/%d">Article number %d</a></li>`, i, i)
		}
		b.WriteString(`</ul><label><input type="checkbox" checked> Keep me posted</label></main>`)
		fmt.Fprint(w, b.String())
	}))
	defer srv.Close()
	ss := browser.NewSessions(browser.Options{Headless: true})
	defer ss.Close()
	reg := waymark.New(waymark.Config{Browser: ss}).Registry
	cs := connect(t, ctx, serverOf(reg, "test"), nil)
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	schemas := map[string]*jsonschema.Resolved{}
	for _, tl := range list.Tools {
		if tl.OutputSchema == nil {
			continue
		}
		b, _ := json.Marshal(tl.OutputSchema)
		var s jsonschema.Schema
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatalf("%s's output schema: %v", tl.Name, err)
		}
		if schemas[tl.Name], err = s.Resolve(nil); err != nil {
			t.Fatalf("%s's output schema: %v", tl.Name, err)
		}
	}
	// call returns the reply's text and its structured content's JSON,
	// after checking that the content fits the tool's output schema.
	call := func(name string, args map[string]any) (string, []byte) {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", name, err, res)
		}
		if len(res.Content) != 1 {
			t.Fatalf("%s: %d contents, want one text", name, len(res.Content))
		}
		b, _ := json.Marshal(res.StructuredContent)
		rs := schemas[name]
		if rs == nil {
			t.Fatalf("%s has no output schema over MCP", name)
		}
		var inst any
		_ = json.Unmarshal(b, &inst)
		if err := rs.Validate(inst); err != nil {
			t.Errorf("%s's structured content does not fit its output schema: %v", name, err)
		}
		return res.Content[0].(*sdk.TextContent).Text, b
	}
	if text, _ := call("browser_navigate", map[string]any{"url": srv.URL}); strings.HasPrefix(text, "{") || !strings.Contains(text, "Many links") {
		t.Errorf("browser_navigate's text: %q; want the page said in words", text)
	}

	for _, c := range []struct {
		offset      int
		first, last string
		n           int
	}{
		{0, "601 elements, 1 to 500:", "Say more for 501 to 601.", 500},
		{500, "601 elements, 501 to 601:", "End of the list.", 101},
	} {
		text, data := call("browser_list_interactives", map[string]any{"limit": 500, "offset": c.offset})
		lines := strings.Split(text, "\n")
		if len(lines) < 3 {
			t.Errorf("list from %d: text %.200q; want the list's lines", c.offset, text)
			continue
		}
		if lines[0] != c.first || lines[len(lines)-1] != c.last || len(lines) != c.n+2 {
			t.Errorf("list from %d: text %q … %q (%d lines); want %q … %q (%d lines)", c.offset, lines[0], lines[len(lines)-1], len(lines), c.first, c.last, c.n+2)
		}
		if want := fmt.Sprintf("%d. link Article number %d", c.offset+1, c.offset+1); lines[1] != want {
			t.Errorf("list from %d: first element %q, want %q", c.offset, lines[1], want)
		}
		var res browser.Result[browser.ListResult]
		if err := json.Unmarshal(data, &res); err != nil || res.Data == nil {
			t.Fatalf("list from %d: structured content %.200s: %v", c.offset, data, err)
		}
		d := res.Data
		if d.Total != 601 || d.Offset != c.offset || len(d.Items) != c.n || d.Items[0].Href != fmt.Sprintf("%s/item/%d", srv.URL, c.offset+1) || d.Items[0].Tag != "a" {
			t.Errorf("list from %d: structured content total %d, offset %d, %d items, first %+v; want the whole result", c.offset, d.Total, d.Offset, len(d.Items), d.Items[0])
		}
		if c.offset == 500 {
			box := d.Items[len(d.Items)-1]
			if box.Checked == nil || !*box.Checked || lines[len(lines)-2] != "601. checkbox Keep me posted, checked" {
				t.Errorf("the checkbox: structured %+v, said %q", box, lines[len(lines)-2])
			}
		}
		if len(text)*3 > len(data) {
			t.Errorf("list from %d: text %d bytes, structured content %d: the text should be the short answer, not the data again", c.offset, len(text), len(data))
		}
	}

	// The number command's answer over MCP says the list in the same lines.
	text, data := call("BrowseCommand", map[string]any{"command": "list"})
	var a struct{ Say, Text string }
	if err := json.Unmarshal(data, &a); err != nil {
		t.Fatal(err)
	}
	if want := strings.TrimSpace(a.Say + "\n" + a.Text); text != want || !strings.Contains(text, "\n1. link Article number 1\n2. link Article number 2\n") {
		t.Errorf("BrowseCommand list: text %q; want its answer %q, with the same lines", text, want)
	}

	// A result with no words of its own keeps its JSON as text.
	text, data = call("browser_overlay_show", map[string]any{})
	var fromText, fromData any
	if json.Unmarshal([]byte(text), &fromText) != nil || json.Unmarshal(data, &fromData) != nil || !reflect.DeepEqual(fromText, fromData) {
		t.Errorf("browser_overlay_show: text %q; want its JSON %s", text, data)
	}
}
