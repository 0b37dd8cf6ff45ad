package browser

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/go-rod/rod/lib/proto"
	"github.com/ysmood/gson"
)

// A navigation leaves the numbering overlay installed in the document it
// loaded (issue 33 point 14: installing it was half of a small page's first
// list), and the first list then numbers the page as before: every field,
// box and button of the form, in document order.
func TestNavigateReadiesOverlay(t *testing.T) {
	s := newSession(t)
	ctx := testCtx(t)
	for _, path := range []string{"/small-form.html", "/paging.html", "/small-form.html"} {
		open(t, s, path)
		w, err := s.topWorld(ctx)
		if err != nil {
			t.Fatal(err)
		}
		res, err := proto.RuntimeCallFunctionOn{FunctionDeclaration: `function() { return !!globalThis.__waymark; }`,
			ExecutionContextID: w.ctxID, ReturnByValue: true, Arguments: []*proto.RuntimeCallArgument{{Value: gson.New(0)}}}.Call(w.p.Context(ctx))
		if err != nil || !res.Result.Value.Bool() {
			t.Fatalf("%s: the overlay is not installed after the navigation (%v)", path, err)
		}
	}
	r := mustList(t, s, ListOptions{})
	want := []string{"Library", "Opening hours", "Full name", "E-mail", "Date of birth", "Branch", "Adult", "Child", "Notes", "Send me the newsletter", "Clear", "Apply", "Privacy"}
	if r.Total != len(want) || r.TotalAtLeast {
		t.Fatalf("total %d (at least %v), want %d", r.Total, r.TotalAtLeast, len(want))
	}
	for i, it := range r.Items {
		if it.Number != i+1 || it.Name != want[i] {
			t.Fatalf("item %d: %d %q, want %d %q", i, it.Number, it.Name, i+1, want[i])
		}
	}
}

// hrefCases are links whose written href the URL parser changes (dot
// segments, characters it encodes, a backslash, white space, another host)
// or keeps as it is: a list gives each link's address as the browser
// resolves it (el.href), whichever way the walk reads it.
var hrefCases = []string{
	"/a/b", "/", "/a/./b", "/a/../b", "/a/%2e%2e/b", "/a/%2E/b", "/a/.%2e/b", "/a/.hidden/b", "/a/...", "/a/b/..",
	"/a b", "/a'b?x='y'", "/a?q='1'#'f'", "/é?ж=1", `/a\b`, "//other.example/x", "/a#frag#x", "/a?x#y?z", "/%zz/%41",
	" /trim ", "/a\tb", "/a\"b", "/a<b>", "/a`b#`c", "/a{b}|^", "/a;b=c,d+e@f:g!h$i&j(k)*l~m_n-o", "?only=q", "#only",
	"rel/x", "../up", "http://127.0.0.1:1/abs", "HTTP://EXAMPLE.com/A", "mailto:x@example.com", "javascript:void(0)", "",
}

func hrefPage(base string) string {
	var b strings.Builder
	b.WriteString(`<!doctype html><html><head><meta charset="utf-8"><title>Hrefs</title>` + base + `</head><body><main>`)
	for i, h := range hrefCases {
		fmt.Fprintf(&b, `<p><a href="%s">link %d</a></p>`, htmlEscape(h), i)
	}
	b.WriteString(`</main></body></html>`)
	return b.String()
}

func init() {
	extraPages["/hrefs/page.html"] = hrefPage("")
	extraPages["/hrefs/based.html"] = hrefPage(`<base href="/other/dir/">`)
}

// A listed link's href is the address the browser resolves it to (el.href),
// for hrefs read as written (plain paths from the root) and for those the
// URL parser changes, with and without a <base>.
func TestListHrefIsTheResolvedAddress(t *testing.T) {
	s := newSession(t)
	for _, path := range []string{"/hrefs/page.html", "/hrefs/based.html"} {
		open(t, s, path)
		var want []string
		if err := json.Unmarshal([]byte(evalText(t, s, `() => JSON.stringify([...document.querySelectorAll('a')].map(a => a.href))`)), &want); err != nil {
			t.Fatal(err)
		}
		r := mustList(t, s, ListOptions{Limit: 100})
		if len(r.Items) != len(hrefCases) {
			t.Fatalf("%s: %d items, want %d: %s", path, len(r.Items), len(hrefCases), names(r))
		}
		for i, it := range r.Items {
			if it.Href != want[i] {
				t.Errorf("%s: href %q listed as %q, want %q", path, hrefCases[i], it.Href, want[i])
			}
		}
	}
}
