package browser

import (
	"context"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"
)

// Tab is one page of the session's browser context.
type Tab struct {
	Index   int    `json:"index"`
	Title   string `json:"title"`
	URL     string `json:"url"`
	Current bool   `json:"current"`
}

// TabsResult lists the session's tabs.
type TabsResult struct {
	Tabs []Tab  `json:"tabs"`
	Note string `json:"note,omitempty"`
}

// TabResult reports a tab switch or a new tab, and the page it shows.
type TabResult struct {
	PageState
	Tab   int `json:"tab"`
	Count int `json:"tabs"`
}

// tabWatch follows Chromium's Target events for the session's browser
// context, so tabs keep the order they were opened in (also when the site
// opens several at once), an action can say which tabs it opened, and a tab
// the site closes (window.close) is noticed.
type tabWatch struct {
	mu      sync.Mutex
	seq     int
	born    map[proto.TargetTargetID]int // page targets by order of creation
	opener  map[proto.TargetTargetID]proto.TargetTargetID
	gone    map[proto.TargetTargetID]bool
	sess    map[proto.TargetTargetID]tabSession // each tab's dialog follower (tabdialog.go)
	changed chan struct{}
}

func (w *tabWatch) bump() {
	close(w.changed)
	w.changed = make(chan struct{})
}

// watchTabs starts following page targets of the session's browser context
// (rod turned target discovery on when it connected).
func (s *Session) watchTabs() {
	w := &tabWatch{born: map[proto.TargetTargetID]int{}, opener: map[proto.TargetTargetID]proto.TargetTargetID{},
		gone: map[proto.TargetTargetID]bool{}, sess: map[proto.TargetTargetID]tabSession{}, changed: make(chan struct{})}
	for _, id := range s.tabs {
		w.born[id] = 0 // opened before the watch began
	}
	s.tw = w
	ours := func(t *proto.TargetTargetInfo) bool {
		return t != nil && t.Type == proto.TargetTargetInfoTypePage && t.BrowserContextID == s.contextID
	}
	wait := s.root.Context(s.ctx).EachEvent(
		func(ev *proto.TargetTargetCreated) {
			if !ours(ev.TargetInfo) {
				return
			}
			w.mu.Lock()
			defer w.mu.Unlock()
			if _, ok := w.born[ev.TargetInfo.TargetID]; !ok {
				w.seq++
				w.born[ev.TargetInfo.TargetID] = w.seq
				w.opener[ev.TargetInfo.TargetID] = ev.TargetInfo.OpenerID
				w.bump()
				go s.watchTabDialogs(ev.TargetInfo.TargetID)
			}
		},
		func(ev *proto.TargetTargetDestroyed) {
			w.mu.Lock()
			_, ours := w.born[ev.TargetID]
			if ours && !w.gone[ev.TargetID] {
				w.gone[ev.TargetID] = true
				w.bump()
			}
			w.mu.Unlock()
			if ours {
				s.tabAnswered(ev.TargetID) // a question of a closed tab is gone
			}
		},
	)
	go wait()
	for _, id := range s.tabs {
		go s.watchTabDialogs(id)
	}
}

// isTab reports whether id is one of the session's tabs (a tab's main frame
// has the tab's target id).
func (s *Session) isTab(id proto.TargetTargetID) bool {
	s.tw.mu.Lock()
	defer s.tw.mu.Unlock()
	_, ok := s.tw.born[id]
	return ok && !s.tw.gone[id]
}

// tabMark is the watch's position before an action.
func (s *Session) tabMark() int {
	s.tw.mu.Lock()
	defer s.tw.mu.Unlock()
	return s.tw.seq
}

// tabsOpenedSince lists the tabs created after mark that are still open: the
// tabs an action made the site open. It waits up to wait for the first one
// (a new tab's target can lag the click by a few milliseconds).
func (s *Session) tabsOpenedSince(ctx context.Context, mark int, wait time.Duration) []Tab {
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
waiting:
	for wait > 0 {
		s.tw.mu.Lock()
		n, ch := s.tw.seq, s.tw.changed
		s.tw.mu.Unlock()
		if n > mark {
			break
		}
		select {
		case <-ch:
		case <-deadline.C:
			break waiting
		case <-ctx.Done():
			break waiting
		}
	}
	s.tw.mu.Lock()
	fresh := map[proto.TargetTargetID]bool{}
	for id, seq := range s.tw.born {
		if seq > mark {
			fresh[id] = true
		}
	}
	s.tw.mu.Unlock()
	if len(fresh) == 0 {
		return nil
	}
	infos, err := s.refreshTabs(ctx)
	if err != nil {
		return nil
	}
	var out []Tab
	for _, t := range s.tabList(infos) {
		if fresh[infos[t.Index-1].TargetID] {
			out = append(out, t)
		}
	}
	return out
}

// newTabsNote tells the assistant where the tabs an action opened are.
func newTabsNote(tabs []Tab) string {
	if len(tabs) == 0 {
		return ""
	}
	parts := make([]string, len(tabs))
	for i, t := range tabs {
		parts[i] = fmt.Sprintf("%d (%s)", t.Index, t.URL)
	}
	return fmt.Sprintf("The page opened a new tab: %s; this tab stays current (browser_switch_tab to go there).", strings.Join(parts, ", "))
}

// currentTabGone reports whether the site (or the user) closed the current
// tab while other tabs of the session are still open.
func (s *Session) currentTabGone() bool {
	if s.tw == nil || s.page == nil {
		return false
	}
	s.tw.mu.Lock()
	defer s.tw.mu.Unlock()
	if !s.tw.gone[s.page.TargetID] {
		return false
	}
	for id := range s.tw.born {
		if !s.tw.gone[id] {
			return true
		}
	}
	return false
}

// adoptTab makes another tab current when the current one was closed by the
// page (window.close, e.g. a sign-in pop-up that finished): the tab that
// opened it if it is still there, else the last one. It returns the new
// current tab (from 1), or 0 when nothing changed. The lock is held.
func (s *Session) adoptTab(ctx context.Context) int {
	if !s.currentTabGone() {
		return 0
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	infos, err := s.refreshTabs(ctx)
	if err != nil || len(infos) == 0 {
		return 0
	}
	s.tw.mu.Lock()
	opener := s.tw.opener[s.page.TargetID]
	s.tw.mu.Unlock()
	pick := len(infos) - 1
	for i, t := range infos {
		if t.TargetID == opener {
			pick = i
		}
	}
	if err := s.switchTo(ctx, infos[pick].TargetID); err != nil {
		return 0
	}
	s.logf("browser: the current tab was closed by the page; tab %d is current now", pick+1)
	return pick + 1
}

// waitTabGone waits up to d for the current tab's Target to be destroyed.
func (s *Session) waitTabGone(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		s.tw.mu.Lock()
		gone, ch := s.tw.gone[s.page.TargetID], s.tw.changed
		s.tw.mu.Unlock()
		if gone {
			return
		}
		select {
		case <-ch:
		case <-t.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// aliveCtx is ctx, cancelled as soon as the current tab is reported closed:
// a call sent to a page whose tab closes under it may never be answered (a
// button that runs window.close()), and must not hold the session.
func (s *Session) aliveCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	cctx, cancel := context.WithCancel(ctx)
	if s.tw == nil {
		return cctx, cancel
	}
	id := s.page.TargetID
	go func() {
		for {
			s.tw.mu.Lock()
			gone, ch := s.tw.gone[id], s.tw.changed
			s.tw.mu.Unlock()
			if gone {
				cancel()
				return
			}
			select {
			case <-ch:
			case <-cctx.Done():
				return
			}
		}
	}()
	return cctx, cancel
}

// tabsAfterClick adds to a click's result the tabs it made the page open,
// and moves to another tab if the page closed its own.
func (s *Session) tabsAfterClick(ctx context.Context, mark int, res *ActResult) {
	res.NewTabs = s.tabsOpenedSince(ctx, mark, 0)
	if len(res.NewTabs) > 0 {
		res.NewTabs = s.titledTabs(ctx, mark, res.NewTabs)
	}
	res.Note = joinNote(res.Note, newTabsNote(res.NewTabs))
	if res.URL == "" {
		// The page could not be described: if its tab is gone, give the
		// Target event a moment to arrive.
		if _, err := (proto.TargetGetTargetInfo{TargetID: s.page.TargetID}).Call(s.root.Context(ctx)); err != nil {
			s.waitTabGone(ctx, time.Second)
		}
	}
	if tab := s.adoptTab(ctx); tab > 0 {
		st := &PageState{}
		s.describe(ctx, st)
		res.URL, res.Title, res.Focused, res.NumberingStale = st.URL, st.Title, nil, true
		res.Note = fmt.Sprintf("The page closed its tab; tab %d (“%s”) is current now: list its elements before acting by number.", tab, st.Title)
	}
}

// titleWait bounds how long a click waits for the tabs it opened to have
// titles (a listener hears "opened a new tab: Map of Kazan", not its address).
const titleWait = 1500 * time.Millisecond

// untitled reports whether a tab shows no title of its own yet: Chromium
// shows the address (without its scheme) until the page's title arrives.
func untitled(t Tab) bool {
	if t.Title == "" || t.Title == t.URL || t.URL == "about:blank" {
		return true
	}
	if u, err := url.Parse(t.URL); err == nil && u.Host != "" {
		return t.Title == strings.TrimPrefix(t.URL, u.Scheme+"://")
	}
	return false
}

// titledTabs waits, up to titleWait, for new tabs that show no title yet
// to get one; a page without a title keeps showing its address.
func (s *Session) titledTabs(ctx context.Context, mark int, tabs []Tab) []Tab {
	deadline := time.Now().Add(titleWait)
	for {
		waiting := false
		for _, t := range tabs {
			waiting = waiting || untitled(t)
		}
		if !waiting || time.Now().After(deadline) {
			return tabs
		}
		select {
		case <-ctx.Done():
			return tabs
		case <-time.After(50 * time.Millisecond):
		}
		// Tabs the page closed again meanwhile drop out.
		if tabs = s.tabsOpenedSince(ctx, mark, 0); len(tabs) == 0 {
			return nil
		}
	}
}

// refreshTabs brings s.tabs up to date with the browser: pages the site
// opened (target=_blank, window.open) join at the end, closed ones leave.
// Tabs keep their order of first sight, so tab 2 stays tab 2.
func (s *Session) refreshTabs(ctx context.Context) ([]proto.TargetTargetInfo, error) {
	res, err := proto.TargetGetTargets{}.Call(s.root.Context(ctx))
	if err != nil {
		return nil, err
	}
	live := map[proto.TargetTargetID]*proto.TargetTargetInfo{}
	var order []proto.TargetTargetID
	for _, t := range res.TargetInfos {
		if t.Type != proto.TargetTargetInfoTypePage || t.BrowserContextID != s.contextID || s.closedTabs[t.TargetID] {
			continue
		}
		live[t.TargetID] = t
		order = append(order, t.TargetID)
	}
	kept := s.tabs[:0]
	for _, id := range s.tabs {
		if live[id] != nil {
			kept = append(kept, id)
		}
	}
	s.tabs = kept
	known := map[proto.TargetTargetID]bool{}
	for _, id := range s.tabs {
		known[id] = true
	}
	var newcomers []proto.TargetTargetID
	for _, id := range order {
		if !known[id] {
			newcomers = append(newcomers, id)
		}
	}
	// Newcomers join in the order Chromium created them.
	if s.tw != nil && len(newcomers) > 1 {
		s.tw.mu.Lock()
		sort.SliceStable(newcomers, func(i, j int) bool { return s.tw.born[newcomers[i]] < s.tw.born[newcomers[j]] })
		s.tw.mu.Unlock()
	}
	s.tabs = append(s.tabs, newcomers...)
	infos := make([]proto.TargetTargetInfo, len(s.tabs))
	for i, id := range s.tabs {
		infos[i] = *live[id]
	}
	return infos, nil
}

func (s *Session) tabList(infos []proto.TargetTargetInfo) []Tab {
	tabs := make([]Tab, len(infos))
	for i, t := range infos {
		tabs[i] = Tab{Index: i + 1, Title: spaced(t.Title), URL: t.URL, Current: t.TargetID == s.page.TargetID}
	}
	return tabs
}

// Tabs lists the session's tabs in the order they were opened.
func (s *Session) Tabs(ctx context.Context) (*TabsResult, error) {
	ctx, unlock, err := s.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	infos, err := s.refreshTabs(ctx)
	if err != nil {
		return nil, err
	}
	return &TabsResult{Tabs: s.tabList(infos)}, nil
}

// switchTo makes the tab with target id the current one and describes it.
func (s *Session) switchTo(ctx context.Context, id proto.TargetTargetID) error {
	if id == s.page.TargetID {
		return nil
	}
	if err := s.tabHeld(ctx, id); err != nil {
		return err
	}
	p, err := s.browser.PageFromTarget(id)
	if err != nil {
		return failWith(KindSwitchFailed, err)
	}
	if err := s.setPage(p); err != nil {
		return err
	}
	_ = proto.TargetActivateTarget{TargetID: id}.Call(s.root.Context(ctx))
	return nil
}

// SwitchTab makes another tab current, chosen by its index (from 1, in
// opening order) or by a case-insensitive part of its title. Any numbering
// becomes stale: list again.
func (s *Session) SwitchTab(ctx context.Context, index int, titleContains string) (*TabResult, error) {
	titleContains = strings.TrimSpace(titleContains)
	if (index == 0) == (titleContains == "") {
		return nil, invalid("give index (from 1) or title_contains, one of them")
	}
	if index < 0 {
		return nil, fail(KindTabsFrom1, index)
	}
	ctx, unlock, err := s.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	infos, err := s.refreshTabs(ctx)
	if err != nil {
		return nil, err
	}
	pick := -1
	if index > 0 {
		if index > len(infos) {
			return nil, fail(KindNoTab, index, Tabs(s.tabList(infos)))
		}
		pick = index - 1
	} else {
		want := normText(titleContains)
		for i, t := range infos {
			if strings.Contains(normText(t.Title), want) {
				pick = i
				break
			}
		}
		if pick < 0 {
			return nil, fail(KindNoTabTitled, titleContains, Tabs(s.tabList(infos)))
		}
	}
	if err := s.switchTo(ctx, infos[pick].TargetID); err != nil {
		return nil, err
	}
	res := &TabResult{Tab: pick + 1, Count: len(infos)}
	res.Loaded = s.waitTabReady(ctx)
	res.Banners = s.bannersAfter(ctx, "switch tab")
	s.describe(ctx, &res.PageState)
	res.Note = "This tab is current now; list its elements before acting by number."
	if !res.Loaded {
		res.Note = fmt.Sprintf("This tab is current now but was still loading after %s; list or extract to check it before acting by number.", s.opts.NavigationTimeout)
	}
	return res, nil
}

// OpenInNewTab opens the numbered link of the last list in a new tab, makes
// that tab current and waits for it to load. A link with an http(s) or file
// address opens by that address; a link without one (a script link) gets a
// real Ctrl+click at its point, which sites honour to open a new tab.
func (s *Session) OpenInNewTab(ctx context.Context, index int) (*TabResult, error) {
	if index < 1 {
		return nil, invalid("index must be a number from the last list (1 or more)")
	}
	ctx, unlock, err := s.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	n, err := s.validate(ctx)
	if err != nil {
		return nil, err
	}
	if index > len(n.items) {
		return nil, n.notNumbered(index)
	}
	it := n.items[index-1]
	if _, err := s.refreshTabs(ctx); err != nil {
		return nil, err
	}
	u, perr := url.Parse(it.Href)
	if it.Href == "" || perr != nil || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "file") {
		if it.Role != "link" {
			return nil, fail(KindNotALink, it.Number, label(it))
		}
		return s.ctrlClickNewTab(ctx, n, it)
	}
	p, err := s.browser.Page(proto.TargetCreateTarget{URL: "about:blank"})
	if err != nil {
		return nil, failWith(KindNewTabFailed, err)
	}
	s.tabs = append(s.tabs, p.TargetID)
	if err := s.setPage(p); err != nil {
		return nil, err
	}
	st, err := s.navigate(ctx, it.Href)
	if err != nil {
		return nil, err
	}
	st.Banners = s.bannersAfter(ctx, "new tab")
	return &TabResult{PageState: *st, Tab: len(s.tabs), Count: len(s.tabs)}, nil
}

// newTabWait is how long a Ctrl+click may take to open its tab.
const newTabWait = 1500 * time.Millisecond

// ctrlClickNewTab Ctrl+clicks a link that has no address of its own and
// switches to the tab it opens; the lock is held.
func (s *Session) ctrlClickNewTab(ctx context.Context, n *numbering, it *Item) (*TabResult, error) {
	w, err := s.itemWorld(ctx, n, it)
	if err != nil {
		return nil, err
	}
	mark := s.tabMark()
	before := s.ev.snapshot()
	dialog, err := s.watchInput(ctx, func(ctx context.Context) error {
		return s.clickItem(ctx, it, w, func(ctx context.Context, _ *rod.Page, x, y float64) error { return ctrlClickAt(ctx, s, x, y) })
	})
	s.release(ctx) // this tab's handles, before another tab becomes current
	if err != nil {
		return nil, err
	}
	if dialog != nil {
		return nil, &DialogError{Dialog: *dialog}
	}
	opened := s.tabsOpenedSince(ctx, mark, newTabWait)
	if len(opened) == 0 {
		navigated, _, _ := s.settle(ctx, before, false)
		if navigated || s.isStale(ctx) {
			s.markStale("the link acted in this tab")
			return nil, fail(KindLinkActedHere, it.Number, label(it))
		}
		return nil, fail(KindLinkNoTab, it.Number, label(it), newTabWait)
	}
	infos, err := s.refreshTabs(ctx)
	if err != nil {
		return nil, err
	}
	pick := opened[0].Index - 1
	if err := s.switchTo(ctx, infos[pick].TargetID); err != nil {
		return nil, err
	}
	res := &TabResult{Tab: pick + 1, Count: len(infos)}
	res.Navigated = true
	res.Loaded, res.NetworkIdle = s.waitTabLoaded(ctx)
	res.Banners = s.bannersAfter(ctx, "new tab")
	s.describe(ctx, &res.PageState)
	if !res.Loaded {
		res.Note = fmt.Sprintf("The new tab was still loading after %s; it may be usable anyway: list or extract to check.", s.opts.NavigationTimeout)
	}
	return res, nil
}

// waitTabLoaded waits for a tab that just became current (its loading began
// before the session followed it) to finish loading and go quiet.
func (s *Session) waitTabLoaded(ctx context.Context) (loaded, idle bool) {
	cctx, cancel := context.WithTimeout(ctx, s.opts.NavigationTimeout)
	defer cancel()
	loaded = s.waitTabReady(cctx)
	idle, _ = s.settleLoaded(cctx)
	return loaded, idle
}

// waitTabReady waits until the current tab's document has loaded (a tab the
// site opened a moment ago may still be loading when it is switched to).
func (s *Session) waitTabReady(ctx context.Context) bool {
	cctx, cancel := context.WithTimeout(ctx, s.opts.NavigationTimeout)
	defer cancel()
	// A new tab shows about:blank until its page commits; a tab that stays
	// blank for a second is a blank tab.
	blankOK := time.Now().Add(time.Second)
	for {
		if pi, err := s.info(cctx); err == nil && pi.Ready == "complete" && (pi.URL != "about:blank" || time.Now().After(blankOK)) {
			return true
		}
		if cctx.Err() != nil {
			return false
		}
		sleepCtx(cctx, 50*time.Millisecond)
	}
}

// ctrlClickAt clicks at (x, y) with the Control key held, as a person opening
// a link in a new tab does.
func ctrlClickAt(ctx context.Context, s *Session, x, y float64) error {
	p := s.page.Context(ctx)
	ctrl := input.ModifierControl
	kd := proto.InputDispatchKeyEvent{Type: proto.InputDispatchKeyEventTypeRawKeyDown, Key: "Control", Code: "ControlLeft",
		WindowsVirtualKeyCode: 17, NativeVirtualKeyCode: 17, Modifiers: ctrl}
	if err := kd.Call(p); err != nil {
		return err
	}
	defer func() {
		_ = proto.InputDispatchKeyEvent{Type: proto.InputDispatchKeyEventTypeKeyUp, Key: "Control", Code: "ControlLeft",
			WindowsVirtualKeyCode: 17, NativeVirtualKeyCode: 17}.Call(p)
	}()
	if err := (proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMouseMoved, X: x, Y: y, Modifiers: ctrl}).Call(p); err != nil {
		return err
	}
	if err := (proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMousePressed, X: x, Y: y, Modifiers: ctrl,
		Button: proto.InputMouseButtonLeft, Buttons: gsonInt(1), ClickCount: 1}).Call(p); err != nil {
		return err
	}
	return proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMouseReleased, X: x, Y: y, Modifiers: ctrl,
		Button: proto.InputMouseButtonLeft, Buttons: gsonInt(0), ClickCount: 1}.Call(p)
}

// CloseTab closes a tab (default: the current one). Closing the current tab
// makes the previous one current. The last tab cannot be closed.
func (s *Session) CloseTab(ctx context.Context, index int) (*TabsResult, error) {
	if index < 0 {
		return nil, fail(KindTabsFrom1, index)
	}
	ctx, unlock, err := s.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	infos, err := s.refreshTabs(ctx)
	if err != nil {
		return nil, err
	}
	cur := -1
	for i, t := range infos {
		if t.TargetID == s.page.TargetID {
			cur = i
		}
	}
	pick := cur
	if index > 0 {
		if index > len(infos) {
			return nil, fail(KindNoTab, index, Tabs(s.tabList(infos)))
		}
		pick = index - 1
	}
	if pick < 0 {
		return nil, fail(KindNoTabToClose, Tabs(s.tabList(infos)))
	}
	if len(infos) == 1 {
		return nil, fail(KindOnlyTab, pick+1)
	}
	closing := infos[pick]
	if pick == cur {
		next := pick - 1
		if next < 0 {
			next = 1
		}
		if err := s.switchTo(ctx, infos[next].TargetID); err != nil {
			return nil, err
		}
	}
	if _, err := (proto.TargetCloseTarget{TargetID: closing.TargetID}).Call(s.root.Context(ctx)); err != nil {
		return nil, failWith(KindCloseFailed, err, pick+1)
	}
	if s.closedTabs == nil {
		s.closedTabs = map[proto.TargetTargetID]bool{}
	}
	s.closedTabs[closing.TargetID] = true
	for i, id := range s.tabs {
		if id == closing.TargetID {
			s.tabs = append(s.tabs[:i], s.tabs[i+1:]...)
			break
		}
	}
	infos, err = s.refreshTabs(ctx)
	if err != nil {
		return nil, err
	}
	return &TabsResult{Tabs: s.tabList(infos), Note: fmt.Sprintf("Closed “%s”.", spaced(closing.Title))}, nil
}
