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
	// A first window of 500 numbers the whole page (only small first
	// windows number a prefix); the others and the first again reuse it.
	first := mustList(t, s, ListOptions{Limit: 500})
	walks := s.walks
	second := mustList(t, s, ListOptions{Limit: 500, Offset: 500})
	third := mustList(t, s, ListOptions{Limit: 500, Offset: 1000})
	if s.walks != walks {
		t.Fatalf("paging walked the page again (%d walks, want %d)", s.walks, walks)
	}
	if first.TotalAtLeast || first.Total != second.Total || second.Total != third.Total || third.Total != 1202-1 {
		t.Fatalf("totals %d (at least: %v) %d %d, want 1201", first.Total, first.TotalAtLeast, second.Total, third.Total)
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
			if len(r.Items) < 2 || r.Items[1].Name != "Later button" {
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
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "is number 61 now") {
		t.Fatalf("act after an element was added before it: %v, want a StaleError saying it is 61 now", err)
	}
	w := s.walks
	r := mustList(t, s, ListOptions{Limit: 50})
	if s.walks != w+1 || r.Items[0].Name != "Inserted" {
		t.Fatalf("after an added element: walks %d→%d, first %q", w, s.walks, r.Items[0].Name)
	}
}

func init() {
	// Elements in a shadow root, then an iframe, then 100 links: a first
	// window that stops inside the shadow root or right after the frame.
	var b strings.Builder
	b.WriteString(`<!doctype html><html><head><meta charset="utf-8"><title>Prefix</title></head><body>
<div id="host"></div><iframe id="fr" style="width:400px;height:200px" srcdoc="<button>In frame 1</button><button>In frame 2</button><button>In frame 3</button>"></iframe><ul>`)
	for i := 1; i <= 100; i++ {
		fmt.Fprintf(&b, `<li><a href="#%d">Link %d</a></li>`, i, i)
	}
	b.WriteString(`</ul><script>const r = document.getElementById('host').attachShadow({mode: 'open'});
for (let i = 1; i <= 5; i++) { const x = document.createElement('button'); x.textContent = 'Shadow ' + i; r.append(x); }</script></body></html>`)
	extraPages["/prefix.html"] = b.String()
}

// The first window of a page not numbered yet numbers only as far as it
// needs (one element more, to know more follow): its total says "at least",
// a later window numbers the whole page under the same numbers, acting past
// the prefix is a clear error, find searches the whole page, and an element
// added before the window makes the first window's numbers stale.
func TestFirstWindowNumbersItsPrefix(t *testing.T) {
	s := newSession(t)
	open(t, s, "/paging.html")
	first := mustList(t, s, ListOptions{Limit: 50})
	if !first.TotalAtLeast || first.Total != 51 || !first.HasMore || first.NextOffset != 50 || len(first.Items) != 50 {
		t.Fatalf("first window: total %d (at least %v), has_more %v, next %d, %d items", first.Total, first.TotalAtLeast, first.HasMore, first.NextOffset, len(first.Items))
	}
	if first.Items[0].Name != "Query" || first.Items[49].Name != "Entry 49" {
		t.Fatalf("first window from %q to %q", first.Items[0].Name, first.Items[49].Name)
	}
	// A number past the prefix: a clear error, no click.
	_, err := s.Act(testCtx(t), ActOptions{Index: 60, Action: "click"})
	if err == nil || !strings.Contains(err.Error(), "1..51 of the page are numbered so far") {
		t.Fatalf("act on 60 of a first window: %v", err)
	}
	if got := evalText(t, s, `() => location.hash`); strings.Contains(got, "#") {
		t.Fatalf("something was clicked: the page is at %q", got)
	}
	// The next window numbers the rest; the first window's numbers stay.
	second := mustList(t, s, ListOptions{Limit: 50, Offset: 50})
	if second.TotalAtLeast || second.Total != 1201 || second.Items[0].Number != 51 || second.Items[0].Name != "Entry 50" {
		t.Fatalf("second window: total %d (at least %v), first %d %q", second.Total, second.TotalAtLeast, second.Items[0].Number, second.Items[0].Name)
	}
	w := s.walks
	back := mustList(t, s, ListOptions{Limit: 50})
	if s.walks != w || back.TotalAtLeast || back.Total != 1201 {
		t.Fatalf("back to the first window: %d walks, total %d", s.walks-w, back.Total)
	}
	for i, it := range first.Items {
		if back.Items[i].ID != it.ID || back.Items[i].Number != it.Number || back.Items[i].Name != it.Name {
			t.Fatalf("number %d: %s %q first, %s %q once the page was numbered", it.Number, it.ID, it.Name, back.Items[i].ID, back.Items[i].Name)
		}
	}
	ids := map[string]bool{}
	for off := 0; off < 1201; off += 500 {
		for _, it := range mustList(t, s, ListOptions{Limit: 500, Offset: off}).Items {
			if ids[it.ID] {
				t.Fatalf("id %s given twice", it.ID)
			}
			ids[it.ID] = true
		}
	}

	// find on a first window searches the whole page, under the same numbers.
	evalText(t, s, `() => { document.title = 'Pages again'; return 'ok'; }`)
	fresh := mustList(t, s, ListOptions{Limit: 50})
	if !fresh.TotalAtLeast || fresh.Items[10].ID != first.Items[10].ID {
		t.Fatalf("a fresh first window: at least %v, number 11 is %s (was %s)", fresh.TotalAtLeast, fresh.Items[10].ID, first.Items[10].ID)
	}
	f, err := s.Find(testCtx(t), FindOptions{Text: "Entry 1200"})
	if err != nil || len(f.Matches) != 1 || f.Matches[0].Number != 1201 || f.Relisted {
		t.Fatalf("find past the first window: %+v, %v", f, err)
	}
	res, err := s.Act(testCtx(t), ActOptions{Index: 1201, Action: "click"})
	if err != nil || res.Name != "Entry 1200" {
		t.Fatalf("act on the number find gave: %+v, %v", res, err)
	}

	// An element added before the window after a first window: its numbers
	// are stale, and the next window numbers the page again.
	evalText(t, s, `() => { document.title = 'Pages once more'; return 'ok'; }`)
	mustList(t, s, ListOptions{Limit: 50})
	evalText(t, s, `() => { const b = document.createElement('button'); b.textContent = 'Inserted'; document.querySelector('main').prepend(b); return 'ok'; }`)
	_, err = s.Act(testCtx(t), ActOptions{Index: 10, Action: "click"})
	var se *StaleError
	if !errors.As(err, &se) {
		t.Fatalf("act after an element was added: %v, want a StaleError", err)
	}
	r := mustList(t, s, ListOptions{Limit: 50, Offset: 50})
	if r.TotalAtLeast || r.Total != 1202 || r.Items[0].Name != "Entry 49" {
		t.Fatalf("after an added element: total %d, number 51 is %q", r.Total, r.Items[0].Name)
	}
}

// A first window stops inside a shadow root or after a frame, and keeps
// their elements in document order; the whole numbering starts with it.
func TestFirstWindowShadowAndFrame(t *testing.T) {
	s := newSession(t)
	open(t, s, "/prefix.html")
	for _, c := range []struct {
		limit int
		want  []string // the prefix: limit+1 elements of the top document, and the frame's whole
	}{
		{3, []string{"Shadow 1", "Shadow 2", "Shadow 3", "Shadow 4"}},
		{6, []string{"Shadow 1", "Shadow 2", "Shadow 3", "Shadow 4", "Shadow 5", "In frame 1", "In frame 2", "In frame 3", "Link 1", "Link 2"}},
	} {
		evalText(t, s, fmt.Sprintf(`() => { document.title = 'Prefix %d'; return 'ok'; }`, c.limit))
		r := mustList(t, s, ListOptions{Limit: c.limit})
		n := s.current.Load()
		var got []string
		for _, it := range n.items {
			got = append(got, it.Name)
		}
		if !r.TotalAtLeast || strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Fatalf("limit %d: at least %v, numbered %q", c.limit, r.TotalAtLeast, got)
		}
		all := mustList(t, s, ListOptions{Limit: 500, Offset: 0})
		if all.TotalAtLeast {
			t.Fatalf("limit %d: a first window of 500 numbered only %d (at least)", c.limit, all.Total)
		}
		whole := mustList(t, s, ListOptions{Limit: 10, Offset: 10})
		if whole.TotalAtLeast || whole.Total != 108 {
			t.Fatalf("limit %d: the whole page numbers %d (at least %v), want 108", c.limit, whole.Total, whole.TotalAtLeast)
		}
		for i, it := range n.items {
			if w := s.current.Load().items[i]; w.ID != it.ID || w.Frame != it.Frame {
				t.Fatalf("limit %d: number %d was %s/%s, is %s/%s", c.limit, i+1, it.Frame, it.ID, w.Frame, w.ID)
			}
		}
		if c.limit == 6 && (n.items[5].Frame == "" || n.items[8].Frame != "") {
			t.Fatalf("the frame's elements are not in the frame")
		}
	}
}

// A focus move past a first window's prefix still says the element's number:
// the rest of the page is numbered, and the prefix keeps its numbers.
func TestFocusPastFirstWindowHasNumber(t *testing.T) {
	s := newSession(t)
	open(t, s, "/paging.html")
	first := mustList(t, s, ListOptions{Limit: 50})
	if !first.TotalAtLeast {
		t.Fatalf("the first window numbered the whole page (total %d): nothing to test", first.Total)
	}
	evalText(t, s, `() => { [...document.querySelectorAll('a')].find(a => a.textContent.trim() === 'Entry 100').focus(); return 'ok'; }`)
	res, err := s.FocusMove(testCtx(t), "", false)
	if err != nil {
		t.Fatal(err)
	}
	// Query is number 1 and Entry k is k+1 (number 50 is Entry 49 above).
	if res.Focused == nil || res.Focused.Name != "Entry 101" || res.Number != 102 {
		t.Fatalf("focus moved to %+v, number %d; want Entry 101, number 102", res.Focused, res.Number)
	}
	if got := mustList(t, s, ListOptions{Limit: 10, Offset: 100}).Items[1]; got.Name != "Entry 101" || got.Number != 102 {
		t.Fatalf("the list says number 102 is %q (%d)", got.Name, got.Number)
	}
	back := mustList(t, s, ListOptions{Limit: 50})
	for i, it := range first.Items {
		if back.Items[i].ID != it.ID || back.Items[i].Number != it.Number {
			t.Fatalf("number %d changed after the focus move: %s then %s", it.Number, it.ID, back.Items[i].ID)
		}
	}
}

func init() {
	// 120 links, then a form: its fields lie past a first window's prefix.
	var b strings.Builder
	b.WriteString(`<!doctype html><html><head><meta charset="utf-8"><title>Long form</title></head><body><main><h1>Long form</h1><ul>`)
	for i := 1; i <= 120; i++ {
		fmt.Fprintf(&b, `<li><a href="#%d">Entry %d</a></li>`, i, i)
	}
	b.WriteString(`</ul><form><label for="e">Email</label> <input id="e"> <label for="c">Comment</label> <textarea id="c"></textarea></form></main></body></html>`)
	extraPages["/long-form.html"] = b.String()
}

// read page (the summary) after a first window gives the fields past its
// prefix their numbers too: the rest of the page is numbered, the prefix
// keeping its numbers, as a focus move does.
func TestSummaryFieldsPastFirstWindowHaveNumbers(t *testing.T) {
	s := newSession(t)
	open(t, s, "/long-form.html")
	first := mustList(t, s, ListOptions{Limit: 50})
	if !first.TotalAtLeast {
		t.Fatalf("the first window numbered the whole page (total %d): nothing to test", first.Total)
	}
	sum, err := s.Extract(testCtx(t), "summary")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"Email": 121, "Comment": 122}
	if len(sum.Fields) != len(want) {
		t.Fatalf("fields %+v", sum.Fields)
	}
	for _, f := range sum.Fields {
		if f.Number != want[f.Label] {
			t.Errorf("field %q has number %d, want %d", f.Label, f.Number, want[f.Label])
		}
		if !strings.Contains(sum.Text, fmt.Sprintf("%d: ", want[f.Label])) {
			t.Errorf("read page does not say number %d for %q: %s", want[f.Label], f.Label, sum.Text)
		}
	}
	if got := mustList(t, s, ListOptions{Limit: 10, Offset: 120}).Items; len(got) != 2 || got[0].Name != "Email" || got[0].Number != 121 {
		t.Fatalf("the list after read page: %+v", got)
	}
	back := mustList(t, s, ListOptions{Limit: 50})
	for i, it := range first.Items {
		if back.Items[i].ID != it.ID || back.Items[i].Number != it.Number {
			t.Fatalf("number %d changed after read page: %s then %s", it.Number, it.ID, back.Items[i].ID)
		}
	}
}
