package cli

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/waymark/waymark/backend/agent/author"
	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/waymark"
)

const browsePage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Weather</title></head>
<body><main><h1>Weather</h1>
<label for="city">City</label> <input id="city">
<button onclick="document.getElementById('out').textContent = confirm('Forget the city?') ? 'forgotten' : 'kept ' + document.getElementById('city').value">Forget</button>
<p id="out">nothing yet</p></main></body></html>`

// The terminal loop a blind user drives with a screen reader: number
// commands in, short lines out, and a page's confirm dialog handed to the
// user (who says no here), never answered by Waymark.
func TestBrowseLoopByNumbers(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, browsePage)
	}))
	defer srv.Close()
	ss := browser.NewSessions(browser.Options{Headless: true, ScreenshotDir: t.TempDir()})
	defer ss.Close()
	reg := waymark.New(waymark.Config{Browser: ss}).Registry
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	in := strings.NewReader("list\ntype 1 Kazan\nclick 2\nno\nread page\nsummarise my mail\nquit\n")
	var out strings.Builder
	if err := browseLoop(ctx, reg, author.Builtin{}, srv.URL, in, &out); err != nil {
		t.Fatalf("browse loop: %v", err)
	}
	got := out.String()
	t.Log(got)
	for _, want := range []string{
		"Page: Weather.",
		"2 elements:\n1. textbox City\n2. button Forget",
		"Done: typed 5 characters into City (1).",
		"The page asks: Forget the city?",
		"kept Kazan",
		"need a model server", // a goal without a model is refused plainly
		"Bye.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the transcript lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "forgotten") {
		t.Errorf("the dialog was accepted without the user:\n%s", got)
	}
}

// "waymark browse" takes an address, and a whole "go to …" as users type it
// (in either language): each opens the page.
func TestBrowseStartCommand(t *testing.T) {
	for _, c := range []struct{ start, want string }{
		{"https://example.org", "https://example.org"}, // an address alone is a command
		{"example.org", "example.org"},
		{"file name with spaces.html", "go to file name with spaces.html"},
		{"go to https://example.org", "go to https://example.org"},
		{"открой https://example.org", "открой https://example.org"},
	} {
		if got := startCommand(c.start); got != c.want {
			t.Errorf("startCommand(%q) = %q, want %q", c.start, got, c.want)
		}
	}
}
