// Package authortest is the one expected result of one author's command:
// the test of every door (the window's service, the CLI binary, a real MCP
// client, a model's tool call) runs Command on Book and checks what it got
// against Want, so that every door gives the same answer, edits and
// progress.
package authortest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/tools"
)

// Book is the manuscript the command runs on. The title's dash and Cyrillic
// make the editor's UTF-16 positions differ from the byte offsets.
const Book = "# The Lighthouse — Маяк\n\n## One\n\nThe keeper polished the brass telescope every morning.\n\n## Two\n\nMira signed for it.\n"

// Command is the command every door runs.
const Command = `replace "brass telescope" with "copper telescope"`

// Edit is what a door shows of one edit to review.
type Edit struct {
	Op          string `json:"op"`
	Summary     string `json:"summary"`
	Description string `json:"description"`
	Before      string `json:"before"`
	After       string `json:"after"`
	ByteOffset  int    `json:"byteOffset"`
	Utf16Offset int    `json:"utf16Offset"`
	Context     string `json:"context"`
}

// Result is what a door shows of a command's result.
type Result struct {
	Answer string           `json:"answer"`
	Edits  []Edit           `json:"edits"`
	Events []tools.Progress `json:"events"`
}

// Want is what every door must show for Command on Book. Events lists each
// progress event as its kind and tool.
var Want = struct {
	Answer string
	Edits  []Edit
	Events []string
}{
	Answer: `Replaced "brass telescope" with "copper telescope": 1 occurrence in 1 paragraph — The Lighthouse — Маяк, One. One Undo takes it all back.`,
	Edits: []Edit{{Op: "ReplaceText", Summary: `Replace "brass telescope" with "copper telescope"`,
		Description: "Replace «…the brass telescope…» with «…the copper telescope…» in The Lighthouse — Маяк, One",
		Before:      "The keeper polished the brass telescope every morning.", After: "The keeper polished the copper telescope every morning.",
		ByteOffset: 39, Utf16Offset: 33,
		Context: "Cursor: after Paragraph H2.p2\nContext:\n" +
			"  [-2] Heading H1.p0: \"The Lighthouse — Маяк\"\n" +
			"  [-1] Heading H2.p1: \"One\"\n" +
			"  [Current] Paragraph H2.p2: \"The keeper polished the copper telescope every mor...\"\n" +
			"  [+1] Heading H2.p3: \"Two\"\n" +
			"  [+2] Paragraph H2.p4: \"Mira signed for it.\""}},
	Events: []string{"command", "tool_call ReplaceAll", "tool_result ReplaceAll", "answer"},
}

// Check fails t where a door's result (as JSON) and the progress it reported
// differ from Want: the answer, each edit (its text, place and the cursor
// context it reported, exactly: a door that loses or garbles the context
// fails) and the progress, which is also the result's transcript, event for
// event.
func Check(t testing.TB, door string, result []byte, progress []tools.Progress) {
	t.Helper()
	var got Result
	if err := json.Unmarshal(result, &got); err != nil {
		t.Fatalf("%s: the result is not RunCommand's JSON (%v): %s", door, err, result)
	}
	if got.Answer != Want.Answer {
		t.Errorf("%s: answer %q, want %q", door, got.Answer, Want.Answer)
	}
	if len(got.Edits) != len(Want.Edits) {
		t.Fatalf("%s: %d edits to review, want %d: %+v", door, len(got.Edits), len(Want.Edits), got.Edits)
	}
	for i, e := range got.Edits {
		w := Want.Edits[i]
		if e.Context != w.Context {
			t.Errorf("%s: edit %d's cursor context is\n%s\nwant\n%s", door, i, e.Context, w.Context)
		}
		if e != w {
			t.Errorf("%s: edit %d is %+v, want %+v", door, i, e, w)
		}
	}
	if names := kinds(got.Events); !slices.Equal(names, Want.Events) {
		t.Errorf("%s: the result's transcript is %v, want %v", door, names, Want.Events)
	}
	if names := kinds(progress); !slices.Equal(names, Want.Events) {
		t.Errorf("%s: the progress reported was %v, want %v", door, names, Want.Events)
	}
	for i := range min(len(progress), len(got.Events)) {
		p, e := progress[i], got.Events[i]
		if p.Text != e.Text || !sameJSON(p.Data, e.Data) {
			t.Errorf("%s: progress event %d (%s) differs from the transcript's: %q %s / %q %s", door, i, p.Event, p.Text, p.Data, e.Text, e.Data)
		}
	}
	if n := len(progress); n > 0 && progress[n-1].Text != Want.Answer {
		t.Errorf("%s: the last progress line is %q, want the answer", door, progress[n-1].Text)
	}
}

func sameJSON(a, b json.RawMessage) bool {
	var x, y any
	_ = json.Unmarshal(a, &x)
	_ = json.Unmarshal(b, &y)
	return reflect.DeepEqual(x, y)
}

func kinds(ps []tools.Progress) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = strings.TrimSpace(fmt.Sprintf("%s %s", p.Event, p.Tool))
	}
	return out
}
