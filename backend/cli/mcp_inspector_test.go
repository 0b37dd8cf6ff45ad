package cli

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/waymark/waymark/app/sample"
)

// TestMCPInspector drives `waymark mcp` with the real MCP Inspector CLI from npm
// (installed by build/setup.sh into build/mcp-inspector): tools/list, then a
// tools/call that edits the manuscript.
func TestMCPInspector(t *testing.T) {
	inspector, _ := filepath.Abs(filepath.Join("..", "..", "build", "mcp-inspector", "node_modules", ".bin", "mcp-inspector"))
	if _, err := os.Stat(inspector); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the MCP Inspector is not installed (%v); build/setup.sh installs it", err)
		}
		t.Skipf("MCP INSPECTOR TEST SKIPPED: %s is absent; run bash build/setup.sh", inspector)
	}
	dir := t.TempDir()
	bin := buildCLI(t)
	doc := filepath.Join(dir, "book.md")
	if err := os.WriteFile(doc, sample.Manuscript, 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "w.db")
	inspect := func(args ...string) map[string]any {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		all := append([]string{"--cli", bin, "mcp", "--doc", doc, "--db", db}, args...)
		cmd := exec.CommandContext(ctx, inspector, all...)
		cmd.Env = append(os.Environ(), "WAYMARK_MODEL_URL=")
		out, err := cmd.Output()
		var res map[string]any
		if jerr := json.Unmarshal(out, &res); jerr != nil {
			t.Fatalf("mcp-inspector %v: %v; output is not JSON: %v\n%s", args, err, jerr, out)
		}
		if err != nil && res["isError"] != true {
			// The Inspector exits non-zero only for a tool error result.
			t.Fatalf("mcp-inspector %v: %v\n%s", args, err, out)
		}
		return res
	}
	list := inspect("--method", "tools/list")
	names := map[string]bool{}
	for _, tl := range list["tools"].([]any) {
		names[tl.(map[string]any)["name"].(string)] = true
	}
	for _, n := range []string{"Read", "ReplaceText", "Find", "RunCursorAgent", "TargetSetCreate", "CursorNext", "Outline", "Undo"} {
		if !names[n] {
			t.Errorf("tools/list lacks %s (has %v)", n, names)
		}
	}
	found := inspect("--method", "tools/call", "--tool-name", "Find", "--tool-arg", "query=Zvezdochkin")
	text := found["content"].([]any)[0].(map[string]any)["text"].(string)
	var fr struct {
		Matches []struct {
			Pointer struct {
				Serialized string `json:"serialized"`
			} `json:"pointer"`
		} `json:"matches"`
	}
	if err := json.Unmarshal([]byte(text), &fr); err != nil || len(fr.Matches) == 0 {
		t.Fatalf("Find over MCP: %v %s", err, text)
	}
	edited := inspect("--method", "tools/call", "--tool-name", "ReplaceText",
		"--tool-arg", "pointer="+fr.Matches[0].Pointer.Serialized, "--tool-arg", "newMarkdown=Professor Zvezdochkin arrived by the night ferry.")
	if edited["isError"] == true {
		t.Fatalf("ReplaceText over MCP: %v", edited)
	}
	if b, _ := os.ReadFile(doc); !strings.Contains(string(b), "Professor Zvezdochkin arrived by the night ferry.") {
		t.Fatal("the edit made through the MCP Inspector is not in the file")
	}
	bad := inspect("--method", "tools/call", "--tool-name", "Find", "--tool-arg", "colour=red")
	if bad["isError"] != true {
		t.Fatalf("a bad call over MCP was not an error: %v", bad)
	}
	// An error's text is its message, not JSON.
	if msg := bad["content"].([]any)[0].(map[string]any)["text"].(string); !strings.Contains(msg, `unknown field "colour"`) {
		t.Errorf("a bad call's text over MCP: %q; want the message naming the field", msg)
	}
}
