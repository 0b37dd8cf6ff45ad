// Package browser drives a real Chromium for Waymark's accessible browsing
// (SPEC §5): one assistant → one Session → one browser context. It numbers every
// interactive element of the page (and of its frames and open shadow roots),
// draws the numbers as a high-contrast overlay that screen readers never hear,
// and acts strictly by number with real mouse and keyboard input, refusing to
// act on a numbering the page has outgrown.
//
// The in-page half lives in overlay.js. It runs in an isolated JavaScript world
// ("waymark") created through CDP in every frame it numbers, so page scripts
// can neither see nor break it. Site isolation stays on: a cross-site frame
// runs in a process of its own, and the overlay runs there through the
// frame's own CDP session (oopif.go).
package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/launcher/flags"
	"github.com/go-rod/rod/lib/proto"
)

// DefaultBin is where Debian and Ubuntu install Chromium; StartBrowser uses it
// when Options.Bin is empty and it exists, so rod never tries to download a
// browser (Waymark is offline).
const DefaultBin = "/usr/bin/chromium"

// Options configure a Session. The zero value launches a headful Chromium from
// DefaultBin with a throw-away profile.
type Options struct {
	// Headless runs Chromium without a window (tests, servers).
	Headless bool
	// ProfileDir is Chromium's user-data-dir. Empty: a temporary profile that is
	// removed on Close. Set it to keep cookies and logins between runs.
	ProfileDir string
	// Bin is the Chromium executable. Empty: DefaultBin, else one found on PATH;
	// never a download.
	Bin string
	// ControlURL connects to a running browser (ws://… or http://host:port)
	// instead of launching one. The session then works in a browser context of
	// its own and Close disposes that context, never the user's browser.
	ControlURL string
	// ScreenshotDir receives browser_screenshot files (0600, in a folder only
	// the user may enter). Empty: ~/.cache/waymark/screenshots
	// ($XDG_CACHE_HOME/waymark/screenshots).
	ScreenshotDir string
	// StaleThreshold is how many interactive nodes may be added to or removed from
	// the page after a list before the numbering is stale (default 1: any).
	StaleThreshold int
	// NavigationTimeout caps waiting for a page load plus network idle
	// (default 15 s). Reaching it is not an error: the page may still be usable.
	NavigationTimeout time.Duration
	// ActionTimeout caps one tool call (default 45 s).
	ActionTimeout time.Duration
	// WindowWidth and WindowHeight size the window (default 1280×900).
	WindowWidth, WindowHeight int
	// Banners configures the banner hook (on by default).
	Banners BannerOptions
	// Logf receives the session's log lines (steps and counts, never page
	// content); nil: no log.
	Logf func(format string, args ...any)
	// DownloadDir receives downloads (default ~/Downloads/Waymark).
	DownloadDir string
	// DownloadConflict says what happens when a file of that name exists:
	// "rename" (default: "name (1).ext") or "overwrite".
	DownloadConflict string
	// HiddenFromScreenReader keeps a visible Chromium off the accessibility
	// bus (ACCESSIBILITY_ENABLED=0 in its environment): a screen reader
	// neither names its window nor follows its page's focus. The window's
	// browser is so: Chromium activates its window on every mouse press
	// Waymark sends, and the screen reader's focus left Waymark with it
	// (issue 33 point 1).
	HiddenFromScreenReader bool
	// HoldKeyboard, when set, is called right before each mouse press
	// Waymark sends, and what it returns right after the press: Chromium
	// activates its window on a press and takes the X focus for a few
	// milliseconds, and a key typed then went into the page. The window
	// holds the keyboard meanwhile (app/keyboard_gtk.go).
	HoldKeyboard func() (release func())
	// OwnDialogs: a page's alert, confirm and prompt are asked by Waymark
	// alone; the browser never draws its own dialog for them (pagedialog.go).
	// The window sets it: its Chromium is visible, and its dialog took the
	// keyboard and the screen reader's focus. beforeunload stays the
	// browser's.
	OwnDialogs bool
	// ExtraFlags are added to Chromium's command line ("name=value" or "name").
	ExtraFlags []string

	// ownScreenshotDir: ScreenshotDir is Waymark's own folder (the default),
	// kept 0700; a folder the caller chose keeps its mode.
	ownScreenshotDir bool
}

func (o Options) withDefaults() Options {
	if o.StaleThreshold <= 0 {
		o.StaleThreshold = 1
	}
	if o.NavigationTimeout <= 0 {
		o.NavigationTimeout = 15 * time.Second
	}
	if o.ActionTimeout <= 0 {
		o.ActionTimeout = 45 * time.Second
	}
	if o.WindowWidth <= 0 {
		o.WindowWidth = 1280
	}
	if o.WindowHeight <= 0 {
		o.WindowHeight = 900
	}
	if o.DownloadDir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			home = os.TempDir()
		}
		o.DownloadDir = filepath.Join(home, "Downloads", "Waymark")
	}
	if o.DownloadConflict == "" {
		o.DownloadConflict = ConflictRename
	}
	if o.ScreenshotDir == "" {
		o.ScreenshotDir, o.ownScreenshotDir = defaultScreenshotDir(), true
	}
	return o
}

// ErrNoBrowser is returned when no Chromium executable can be found; Waymark
// never downloads one.
var ErrNoBrowser = errors.New("no Chromium executable found (set Options.Bin; Waymark never downloads a browser)")

// FindBin returns the Chromium executable Options would use.
func FindBin(bin string) (string, error) {
	if bin != "" {
		if _, err := os.Stat(bin); err != nil {
			return "", fmt.Errorf("%w: %v", ErrNoBrowser, err)
		}
		return bin, nil
	}
	if _, err := os.Stat(DefaultBin); err == nil {
		return DefaultBin, nil
	}
	if p, ok := launcher.LookPath(); ok {
		return p, nil
	}
	return "", ErrNoBrowser
}

// BrowserProcess is a Chromium launched by Waymark. It is separate from Session
// so that one process can serve several sessions (each in its own browser
// context), as the tests do.
type BrowserProcess struct {
	l           *launcher.Launcher
	controlURL  string
	profile     string
	tempProfile bool
	exited      chan struct{}
	closeOnce   sync.Once
}

// StartBrowser launches Chromium with Waymark's flags: no background
// networking, component updates, sync, first-run UI or QUIC (the machine is
// offline and nothing may leave it); --password-store=basic (never a desktop
// keyring prompt); --no-sandbox only when running as root;
// a profile folder of its own. Site isolation stays on: cross-site frames are
// numbered through their own CDP sessions (oopif.go).
func StartBrowser(ctx context.Context, opts Options) (*BrowserProcess, error) {
	opts = opts.withDefaults()
	bin, err := FindBin(opts.Bin)
	if err != nil {
		return nil, err
	}
	p := &BrowserProcess{exited: make(chan struct{})}
	p.profile = opts.ProfileDir
	if p.profile == "" {
		dir, err := newTempProfile()
		if err != nil {
			return nil, fmt.Errorf("browser profile: %w", err)
		}
		p.profile, p.tempProfile = dir, true
	} else if err := os.MkdirAll(p.profile, 0o700); err != nil {
		return nil, fmt.Errorf("browser profile: %w", err)
	}
	l := chromiumLauncher(ctx, bin, opts, p.profile)
	u, err := l.Launch()
	if err != nil {
		p.removeTemp()
		return nil, fmt.Errorf("launch %s: %w", bin, err)
	}
	p.l, p.controlURL = l, u
	// rod's Cleanup waits for the process and removes the user-data-dir; we keep
	// the wait and do the removal ourselves (never for a user's own profile).
	l.Delete(flags.UserDataDir)
	go func() {
		l.Cleanup()
		close(p.exited)
	}()
	return p, nil
}

// chromiumLauncher is the command line StartBrowser runs (every launch path of
// Waymark's own browser: the window, the CLI, MCP, the bench and the tests).
func chromiumLauncher(ctx context.Context, bin string, opts Options, profile string) *launcher.Launcher {
	l := launcher.New().Context(ctx).Bin(bin).Headless(opts.Headless).UserDataDir(profile).
		Set("disable-background-networking").
		Set("disable-component-update").
		Set("disable-sync").
		Set("no-first-run").
		Set("disable-quic").
		Set("no-default-browser-check").
		Set("disable-domain-reliability").
		Set("no-pings").
		// Never the desktop's keyring: on a GNOME session Chromium would
		// open "Choose password for new keyring" at the first page, and the
		// keys typed next would go into it (issue 32).
		Set("password-store", "basic").
		Set("window-size", fmt.Sprintf("%d,%d", opts.WindowWidth, opts.WindowHeight))
	// rod's defaults turn site isolation off (disable-features=site-per-process,
	// --disable-site-isolation-trials); Waymark keeps it on and numbers
	// cross-site frames through their own sessions (oopif.go).
	l.Delete("disable-site-isolation-trials")
	l.Set("disable-features", "Translate", "TranslateUI", "MediaRouter", "OptimizationHints", "AutofillServerCommunication")
	if os.Geteuid() == 0 {
		l.NoSandbox(true)
	}
	for _, f := range opts.ExtraFlags {
		name, val, has := strings.Cut(strings.TrimLeft(f, "-"), "=")
		if has {
			l.Set(flags.Flag(name), val)
		} else {
			l.Set(flags.Flag(name))
		}
	}
	// Extra flags do not bring the keyring back.
	l.Set("password-store", "basic")
	if opts.HiddenFromScreenReader && !opts.Headless {
		l.Env(hiddenFromScreenReader(os.Environ())...)
	}
	return l
}

// ControlURL is the DevTools websocket of the process, for Options.ControlURL.
func (p *BrowserProcess) ControlURL() string { return p.controlURL }

// Close asks Chromium to quit (so a kept profile is flushed), kills it if it
// has not exited after a few seconds, and removes a temporary profile.
func (p *BrowserProcess) Close() error {
	p.closeOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		if c, err := cdp.StartWithURL(ctx, p.controlURL, nil); err == nil {
			_, _ = c.Call(ctx, "", "Browser.close", nil)
		}
		select {
		case <-p.exited:
		case <-time.After(5 * time.Second):
			p.l.Kill()
			select {
			case <-p.exited:
			case <-time.After(5 * time.Second):
			}
		}
		p.removeTemp()
	})
	return nil
}

func (p *BrowserProcess) removeTemp() {
	if p.tempProfile && p.profile != "" {
		_ = os.RemoveAll(p.profile)
	}
}

// Session is one assistant's browser: one browser context, its current page,
// and the numbering generation counter. Its methods are safe for concurrent
// use but run one at a time (SPEC §5: no parallel tool calls).
type Session struct {
	opts Options

	mu sync.Mutex // one action at a time

	proc    *BrowserProcess
	ws      *cdp.WebSocket
	root    *rod.Browser // the connection
	browser *rod.Browser // the session's browser context
	page    *rod.Page
	ctx     context.Context
	cancel  context.CancelFunc
	ownCtx  bool

	ev       *pageEvents
	evCancel context.CancelFunc
	// evNow is ev, for the event goroutines (pagedialog.go).
	evNow atomic.Pointer[pageEvents]

	// contextID is the session's browser context; tabs are its pages in the
	// order they were first seen (opened by the session or by the site).
	contextID  proto.BrowserBrowserContextID
	tabs       []proto.TargetTargetID
	closedTabs map[proto.TargetTargetID]bool
	tw         *tabWatch // Target events of the context (tabs.go)

	gen     int64
	walks   int64 // how many times the page was walked to number it (tests)
	nextID  int64 // the next data-blind-id of the session (never reused)
	dl      *downloads
	frames  *oopifs                   // out-of-process frames by frame id
	current atomic.Pointer[numbering] // the last list; read by the event loop
	// focusMarks: the element each page (by address) was last acted on,
	// focused again on coming back to it (session lock held).
	focusMarks map[string]focusMark
	overlay    *overlayState

	consentJS string // the consent world's script (consentSource)
	// consentRules are autoconsent's rules, given to a document when its
	// autoconsent starts (giveRules).
	consentRules json.RawMessage
	bannerHost   string // the host the banner hook last ran on

	closeOnce sync.Once
	closeErr  error

	// dialogRun counts dialogs answered in a row that the page followed at
	// once with another (dialog.go).
	dialogRun int
	// askedSite is the type command that was asked about (a password into a
	// frame of another site, askOtherSite); the same command again goes on.
	askedSite string
	typed     typedSecrets // text typed into password fields (policy.go)
	typedIn   typedFields  // the fields typed into (typed.go)

	// grant is the grant in force for the browser's own requests, guard
	// what stops them (guard.go).
	grant atomic.Pointer[Grant]
	guard *requestGuard
}

type overlayState struct {
	scheme string
}

// Launch starts a Session: it launches Chromium (or connects to
// Options.ControlURL) and opens the session's page.
func Launch(ctx context.Context, opts Options) (*Session, error) {
	opts = opts.withDefaults()
	if opts.DownloadConflict != ConflictRename && opts.DownloadConflict != ConflictOverwrite {
		return nil, fmt.Errorf("download conflict policy %q: use rename or overwrite", opts.DownloadConflict)
	}
	if err := opts.Banners.validate(); err != nil {
		return nil, err
	}
	s := &Session{opts: opts}
	s.consentJS, s.consentRules = consentSource()
	s.ctx, s.cancel = context.WithCancel(context.Background())
	control := opts.ControlURL
	if control == "" {
		p, err := StartBrowser(ctx, opts)
		if err != nil {
			s.cancel()
			return nil, err
		}
		s.proc = p
		control = p.ControlURL()
	} else {
		u, err := launcher.ResolveURL(control)
		if err != nil {
			s.cancel()
			return nil, fmt.Errorf("browser control URL %q: %w", control, err)
		}
		control = u
		s.ownCtx = true
	}
	if err := s.connect(ctx, control); err != nil {
		_ = s.Close()
		return nil, err
	}
	return s, nil
}

func (s *Session) connect(ctx context.Context, control string) error {
	ws := &cdp.WebSocket{}
	dctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := ws.Connect(dctx, control, nil); err != nil {
		return fmt.Errorf("connect to browser: %w", err)
	}
	s.ws = ws
	s.root = rod.New().Client(cdp.New().Start(ws)).Context(s.ctx).NoDefaultDevice()
	if err := s.root.Connect(); err != nil {
		return fmt.Errorf("connect to browser: %w", err)
	}
	s.browser = s.root
	if s.ownCtx {
		b, err := s.root.Incognito()
		if err != nil {
			return fmt.Errorf("create browser context: %w", err)
		}
		s.browser = b
	}
	page, err := s.browser.Page(proto.TargetCreateTarget{})
	if err != nil {
		return fmt.Errorf("open page: %w", err)
	}
	if info, err := (proto.TargetGetTargetInfo{TargetID: page.TargetID}).Call(s.root); err == nil && info.TargetInfo != nil {
		s.contextID = info.TargetInfo.BrowserContextID
	}
	s.tabs = []proto.TargetTargetID{page.TargetID}
	s.watchTabs()
	s.frames = newOOPIFs()
	if err := s.startGuard(ctx); err != nil {
		return err
	}
	if err := s.startDownloads(ctx); err != nil {
		return err
	}
	return s.setPage(page)
}

// setPage makes p the session's current page (its tab): the event follower
// moves to it and any numbering becomes stale. Every page switch goes
// through here.
func (s *Session) setPage(p *rod.Page) error {
	if s.evCancel != nil {
		s.evCancel()
	}
	s.markStale("another tab is now current")
	s.page = p
	if err := (proto.NetworkEnable{}).Call(p); err != nil {
		return fmt.Errorf("enable network events: %w", err)
	}
	// The browser's own refusals (a local file a page tried to open) come
	// as log entries (events.go).
	_ = proto.LogEnable{}.Call(p)
	// Keep the page "focused" even when its window is not, so focus, typing
	// and :focus styles behave while the user works in another window.
	_ = proto.EmulationSetFocusEmulationEnabled{Enabled: true}.Call(p)
	evCtx, cancel := context.WithCancel(s.ctx)
	s.evCancel = cancel
	s.ev = newPageEvents(s)
	s.ev.target = p.TargetID
	s.evNow.Store(s.ev)
	s.ev.start(p.Context(evCtx))
	s.preparePage(p) // marks.js and out-of-process frames, once per page (oopif.go)
	s.installConsent(s.ctx)
	return nil
}

func (s *Session) logf(format string, args ...any) {
	if s.opts.Logf != nil {
		s.opts.Logf(format, args...)
	}
}

// Close ends the session: it closes the page, disposes an own browser context,
// drops the connection and stops a browser it launched. Safe to call twice.
func (s *Session) Close() error {
	s.closeOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		s.resumeOwn(ctx) // no page stays stopped in a dialog
		if s.page != nil {
			_, _ = proto.TargetCloseTarget{TargetID: s.page.TargetID}.Call(s.root.Context(ctx))
		}
		if s.ownCtx && s.browser != nil && s.browser.BrowserContextID != "" {
			_ = proto.TargetDisposeBrowserContext{BrowserContextID: s.browser.BrowserContextID}.Call(s.root.Context(ctx))
		}
		s.cancel()
		s.dropStaging()
		if s.ws != nil {
			_ = s.ws.Close()
		}
		if s.proc != nil {
			s.closeErr = s.proc.Close()
		}
	})
	return s.closeErr
}

// Page is the session's current page, for host code (banners, tabs and
// downloads build on it). Do not navigate it behind the session's back: use
// the session's methods so the numbering knows.
func (s *Session) Page() *rod.Page { return s.page }

// Generation is the number of the last list (0: none yet).
func (s *Session) Generation() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gen
}

// alive reports whether the connection still works (the user may have closed
// the window or the browser may have crashed).
func (s *Session) alive() bool {
	if s.ctx.Err() != nil {
		return false
	}
	if s.ev.pendingDialog() != nil {
		// The page is frozen by a dialog, not gone.
		return true
	}
	if s.currentTabGone() {
		// The page closed its own tab; the next action moves to another.
		return true
	}
	ctx, cancel := context.WithTimeout(s.ctx, 3*time.Second)
	defer cancel()
	_, err := proto.RuntimeEvaluate{Expression: "1", ReturnByValue: true}.Call(s.page.Context(ctx))
	return err == nil
}

// lock serialises actions and bounds one action's time. While a JavaScript
// dialog waits for the user the page is frozen: lock refuses with a
// DialogError (lockDialog is the one way in, to answer it).
func (s *Session) lock(ctx context.Context) (context.Context, func(), error) {
	return s.lockWith(ctx, false)
}

func (s *Session) lockDialog(ctx context.Context) (context.Context, func(), error) {
	return s.lockWith(ctx, true)
}

func (s *Session) lockWith(ctx context.Context, dialogOK bool) (context.Context, func(), error) {
	s.mu.Lock()
	if s.ctx.Err() != nil {
		s.mu.Unlock()
		return nil, nil, ErrSessionClosed
	}
	s.adoptTab(ctx)
	if d := s.ev.pendingDialog(); d != nil && !dialogOK {
		s.mu.Unlock()
		return nil, nil, &DialogError{Dialog: *d}
	}
	s.dl.newCall()
	cctx, cancel := context.WithTimeout(ctx, s.opts.ActionTimeout)
	stop := context.AfterFunc(s.ctx, cancel)
	stopTab := func() {}
	if !dialogOK {
		// Another tab's question may freeze this tab too (one page
		// process): the action ends when it opens (tabdialog.go).
		cctx, stopTab = s.ev.untilTabDialog(cctx)
	}
	return cctx, func() {
		stopTab()
		stop()
		cancel()
		s.mu.Unlock()
	}, nil
}

// Sessions starts one Session on first use and hands the same one to every
// tool call, so registering the browser tools costs nothing until a tool runs.
type Sessions struct {
	opts Options
	mu   sync.Mutex
	s    *Session
	done bool
}

// NewSessions prepares lazy sessions with opts.
func NewSessions(opts Options) *Sessions { return &Sessions{opts: opts} }

// Get returns the session, launching it on first use and again if the
// browser went away (window closed, crash).
func (ss *Sessions) Get(ctx context.Context) (*Session, error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.done {
		return nil, ErrSessionsClosed
	}
	if ss.s != nil && !ss.s.alive() {
		_ = ss.s.Close()
		ss.s = nil
	}
	if ss.s == nil {
		s, err := Launch(ctx, ss.opts)
		if err != nil {
			return nil, err
		}
		ss.s = s
	}
	return ss.s, nil
}

// Current returns the running session without starting one.
func (ss *Sessions) Current() *Session {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.s
}

// Close closes the session, if one was started; later Gets fail.
func (ss *Sessions) Close() error {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.done = true
	if ss.s == nil {
		return nil
	}
	err := ss.s.Close()
	ss.s = nil
	return err
}

// checkURL accepts http, https and file URLs; a bare host ("example.org/x",
// "localhost:8080") becomes https (http for localhost and loopback addresses).
func checkURL(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", fail(KindURLEmpty)
	}
	lower := strings.ToLower(raw)
	if !strings.Contains(raw, "://") && !strings.HasPrefix(lower, "file:") {
		scheme, _, _ := strings.Cut(lower, ":")
		switch scheme {
		case "javascript", "data", "about", "chrome", "blob", "view-source", "mailto", "tel", "ftp", "ws", "wss", "chrome-extension", "devtools":
			return "", fail(KindURLScheme, raw)
		}
		host, _, _ := strings.Cut(raw, "/")
		h, _, _ := strings.Cut(host, ":")
		local := h == "localhost" || strings.HasPrefix(h, "127.") || h == "[::1]"
		if h == "" || strings.ContainsAny(h, " \t@") || (!strings.Contains(h, ".") && !local) {
			return "", fail(KindURLPartial, raw)
		}
		if local {
			raw = "http://" + raw
		} else {
			raw = "https://" + raw
		}
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", failWith(KindURLBad, err, raw)
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		if u.Host == "" {
			return "", fail(KindURLNoHost, raw)
		}
	case "file":
	default:
		return "", fail(KindURLScheme, raw)
	}
	return u.String(), nil
}

type sessionsKey struct{}

// WithSessions returns a context whose browser tool calls run on ss instead
// of the Sessions given to Register: the MCP server gives every MCP session
// its own browser this way (started on first use, closed with the session).
func WithSessions(ctx context.Context, ss *Sessions) context.Context {
	return context.WithValue(ctx, sessionsKey{}, ss)
}

// SessionsFrom returns the Sessions bound to ctx by WithSessions, or def.
func SessionsFrom(ctx context.Context, def *Sessions) *Sessions {
	if ss, ok := ctx.Value(sessionsKey{}).(*Sessions); ok && ss != nil {
		return ss
	}
	return def
}

// Bind returns ctx with ss as the Sessions of its browser tool calls (see
// WithSessions); with Close it makes Sessions a per-MCP-session scope.
func (ss *Sessions) Bind(ctx context.Context) context.Context { return WithSessions(ctx, ss) }

// hiddenFromScreenReader is env with Chromium's accessibility off: it then
// never joins the accessibility bus (measured: a screen reader's desktop
// lists no Chromium). Chromium reads ACCESSIBILITY_ENABLED before the
// desktop's toolkit-accessibility setting.
func hiddenFromScreenReader(env []string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, "ACCESSIBILITY_ENABLED=") {
			out = append(out, kv)
		}
	}
	return append(out, "ACCESSIBILITY_ENABLED=0")
}
