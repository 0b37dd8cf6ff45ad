package manuscript

import (
	"errors"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/document"
)

// TestErrorKinds: the errors callers answer differently have kinds that
// survive the registry (the author's commands test them with errors.Is, so
// rewording a message cannot change what the author is told), and they keep
// their words and document.ErrBadInput.
func TestErrorKinds(t *testing.T) {
	_, _, call := historyRig(t, replaceBook)
	cases := []struct {
		name, tool, args string
		kind             error
		badInput         bool
		words            string
	}{
		{"undo with nothing to undo", "Undo", `{}`, ErrNothingToUndo, true, "nothing to undo in book.md"},
		{"redo with nothing undone", "Redo", `{}`, ErrNothingToRedo, true, "nothing to redo in book.md"},
		{"replace a text that occurs nowhere", "ReplaceAll", `{"query": "Zanzibar", "with": "Paris"}`, ErrNoOccurrence, true, `"Zanzibar" does not occur`},
		{"delete a text that occurs nowhere", "DeleteAll", `{"query": "Zanzibar"}`, ErrNoOccurrence, true, `no paragraph holds "Zanzibar"`},
	}
	for _, c := range cases {
		_, err := call(c.tool, c.args)
		if !errors.Is(err, c.kind) {
			t.Errorf("%s: %v is not %v", c.name, err, c.kind)
			continue
		}
		if errors.Is(err, document.ErrBadInput) != c.badInput {
			t.Errorf("%s: %v: ErrBadInput %v, want %v", c.name, err, !c.badInput, c.badInput)
		}
		if !strings.Contains(err.Error(), c.words) {
			t.Errorf("%s: %q lacks its words %q", c.name, err, c.words)
		}
	}
}
