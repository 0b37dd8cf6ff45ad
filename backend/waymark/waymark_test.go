package waymark

import (
	"testing"

	"github.com/waymark/waymark/backend/browser"
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
	if err := w.Registry.Resolve(); err != nil {
		t.Fatal(err)
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
