package waymark

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/tools"
)

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
