package browser

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

// PageState describes the page after a navigation or an action: where it is
// and whether it settled, in words a model can check its goal against.
type PageState struct {
	URL         string `json:"url"`
	Title       string `json:"title"`
	Status      int    `json:"http_status,omitempty"`
	Loaded      bool   `json:"loaded"`
	NetworkIdle bool   `json:"network_idle"`
	Navigated   bool   `json:"navigated,omitempty"`
	// Focused is the element that had the focus when the page was left, given
	// it again on coming back or forward to the page.
	Focused *Described `json:"focused,omitempty"`
	Dialogs []string   `json:"dialogs,omitempty"`
	// Dialog is a JavaScript dialog the page opened while loading; it waits
	// for the user (the wait for the page ends when it opens).
	Dialog *Dialog `json:"dialog_open,omitempty"`
	Note   string  `json:"note,omitempty"`
	// Banners says which consent banners the hook closed after this action.
	Banners *BannerReport `json:"banners,omitempty"`
}

// pageInfo is the overlay's "info" answer.
type pageInfo struct {
	URL    string     `json:"url"`
	Title  string     `json:"title"`
	Ready  string     `json:"ready"`
	Status int        `json:"status"`
	Sx     float64    `json:"sx"`
	Sy     float64    `json:"sy"`
	Sw     float64    `json:"sw"`
	Sh     float64    `json:"sh"`
	Vw     float64    `json:"vw"`
	Vh     float64    `json:"vh"`
	Active *Described `json:"active"`
}

// Described names an element briefly: what has the focus, what covers a target.
type Described struct {
	Role string `json:"role"`
	Name string `json:"name"`
	Tag  string `json:"tag"`
	ID   string `json:"id,omitempty"`
}

func (s *Session) info(ctx context.Context) (*pageInfo, error) {
	w, err := s.topWorld(ctx)
	if err != nil {
		return nil, err
	}
	var pi pageInfo
	if err := s.call(ctx, w, "info", nil, &pi); err != nil {
		return nil, err
	}
	return &pi, nil
}

func (s *Session) markStale(reason string) {
	if n := s.current.Load(); n != nil {
		n.markStale(reason)
	}
}

// waitLoaded waits until a navigation that started after before has committed
// (or was given up) and the document finished loading.
func (s *Session) waitLoaded(ctx context.Context, before evSnap) bool {
	e := s.ev
	e.waitFor(ctx, 100*time.Millisecond, func() bool {
		return e.navCommitted > before.navCommitted || e.stops > before.stops
	})
	for ctx.Err() == nil {
		e.mu.Lock()
		loaded := e.loads > before.loads
		ch := e.changed
		e.mu.Unlock()
		if loaded {
			return true
		}
		ictx, cancel := context.WithTimeout(ctx, time.Second)
		ready, err := s.readyState(ictx)
		cancel()
		if err == nil && ready == "complete" {
			return true
		}
		select {
		case <-ch:
		case <-time.After(100 * time.Millisecond):
		case <-ctx.Done():
		}
	}
	return false
}

// readyState is the top document's document.readyState, read in the
// overlay's world without installing the overlay: while the document is
// still loading, that script would only slow its loading down.
func (s *Session) readyState(ctx context.Context) (string, error) {
	w, err := s.topWorld(ctx)
	if err != nil {
		return "", err
	}
	res, err := proto.RuntimeEvaluate{Expression: "document.readyState", ContextID: w.ctxID, ReturnByValue: true}.Call(w.p.Context(ctx))
	if err != nil {
		return "", err
	}
	if res.ExceptionDetails != nil {
		return "", jsError(res.ExceptionDetails)
	}
	return res.Result.Value.Str(), nil
}

// settleQuiet is how long the network must be silent after an input before
// its result is reported; a navigation settles by evidence instead
// (settleLoaded); browser_wait's network_idle waits for networkQuiet.
const (
	settleQuiet  = 250 * time.Millisecond
	networkQuiet = 500 * time.Millisecond
	navGrace     = 30 * time.Millisecond // for a page that does not answer a turn
	// timersMax caps the wait for timers an input's handlers set (marks.js
	// counts those of up to 100 ms).
	timersMax = 120 * time.Millisecond
)

// pageTurn waits for one turn of the top page's event loop (a zero-delay
// timer in the overlay's world, after those the page's handlers set) and for
// the short timers the input's handlers set (marks.js), at most timersMax;
// false when the page did not answer within ctx.
func (s *Session) pageTurn(ctx context.Context) bool {
	w, err := s.world(ctx, s.page.FrameID)
	if err != nil {
		return false
	}
	return s.call(ctx, w, "turn", map[string]any{"max": timersMax.Milliseconds()}, nil) == nil
}

// settle waits for what an input may have started: a navigation (its commit,
// load and network idle) or requests (network idle), within NavigationTimeout.
// When it started either, it then waits for the page's DOM and layout to stop
// changing (what search results or a filter bring is drawn after their
// requests end); changing says they had not stopped within domQuietMax.
// With look (Enter, which submits) it waits for the DOM in any case: the
// request the key started may not have been reported yet.
func (s *Session) settle(ctx context.Context, before evSnap, look bool) (navigated, idle, changing bool) {
	cctx, cancel := context.WithTimeout(ctx, s.opts.NavigationTimeout)
	defer cancel()
	e := s.ev
	started := func() bool {
		return e.navRequested > before.navRequested || e.navCommitted > before.navCommitted
	}
	gctx, gcancel := context.WithTimeout(cctx, timersMax+navGrace)
	if s.pageTurn(gctx) {
		// The page has run what its input handlers queued: any navigation
		// they asked for is announced already (events come before the answer
		// on the session); a moment for our listener to count it.
		tctx, tcancel := context.WithTimeout(gctx, 5*time.Millisecond)
		e.waitFor(tctx, 5*time.Millisecond, started)
		tcancel()
	} else {
		ictx, icancel := context.WithTimeout(cctx, navGrace)
		e.waitFor(ictx, 50*time.Millisecond, started)
		icancel()
	}
	gcancel()
	idle = e.waitIdle(cctx, settleQuiet)
	e.mu.Lock()
	navigated = started()
	usedNet := e.lastNet.After(before.lastNet)
	e.mu.Unlock()
	quiet := true
	if navigated {
		s.waitLoaded(cctx, before)
		idle, quiet = s.settleLoaded(cctx)
	} else if (usedNet || look) && e.pendingDialog() == nil {
		quiet = s.pageQuiet(cctx)
		e.mu.Lock()
		usedNet = e.lastNet.After(before.lastNet)
		e.mu.Unlock()
		if usedNet && quiet {
			// Requests reported during the look: what they bring comes after.
			idle = e.waitIdle(cctx, settleQuiet)
			quiet = s.pageQuiet(cctx)
		}
	}
	return navigated, idle, !quiet
}

// stillChanging is the note of an input after which the page kept changing.
const stillChanging = "The page is still changing (it may still be loading results); list again in a moment to hear all of it."

// Evidence that a loaded page has settled (settleLoaded): the DOM and layout
// unchanged for domQuiet, measured in the page, each look at most domQuietMax.
const (
	domQuiet    = 50 * time.Millisecond
	domQuietMax = 500 * time.Millisecond
)

// netSettled reports whether nothing that matters is in flight: no counted
// request (images, fonts, media, sockets and requests older than longRequest
// do not count) in the first strictFor after since, then at most
// idleAllowance (a page that polls its server never goes idle). e.mu is held.
func (e *pageEvents) netSettled(since time.Time) bool {
	now := time.Now()
	busy := 0
	for _, t := range e.inflight {
		if now.Sub(t) < longRequest {
			busy++
		}
	}
	if now.Sub(since) > strictFor {
		return busy <= idleAllowance
	}
	return busy == 0
}

// settleLoaded waits, after the load event, until the page is settled by
// evidence rather than for a fixed window: no request that matters in flight
// (netSettled), then the page's own report that its DOM and layout stayed
// unchanged for domQuiet, and still nothing in flight after that (else the
// responses may change the page again: once more). It reports whether the
// network settled within ctx, and whether the page's DOM went quiet.
func (s *Session) settleLoaded(ctx context.Context) (idle, quiet bool) {
	idle, p := s.settleLoadedPage(ctx)
	return idle, p.Quiet
}

// settleLoadedPage is settleLoaded that also gives settle.js's last answer
// (when the page last changed, where it is); not ok when it did not ask.
func (s *Session) settleLoadedPage(ctx context.Context) (idle bool, p settledPage) {
	e := s.ev
	start := time.Now()
	for {
		if !e.waitFor(ctx, 50*time.Millisecond, func() bool { return e.netSettled(start) }) {
			return false, p
		}
		p = settledPage{Quiet: true}
		if e.pendingDialog() == nil {
			p = s.pageQuietGrowing(ctx, true)
		}
		e.mu.Lock()
		ok := e.netSettled(start)
		e.mu.Unlock()
		if ok || ctx.Err() != nil {
			return ok, p
		}
	}
}

// pageQuiet asks the top document to wait until its DOM and layout have not
// changed for domQuiet (at most domQuietMax); false when they kept changing
// or the page did not answer.
func (s *Session) pageQuiet(ctx context.Context) bool {
	return s.pageQuietGrowing(ctx, false).Quiet
}

// growMax caps the wait for a page that keeps drawing what it was asked
// for: after domQuietMax without quiet, the page is looked at again as long
// as each look saw it gain elements or work (a long task), up to growMax in
// all. Sphinx's search page draws its results one by one, each after
// fetching and parsing a page (366 results for "asyncio", 2 to 11 s on a
// loaded machine); a clock or a spinner gains nothing and is not waited for.
const growMax = 10 * time.Second

// pageQuietGrowing is pageQuietSince, looked at again while the page grows
// or works (results drawn in steps), at most growMax.
func (s *Session) pageQuietGrowing(ctx context.Context, fromLoad bool) settledPage {
	start := time.Now()
	p := s.pageQuietSince(ctx, fromLoad)
	for !p.Quiet && (p.Grew > 0 || p.Busy) && time.Since(start) < growMax && ctx.Err() == nil {
		p = s.pageQuietSince(ctx, false)
	}
	return p
}

// settledPage is settle.js's answer: whether the page went quiet, how long
// ago it last changed, and where it is.
type settledPage struct {
	Quiet  bool    `json:"quiet"`
	Since  float64 `json:"since"` // ms from the last change to the answer
	URL    string  `json:"url"`
	Title  string  `json:"title"`
	Status int     `json:"status"`
	// Scriptless: the document cannot change itself (answered at once).
	Scriptless bool    `json:"scriptless"`
	Waited     float64 `json:"waited"` // ms the page watched itself
	// Grew: elements the document gained during the look; Busy: a long task
	// of the page ran during it.
	Grew int  `json:"grew"`
	Busy bool `json:"busy"`
	at   time.Time
	ok   bool
}

// lastChange is when the page last changed (zero: not known).
func (p settledPage) lastChange() time.Time {
	if !p.ok || p.Since < 0 {
		return time.Time{}
	}
	return p.at.Add(-time.Duration(p.Since * float64(time.Millisecond)))
}

// pageQuietSince asks the top document (settle.js) to wait until its DOM and
// layout have not changed for domQuiet (at most domQuietMax), and where it
// is, in one call (no overlay needed). With fromLoad (after a navigation) the
// quiet time counts from the document's last change since it began (or the
// page's last request, if that started or ended later), so a page already
// quiet is answered at once; a document that cannot change itself (no
// script, frame, plugin, handler attribute or shadow root) is quiet at once.
func (s *Session) pageQuietSince(ctx context.Context, fromLoad bool) settledPage {
	qctx, cancel := context.WithTimeout(ctx, domQuietMax+time.Second)
	defer cancel()
	w, err := s.topWorld(qctx)
	if err != nil {
		return settledPage{}
	}
	var r settledPage
	asked := map[string]any{"quiet": domQuiet.Milliseconds(), "max": domQuietMax.Milliseconds(), "fromLoad": fromLoad}
	if fromLoad {
		// The page's last request started or ended this long ago: what its
		// answer brings comes after, so the quiet time counts from it too.
		s.ev.mu.Lock()
		asked["netAgo"] = time.Since(s.ev.lastNet).Milliseconds()
		s.ev.mu.Unlock()
	}
	if err := s.recCall(qctx, w, "settled", asked, &r); err != nil {
		// A page whose thread was too busy to answer the look in time is
		// working, not quiet.
		return settledPage{Busy: qctx.Err() != nil && ctx.Err() == nil}
	}
	r.at, r.ok = time.Now(), true
	return r
}

// afterNav waits for a navigation the session started and describes the
// page. With a banner trigger, the banner hook runs while the page settles
// (its first look at the loaded page needs no quiet DOM: what a rule closes
// is waited for by the hook itself), and once more after the settle when the
// page changed after the hook had begun (what it drew late may be a banner).
func (s *Session) afterNav(ctx context.Context, before evSnap, sameDocument bool, bannerTrigger string) *PageState {
	cctx, cancel := context.WithTimeout(ctx, s.opts.NavigationTimeout)
	defer cancel()
	// A dialog freezes the page: the wait for it ends at once, and the
	// result says what the page asks (a page that opens alert() as it loads
	// left the terminal silent for minutes, issue 32 point 9).
	cctx, stopDialogWatch := s.ev.untilDialog(cctx)
	defer stopDialogWatch()
	st := &PageState{Navigated: true}
	if sameDocument {
		st.Loaded = true
	} else {
		st.Loaded = s.waitLoaded(cctx, before)
	}
	if d := s.ev.pendingDialog(); d != nil {
		// The page asks before it is left (the step waits for the answer)
		// or the new one asked as it loaded.
		return s.asked(ctx, st, d)
	}
	s.markStale("navigation")
	// The numbering overlay goes into the loaded document while it settles:
	// the first list after a navigation then finds it there.
	defer s.warmOverlay(cctx)()
	var hook chan *BannerReport
	var hookStart time.Time
	if bannerTrigger != "" && !s.opts.Banners.Disabled {
		hook, hookStart = make(chan *BannerReport, 1), time.Now()
		go func() { hook <- s.closeBannersOnly(ctx, bannerTrigger) }()
	}
	idle, p := s.settleLoadedPage(cctx)
	st.NetworkIdle = idle
	if d := s.ev.pendingDialog(); d != nil {
		// Opened after the load (a timer): the page is frozen again.
		return s.asked(ctx, st, d)
	}
	quiet := p.Quiet
	if p.ok && p.URL != "" {
		st.URL, st.Title, st.Status = p.URL, p.Title, p.Status
		st.Dialogs = s.ev.takeDialogs()
	} else {
		s.describe(ctx, st)
	}
	if hook != nil {
		rep := <-hook
		if lc := p.lastChange(); rep.Found == 0 && rep.Closed == 0 && (lc.IsZero() || lc.After(hookStart)) && ctx.Err() == nil {
			// The page changed after the hook's look began: look again.
			rep = s.closeBannersOnly(ctx, bannerTrigger)
		}
		s.renumberAfterBanners(ctx, rep)
		s.bannerHost = hostOf(st.URL)
		st.Banners = worthSaying(rep)
	}
	if !st.Loaded {
		st.Note = fmt.Sprintf("The page was still loading after %s; it may be usable anyway: list or extract to check.", s.opts.NavigationTimeout)
	} else if !st.NetworkIdle {
		st.Note = "The page keeps using the network (normal for live pages); continue when it looks ready."
	} else if !quiet && ctx.Err() == nil {
		st.Note = "The page is still changing; list again in a moment to hear all of it."
	}
	return st
}

// warmOverlay installs the numbering overlay in the top document in the
// background and walks the document's first elements there without marking
// anything (overlay.js: warm), and returns the wait for it to finish.
// Installing it was half of a small page's first list after a navigation,
// and the first walk in a new document twice a later one (its code compiled
// on first use, the page's layout and hit tests worked out; issue 33 point
// 14); done while the page settles, it costs the navigation nothing that can
// be seen. Neither starts an observer or leaves a mark (observers start with
// the first list), so a document that is replaced meanwhile loses nothing:
// the list installs it again. A dialog ends ctx (afterNav's), so the call
// never waits on a frozen page.
func (s *Session) warmOverlay(ctx context.Context) (wait func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		if w, err := s.topWorld(ctx); err == nil {
			_ = s.call(ctx, w, "warm", nil, nil)
		}
	}()
	return func() { <-done }
}

func (s *Session) describe(ctx context.Context, st *PageState) {
	if pi, err := s.info(ctx); err == nil {
		st.URL, st.Title, st.Status = pi.URL, pi.Title, pi.Status
	}
	st.Dialogs = s.ev.takeDialogs()
}

// Navigate opens an http, https or file URL in the session's page and waits
// for it to load and for the network to be idle (capped by NavigationTimeout).
//
// An address without a scheme, or a loopback one, is tried over the other
// scheme too when the first cannot connect (navCandidates): "127.0.0.1:8101/x"
// and "localhost:3000" open over http first, "example.org" over https first.
func (s *Session) Navigate(ctx context.Context, rawURL string) (*PageState, error) {
	cands, err := navCandidates(rawURL)
	if err != nil {
		return nil, err
	}
	ctx, unlock, err := s.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	var st *PageState
	var first *navFailed
	for _, u := range cands {
		st, err = s.navigate(ctx, u)
		var nf *navFailed
		if err == nil || !errors.As(err, &nf) || !noServerThere(nf.text) || ctx.Err() != nil {
			break
		}
		if first == nil {
			first = nf
		}
	}
	if err != nil {
		var nf *navFailed
		if errors.As(err, &nf) {
			// Said plainly, once: "Nothing answers at localhost:8699."
			return nil, &NavError{URL: nf.url, Code: nf.text}
		}
		return nil, err
	}
	if first != nil {
		fell := fmt.Sprintf("%s could not be opened (%s), so %s was opened instead.", first.url, first.text, st.URL)
		if strings.HasPrefix(st.URL, "http:") && !loopbackHost(hostOf(st.URL)) {
			fell += " The connection is not encrypted: do not type passwords here."
		}
		st.Note = joinNote(fell, st.Note)
	}
	return st, nil
}

// navFailed is a navigation the browser could not complete (its net::ERR_…).
type navFailed struct{ url, text string }

func (e *navFailed) Error() string { return (&NavError{URL: e.url, Code: e.text}).Error() }

// NavError is an address that could not be opened, said plainly: Host is
// the address as the user would say it (no scheme), Code the browser's own
// error (net::ERR_CONNECTION_REFUSED), for logs and for doors that say it in
// another language.
type NavError struct {
	URL, Code string
}

// Host is the site's address without its scheme ("localhost:8699").
func (e *NavError) Host() string {
	if u, err := url.Parse(e.URL); err == nil && u.Host != "" {
		return u.Host
	}
	return e.URL
}

// Kind is what went wrong, in one word: refused (nothing listens there),
// unknown (no such name), offline, timeout, or other; read from Chromium's
// net::ERR_ code (foreign: its only identity).
func (e *NavError) Kind() string {
	switch {
	case strings.Contains(e.Code, "ERR_CONNECTION_REFUSED"), strings.Contains(e.Code, "ERR_ADDRESS_UNREACHABLE"), strings.Contains(e.Code, "ERR_EMPTY_RESPONSE"),
		strings.Contains(e.Code, "ERR_CONNECTION_RESET"), strings.Contains(e.Code, "ERR_CONNECTION_CLOSED"), strings.Contains(e.Code, "ERR_SSL_PROTOCOL_ERROR"):
		return "refused"
	case strings.Contains(e.Code, "ERR_NAME_NOT_RESOLVED"):
		return "unknown"
	case strings.Contains(e.Code, "ERR_INTERNET_DISCONNECTED"):
		return "offline"
	case strings.Contains(e.Code, "TIMED_OUT"):
		return "timeout"
	}
	return "other"
}

func (e *NavError) Error() string {
	switch e.Kind() {
	case "refused":
		return fmt.Sprintf("Nothing answers at %s.", e.Host())
	case "unknown":
		return fmt.Sprintf("There is no site called %s: the name is not known.", e.Host())
	case "offline":
		return "This computer is not connected to a network."
	case "timeout":
		return fmt.Sprintf("%s did not answer in time.", e.Host())
	}
	return fmt.Sprintf("Could not open %s (%s).", e.Host(), e.Reason())
}

// Reason is the browser's error in words: net::ERR_CERT_AUTHORITY_INVALID
// is "cert authority invalid".
func (e *NavError) Reason() string {
	return strings.ToLower(strings.ReplaceAll(strings.TrimPrefix(strings.TrimPrefix(e.Code, "net::"), "ERR_"), "_", " "))
}

// noServerThere: the errors that mean nothing answers that scheme at that
// address (no TLS on a plain-http port, nothing listening), after which the
// other scheme is worth a try; never a certificate error, which means an
// https server is there and must not be bypassed.
func noServerThere(text string) bool {
	for _, e := range []string{"ERR_SSL_PROTOCOL_ERROR", "ERR_SSL_VERSION_OR_CIPHER_MISMATCH", "ERR_CONNECTION_REFUSED",
		"ERR_CONNECTION_RESET", "ERR_CONNECTION_CLOSED", "ERR_EMPTY_RESPONSE", "ERR_CONNECTION_TIMED_OUT", "ERR_INVALID_HTTP_RESPONSE"} {
		if strings.Contains(text, e) {
			return true
		}
	}
	return false
}

// loopbackHost: localhost, *.localhost, 127.0.0.0/8 and ::1.
func loopbackHost(h string) bool {
	h = strings.ToLower(strings.Trim(h, "[]"))
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// navCandidates returns the addresses to try, in order, for what was asked
// (checked by checkURL): an address given without a scheme is tried over
// https then http, a loopback one over http then https; an explicit https
// address on loopback falls back to http (nothing leaves the machine); any
// other explicit scheme is tried as given only.
func navCandidates(raw string) ([]string, error) {
	u, err := checkURL(raw)
	if err != nil {
		return nil, err
	}
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") {
		return []string{u}, nil
	}
	t := strings.ToLower(strings.TrimSpace(raw))
	schemeless := !strings.Contains(t, "://") && !strings.HasPrefix(t, "file:")
	local := loopbackHost(p.Hostname())
	other := *p
	switch {
	case p.Scheme == "https" && (schemeless || local):
		other.Scheme = "http"
	case p.Scheme == "http" && schemeless:
		other.Scheme = "https"
	default:
		return []string{u}, nil
	}
	return []string{u, other.String()}, nil
}

// navigate opens the checked URL u in the current page; the lock is held.
func (s *Session) navigate(ctx context.Context, u string) (*PageState, error) {
	before := s.ev.snapshot()
	nctx, cancel := context.WithTimeout(ctx, s.opts.NavigationTimeout)
	defer cancel()
	var res *proto.PageNavigateResult
	st, err := s.leave(ctx, nctx, func(c context.Context) (err error) {
		res, err = proto.PageNavigate{URL: u}.Call(s.page.Context(c))
		return err
	})
	if st != nil {
		return st, nil
	}
	if err != nil {
		if errors.Is(nctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil {
			return nil, fail(KindNavSlow, u, s.opts.NavigationTimeout)
		}
		return nil, failWith(KindOpenFailed, err, u)
	}
	if res.ErrorText != "" {
		return nil, &navFailed{url: u, text: res.ErrorText}
	}
	return s.afterNav(ctx, before, res.LoaderID == "", "navigate"), nil
}

// leave runs call, a step that leaves the page (go to, back, forward,
// reload), within nctx. A page that asks before it is left (beforeunload)
// holds the step until the question is answered: the question is returned
// at once (a non-nil state), as the page's other questions are (the step
// waited out its time in silence before). Answered OK (AnswerDialog), the
// browser goes on with the step; Cancel stays on the page as it was.
func (s *Session) leave(ctx, nctx context.Context, call func(context.Context) error) (*PageState, error) {
	dctx, stopDialogWatch := s.ev.untilDialog(nctx)
	defer stopDialogWatch()
	err := call(dctx)
	if d := s.ev.pendingDialog(); err != nil && d != nil {
		return s.asked(ctx, &PageState{}, d), nil
	}
	return nil, err
}

// asked is st when the page waits with dialog d: where it is and what it
// asks. Until the page is left, its numbering still holds: a page asking
// before it is left (beforeunload) stays as it was if the user says Cancel,
// and is marked stale when the step goes on (AnswerDialog sees the
// navigation); a dialog of the page being opened means the old one is gone.
func (s *Session) asked(ctx context.Context, st *PageState, d *Dialog) *PageState {
	if d.Type != string(proto.PageDialogTypeBeforeunload) {
		s.markStale("navigation")
	}
	st.URL, st.Dialog = d.URL, d
	st.Note = (&DialogError{Dialog: *d}).Error()
	// The tab's title is the browser's: the page itself is frozen.
	ictx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if info, err := s.page.Context(ictx).Info(); err == nil {
		st.Title = info.Title
	}
	return st
}

// Back goes one step back in the tab's history.
func (s *Session) Back(ctx context.Context) (*PageState, error) { return s.history(ctx, -1) }

// Forward goes one step forward in the tab's history.
func (s *Session) Forward(ctx context.Context) (*PageState, error) { return s.history(ctx, +1) }

func (s *Session) history(ctx context.Context, delta int) (*PageState, error) {
	ctx, unlock, err := s.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	p := s.page.Context(ctx)
	h, err := proto.PageGetNavigationHistory{}.Call(p)
	if err != nil {
		return nil, err
	}
	i := h.CurrentIndex + delta
	if i < 0 || i >= len(h.Entries) {
		if delta < 0 {
			return nil, fail(KindNoBack)
		}
		return nil, fail(KindNoForward)
	}
	before := s.ev.snapshot()
	nctx, cancel := context.WithTimeout(ctx, s.opts.NavigationTimeout)
	defer cancel()
	st, err := s.leave(ctx, nctx, func(c context.Context) error {
		return proto.PageNavigateToHistoryEntry{EntryID: h.Entries[i].ID}.Call(s.page.Context(c))
	})
	if st != nil || err != nil {
		return st, err
	}
	st = s.afterNav(ctx, before, false, "")
	if st.Dialog == nil {
		st.Focused = s.refocus(ctx, st.URL)
	}
	return st, nil
}

// focusMark is the element a page was left from (the last one acted on), to
// give it the focus again on coming back: by its data-blind-id when the page
// comes back whole (the back-forward cache), else by its tag, name and link.
type focusMark struct {
	ID, Tag, Name, Href string
}

// markFocus remembers it as the element the page at url was last acted on;
// the session lock is held.
func (s *Session) markFocus(url string, it *Item) {
	if it == nil || it.Frame != "" || url == "" {
		return
	}
	if s.focusMarks == nil {
		s.focusMarks = map[string]focusMark{}
	}
	s.focusMarks[noFragment(url)] = focusMark{ID: it.ID, Tag: it.Tag, Name: it.Name, Href: it.Href}
}

const refocusJS = `function(m) {
	const norm = s => (s == null ? '' : String(s)).replace(/[\s\u00a0\u200b]+/g, ' ').trim();
	let el = m.id ? document.querySelector('[data-blind-id="' + CSS.escape(m.id) + '"]') : null;
	if (!el && m.tag) {
		for (const c of document.getElementsByTagName(m.tag)) {
			if (m.href && c.href !== m.href) continue;
			if (m.name && !norm(c.innerText || c.textContent || c.getAttribute('aria-label') || c.value).startsWith(m.name.slice(0, 40))) continue;
			el = c;
			break;
		}
	}
	if (!el) return JSON.stringify(null);
	el.focus({ preventScroll: false });
	if (document.activeElement !== el) return JSON.stringify(null);
	return JSON.stringify({ name: m.name, tag: el.tagName.toLowerCase() });
}`

// refocus gives the focus back to the element the page at url was left
// from, and says which; nil when there is none or it is gone.
func (s *Session) refocus(ctx context.Context, url string) *Described {
	m, ok := s.focusMarks[noFragment(url)]
	if !ok {
		return nil
	}
	w, err := s.topWorld(ctx)
	if err != nil {
		return nil
	}
	var got *struct {
		Name string `json:"name"`
		Tag  string `json:"tag"`
	}
	if err := s.evalIn(ctx, w, refocusJS, map[string]any{"id": m.ID, "tag": m.Tag, "name": m.Name, "href": m.Href}, &got); err != nil || got == nil {
		return nil
	}
	role := "link"
	if got.Tag != "a" {
		role = got.Tag
	}
	return &Described{Role: role, Name: got.Name, Tag: got.Tag}
}

// Reload reloads the page.
func (s *Session) Reload(ctx context.Context) (*PageState, error) {
	ctx, unlock, err := s.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	before := s.ev.snapshot()
	nctx, cancel := context.WithTimeout(ctx, s.opts.NavigationTimeout)
	defer cancel()
	st, err := s.leave(ctx, nctx, func(c context.Context) error {
		return proto.PageReload{}.Call(s.page.Context(c))
	})
	if st != nil || err != nil {
		return st, err
	}
	return s.afterNav(ctx, before, false, "reload"), nil
}

// WaitOptions say what to wait for. Ms, NetworkIdle and State (load,
// domcontentloaded, network_idle) are what the model may use. Selector, with
// State attached, visible, hidden or detached, is for host code only: the
// browser_wait tool does not accept it, because selectors never come from the
// model (SPEC §5).
type WaitOptions struct {
	Ms          int
	NetworkIdle bool
	State       string
	Selector    string
	Timeout     time.Duration // for Selector and State; default NavigationTimeout
}

// WaitResult reports what the wait saw.
type WaitResult struct {
	WaitedMs       int64  `json:"waited_ms"`
	NetworkIdle    *bool  `json:"network_idle,omitempty"`
	ReadyState     string `json:"ready_state,omitempty"`
	Matched        *bool  `json:"matched,omitempty"`
	URL            string `json:"url"`
	Title          string `json:"title"`
	NumberingStale bool   `json:"numbering_stale,omitempty"`
}

// MaxWaitMs bounds a plain pause.
const MaxWaitMs = 30000

// norm checks the options and fills in what was left out (timeout def).
func (o *WaitOptions) norm(def time.Duration) error {
	if o.Ms < 0 || o.Ms > MaxWaitMs {
		return invalid("ms must be 0..%d", MaxWaitMs)
	}
	switch o.State {
	case "", "load", "domcontentloaded", "network_idle":
	case "attached", "visible", "hidden", "detached":
		if o.Selector == "" {
			return invalid("state %q needs a selector (host code only)", o.State)
		}
	default:
		return invalid("state %q: use load, domcontentloaded or network_idle", o.State)
	}
	if o.Selector != "" && o.State == "" {
		o.State = "visible"
	}
	if o.Timeout <= 0 {
		o.Timeout = def
	}
	if o.Ms == 0 && !o.NetworkIdle && o.State == "" {
		o.State, o.NetworkIdle = "load", true
	}
	return nil
}

// Wait pauses and/or waits for the page to load, the network to be idle or
// (host code) a selector to reach a state. With nothing asked it waits for
// load and network idle.
func (s *Session) Wait(ctx context.Context, o WaitOptions) (*WaitResult, error) {
	if err := o.norm(s.opts.NavigationTimeout); err != nil {
		return nil, err
	}
	ctx, unlock, err := s.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	start := time.Now()
	if o.Ms > 0 {
		t := time.NewTimer(time.Duration(o.Ms) * time.Millisecond)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		}
	}
	r := &WaitResult{}
	cctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	switch o.State {
	case "load", "domcontentloaded":
		s.waitReady(cctx, o.State)
	case "network_idle":
		o.NetworkIdle = true
	case "attached", "visible", "hidden", "detached":
		matched, err := s.waitSelector(cctx, o.Selector, o.State)
		if err != nil {
			return nil, err
		}
		r.Matched = &matched
	}
	if o.NetworkIdle {
		idle := s.ev.waitIdle(cctx, networkQuiet)
		r.NetworkIdle = &idle
	}
	if pi, err := s.info(ctx); err == nil {
		r.URL, r.Title, r.ReadyState = pi.URL, pi.Title, pi.Ready
	}
	if s.current.Load() != nil {
		r.NumberingStale = s.isStale(ctx)
	}
	r.WaitedMs = time.Since(start).Milliseconds()
	return r, nil
}

// waitReady waits (until ctx ends) for the document to be loaded, or
// interactive for state "domcontentloaded".
func (s *Session) waitReady(ctx context.Context, state string) {
	for ctx.Err() == nil {
		pi, err := s.info(ctx)
		if err == nil && (pi.Ready == "complete" || (state == "domcontentloaded" && pi.Ready == "interactive")) {
			return
		}
		sleepCtx(ctx, 100*time.Millisecond)
	}
}

// waitSelector waits (until ctx ends) for the first match of a host code's
// CSS selector to reach state (attached, visible, hidden, detached) and
// reports whether it did; a bad selector is an error.
func (s *Session) waitSelector(ctx context.Context, selector, state string) (bool, error) {
	for ctx.Err() == nil {
		w, err := s.topWorld(ctx)
		if err == nil {
			var st selectorState
			if err := s.call(ctx, w, "selectorState", map[string]any{"selector": selector}, &st); err == nil {
				if st.Error != "" {
					return false, fail(KindInvalid, st.Error)
				}
				if st.is(state) {
					return true, nil
				}
			}
		}
		sleepCtx(ctx, 100*time.Millisecond)
	}
	return false, nil
}

// selectorState is the overlay's answer about a selector's first match.
type selectorState struct {
	Attached bool   `json:"attached"`
	Visible  bool   `json:"visible"`
	Error    string `json:"error"`
}

func (st selectorState) is(state string) bool {
	switch state {
	case "attached":
		return st.Attached
	case "visible":
		return st.Visible
	case "hidden":
		return !st.Visible
	case "detached":
		return !st.Attached
	}
	return false
}

func sleepCtx(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
