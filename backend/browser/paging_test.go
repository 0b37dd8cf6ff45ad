package browser

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func init() {
	// 1,200 links, a field and a hidden-by-class link, for paging.
	var b strings.Builder
	b.WriteString(`<!doctype html><html><head><meta charset="utf-8"><title>Pages</title><style>.gone{display:none}</style></head><body><main><h1>Pages</h1>
<input id="q" aria-label="Query"><button id="later" class="gone">Later button</button><ul>`)
	for i := 1; i <= 1200; i++ {
		fmt.Fprintf(&b, `<li><a href="#%d" id="a%d">Entry %d</a></li>`, i, i, i)
	}
	b.WriteString(`</ul></main></body></html>`)
	extraPages["/paging.html"] = b.String()
}

// Paging a numbering reuses it while the page has not changed (no new walk
// of the page, the same numbers for the same elements), and any change to
// the page — text, an attribute that shows an element, a field's value set
// by script, scrolling, a new element — makes the next list walk the page
// again, while acting on the old numbers after an added element is refused.
func TestPagingReusesNumbering(t *testing.T) {
	s := newSession(t)
	open(t, s, "/paging.html")
	first := mustList(t, s, ListOptions{Limit: 500})
	walks := s.walks
	second := mustList(t, s, ListOptions{Limit: 500, Offset: 500})
	third := mustList(t, s, ListOptions{Limit: 500, Offset: 1000})
	if s.walks != walks {
		t.Fatalf("paging walked the page again (%d walks, want %d)", s.walks, walks)
	}
	if first.Total != second.Total || second.Total != third.Total || third.Total != 1202-1 {
		t.Fatalf("totals %d %d %d, want 1201", first.Total, second.Total, third.Total)
	}
	if got := second.Items[0]; got.Number != 501 || got.Name != "Entry 500" {
		t.Fatalf("first of page 2: %d %q", got.Number, got.Name)
	}
	if len(third.Items) != 201 || third.HasMore || third.Items[200].Name != "Entry 1200" {
		t.Fatalf("last page: %d items, has_more %v", len(third.Items), third.HasMore)
	}
	// Acting by a number from a reused window clicks that element.
	res, err := s.Act(testCtx(t), ActOptions{Index: 778, Action: "click"})
	if err != nil {
		t.Fatal(err)
	}
	if got := evalText(t, s, `() => location.hash`); got != "#777" || res.Name != "Entry 777" {
		t.Fatalf("clicked %q, the page is at %q", res.Name, got)
	}

	changes := []struct {
		what, js string
		check    func(r *ListResult) error
	}{
		{"a link's text", `() => { document.getElementById('a3').textContent = 'Renamed entry'; return 'ok'; }`, func(r *ListResult) error {
			if r.Items[3].Name != "Renamed entry" {
				return fmt.Errorf("item 4 is %q", r.Items[3].Name)
			}
			return nil
		}},
		{"a class that shows a button", `() => { document.getElementById('later').className = ''; return 'ok'; }`, func(r *ListResult) error {
			if !strings.Contains(names(r), "Later button") || r.Total != 1202 {
				return fmt.Errorf("total %d: %s", r.Total, names(r)[:80])
			}
			return nil
		}},
		{"a field's value set by script", `() => { const q = document.getElementById('q'); q.value = 'kazan'; q.dispatchEvent(new Event('input', {bubbles: true})); return 'ok'; }`, func(r *ListResult) error {
			if r.Items[0].Value != "kazan" {
				return fmt.Errorf("field value %q", r.Items[0].Value)
			}
			return nil
		}},
		{"scrolling", `() => { scrollTo(0, 3000); return 'ok'; }`, func(r *ListResult) error { return nil }},
	}
	for _, c := range changes {
		mustList(t, s, ListOptions{Limit: 50})
		w := s.walks
		evalText(t, s, c.js)
		r := mustList(t, s, ListOptions{Limit: 50})
		if s.walks != w+1 {
			t.Errorf("after %s the list was served from the old numbering", c.what)
			continue
		}
		if err := c.check(r); err != nil {
			t.Errorf("after %s: %v", c.what, err)
		}
	}

	// A new element: the reused numbering is stale, acting refuses, and the
	// next list walks the page.
	mustList(t, s, ListOptions{Limit: 50})
	mustList(t, s, ListOptions{Limit: 50, Offset: 50})
	evalText(t, s, `() => { const b = document.createElement('button'); b.textContent = 'Inserted'; document.querySelector('main').prepend(b); return 'ok'; }`)
	_, err = s.Act(testCtx(t), ActOptions{Index: 60, Action: "click"})
	var se *StaleError
	if !errors.As(err, &se) {
		t.Fatalf("act after an element was added: %v, want a StaleError", err)
	}
	w := s.walks
	r := mustList(t, s, ListOptions{Limit: 50})
	if s.walks != w+1 || r.Items[0].Name != "Inserted" {
		t.Fatalf("after an added element: walks %d→%d, first %q", w, s.walks, r.Items[0].Name)
	}
}
