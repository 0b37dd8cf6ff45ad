package browser

import (
	"context"
	"errors"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// Generated frame fixtures. Frames tell the top page what happened with
// postMessage, and the top page shows the last message in #log, so a test
// reads one place whatever process a frame runs in.
//
//	/oop-top.html?inner=URL[&tall=1][&cover=1]  a top page holding one frame
//	/oop-mid.html?nest=URL                     a frame's page, with a frame inside
//	/oop-leaf.html                             the innermost page
//	/deep.html?d=N                             N frames nested in each other
//
// The frames have thick borders and padding, and their first control sits in
// the top-left corner and is small, so a click point off by a frame's border
// or padding misses it.
func init() {
	extraPages["/oop-top.html"] = `<!doctype html><html><head><meta charset="utf-8"><title>Top</title></head>
<body style="margin:8px">
<button id="ts" onclick="log('top clicked')">Top start</button>
<button onclick="document.getElementById('outer').contentWindow.postMessage('grow', '*')">Grow frame</button>
<p id="log"></p>
<div id="spacer"></div>
<script>
const q = new URLSearchParams(location.search);
function log(m) { document.getElementById('log').textContent = m; }
addEventListener('message', e => log(String(e.data)));
if (q.get('tall')) document.getElementById('spacer').style.height = '1600px';
const f = document.createElement('iframe');
f.id = 'outer';
f.src = q.get('inner');
f.style.cssText = 'display:block;width:520px;height:420px;border:12px solid #333;padding:9px';
document.body.appendChild(f);
if (q.get('cover')) {
  const c = document.createElement('div');
  c.id = 'veil';
  c.style.cssText = 'position:fixed;left:0;top:0;width:100%;height:100%;background:rgba(0,0,0,.4)';
  document.body.appendChild(c);
}
</script>
<button onclick="log('top end')">Top end</button>
</body></html>`
	extraPages["/oop-mid.html"] = `<!doctype html><html><head><meta charset="utf-8"><title>Mid</title></head>
<body style="margin:0">
<button style="position:absolute;left:0;top:0;width:60px;height:22px;margin:0;padding:0" onclick="tell('mid clicked')">Mid button</button>
<div style="height:28px"></div>
<input style="display:block" placeholder="Mid field" oninput="tell('mid typed: ' + this.value)">
<select style="display:block" aria-label="Mid choice" onchange="tell('mid chose: ' + this.value)"><option>one</option><option>two</option></select>
<div id="tile" style="width:120px;height:22px;background:#ddf">Mid tile</div>
<mid-secret></mid-secret>
<a href="/oop-leaf.html" style="display:block">Mid next</a>
<a id="home" style="display:block">Mid home</a>
<script>
document.getElementById('home').href = location.ancestorOrigins[0] + '/oop-leaf.html';
function tell(m) { top.postMessage(m, '*'); }
document.getElementById('tile').addEventListener('click', () => tell('mid tile'));
customElements.define('mid-secret', class extends HTMLElement {
  constructor() {
    super();
    const r = this.attachShadow({mode: 'closed'});
    r.innerHTML = '<button>Mid secret</button>';
    r.querySelector('button').addEventListener('click', () => tell('mid secret'));
  }
});
const q = new URLSearchParams(location.search);
let inner = null;
if (q.get('nest')) {
  inner = document.createElement('iframe');
  inner.src = q.get('nest');
  inner.style.cssText = 'display:block;width:300px;height:110px;border:7px solid #999;padding:5px';
  document.body.appendChild(inner);
}
addEventListener('message', e => {
  if (e.data !== 'grow') return;
  if (inner) { inner.contentWindow.postMessage('grow', '*'); return; }
  const b = document.createElement('button');
  b.textContent = 'Mid late';
  document.body.appendChild(b);
});
</script>
</body></html>`
	extraPages["/oop-leaf.html"] = `<!doctype html><html><head><meta charset="utf-8"><title>Leaf</title></head>
<body style="margin:0">
<button style="position:absolute;left:0;top:0;width:50px;height:20px;margin:0;padding:0" onclick="top.postMessage('leaf clicked', '*')">Leaf button</button>
<input style="position:absolute;left:0;top:40px" placeholder="Leaf field" oninput="top.postMessage('leaf typed: ' + this.value, '*')">
<script>
addEventListener('message', e => {
  if (e.data !== 'grow') return;
  const b = document.createElement('button');
  b.textContent = 'Leaf late';
  b.style.cssText = 'position:absolute;left:100px;top:0';
  document.body.appendChild(b);
});
</script>
</body></html>`
	extraPages["/deep.html"] = `<!doctype html><html><head><meta charset="utf-8"><title>Deep</title></head>
<body style="margin:2px">
<script>
const d = +new URLSearchParams(location.search).get('d');
const b = document.createElement('button');
b.textContent = 'Deep ' + d;
b.onclick = () => top.postMessage('deep ' + d, '*');
document.body.appendChild(b);
if (d > 0) {
  const f = document.createElement('iframe');
  f.src = '/deep.html?d=' + (d - 1);
  f.style.cssText = 'display:block;width:' + (120 + 60 * d) + 'px;height:' + (60 + 40 * d) + 'px;border:1px solid';
  document.body.appendChild(f);
}
</script>
</body></html>`
}

// oopURL is the top page holding mid (on the other site) holding nest.
func oopURL(nest string, extra ...string) string {
	inner := cross.URL + "/oop-mid.html"
	if nest != "" {
		inner += "?nest=" + url.QueryEscape(nest)
	}
	u := site.URL + "/oop-top.html?inner=" + url.QueryEscape(inner)
	for _, e := range extra {
		u += "&" + e + "=1"
	}
	return u
}

// Nested frames inside the cross-site frame: same-site with it (so in its
// process, a frame of its session), or on the top's site (a second
// out-of-process frame inside the first).
var (
	nestInProcess = "/oop-leaf.html"
	nestOOPIF     = func() string { return site.URL + "/oop-leaf.html" }
)

func navigate(t testing.TB, s *Session, u string) {
	t.Helper()
	if _, err := s.Navigate(testCtx(t), u); err != nil {
		t.Fatalf("navigate %s: %v", u, err)
	}
}

// waitLog waits for the top page's #log to read want (frames report with
// postMessage, which is asynchronous: from a frame in another process it
// took more than the 3 s this waited on a machine loaded by others, and the
// nested-frame cases failed once) and returns what it last read. It waits
// as long as the test's own context, not for a fixed time.
func waitLog(t testing.TB, s *Session, want string) string {
	t.Helper()
	var got string
	ctx := testCtx(t)
	for ctx.Err() == nil {
		got = evalText(t, s, `() => document.getElementById('log').textContent`)
		if got == want {
			break
		}
		time.Sleep(30 * time.Millisecond)
	}
	return got
}

func itemNamed(r *ListResult, name string) *Item {
	for _, it := range r.Items {
		if it.Name == name {
			return it
		}
	}
	return nil
}

func frameDepth(it *Item) int {
	if it.Frame == "" {
		return 0
	}
	return strings.Count(it.Frame, "/") + 1
}

// Elements of every frame are numbered in document order at their frame's
// place, with the frame path; a frame too deep to enter is reported with a
// reason.
func TestFramesListedInPlace(t *testing.T) {
	type want struct {
		name  string
		depth int
	}
	cases := []struct {
		name    string
		url     func() string
		want    []want
		oopifs  int // at least this many out-of-process frames
		skipped int
	}{
		{"same-origin and cross-site frames", func() string { return site.URL + "/frame.html" },
			[]want{{"Top button", 0}, {"Frame button", 1}, {"Frame field", 1}, {"Cross button", 1}, {"Top after", 0}}, 1, 0},
		{"frame in the process of a cross-site frame", func() string { return oopURL(nestInProcess) },
			[]want{{"Top start", 0}, {"Mid button", 1}, {"Mid field", 1}, {"Mid choice", 1}, {"Mid tile", 1}, {"Mid secret", 1}, {"Mid next", 1}, {"Leaf button", 2}, {"Leaf field", 2}, {"Top end", 0}}, 1, 0},
		{"cross-site frame inside a cross-site frame", func() string { return oopURL(nestOOPIF()) },
			[]want{{"Top start", 0}, {"Mid button", 1}, {"Mid secret", 1}, {"Leaf button", 2}, {"Leaf field", 2}, {"Top end", 0}}, 2, 0},
		{"frames nested too deep", func() string { return site.URL + "/deep.html?d=6" },
			[]want{{"Deep 6", 0}, {"Deep 5", 1}, {"Deep 4", 2}, {"Deep 3", 3}, {"Deep 2", 4}}, 0, 1},
	}
	s := newSession(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			navigate(t, s, tc.url())
			r := mustList(t, s, ListOptions{Limit: 100})
			if len(r.SkippedFrames) != tc.skipped {
				t.Fatalf("skipped frames %+v, want %d", r.SkippedFrames, tc.skipped)
			}
			for _, sk := range r.SkippedFrames {
				if sk.Reason == "" || sk.Frame == "" {
					t.Errorf("skipped frame without frame path or reason: %+v", sk)
				}
			}
			if got := len(s.frames.all()); got < tc.oopifs {
				t.Errorf("%d out-of-process frames, want at least %d (site isolation off?)", got, tc.oopifs)
			}
			last := 0
			for _, w := range tc.want {
				it := itemNamed(r, w.name)
				if it == nil {
					t.Fatalf("%q not listed: %s", w.name, names(r))
				}
				if it.Number <= last {
					t.Errorf("%q is number %d, out of document order: %s", w.name, it.Number, names(r))
				}
				last = it.Number
				if d := frameDepth(it); d != w.depth {
					t.Errorf("%q has frame path %q (depth %d), want depth %d", w.name, it.Frame, d, w.depth)
				}
			}
			if itemNamed(r, "Deep 1") != nil {
				t.Errorf("an element beyond the frame depth limit was listed: %s", names(r))
			}
		})
	}
}

// Clicking, typing and selecting by number reach elements in every kind of
// frame; the frame's page reports what it received.
func TestFramesActByNumber(t *testing.T) {
	cases := []struct {
		name   string
		url    func() string
		target string
		action string
		text   string
		want   string
	}{
		{"click in a cross-site frame", func() string { return oopURL("") }, "Mid button", "click", "", "mid clicked"},
		{"type in a cross-site frame", func() string { return oopURL("") }, "Mid field", "type", "hello", "mid typed: hello"},
		{"select in a cross-site frame", func() string { return oopURL("") }, "Mid choice", "select", "two", "mid chose: two"},
		{"listener-only element in a cross-site frame", func() string { return oopURL("") }, "Mid tile", "click", "", "mid tile"},
		{"closed shadow root in a cross-site frame", func() string { return oopURL("") }, "Mid secret", "click", "", "mid secret"},
		{"click in a frame inside a cross-site frame's process", func() string { return oopURL(nestInProcess) }, "Leaf button", "click", "", "leaf clicked"},
		{"type in a frame inside a cross-site frame's process", func() string { return oopURL(nestInProcess) }, "Leaf field", "type", "abc", "leaf typed: abc"},
		{"click in a cross-site frame inside a cross-site frame", func() string { return oopURL(nestOOPIF()) }, "Leaf button", "click", "", "leaf clicked"},
		{"type in a cross-site frame inside a cross-site frame", func() string { return oopURL(nestOOPIF()) }, "Leaf field", "type", "xyz", "leaf typed: xyz"},
		{"click in a cross-site frame below the fold", func() string { return oopURL("", "tall") }, "Mid button", "click", "", "mid clicked"},
		{"click in a nested frame below the fold", func() string { return oopURL(nestOOPIF(), "tall") }, "Leaf button", "click", "", "leaf clicked"},
		{"type in a nested frame below the fold", func() string { return oopURL(nestInProcess, "tall") }, "Leaf field", "type", "deep", "leaf typed: deep"},
	}
	s := newSession(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			navigate(t, s, tc.url())
			r := mustList(t, s, ListOptions{Limit: 100})
			n := numberOf(t, r, tc.target)
			res, err := s.Act(testCtx(t), ActOptions{Index: n, Action: tc.action, Text: tc.text})
			if err != nil {
				t.Fatalf("%s %q: %v", tc.action, tc.target, err)
			}
			if got := waitLog(t, s, tc.want); got != tc.want {
				t.Fatalf("the page reports %q, want %q (act result %+v)", got, tc.want, res)
			}
		})
	}

	// The same-origin frame of frame.html is read directly.
	same := []struct {
		target, action, text, js, want string
	}{
		{"Frame button", "click", "", `() => document.getElementById('same').contentDocument.getElementById('r').textContent`, "frame clicked"},
		{"Frame field", "type", "typed here", `() => document.getElementById('same').contentDocument.querySelector('input').value`, "typed here"},
	}
	for _, tc := range same {
		t.Run("same-origin frame "+tc.action, func(t *testing.T) {
			open(t, s, "/frame.html")
			r := mustList(t, s, ListOptions{})
			if _, err := s.Act(testCtx(t), ActOptions{Index: numberOf(t, r, tc.target), Action: tc.action, Text: tc.text}); err != nil {
				t.Fatal(err)
			}
			if got := evalText(t, s, tc.js); got != tc.want {
				t.Fatalf("frame says %q, want %q", got, tc.want)
			}
		})
	}
}

// Something lying over a frame keeps clicks out of it: the act refuses and
// names what covers it, and nothing in the frame is clicked.
func TestFrameCoveredIsRefused(t *testing.T) {
	s := newSession(t)
	navigate(t, s, oopURL("", "cover"))
	r := mustList(t, s, ListOptions{})
	_, err := s.Act(testCtx(t), ActOptions{Index: numberOf(t, r, "Mid button"), Action: "click"})
	if covered(err) == nil || !strings.Contains(err.Error(), "veil") {
		t.Fatalf("click under a veil: err = %v, want a cover error naming div#veil", err)
	}
	time.Sleep(200 * time.Millisecond)
	if got := evalText(t, s, `() => document.getElementById('log').textContent`); got != "" && got != `""` {
		t.Fatalf("the frame was clicked through the veil: %q", got)
	}
}

// A change inside any frame — in its own process or in another frame's —
// makes the numbering stale; acting on a number before the change goes ahead
// (its number holds), and a new list reaches the change.
func TestFramesStaleness(t *testing.T) {
	cases := []struct {
		name string
		url  func() string
		late string // the element the change adds
	}{
		{"cross-site frame", func() string { return oopURL("") }, "Mid late"},
		{"frame inside a cross-site frame's process", func() string { return oopURL(nestInProcess) }, "Leaf late"},
		{"cross-site frame inside a cross-site frame", func() string { return oopURL(nestOOPIF()) }, "Leaf late"},
	}
	s := newSession(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			navigate(t, s, tc.url())
			r := mustList(t, s, ListOptions{})
			// Typing changes no element: the numbering stays valid.
			if _, err := s.Act(testCtx(t), ActOptions{Index: numberOf(t, r, "Mid field"), Action: "type", Text: "x"}); err != nil {
				t.Fatalf("type: %v", err)
			}
			res, err := s.Act(testCtx(t), ActOptions{Index: numberOf(t, r, "Grow frame"), Action: "click"})
			if err != nil {
				t.Fatalf("click Grow frame: %v", err)
			}
			// The frames add their button after a postMessage round trip.
			var stale error
			for end := time.Now().Add(3 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
				if _, stale = s.validate(testCtx(t)); stale != nil {
					break
				}
			}
			// The frame's new element comes after Top start: its number
			// holds and acting goes ahead (issue 23, point 4).
			if _, err = s.Act(testCtx(t), ActOptions{Index: numberOf(t, r, "Top start"), Action: "click"}); err != nil {
				t.Fatalf("act on a number before a change in the frame: err = %v (validate said %v, grow result %+v)", err, stale, res)
			}
			r2 := mustList(t, s, ListOptions{Limit: 100})
			if itemNamed(r2, tc.late) == nil {
				t.Fatalf("%q not listed after the change: %s", tc.late, names(r2))
			}
		})
	}

	nav := []struct {
		name, link string
		oopifs     int // out-of-process frames afterwards
	}{
		{"cross-site frame navigated", "Mid next", 1},
		{"cross-site frame navigated into the top's process", "Mid home", 0},
	}
	for _, tc := range nav {
		t.Run(tc.name, func(t *testing.T) { frameNavigated(t, s, tc.link, tc.oopifs) })
	}
}

// frameNavigated follows link inside the cross-site frame: the numbering
// goes stale, and a new list reaches the frame's new document, wherever its
// process now is.
func frameNavigated(t *testing.T, s *Session, link string, oopifs int) {
	t.Helper()
	navigate(t, s, oopURL(""))
	r := mustList(t, s, ListOptions{})
	if _, err := s.Act(testCtx(t), ActOptions{Index: numberOf(t, r, link), Action: "click"}); err != nil {
		t.Fatal(err)
	}
	var err error
	for end := time.Now().Add(3 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if _, err = s.validate(testCtx(t)); err != nil {
			break
		}
	}
	var se *StaleError
	if !errors.As(err, &se) {
		t.Fatalf("validate after the frame navigated: %v, want StaleError", err)
	}
	r2 := mustList(t, s, ListOptions{})
	if itemNamed(r2, "Leaf button") == nil || itemNamed(r2, "Mid button") != nil {
		t.Fatalf("list after the frame navigated: %s", names(r2))
	}
	if _, err := s.Act(testCtx(t), ActOptions{Index: numberOf(t, r2, "Leaf button"), Action: "click"}); err != nil {
		t.Fatal(err)
	}
	if got := waitLog(t, s, "leaf clicked"); got != "leaf clicked" {
		t.Fatalf("log %q", got)
	}
	if it := itemNamed(r2, "Leaf button"); frameDepth(it) != 1 {
		t.Fatalf("Leaf button has frame path %q", it.Frame)
	}
	got := len(s.frames.all())
	for end := time.Now().Add(2 * time.Second); got != oopifs && time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		got = len(s.frames.all()) // detach events may still be on their way
	}
	if got != oopifs {
		t.Fatalf("%d out-of-process frames, want %d", got, oopifs)
	}
}

func init() {
	extraPages["/ids.html"] = `<!doctype html><html><head><meta charset="utf-8"><title>Ids</title></head><body>
<button>Keep</button>
<button onclick="this.remove()">Remove me</button>
<button onclick="const b = document.createElement('button'); b.textContent = 'Added ' + document.querySelectorAll('.added').length; b.className = 'added'; document.body.appendChild(b)">Add one</button>
</body></html>`
}

// data-blind-id: kept by an element while it lives (across lists), never
// given to another element in the session — not after the element is
// removed, not in another frame, not after navigating.
func TestBlindIDsStableAndNeverReused(t *testing.T) {
	s := newSession(t)
	seen := map[string]string{} // id → "frame|name" of its one element
	record := func(t *testing.T, r *ListResult) {
		t.Helper()
		inList := map[string]bool{}
		for _, it := range r.Items {
			key := it.Frame + "|" + it.Name
			if inList[it.ID] {
				t.Errorf("id %s given twice in list %d: %s", it.ID, r.Generation, names(r))
			}
			inList[it.ID] = true
			if prev, ok := seen[it.ID]; ok && prev != key {
				t.Errorf("id %s reused: was %q, now %q", it.ID, prev, key)
			}
			seen[it.ID] = key
		}
	}
	highest := func() int {
		m := 0
		for id := range seen {
			if v, err := strconv.Atoi(id); err == nil && v > m {
				m = v
			}
		}
		return m
	}
	steps := []struct {
		name  string
		fresh bool // a new document: every id above all ids seen before
		do    func(t *testing.T) *ListResult
	}{
		{"first list", false, func(t *testing.T) *ListResult { open(t, s, "/ids.html"); return mustList(t, s, ListOptions{}) }},
		{"list again", false, func(t *testing.T) *ListResult { return mustList(t, s, ListOptions{}) }},
		{"an element removed", false, func(t *testing.T) *ListResult {
			r := mustList(t, s, ListOptions{})
			if _, err := s.Act(testCtx(t), ActOptions{Index: numberOf(t, r, "Remove me"), Action: "click"}); err != nil {
				t.Fatal(err)
			}
			return mustList(t, s, ListOptions{})
		}},
		{"an element added", false, func(t *testing.T) *ListResult {
			r := mustList(t, s, ListOptions{})
			if _, err := s.Act(testCtx(t), ActOptions{Index: numberOf(t, r, "Add one"), Action: "click"}); err != nil {
				t.Fatal(err)
			}
			r = mustList(t, s, ListOptions{})
			if itemNamed(r, "Added 0") == nil || itemNamed(r, "Remove me") != nil {
				t.Fatalf("list after remove and add: %s", names(r))
			}
			return r
		}},
		{"frames of another page", true, func(t *testing.T) *ListResult { open(t, s, "/frame.html"); return mustList(t, s, ListOptions{}) }},
		{"frames listed again", false, func(t *testing.T) *ListResult { return mustList(t, s, ListOptions{}) }},
		{"the first page again", true, func(t *testing.T) *ListResult { open(t, s, "/ids.html"); return mustList(t, s, ListOptions{}) }},
	}
	var keep string
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			before := highest()
			r := st.do(t)
			if len(r.Items) == 0 {
				t.Fatal("nothing listed")
			}
			if st.fresh {
				for _, it := range r.Items {
					if v, _ := strconv.Atoi(it.ID); v <= before {
						t.Errorf("new document: %q got id %s, not above the %d ids given before", it.Name, it.ID, before)
					}
				}
			}
			record(t, r)
			if it := itemNamed(r, "Keep"); it != nil && !st.fresh {
				if keep != "" && it.ID != keep {
					t.Errorf("Keep changed its id from %s to %s", keep, it.ID)
				}
				keep = it.ID
			}
		})
	}
}

// BenchmarkListFrames lists frame.html: the top document, a same-origin
// frame and an out-of-process cross-site frame.
func BenchmarkListFrames(b *testing.B) {
	s := newSession(b)
	open(b, s, "/frame.html")
	ctx := testCtx(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := s.List(ctx, ListOptions{})
		if err != nil || r.Documents != 3 {
			b.Fatalf("list: %v (%+v)", err, r)
		}
	}
}

// BenchmarkListNestedOOPIF lists a page whose cross-site frame holds another
// cross-site frame (three processes' worth of documents).
func BenchmarkListNestedOOPIF(b *testing.B) {
	s := newSession(b)
	if _, err := s.Navigate(context.Background(), oopURL(nestOOPIF())); err != nil {
		b.Fatal(err)
	}
	ctx := testCtx(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := s.List(ctx, ListOptions{})
		if err != nil || r.Documents != 3 {
			b.Fatalf("list: %v (%+v)", err, r)
		}
	}
}

// BenchmarkActClickOOPIF is one click by number on a button of a cross-site
// frame (compare BenchmarkActClick on the top document).
func BenchmarkActClickOOPIF(b *testing.B) {
	s := newSession(b)
	if _, err := s.Navigate(context.Background(), oopURL("")); err != nil {
		b.Fatal(err)
	}
	ctx := testCtx(b)
	r, err := s.List(ctx, ListOptions{})
	if err != nil {
		b.Fatal(err)
	}
	n := numberOf(b, r, "Mid button")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Act(ctx, ActOptions{Index: n, Action: "click"}); err != nil {
			b.Fatal(err)
		}
	}
}

// Site isolation stays on: the launched Chromium runs without rod's default
// flags that turn it off.
func TestSiteIsolationStaysOn(t *testing.T) {
	b := rod.New().ControlURL(testProc.ControlURL()).Context(testCtx(t))
	if err := b.Connect(); err != nil {
		t.Fatal(err)
	}
	res, err := proto.BrowserGetBrowserCommandLine{}.Call(b)
	if err != nil {
		t.Fatal(err)
	}
	features := false
	for _, arg := range res.Arguments {
		name, val, _ := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		features = features || name == "disable-features"
		if name == "disable-site-isolation-trials" || (name == "disable-features" && strings.Contains(val, "site-per-process")) {
			t.Errorf("Chromium was started with %s", arg)
		}
	}
	if !features {
		t.Fatalf("no --disable-features in the command line %q: not the flags StartBrowser sets", res.Arguments)
	}
}
