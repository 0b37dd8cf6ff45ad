package browser

import (
	"strings"
	"testing"
	"time"
)

// Pages that keep changing a little after their load event.
func init() {
	extraPages["/late-timer.html"] = `<!doctype html><html><head><meta charset="utf-8"><title>Late timer</title></head>
<body><main><h1>Late timer</h1></main><script>
addEventListener('load', () => setTimeout(() => {
  const b = document.createElement('button'); b.textContent = 'Late button'; document.querySelector('main').append(b);
}, 100));
</script></body></html>`
	extraPages["/late-fetch.html"] = `<!doctype html><html><head><meta charset="utf-8"><title>Late fetch</title></head>
<body><main><h1>Late fetch</h1></main><script>
addEventListener('load', () => fetch('/slow?ms=300').then(r => r.text()).then(() => setTimeout(() => {
  const b = document.createElement('button'); b.textContent = 'Fetched button'; document.querySelector('main').append(b);
}, 20)));
</script></body></html>`
	// Rows drawn one by one, each step's timer set by the step before (next).
	steps := func(title, next string) string {
		return `<!doctype html><html><head><meta charset="utf-8"><title>` + title + `</title></head>
<body><main><h1>` + title + `</h1><ul id="l"></ul></main><script>
let i = 0;
(function step() {
  i++;
  const li = document.createElement('li'); li.innerHTML = '<a href="#' + i + '">Row ' + i + '</a>';
  document.getElementById('l').append(li);
  ` + next + `
})();
</script></body></html>`
	}
	// Rendering in small steps, 15 ms apart, for 150 ms: the DOM is not quiet
	// until the last step.
	extraPages["/late-chain.html"] = steps("Late chain", `if (i < 10) setTimeout(step, 15);`)
	// Rows 20 ms apart, then a pause of 150 ms before the last row: the pause
	// is longer than the rhythm's quiet window, but the timer that ends it was
	// set by the chain that began while the page loaded.
	extraPages["/late-pause.html"] = steps("Late pause", `if (i < 7) setTimeout(step, 20); else if (i === 7) setTimeout(step, 150);`)
	extraPages["/poller.html"] = `<!doctype html><html><head><meta charset="utf-8"><title>Poller</title></head>
<body><main><h1>Poller</h1><button>Refresh</button><p id="t"></p></main><script>
// Never network-idle: a request in flight most of the time, for ever.
setInterval(() => fetch('/slow?ms=80').then(r => r.text()).then(t => { document.getElementById('t').textContent = t + Date.now(); }), 100);
</script></body></html>`
}

// A navigation returns when the page is settled by evidence, and what a page
// adds just after its load event (a short timer, a request and its answer,
// a chain of renders) is there when it returns; a page that polls for ever
// still returns, loaded.
func TestNavigateSettlesByEvidence(t *testing.T) {
	s := newSession(t)
	for _, c := range []struct {
		page, want string
	}{
		{"/late-timer.html", "Late button"},
		{"/late-fetch.html", "Fetched button"},
		{"/late-chain.html", "Row 10"},
		{"/late-pause.html", "Row 8"},
		{"/poller.html", "Refresh"},
	} {
		st, err := s.Navigate(testCtx(t), site.URL+c.page)
		if err != nil {
			t.Fatalf("%s: %v", c.page, err)
		}
		if !st.Loaded {
			t.Errorf("%s: not loaded: %+v", c.page, st)
		}
		// Read at once (a list would give the page more time). On a machine
		// so busy that the page's drawing outlasted the look, the result
		// must say so: never silently short.
		if got := evalText(t, s, `() => document.body.innerText`); !strings.Contains(got, c.want) && !strings.Contains(st.Note, "still changing") {
			t.Errorf("%s: the navigation returned before %q was there (note %q): %q", c.page, c.want, st.Note, got)
		}
	}
}

func init() {
	// A search whose results arrive by fetch after Enter and are drawn in
	// steps 10 ms apart: for 400 ms (a short render) or 4 s (a long one).
	extraPages["/live-search.html"] = `<!doctype html><html><head><meta charset="utf-8"><title>Live search</title></head>
<body><main><h1>Live search</h1><input id="q" aria-label="Search"><ul id="r"></ul></main><script>
document.getElementById('q').addEventListener('keydown', e => {
  if (e.key !== 'Enter') return;
  const steps = {long: 400, endless: 1e9}[e.target.value] || 40;
  fetch('/slow?ms=100').then(r => r.text()).then(() => {
    let i = 0;
    (function draw() {
      i++;
      const li = document.createElement('li'); li.innerHTML = '<a href="#r' + i + '">Result ' + i + '</a>';
      document.getElementById('r').append(li);
      if (i < steps) setTimeout(draw, 10);
    })();
  });
});
</script></body></html>`
}

// After Enter starts a search, the press waits until the results stop
// changing, so the next list holds them all; results that keep coming for
// longer are announced as "still changing", never listed silently short.
func TestPressEnterWaitsForResults(t *testing.T) {
	s := newSession(t)
	open(t, s, "/live-search.html")
	r := mustList(t, s, ListOptions{})
	if _, err := s.Act(testCtx(t), ActOptions{Index: numberOf(t, r, "Search"), Action: "type", Text: "kazan"}); err != nil {
		t.Fatal(err)
	}
	pr, err := s.Press(testCtx(t), "Enter")
	if err != nil {
		t.Fatal(err)
	}
	r = mustList(t, s, ListOptions{})
	// Complete, or (on a machine so busy that 400 ms of drawing took longer
	// than the settle's look) announced as still changing: never silently short.
	if (r.Total != 41 || !strings.Contains(names(r), "Result 40")) && !strings.Contains(pr.Note, "still changing") {
		t.Fatalf("after Enter (note %q) the list has %d elements: %s", pr.Note, r.Total, names(r))
	}
	if strings.Contains(pr.Note, "still changing") {
		t.Logf("the 400 ms render took longer here: %q", pr.Note)
	}

	open(t, s, "/live-search.html")
	r = mustList(t, s, ListOptions{})
	if _, err := s.Act(testCtx(t), ActOptions{Index: numberOf(t, r, "Search"), Action: "type", Text: "long"}); err != nil {
		t.Fatal(err)
	}
	pr, err = s.Press(testCtx(t), "Enter")
	if err != nil {
		t.Fatal(err)
	}
	// 400 results drawn over 4 s or more: the page gains elements at every
	// look, so the press waits for them (growMax), as after a navigation.
	r = mustList(t, s, ListOptions{Limit: 500})
	if (r.Total != 401 || !strings.Contains(names(r), "Result 400")) && !strings.Contains(pr.Note, "still changing") {
		t.Fatalf("after Enter on the long search (note %q) the list has %d elements", pr.Note, r.Total)
	}
	if strings.Contains(pr.Note, "still changing") {
		t.Logf("the 4 s render took longer than %s here: %q", growMax, pr.Note)
	}

	open(t, s, "/live-search.html")
	r = mustList(t, s, ListOptions{})
	if _, err := s.Act(testCtx(t), ActOptions{Index: numberOf(t, r, "Search"), Action: "type", Text: "endless"}); err != nil {
		t.Fatal(err)
	}
	pr, err = s.Press(testCtx(t), "Enter")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(pr.Note, "still changing") {
		t.Errorf("results still being drawn after %s were not announced: %+v", growMax, pr)
	}
}

func init() {
	// Sphinx's search page in small: "Searching" with dots every 500 ms,
	// then results drawn one by one, each after the page's thread was busy
	// for 400 ms (Sphinx fetches each result's page and parses it), then
	// "Search Results".
	extraPages["/stalled-search.html"] = `<!doctype html><html><head><meta charset="utf-8"><title>Stalled search</title></head>
<body><main><h2 id="h">Searching</h2><ul id="r"></ul></main><script>
let dots = 0, done = false;
(function pulse() { if (done) return; dots = (dots + 1) % 4; document.getElementById('h').textContent = 'Searching' + '.'.repeat(dots); setTimeout(pulse, 500); })();
let i = 0;
function step() {
  i++;
  const li = document.createElement('li'); li.innerHTML = '<a href="#r' + i + '">Row ' + i + '</a>';
  document.getElementById('r').append(li);
  if (i === 8) { done = true; document.getElementById('h').textContent = 'Search Results'; return; }
  setTimeout(() => { const t = performance.now(); while (performance.now() - t < 400) {} setTimeout(step, 5); }, 5);
}
addEventListener('DOMContentLoaded', step);
</script></body></html>`
}

// Results a page draws in steps after its load, with its thread busy for a
// long while between steps, are there when the navigation returns (issue
// 23, point 4): a stall is the page working, not quiet. The old settle took
// the first 400 ms stall for quiet and returned with one or two rows, saying
// nothing.
func TestNavigateWaitsForResultsDrawnAfterStalls(t *testing.T) {
	s := newSession(t)
	st, err := s.Navigate(testCtx(t), site.URL+"/stalled-search.html")
	if err != nil {
		t.Fatal(err)
	}
	got := evalText(t, s, `() => document.body.innerText`)
	if !strings.Contains(got, "Row 8") || !strings.Contains(got, "Search Results") {
		t.Fatalf("the navigation returned before the results were drawn (note %q): %q", st.Note, got)
	}
	if strings.Contains(st.Note, "still changing") {
		t.Errorf("the results were all drawn, but the note says %q", st.Note)
	}
}

// A list taken while results are on their way waits for them (a request
// started in the last 2 s, then the DOM quiet) instead of numbering a page
// half drawn; a request open for longer (a long poll) does not hold it.
func TestListWaitsForResultsOnTheirWay(t *testing.T) {
	s := newSession(t)
	open(t, s, "/form.html")
	evalText(t, s, `() => { fetch('/slow?ms=300').then(r => r.text()).then(() => {
		const a = document.createElement('a'); a.href = '#x'; a.textContent = 'Arrived result'; document.body.append(a); }); return 'ok'; }`)
	r := mustList(t, s, ListOptions{Limit: 500})
	if !strings.Contains(names(r), "Arrived result") && !strings.Contains(r.Note, "still changing") {
		t.Fatalf("the list did not wait for the result on its way (note %q): %s", r.Note, names(r))
	}

	evalText(t, s, `() => { fetch('/slow?ms=5000'); return 'ok'; }`)
	time.Sleep(2200 * time.Millisecond)
	if r := mustList(t, s, ListOptions{}); strings.Contains(r.Note, "still changing") {
		t.Fatalf("a request open for 2 s held the list: %q", r.Note)
	}
}

// Pages whose loading leaves work for after the load event that settle.js
// and marks.js take as evidence, and pages that cannot change themselves.
func init() {
	late := func(title, setup string) string {
		return `<!doctype html><html><head><meta charset="utf-8"><title>` + title + `</title></head>
<body><main><h1>` + title + `</h1></main><script>
function add(name) { const b = document.createElement('button'); b.textContent = name; document.querySelector('main').append(b); document.title = name; }
` + setup + `
</script></body></html>`
	}
	// A timer longer than an input's (100 ms), set by the load event, within
	// what a loading timer may take (250 ms).
	extraPages["/late-240.html"] = late("Late 240", `addEventListener('load', () => setTimeout(() => add('Button after 240 ms'), 240));`)
	// Drawn in the next frame after load.
	extraPages["/late-frame.html"] = late("Late frame", `addEventListener('load', () => requestAnimationFrame(() => add('Frame button')));`)
	// An XMLHttpRequest whose answer is drawn.
	extraPages["/late-xhr.html"] = late("Late XHR", `addEventListener('load', () => { const x = new XMLHttpRequest(); x.open('GET', '/slow?ms=200'); x.onload = () => setTimeout(() => add('XHR button'), 10); x.send(); });`)
	// A long poll opened at load that never answers.
	extraPages["/long-poll.html"] = late("Long poll", `add('Ready button'); addEventListener('load', () => fetch('/hang').catch(() => {}));`)
	// A consent banner drawn 240 ms after the load event.
	extraPages["/late-banner.html"] = late("Late banner", `addEventListener('load', () => setTimeout(() => {
  const b = document.createElement('div');
  b.style.cssText = 'position:fixed;bottom:0;left:0;right:0;background:#eee;padding:10px';
  b.innerHTML = 'We use cookies to improve the shop. <button class="a">Accept all</button> <button class="r">Reject all</button>';
  b.querySelector('.a').onclick = () => { window.choice = 'accept'; b.remove(); };
  b.querySelector('.r').onclick = () => { window.choice = 'reject'; b.remove(); };
  document.body.append(b);
}, 240));`)

	static := func(title, head, body string) string {
		return `<!doctype html><html><head><meta charset="utf-8"><title>` + title + `</title>` + head + `</head><body` + body + `</body></html>`
	}
	extraPages["/scriptless.html"] = static("Scriptless", `<style>h1 { color: navy }</style>`, `><main><h1>Plain</h1><p>Text and <a href="#x">a link</a>.</p><img alt="" width="1" height="1" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></main>`)
	extraPages["/scriptless-onload.html"] = static("Onload attribute", ``, ` onload="setTimeout(() => { const b = document.createElement('button'); b.textContent = 'Onload button'; document.body.append(b); document.title = 'Onload button'; }, 150)"><main><h1>Onload</h1></main>`)
	extraPages["/scriptless-script.html"] = static("Script", `<script>document.title = 'Script';</script>`, `><main><h1>Script</h1></main>`)
	extraPages["/scriptless-frame.html"] = static("Frame", ``, `><main><h1>Frame</h1><iframe srcdoc="<p>inner</p>"></iframe></main>`)
	extraPages["/scriptless-shadow.html"] = static("Shadow", ``, `><main><h1>Shadow</h1><div><template shadowrootmode="open"><p>in a shadow root</p></template></div></main>`)
}

// What a page's loading starts just before or at its load event (a timer
// longer than an input's, a frame callback, a request by XMLHttpRequest, a
// timer of a handler attribute) is there when the navigation returns, and in
// the title it reports; a page whose long poll never answers
// still returns, loaded and idle (the poll does not hold it to the cap).
func TestNavigateWaitsForLoadingWork(t *testing.T) {
	s := newSession(t, func(o *Options) { o.NavigationTimeout = 8 * time.Second })
	for _, c := range []struct {
		page, want string
	}{
		{"/late-240.html", "Button after 240 ms"},
		{"/late-frame.html", "Frame button"},
		{"/late-xhr.html", "XHR button"},
		{"/long-poll.html", "Ready button"},
		{"/scriptless-onload.html", "Onload button"},
	} {
		st, err := s.Navigate(testCtx(t), site.URL+c.page)
		if err != nil {
			t.Fatalf("%s: %v", c.page, err)
		}
		if !st.Loaded || !st.NetworkIdle || st.Note != "" {
			t.Errorf("%s: not settled: %+v", c.page, st)
		}
		// The title the navigation reports is read when the page settled:
		// the late work renames the page.
		if st.Title != c.want {
			t.Errorf("%s: the navigation settled before %q was there (title %q)", c.page, c.want, st.Title)
		}
		if got := evalText(t, s, `() => document.body.innerText`); !strings.Contains(got, c.want) {
			t.Errorf("%s: the navigation returned before %q was there: %q", c.page, c.want, got)
		}
	}
}

// A document that cannot change itself (no script, frame, plugin, event
// handler attribute or shadow root) is settled at once after its load
// event; any of those makes it a page that may still change.
func TestSettleKnowsScriptlessPages(t *testing.T) {
	s := newSession(t)
	for _, c := range []struct {
		page       string
		scriptless bool
	}{
		{"/scriptless.html", true},
		{"/scriptless-onload.html", false},
		{"/scriptless-script.html", false},
		{"/scriptless-frame.html", false},
		{"/scriptless-shadow.html", false},
		{"/late-timer.html", false},
	} {
		open(t, s, c.page)
		p := s.pageQuietSince(testCtx(t), true)
		if !p.ok || !p.Quiet {
			t.Fatalf("%s: no quiet answer: %+v", c.page, p)
		}
		if p.Scriptless != c.scriptless {
			t.Errorf("%s: scriptless %v, want %v", c.page, p.Scriptless, c.scriptless)
		}
		if c.scriptless && p.Waited != 0 {
			t.Errorf("%s: a page that cannot change was watched for %v ms", c.page, p.Waited)
		}
	}
}

// A consent banner a page draws just after its load event (after the banner
// hook, which runs while the page settles, had its first look) is closed by
// the navigation's hook all the same.
func TestNavigateClosesBannerDrawnAfterLoad(t *testing.T) {
	s := newSession(t, func(o *Options) { o.Logf = t.Logf })
	st := open(t, s, "/late-banner.html")
	if st.Banners == nil || st.Banners.Closed < 1 {
		t.Fatalf("after navigate: banners %+v", st.Banners)
	}
	if got := evalText(t, s, `() => String(window.choice)`); got != "reject" {
		t.Fatalf("the banner was answered %q, want reject", got)
	}
}
