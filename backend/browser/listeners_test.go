package browser

import (
	"encoding/json"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// Elements made clickable only by script: no role, no tabindex, no pointer
// cursor, no onclick attribute.
func init() {
	tile := func(id, text string) string {
		return `<div id="` + id + `" style="width:180px;height:22px;margin:4px;background:#eef">` + text + `</div>`
	}
	extraPages["/listeners.html"] = `<!doctype html><html><head><meta charset="utf-8"><title>Listeners</title></head><body>
<p id="log"></p>` +
		tile("click", "Click tile") + tile("down", "Mousedown tile") + tile("pup", "Pointerup tile") +
		tile("prop", "Property tile") + tile("capture", "Capture tile") + tile("removed", "Removed tile") +
		tile("key", "Key tile") + tile("nulled", "Nulled tile") + `
<div id="deleg" style="margin:4px"><button>Delegated A</button> <button>Delegated B</button></div>
<button id="adder">Add later</button>
<iframe src="/listen-inner.html" style="width:300px;height:60px;border:2px solid"></iframe>
<script>
const log = m => { document.getElementById('log').textContent = m; };
const $ = id => document.getElementById(id);
$('click').addEventListener('click', () => log('click tile'));
$('down').addEventListener('mousedown', () => log('mousedown tile'));
$('pup').addEventListener('pointerup', () => log('pointerup tile'));
$('prop').onclick = () => log('property tile');
// Removed with the other capture flag: still listening.
const c = () => log('capture tile');
$('capture').addEventListener('click', c, true);
$('capture').removeEventListener('click', c);
const f = () => log('removed tile');
$('removed').addEventListener('click', f, {capture: true});
$('removed').removeEventListener('click', f, true);
$('key').addEventListener('keydown', () => log('key'));
$('nulled').onclick = () => log('nulled');
$('nulled').onclick = null;
$('deleg').addEventListener('click', e => log('delegated ' + e.target.textContent));
$('adder').onclick = () => {
  const d = document.createElement('div');
  d.textContent = 'Late tile';
  d.style.cssText = 'width:180px;height:22px;margin:4px';
  d.addEventListener('pointerdown', () => log('late tile'));
  document.body.appendChild(d);
};
addEventListener('message', e => log(String(e.data)));
</script>
</body></html>`
	extraPages["/listen-inner.html"] = `<!doctype html><html><head><meta charset="utf-8"><title>Inner</title></head><body style="margin:2px">
<span id="t" style="display:inline-block;width:120px;height:20px">Frame tile</span>
<script>document.getElementById('t').addEventListener('click', () => parent.postMessage('frame tile', '*'));</script>
</body></html>`
}

// An element with only a click-like listener is numbered (role "clickable")
// and clicking it by number reaches the listener; one whose listeners were
// removed, or that listens to keys only, is not; a container that delegates
// clicks for the controls inside it is not numbered itself.
func TestClickListenersNumbered(t *testing.T) {
	cases := []struct {
		name     string
		numbered bool
		want     string // what a click logs
	}{
		{"Click tile", true, "click tile"},
		{"Mousedown tile", true, "mousedown tile"},
		{"Pointerup tile", true, "pointerup tile"},
		{"Property tile", true, "property tile"},
		{"Capture tile", true, "capture tile"},
		{"Frame tile", true, "frame tile"},
		{"Delegated A", true, "delegated Delegated A"},
		{"Removed tile", false, ""},
		{"Key tile", false, ""},
		{"Nulled tile", false, ""},
		{"Delegated A Delegated B", false, ""},
	}
	s := newSession(t)
	open(t, s, "/listeners.html")
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := mustList(t, s, ListOptions{Limit: 100})
			it := itemNamed(r, tc.name)
			if (it != nil) != tc.numbered {
				t.Fatalf("numbered = %v, want %v: %s", it != nil, tc.numbered, names(r))
			}
			if it == nil {
				return
			}
			if it.Tag == "div" && it.Role != "clickable" {
				t.Errorf("role %q, want clickable", it.Role)
			}
			if _, err := s.Act(testCtx(t), ActOptions{Index: it.Number, Action: "click"}); err != nil {
				t.Fatal(err)
			}
			if got := waitLog(t, s, tc.want); got != tc.want {
				t.Fatalf("log %q, want %q", got, tc.want)
			}
		})
	}
	t.Run("added after load", func(t *testing.T) {
		r := mustList(t, s, ListOptions{Limit: 100})
		if itemNamed(r, "Late tile") != nil {
			t.Fatal("Late tile listed before it exists")
		}
		if _, err := s.Act(testCtx(t), ActOptions{Index: numberOf(t, r, "Add later"), Action: "click"}); err != nil {
			t.Fatal(err)
		}
		r = mustList(t, s, ListOptions{Limit: 100})
		if _, err := s.Act(testCtx(t), ActOptions{Index: numberOf(t, r, "Late tile"), Action: "click"}); err != nil {
			t.Fatal(err)
		}
		if got := waitLog(t, s, "late tile"); got != "late tile" {
			t.Fatalf("log %q", got)
		}
	})
	t.Run("marks are data attributes only", func(t *testing.T) {
		got := evalText(t, s, `() => document.getElementById('click').getAttributeNames().sort().join(',')`)
		if got != "data-blind-click,data-blind-id,id,style" {
			t.Errorf("attributes of the tile: %s", got)
		}
		// The wrappers keep the page's view of the DOM API.
		got = evalText(t, s, `() => [EventTarget.prototype.addEventListener.name, EventTarget.prototype.addEventListener.length, String(EventTarget.prototype.addEventListener).includes('[native code]')].join(',')`)
		if got != "addEventListener,2,true" {
			t.Errorf("addEventListener as the page sees it: %s", got)
		}
	})
}

func init() {
	extraPages["/focus.html"] = `<!doctype html><html><head><meta charset="utf-8"><title>Focus</title></head><body style="margin:0">
<input placeholder="Focus field" style="position:absolute;left:40px;top:40px;width:300px;height:40px;box-sizing:border-box">
<button style="position:absolute;left:150px;top:82px">Below</button>
<button style="position:absolute;left:80px;top:14px;height:24px">Above</button>
<iframe id="same" src="/focus-inner.html" style="position:absolute;left:40px;top:150px;width:420px;height:130px;border:4px solid"></iframe>
<script>
const c = document.createElement('iframe');
c.id = 'cross';
c.src = new URLSearchParams(location.search).get('cross') + '/focus-inner.html';
c.style.cssText = 'position:absolute;left:40px;top:320px;width:420px;height:130px;border:4px solid';
document.body.appendChild(c);
</script>
</body></html>`
	extraPages["/focus-inner.html"] = `<!doctype html><html><head><meta charset="utf-8"><title>Inner focus</title></head><body style="margin:0">
<input placeholder="Inner focus field" style="position:absolute;left:20px;top:20px;width:300px;height:40px;box-sizing:border-box">
<button style="position:absolute;left:100px;top:62px">Inner below</button>
</body></html>`
}

// badgeState reads the overlay's badges and the focused element's box in the
// top viewport (through same-origin frames; a cross-origin frame's box stands
// for its focused element).
type badgeState struct {
	Focus  [4]float64 `json:"focus"` // left, top, right, bottom
	Badges []struct {
		N    string     `json:"n"`
		Rect [4]float64 `json:"rect"`
	} `json:"badges"`
}

const badgeJS = `() => {
	let a = document.activeElement, ox = 0, oy = 0;
	while (a && a.tagName === 'IFRAME') {
		let d = null;
		try { d = a.contentDocument; } catch (e) {}
		if (!d || !d.activeElement || d.activeElement === d.body) break;
		const r = a.getBoundingClientRect(), cs = getComputedStyle(a);
		ox += r.left + parseFloat(cs.borderLeftWidth) + parseFloat(cs.paddingLeft);
		oy += r.top + parseFloat(cs.borderTopWidth) + parseFloat(cs.paddingTop);
		a = d.activeElement;
	}
	const f = a.getBoundingClientRect();
	const host = document.querySelector('waymark-overlay');
	const badges = [];
	for (const b of host ? host.shadowRoot.querySelectorAll('span') : []) {
		if (getComputedStyle(b).display === 'none') continue;
		const r = b.getBoundingClientRect();
		badges.push({n: b.textContent, rect: [r.left, r.top, r.right, r.bottom]});
	}
	return JSON.stringify({focus: [f.left + ox, f.top + oy, f.right + ox, f.bottom + oy], badges});
}`

// The overlay's numbers never lie over the focused element — in the top
// document, in a same-origin frame or in a cross-site frame — and the
// focused element's own number stays visible beside it where it is known.
func TestOverlayNeverCoversFocus(t *testing.T) {
	cases := []struct {
		field   string
		ownSeen bool // the focused element's own number is expected on screen
	}{
		{"Focus field", true},
		{"Inner focus field", true},
	}
	s := newSession(t)
	open(t, s, "/focus.html?cross="+url.QueryEscape(cross.URL))
	r := mustList(t, s, ListOptions{Limit: 100})
	if len(r.SkippedFrames) > 0 {
		t.Fatalf("skipped: %+v", r.SkippedFrames)
	}
	if _, err := s.ShowOverlay(testCtx(t), ""); err != nil {
		t.Fatal(err)
	}
	check := func(t *testing.T, ownNumber int, ownSeen bool) {
		t.Helper()
		var st badgeState
		for end := time.Now().Add(2 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			st = badgeState{}
			if err := json.Unmarshal([]byte(evalText(t, s, badgeJS)), &st); err != nil {
				t.Fatal(err)
			}
			if len(st.Badges) > 0 || time.Now().After(end) {
				break
			}
		}
		if len(st.Badges) == 0 {
			t.Fatal("no badge on screen")
		}
		own := false
		for _, b := range st.Badges {
			if b.Rect[0] < st.Focus[2] && b.Rect[2] > st.Focus[0] && b.Rect[1] < st.Focus[3] && b.Rect[3] > st.Focus[1] {
				t.Errorf("badge %s at %v covers the focused element at %v", b.N, b.Rect, st.Focus)
			}
			own = own || b.N == strconv.Itoa(ownNumber)
		}
		if ownSeen && !own {
			t.Errorf("the focused element's own number %d is not on screen: %+v", ownNumber, st.Badges)
		}
	}
	for _, tc := range cases {
		t.Run(tc.field, func(t *testing.T) {
			n := numberOf(t, r, tc.field)
			if _, err := s.Act(testCtx(t), ActOptions{Index: n, Action: "type", Text: "abc"}); err != nil {
				t.Fatal(err)
			}
			check(t, n, tc.ownSeen)
		})
	}
	t.Run("cross-site frame", func(t *testing.T) {
		var n int
		for _, it := range r.Items {
			if it.Name == "Inner focus field" && it.Frame != r.Items[numberOf(t, r, "Inner focus field")-1].Frame {
				n = it.Number
			}
		}
		if n == 0 {
			t.Fatalf("the cross-site frame's field is not listed: %s", names(r))
		}
		if _, err := s.Act(testCtx(t), ActOptions{Index: n, Action: "type", Text: "xyz"}); err != nil {
			t.Fatal(err)
		}
		// The top document sees only the <iframe> as focused: no badge may
		// lie over it.
		check(t, n, false)
	})
}

// BenchmarkClickListenerMarks measures what marks.js costs a page: one
// addEventListener on an element of the document ("click", which marks it,
// and "keydown", which only passes through), with Waymark's wrapper (a
// Waymark session's page) and without it (a plain page of the same browser),
// in ns per call as the page's own clock reads it.
func BenchmarkClickListenerMarks(b *testing.B) {
	const js = `(n) => {
		const box = document.body.appendChild(document.createElement('div'));
		const els = [];
		for (let i = 0; i < n; i++) els.push(box.appendChild(document.createElement('div')));
		const f = () => {};
		const t0 = performance.now();
		for (const el of els) el.addEventListener('click', f);
		const t1 = performance.now();
		for (const el of els) el.addEventListener('keydown', f);
		const t2 = performance.now();
		box.remove();
		return [(t1 - t0) * 1e6 / n, (t2 - t1) * 1e6 / n];
	}`
	run := func(b *testing.B, p *rod.Page) {
		var click, other float64
		for i := 0; i < b.N; i++ {
			res, err := p.Eval(js, 20000)
			if err != nil {
				b.Fatal(err)
			}
			click += res.Value.Arr()[0].Num()
			other += res.Value.Arr()[1].Num()
		}
		b.ReportMetric(click/float64(b.N), "page-ns/click-listener")
		b.ReportMetric(other/float64(b.N), "page-ns/other-listener")
	}
	b.Run("marked", func(b *testing.B) {
		s := newSession(b)
		open(b, s, "/ids.html")
		run(b, s.Page().Context(testCtx(b)))
	})
	b.Run("plain", func(b *testing.B) {
		br := rod.New().ControlURL(testProc.ControlURL()).Context(testCtx(b))
		if err := br.Connect(); err != nil {
			b.Fatal(err)
		}
		inc, err := br.Incognito()
		if err != nil {
			b.Fatal(err)
		}
		defer func() { _ = proto.TargetDisposeBrowserContext{BrowserContextID: inc.BrowserContextID}.Call(br) }()
		p, err := inc.Page(proto.TargetCreateTarget{URL: site.URL + "/ids.html"})
		if err != nil {
			b.Fatal(err)
		}
		if err := p.WaitLoad(); err != nil {
			b.Fatal(err)
		}
		run(b, p)
	})
}
