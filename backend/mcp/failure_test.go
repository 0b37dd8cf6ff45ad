package mcp

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
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
// MCP client as an error result (isError) whose JSON says why under
// "error". Before, the browser's failure came as a success.
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
	}{
		{"a manuscript tool's error", "Read", map[string]any{"index": 999}},
		{"a browser tool's failed result", "browser_navigate", map[string]any{"url": closed}},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: c.tool, Arguments: c.args})
			if err != nil {
				t.Fatal(err)
			}
			var body struct {
				Error string `json:"error"`
			}
			text := res.Content[0].(*sdk.TextContent).Text
			if !res.IsError || json.Unmarshal([]byte(text), &body) != nil || body.Error == "" {
				t.Errorf("%s: isError %v, %s; want an error result saying why under \"error\"", c.tool, res.IsError, text)
			}
		})
	}
}
