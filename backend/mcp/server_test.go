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

	serverT, clientT := sdk.NewInMemoryTransports()
	ss, err := serverOf(reg, "test").Connect(ctx, serverT, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test"}, nil).Connect(ctx, clientT, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
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
	if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*sdk.TextContent).Text, `unknown field \"bogus\"`) {
		t.Fatalf("bad arguments over MCP: %v %+v", err, res)
	}
}

// serverOf is the MCP server Serve runs, without its scopes.
func serverOf(reg *tools.Registry, version string, opts ...Options) *sdk.Server {
	s, _ := newServer(reg, version, opts...)
	return s
}
