package manuscript

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestToolsIntegrity drives the tools as the CLI, MCP and the model do: a BOM
// book's title is a heading, a forged pointer is refused, a table cell takes a
// longer text, and a heading inserted after a heading says where it went.
func TestToolsIntegrity(t *testing.T) {
	book := "\uFEFF# Title\n\n| Name | Age |\n|---|---|\n| Pierre | 20 |\n\n## One\n\nText one.\n\n## Two\n\nText two.\n"
	_, doc, call := historyRig(t, book)

	out, err := call("Outline", `{}`)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := jsonString(out); !strings.Contains(b, `"Title"`) {
		t.Fatalf("the BOM book's outline lacks its title: %s", b)
	}

	// Item 3 is the cell "Pierre"; a forged pointer names byte 0 (the title).
	if _, err := call("ReplaceText", `{"pointer": "r1:l4:c30:b0:i3", "newMarkdown": "# Forged"}`); err == nil || !strings.Contains(err.Error(), "disagree") {
		t.Fatalf("forged pointer: %v", err)
	}
	if _, err := call("ReplaceText", `{"index": 3, "newMarkdown": "Pierre Bezukhov"}`); err != nil {
		t.Fatalf("cell edit: %v", err)
	}
	res, err := call("InsertAfter", `{"index": 5, "markdown": "## Inserted"}`)
	if err != nil {
		t.Fatal(err)
	}
	if note, _ := res["note"].(string); !strings.Contains(note, "after the whole section of \"One\"") {
		t.Fatalf("insert result does not say where the heading went: %v", res)
	}
	b, _ := os.ReadFile(doc)
	want := "\uFEFF# Title\n\n| Name | Age |\n|---|---|\n| Pierre Bezukhov | 20 |\n\n## One\n\nText one.\n\n## Inserted\n\n## Two\n\nText two.\n"
	if string(b) != want {
		t.Fatalf("file\n%q\nwant\n%q", b, want)
	}
}

func jsonString(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}
