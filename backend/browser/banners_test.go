package browser

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// crossFrame is the frame-cross.html fixture with its banner frame on the
// other loopback site (an out-of-process frame).
func crossFrame() string {
	return "/banners/frame-cross.html?src=" + url.QueryEscape(cross.URL+"/banners/frame-inner.html")
}

// leftAfter reads what a banner may leave behind on <main> and <body>:
// inert, aria-hidden and the body's overflow.
func leftAfter(t *testing.T, s *Session) string {
	t.Helper()
	return evalText(t, s, `() => [document.querySelector('main').inert, document.querySelector('main').getAttribute('aria-hidden'), getComputedStyle(document.body).overflow].join(',')`)
}

// bannerTime gives a test of what the banner hook does the time it needs on a
// loaded machine (the most a user may set): under load 15-40 the default 2 s
// ran out before slow pages drew their banners, and those tests failed on
// "ran out" though the hook was right. What the budget itself does is
// TestBannerBudgets', which sets budgets of its own.
func bannerTime(o *Options) { o.Banners.TotalBudget = 10 * time.Second }

func TestBannersClosedByRejecting(t *testing.T) {
	if _, err := consentFiles.ReadFile("autoconsent/compact-rules.json"); err != nil {
		t.Fatal("the autoconsent rules are not installed: run bash build/setup.sh")
	}
	cases := []struct {
		name, path, rule string
		tab              bool // check that Tab moves focus through the page
	}{
		{"known platform", "/banners/cmp.html", "autoconsent:cookieconsent2", false},
		{"generic Russian", "/banners/generic.html", "generic:reject", false},
		{"in a frame", "/banners/iframe.html", "generic:reject", false},
		{"in a frame of another site", crossFrame(), "generic:reject", false},
		{"in a shadow root", "/banners/shadow.html", "generic:reject", false},
		{"modal leaving the page inert", "/banners/modal.html", "generic:reject", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newSession(t, bannerTime, func(o *Options) { o.Logf = t.Logf })
			st := open(t, s, c.path)
			if st.Banners == nil || st.Banners.Closed < 1 {
				t.Fatalf("after navigate: banners %+v", st.Banners)
			}
			if got := evalText(t, s, `() => String(window.choice)`); got != "reject" {
				t.Fatalf("the banner was answered %q, want reject", got)
			}
			if !slices.Contains(st.Banners.Rules, c.rule) {
				t.Errorf("rules %v, want %s", st.Banners.Rules, c.rule)
			}
			// How long the hook may take is TestBannerBudgets' (a time
			// asserted here failed under load, as issue 36 point 10 found).
			// The page is usable: its content is numbered, nothing is left
			// inert, hidden from screen readers or scroll-locked, and no
			// banner button is among the numbers.
			r := mustList(t, s, ListOptions{})
			if r.Total < 1 {
				t.Fatalf("after closing, the page numbers %d elements: %s", r.Total, names(r))
			}
			for _, it := range r.Items {
				if strings.Contains(strings.ToLower(it.Name), "accept") || strings.Contains(it.Name, "Принять") {
					t.Errorf("a banner button is still numbered: %s", names(r))
				}
			}
			if left := leftAfter(t, s); left != "false,,auto" && left != "false,,visible" {
				t.Errorf("left behind: inert,aria-hidden,overflow = %s (fixed %d)", left, st.Banners.LeftoversFixed)
			}
			if c.tab {
				if st.Banners.LeftoversFixed < 3 {
					t.Errorf("leftovers fixed %d, want inert, aria-hidden and the scroll lock at least", st.Banners.LeftoversFixed)
				}
				// Focus went back to the page's content, and although the page's
				// focus trap is still listening, Tab moves on through the page.
				focused := `() => document.activeElement.closest('main') ? document.activeElement.textContent : 'outside main: ' + document.activeElement.tagName`
				for i, want := range []string{"Catalogue", "Search", "Opening hours"} {
					if i > 0 {
						if _, err := s.Press(testCtx(t), "Tab"); err != nil {
							t.Fatal(err)
						}
					}
					if got := evalText(t, s, focused); got != want {
						t.Fatalf("after %d Tabs focus is on %q, want %q", i, got, want)
					}
				}
			}
		})
	}
}

func init() {
	// The consent platform of /banners/cmp.html, its script loaded late: the
	// banner is drawn 800 ms after the load event, when the navigation has
	// long returned and no hook is looking.
	b, err := os.ReadFile("testdata/banners/cmp.html")
	if err != nil {
		panic(err)
	}
	page := strings.Replace(string(b), `<div id="cc--main" style="`, `<div id="cc--main" hidden style="`, 1)
	page = strings.Replace(page, "</script>", "addEventListener('load', () => setTimeout(() => { document.getElementById('cc--main').hidden = false; }, 800));\n</script>", 1)
	extraPages["/banners/cmp-late.html"] = page
}

// A consent platform whose banner appears after the navigation returned is
// still answered (rejected) by autoconsent on its own, with no hook asking:
// autoconsent starts looking shortly after the load event even when the
// hook saw no banner.
func TestConsentPlatformDrawnLateIsRejected(t *testing.T) {
	s := newSession(t, bannerTime)
	st := open(t, s, "/banners/cmp-late.html")
	if st.Banners != nil && st.Banners.Closed != 0 {
		t.Fatalf("something was closed before the banner was drawn: %+v", st.Banners)
	}
	deadline := time.Now().Add(8 * time.Second)
	got := ""
	for time.Now().Before(deadline) {
		if got = evalText(t, s, `() => String(window.choice)`); got != "undefined" {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if got != "reject" {
		t.Fatalf("8 s after the navigation the late banner was answered %q, want reject", got)
	}
}

// Pages without a banner to close: the hook leaves them alone and does not
// wait out its budget (its note says when the budget ran out). How long it
// takes is the browser bench's ("banner hook, page without a banner"): a
// wall-time limit here failed on a busy machine (575 ms against 500).
func TestBannerHookLeavesOtherPagesAlone(t *testing.T) {
	cases := []struct{ name, path string }{
		{"plain form", "/form.html"},
		// The platform is there but its consent was given earlier: the hook
		// must not wait out autoconsent's 5 s popup search.
		{"platform already answered", "/banners/cmp-answered.html"},
		// A sign-in dialog that speaks of consent and cookies is a form.
		{"sign-in dialog", "/banners/signin.html"},
		// An app in a fixed box, cookies mentioned in its footer.
		{"app shell", "/banners/app-shell.html"},
		// 2,700 boxes and cookie links in the footer.
		{"big page", "/banners/many.html"},
	}
	ranOut := func(r *BannerReport) bool { return r != nil && strings.Contains(r.Note, budgetRanOut) }
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newSession(t, bannerTime)
			st := open(t, s, c.path)
			if st.Banners != nil && (st.Banners.Found != 0 || st.Banners.Closed != 0 || ranOut(st.Banners)) {
				t.Fatalf("after navigate: banners %+v, want nothing found, within the budget", st.Banners)
			}
			if got := evalText(t, s, `() => String(window.choice)`); got != "undefined" {
				t.Fatalf("something was clicked: %q", got)
			}
			if st.Banners != nil {
				t.Logf("the hook after navigate took %d ms", st.Banners.Ms)
			}
			rep, err := s.CloseBanners(testCtx(t))
			if err != nil || rep.Found != 0 || rep.Closed != 0 {
				t.Fatalf("close banners: %+v %v", rep, err)
			}
			if ranOut(rep) {
				t.Errorf("the hook waited out its budget on a page with nothing to close: %+v", rep)
			}
			t.Logf("CloseBanners took %d ms", rep.Ms)
			if c.path == "/banners/signin.html" && evalText(t, s, `() => String(!!document.querySelector('[role=dialog] input'))`) != "true" {
				t.Error("the sign-in dialog went away")
			}
		})
	}
}

func TestBannerAcceptOnlyIsLeftByDefault(t *testing.T) {
	s := newSession(t, bannerTime)
	st := open(t, s, "/banners/accept-only.html")
	if st.Banners == nil || st.Banners.Closed != 0 || !strings.Contains(st.Banners.Note, "no reject or close button") {
		t.Fatalf("banners %+v", st.Banners)
	}
	if got := evalText(t, s, `() => String(window.choice)`); got != "undefined" {
		t.Fatalf("the banner was accepted: %q", got)
	}
	s2 := newSession(t, bannerTime, func(o *Options) { o.Banners.AcceptIfOnlyWay = true })
	st = open(t, s2, "/banners/accept-only.html")
	if st.Banners == nil || st.Banners.Closed != 1 || evalText(t, s2, `() => String(window.choice)`) != "accept" {
		t.Fatalf("with AcceptIfOnlyWay: %+v", st.Banners)
	}
}

func TestBannerBudgets(t *testing.T) {
	t.Run("a platform rule that never finishes", func(t *testing.T) {
		// autoconsent knows the platform and waits 10 s for a settings button
		// that never comes: the hook gives up at its budget, accepting nothing.
		s := newSession(t, bannerTime, func(o *Options) { o.Banners.TotalBudget = 1500 * time.Millisecond })
		// On a loaded machine the platform's banner may come after autoconsent
		// stopped looking for it; then the generic rules leave it open (nothing
		// accepted) and the budget is not what was tried: load the page again,
		// three times at most.
		var st *PageState
		var t0 time.Time
		for try := 0; try < 3; try++ {
			t0 = time.Now()
			st = open(t, s, "/banners/cmp-stuck.html")
			if st.Banners == nil || strings.Contains(st.Banners.Note, "budget of 1.5s ran out") || len(st.Banners.Rules) > 0 {
				break
			}
			t.Logf("try %d: the platform rule did not start (%+v)", try+1, st.Banners)
		}
		if st.Banners == nil || !strings.Contains(st.Banners.Note, "budget of 1.5s ran out") {
			t.Fatalf("banners %+v", st.Banners)
		}
		// The budget is kept (with a second's slack for a loaded machine).
		if st.Banners.Ms > 1500+1000 {
			t.Errorf("the hook took %d ms with a 1500 ms budget", st.Banners.Ms)
		}
		if got := evalText(t, s, `() => String(window.choice)`); got != "undefined" {
			t.Errorf("the banner was answered %q", got)
		}
		t.Logf("navigate with a stuck platform: %v, hook %d ms", time.Since(t0), st.Banners.Ms)
	})
	for _, passes := range []int{1, 2, 3} {
		t.Run(fmt.Sprintf("a banner that comes back, %d passes", passes), func(t *testing.T) {
			s := newSession(t, bannerTime, func(o *Options) { o.Banners.Passes = passes })
			st := open(t, s, "/banners/stubborn.html")
			if st.Banners == nil || st.Banners.Passes != passes || st.Banners.Closed != passes {
				t.Fatalf("passes %d: banners %+v", passes, st.Banners)
			}
			if got := evalText(t, s, `() => window.rejects + ',' + String(window.choice)`); got != strconv.Itoa(passes)+",undefined" {
				t.Errorf("passes %d: rejects,choice = %s", passes, got)
			}
		})
	}
}

// A click that brings up a banner closes it and renumbers; a click on a
// cookie control is the user's own move and is left alone.
func TestBannerHookAfterClick(t *testing.T) {
	s := newSession(t, bannerTime)
	open(t, s, "/banners/late.html")
	r := mustList(t, s, ListOptions{})
	res, err := s.Act(testCtx(t), ActOptions{Index: numberOf(t, r, "Show offers"), Action: "click"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Banners == nil || res.Banners.Closed != 1 || res.Banners.Trigger != "click" || res.Banners.Renumbered <= r.Generation || !res.NumberingStale {
		t.Fatalf("after the click: %+v (stale %v, list was %d)", res.Banners, res.NumberingStale, r.Generation)
	}
	if got := evalText(t, s, `() => String(window.choice)`); got != "reject" {
		t.Fatalf("the banner was answered %q", got)
	}
	r = mustList(t, s, ListOptions{})
	res, err = s.Act(testCtx(t), ActOptions{Index: numberOf(t, r, "Cookie settings"), Action: "click"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Banners == nil || res.Banners.Closed != 0 || !strings.Contains(res.Banners.Note, "left as they are") {
		t.Fatalf("after opening cookie settings: %+v", res.Banners)
	}
	if got := evalText(t, s, `() => document.getElementById('prefs').hidden + ',' + window.choice`); got != "false,reject" {
		t.Fatalf("the settings the user opened: hidden,choice = %s", got)
	}
}

// The first numbering on a new domain runs the hook, even when the page got
// there by itself (a redirect, no navigate call).
func TestBannerHookAtFirstListOnNewDomain(t *testing.T) {
	s := newSession(t, bannerTime)
	open(t, s, "/form.html")
	mustList(t, s, ListOptions{}) // the hook already ran for 127.0.0.1
	to := cross.URL + "/banners/generic.html"
	evalText(t, s, `() => { location.href = `+jsString(to)+`; return 'ok'; }`)
	waitForHost(t, s, strings.TrimPrefix(cross.URL, "http://"))
	r := mustList(t, s, ListOptions{})
	if r.Banners == nil || r.Banners.Trigger != "first list on localhost" || r.Banners.Closed != 1 {
		t.Fatalf("first list on the new domain: banners %+v", r.Banners)
	}
	for _, it := range r.Items {
		if it.Name == "Принять все" || it.Name == "Отклонить" {
			t.Fatalf("the closed banner's buttons are numbered: %s", names(r))
		}
	}
	if r2 := mustList(t, s, ListOptions{}); r2.Banners != nil {
		t.Errorf("a second list on the same domain ran the hook again: %+v", r2.Banners)
	}
}

func init() {
	// generic.html on a page that never stops loading: a request starts
	// every 100 ms and takes 300 ms, so every wait for the page runs out.
	b, err := os.ReadFile("testdata/banners/generic.html")
	if err != nil {
		panic(err)
	}
	extraPages["/banners/busy.html"] = strings.Replace(string(b), "</body>",
		"<script>setInterval(() => fetch('/slow?ms=300&t=' + Date.now()), 100);</script>\n</body>", 1)
}

// A page still loading when the first list on its domain looks at it (the
// look is dropped and taken again) has its banners closed all the same:
// under load the first list numbered the banner's buttons, as the page was
// busy at the moment it looked.
func TestBannerHookAtFirstListOnABusyPage(t *testing.T) {
	s := newSession(t, bannerTime)
	open(t, s, "/form.html")
	mustList(t, s, ListOptions{})
	to := cross.URL + "/banners/busy.html"
	evalText(t, s, `() => { location.href = `+jsString(to)+`; return 'ok'; }`)
	waitForHost(t, s, strings.TrimPrefix(cross.URL, "http://"))
	r := mustList(t, s, ListOptions{})
	if r.Banners == nil || r.Banners.Closed != 1 {
		t.Fatalf("first list on a busy page of a new domain: banners %+v", r.Banners)
	}
	for _, it := range r.Items {
		if it.Name == "Принять все" || it.Name == "Отклонить" {
			t.Fatalf("the closed banner's buttons are numbered: %s", names(r))
		}
	}
}

// waitForHost waits until the page has moved to host and loaded.
func waitForHost(t *testing.T, s *Session, host string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		// While the page moves, an evaluation may land in the old document as it
		// goes ("Inspected target navigated or closed"): that is a reason to look
		// again, not a failure.
		res, err := s.Page().Context(testCtx(t)).Eval(`() => document.readyState + ' ' + location.host`)
		if err == nil && res.Value.Str() == "complete "+host {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the page did not move to %s (last: %v, %v)", host, res, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func jsString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

func TestBannersOffAndRenumbering(t *testing.T) {
	s := newSession(t, bannerTime, func(o *Options) { o.Banners.Disabled = true })
	st := open(t, s, "/banners/generic.html")
	if st.Banners != nil || evalText(t, s, `() => String(window.choice)`) != "undefined" {
		t.Fatalf("disabled hook acted: %+v", st.Banners)
	}
	if r := mustList(t, s, ListOptions{}); r.Banners != nil {
		t.Fatalf("disabled hook acted at the first list: %+v", r.Banners)
	}
	rep, err := s.CloseBanners(testCtx(t))
	if err != nil || rep.Closed != 0 || !strings.Contains(rep.Note, "off") || evalText(t, s, `() => String(window.choice)`) != "undefined" {
		t.Fatalf("browser_close_banners with the hook off: %+v %v", rep, err)
	}
	// With the hook on, a numbering active when browser_close_banners closes a
	// banner is replaced by a new one.
	s2 := newSession(t, bannerTime, func(o *Options) { o.Banners.Disabled = true })
	open(t, s2, "/banners/generic.html")
	before := mustList(t, s2, ListOptions{})
	s2.opts.Banners.Disabled = false
	rep, err = s2.CloseBanners(testCtx(t))
	if err != nil || rep.Closed != 1 || rep.Renumbered <= before.Generation {
		t.Fatalf("close banners: %+v %v (list was %d)", rep, err, before.Generation)
	}
	if _, err := s2.Act(testCtx(t), ActOptions{Index: 1, Action: "click"}); err != nil {
		t.Fatalf("acting on the new numbering: %v", err)
	}
}

// autoconsent's eval rules read page globals: they run in each frame's main
// world, which the consent world cannot see.
func TestBannerEvalInFrameMainWorlds(t *testing.T) {
	for _, path := range []string{"/banners/iframe.html", crossFrame()} {
		s := newSession(t, bannerTime, func(o *Options) { o.Banners.Disabled = true })
		open(t, s, path)
		ctx := testCtx(t)
		frames := s.frameIDs(ctx)
		if len(frames) != 2 {
			t.Fatalf("%s: %d frames", path, len(frames))
		}
		if ok, err := s.mainEval(ctx, frames[0], `document.querySelector('main h1') !== null && typeof window.consentFrameReady === 'undefined'`); !ok || err != nil {
			t.Errorf("%s: top frame main world: %v %v", path, ok, err)
		}
		if ok, err := s.mainEval(ctx, frames[1], `window.consentFrameReady === 'yes'`); !ok || err != nil {
			t.Errorf("%s: the frame's main world: %v %v", path, ok, err)
		}
		if ok, err := s.mainEval(ctx, frames[1], `(() => { throw new Error('rule failed') })()`); ok || err == nil {
			t.Errorf("%s: a failing snippet: %v %v", path, ok, err)
		}
	}
}

func TestBannerOptionsAreChecked(t *testing.T) {
	cases := []struct {
		o    BannerOptions
		want string
	}{
		{BannerOptions{Passes: 5}, "banner passes 5: use 1 to 3"},
		{BannerOptions{Passes: -1}, "banner passes -1: use 1 to 3"},
		{BannerOptions{TotalBudget: 20 * time.Millisecond}, "banner total budget 20ms: use 100ms to 10s"},
		{BannerOptions{TotalBudget: time.Minute}, "banner total budget 1m0s: use 100ms to 10s"},
		{BannerOptions{PassBudget: -time.Second}, "banner pass budget -1s: use 100ms to 10s"},
	}
	for _, c := range cases {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		s, err := Launch(ctx, Options{Headless: true, ControlURL: testProc.ControlURL(), Banners: c.o})
		cancel()
		if err == nil {
			_ = s.Close()
			t.Errorf("%+v: accepted", c.o)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.o, err, c.want)
		}
	}
}

func TestToolCloseBanners(t *testing.T) {
	r := newToolRig(t)
	r.ok("browser_navigate", map[string]any{"url": site.URL + "/banners/late.html"})
	r.ok("browser_list_interactives", map[string]any{})
	r.text(`() => { ask(); return 'ok'; }`) // the page shows its banner by itself
	time.Sleep(100 * time.Millisecond)
	data := r.ok("browser_close_banners", map[string]any{})
	for _, k := range []string{"found", "closed", "passes", "rules", "ms", "leftovers_fixed", "renumbered"} {
		if _, ok := data[k]; !ok {
			t.Errorf("no %q in %v", k, data)
		}
	}
	if data["found"] != 1.0 || data["closed"] != 1.0 || data["renumbered"].(float64) < 2 {
		t.Fatalf("browser_close_banners: %v", data)
	}
	if rules, _ := data["rules"].([]any); len(rules) != 1 || rules[0] != "generic:reject" {
		t.Errorf("rules %v", data["rules"])
	}
	if got := r.text(`() => String(window.choice)`); got != "reject" {
		t.Errorf("the banner was answered %q", got)
	}
	data = r.ok("browser_close_banners", map[string]any{})
	if data["found"] != 0.0 || data["closed"] != 0.0 {
		t.Errorf("a second call: %v", data)
	}
}

// BenchmarkBannerHookNoBanner is the banner hook on a page without a banner
// (issue target ≤ 50 ms).
func BenchmarkBannerHookNoBanner(b *testing.B) {
	for _, path := range []string{"/form.html", "/banners/many.html"} {
		b.Run(strings.TrimPrefix(path, "/"), func(b *testing.B) {
			s := newSession(b)
			open(b, s, path)
			ctx := testCtx(b)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				rep, err := s.CloseBanners(ctx)
				if err != nil || rep.Found != 0 {
					b.Fatal(rep, err)
				}
			}
		})
	}
}
