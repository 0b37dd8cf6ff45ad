package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/store"
	"github.com/waymark/waymark/backend/tools"
)

func TestServerListsAndCallsTools(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	doc := filepath.Join(dir, "book.md")
	os.WriteFile(doc, []byte("# Book\n\nNatasha came in.\n"), 0o644)
	st, err := store.Open(filepath.Join(dir, "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ws := manuscript.NewWorkspace(st)
	if _, err := ws.Open(ctx, doc); err != nil {
		t.Fatal(err)
	}
	reg := tools.New()
	manuscript.RegisterTools(reg, ws)

	cs := connect(t, ctx, serverOf(reg, "test"), nil)
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Tools) != len(reg.Names()) {
		t.Fatalf("MCP lists %d tools, the registry has %d", len(list.Tools), len(reg.Names()))
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "ReplaceText", Arguments: map[string]any{"index": 1, "newMarkdown": "Natasha ran in."}})
	if err != nil || res.IsError {
		t.Fatalf("ReplaceText over MCP: %v %+v", err, res)
	}
	text := res.Content[0].(*sdk.TextContent).Text
	var ev map[string]any
	if err := json.Unmarshal([]byte(text), &ev); err != nil || ev["success"] != true {
		t.Fatalf("result %s", text)
	}
	if b, _ := os.ReadFile(doc); !strings.Contains(string(b), "Natasha ran in.") {
		t.Fatal("edit over MCP not saved")
	}
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "Find", Arguments: map[string]any{"query": "x", "bogus": 1}})
	if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*sdk.TextContent).Text, `unknown field "bogus"`) {
		t.Fatalf("bad arguments over MCP: %v %+v", err, res)
	}
}

// serverOf is the MCP server Serve runs, without its scopes.
func serverOf(reg *tools.Registry, version string, opts ...Options) *sdk.Server {
	s, _, err := newServer(reg, version, opts...)
	if err != nil {
		panic(err)
	}
	return s
}

// connect runs s for one in-memory MCP client and returns the client's
// session; both ends are closed when the test ends.
func connect(t *testing.T, ctx context.Context, s *sdk.Server, opts *sdk.ClientOptions) *sdk.ClientSession {
	t.Helper()
	st, ct := sdk.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test"}, opts).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}
