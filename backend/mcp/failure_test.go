package mcp

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/store"
	"github.com/waymark/waymark/backend/tools"
)

// One error convention (issue 24, point 7): a manuscript tool's Go error
// and a browser tool's failed result ({"status":"error"}) both come to an
// MCP client as an error result (isError) whose text is the error's own
// message (not JSON); a failed result's structured content is the whole
// result, saying why under "error". Before, the browser's failure came as a success.
func TestFailuresLookAlikeOverMCP(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := t.TempDir()
	doc := filepath.Join(dir, "book.md")
	if err := os.WriteFile(doc, []byte("# Book\n\nNatasha came in.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(dir, "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ws := manuscript.NewWorkspace(st)
	if _, err := ws.Open(ctx, doc); err != nil {
		t.Fatal(err)
	}
	ss := browser.NewSessions(browser.Options{Headless: true})
	defer ss.Close()
	reg := tools.New()
	manuscript.RegisterTools(reg, ws)
	browser.Register(reg, ss)
	// A port nothing listens on: the page cannot be opened.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String() + "/"
	l.Close()

	cs := connect(t, ctx, serverOf(reg, "test"), nil)
	for _, c := range []struct {
		name string
		tool string
		args map[string]any
		// want is in the text; structured: the reply carries the result.
		want       string
		structured bool
	}{
		{"a manuscript tool's error", "Read", map[string]any{"index": 999}, "item index 999 is out of range", false},
		{"a browser tool's failed result", "browser_navigate", map[string]any{"url": closed}, l.Addr().String(), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: c.tool, Arguments: c.args})
			if err != nil {
				t.Fatal(err)
			}
			text := res.Content[0].(*sdk.TextContent).Text
			if !res.IsError || !strings.Contains(text, c.want) || strings.HasPrefix(text, "{") {
				t.Errorf("%s: isError %v, text %q; want an error result whose text says %q", c.tool, res.IsError, text, c.want)
			}
			var body struct {
				Status string `json:"status"`
				Error  string `json:"error"`
			}
			b, _ := json.Marshal(res.StructuredContent)
			if got := res.StructuredContent != nil; got != c.structured {
				t.Fatalf("%s: structured content %s; want it: %v", c.tool, b, c.structured)
			}
			if c.structured && (json.Unmarshal(b, &body) != nil || body.Status != "error" || body.Error == "") {
				t.Errorf("%s: structured content %s; want the failed result saying why under \"error\"", c.tool, b)
			}
		})
	}
}
