package llm_test

import (
	"testing"

	"github.com/waymark/waymark/backend/agent/author"
	"github.com/waymark/waymark/backend/llm"
)

// TestUnderstands: the doors ask whether a model understands language by its
// capability, not its type: no model and the built-in engine do not; a
// client of a model server does.
func TestUnderstands(t *testing.T) {
	client, err := llm.NewClient(llm.Config{BaseURL: "http://127.0.0.1:9/v1", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		m    llm.Model
		want bool
	}{
		{"no model", nil, false},
		{"the built-in engine", author.Builtin{}, false},
		{"a model server's client", client, true},
	} {
		if got := llm.Understands(c.m); got != c.want {
			t.Errorf("%s: Understands = %v, want %v", c.name, got, c.want)
		}
	}
}
