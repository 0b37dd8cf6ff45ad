package browser

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// linksPage is a page with n links in a list, like a long index or archive.
func linksPage(n int) string {
	var b strings.Builder
	b.WriteString(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Many links</title></head><body><main><h1>Archive</h1><ul>`)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, `<li><a href="/item/%d">Article number %d</a></li>`, i, i)
	}
	b.WriteString(`</ul></main></body></html>`)
	return b.String()
}

func init() {
	extraPages["/links5000.html"] = linksPage(5000)
}

// extraPages are generated fixture pages served by the harness.
var extraPages = map[string]string{}

func serveExtra(w http.ResponseWriter, r *http.Request) bool {
	p, ok := extraPages[r.URL.Path]
	if !ok {
		return false
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write([]byte(p))
	return true
}

// BenchmarkListInteractives5000 numbers a page with 5,000 links (issue
// target: ≤ 150 ms per list).
func BenchmarkListInteractives5000(b *testing.B) {
	s := newSession(b)
	open(b, s, "/links5000.html")
	ctx := testCtx(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := s.List(ctx, ListOptions{})
		if err != nil || r.Total < 5000 {
			b.Fatalf("list: %v (%d)", err, r.Total)
		}
	}
}

// BenchmarkActClick is one browser_overlay_act click round trip on a
// numbered button that changes nothing but its own text (target ≤ 60 ms).
func BenchmarkActClick(b *testing.B) {
	s := newSession(b)
	open(b, s, "/dynamic.html")
	ctx := testCtx(b)
	r, err := s.List(ctx, ListOptions{})
	if err != nil {
		b.Fatal(err)
	}
	n := numberOf(b, r, "Count")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Act(ctx, ActOptions{Index: n, Action: "click"}); err != nil {
			b.Fatal(err)
		}
	}
}
