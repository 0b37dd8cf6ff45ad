package web

import (
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/browser"
)

// ResultText gives the words a door shows beside a result's data (an MCP
// reply's text): a browser result as a number command's answer says it, a
// number command's answer as its lines; no words (ok false, the door shows
// the data) for a failure, whose own message the door gives, and for a
// result this package has no renderer for.
func TestResultText(t *testing.T) {
	list := browser.OK(&browser.ListResult{Total: 2, Limit: 50, Items: []*browser.Item{
		{Number: 1, Role: "link", Name: "Home", Tag: "a", Href: "http://example.org/"},
		{Number: 2, Role: "button", Name: "Send", Tag: "button"},
	}})
	page := browser.OK(&browser.PageState{URL: "http://example.org/", Title: "Example", Loaded: true,
		Dialog: &browser.Dialog{Type: "alert", Message: "Saved."}})
	for _, c := range []struct {
		name string
		res  any
		want string // the whole text, or a line of it (a page's answer)
		ok   bool
	}{
		{"a list", list, "2 elements:\n1. link Home\n2. button Send", true},
		{"a page with its dialog", page, "The page says: Saved.", true},
		{"a number command's answer", BrowseAnswer{Say: "Listing the elements.", Text: "2 elements:\n1. link Home", Status: "ok"}, "Listing the elements.\n2 elements:\n1. link Home", true},
		{"a failed browser result", browser.Result[browser.ListResult]{Status: "error", Error: "numbering is stale"}, "", false},
		{"a browser result with no renderer", browser.OK(&browser.OverlayResult{Badges: 3}), "", false},
		{"a browser result with no data", browser.Result[browser.ListResult]{Status: "ok"}, "", false},
		{"a manuscript tool's result", map[string]any{"success": true}, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			text, ok := ResultText(c.res)
			if ok != c.ok {
				t.Fatalf("ok %v, want %v (text %q)", ok, c.ok, text)
			}
			switch {
			case !c.ok && text != "":
				t.Errorf("text %q with no words", text)
			case c.name == "a page with its dialog" && !strings.HasSuffix(text, "\n"+c.want):
				t.Errorf("text %q; want it to end with %q", text, c.want)
			case c.name != "a page with its dialog" && text != c.want:
				t.Errorf("text %q, want %q", text, c.want)
			}
		})
	}
}
