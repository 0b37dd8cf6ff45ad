package browser

import (
	"context"
	"fmt"
	"net/url"
	"strings"

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
	for _, id := range order {
		if !known[id] {
			s.tabs = append(s.tabs, id)
		}
	}
	infos := make([]proto.TargetTargetInfo, len(s.tabs))
	for i, id := range s.tabs {
		infos[i] = *live[id]
	}
	return infos, nil
}

func (s *Session) tabList(infos []proto.TargetTargetInfo) []Tab {
	tabs := make([]Tab, len(infos))
	for i, t := range infos {
		tabs[i] = Tab{Index: i + 1, Title: t.Title, URL: t.URL, Current: t.TargetID == s.page.TargetID}
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
	p, err := s.browser.PageFromTarget(id)
	if err != nil {
		return fmt.Errorf("could not switch to the tab: %w", err)
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
		return nil, invalid("index %d: tabs count from 1", index)
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
			return nil, fmt.Errorf("there is no tab %d: %s", index, tabsLine(s.tabList(infos)))
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
			return nil, fmt.Errorf("no tab's title contains %q: %s", titleContains, tabsLine(s.tabList(infos)))
		}
	}
	if err := s.switchTo(ctx, infos[pick].TargetID); err != nil {
		return nil, err
	}
	res := &TabResult{Tab: pick + 1, Count: len(infos)}
	s.describe(ctx, &res.PageState)
	res.Loaded = true
	res.Note = "This tab is current now; list its elements before acting by number."
	return res, nil
}

func tabsLine(tabs []Tab) string {
	if len(tabs) == 0 {
		return "no tabs are open"
	}
	parts := make([]string, len(tabs))
	for i, t := range tabs {
		parts[i] = fmt.Sprintf("%d %q", t.Index, t.Title)
	}
	return "the tabs are " + strings.Join(parts, ", ")
}

// OpenInNewTab opens the numbered link of the last list in a new tab, makes
// that tab current and waits for it to load. Only links with an http(s)
// address open this way; for other elements click them instead.
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
		return nil, fmt.Errorf("number %d is not in list %d (it numbers 1..%d)", index, n.gen, len(n.items))
	}
	it := n.items[index-1]
	u, perr := url.Parse(it.Href)
	if it.Href == "" || perr != nil || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "file") {
		return nil, fmt.Errorf("element %d (%s) is not a link to a page; click it instead", it.Number, label(it))
	}
	if _, err := s.refreshTabs(ctx); err != nil {
		return nil, err
	}
	p, err := s.browser.Page(proto.TargetCreateTarget{URL: "about:blank"})
	if err != nil {
		return nil, fmt.Errorf("could not open a new tab: %w", err)
	}
	s.tabs = append(s.tabs, p.TargetID)
	if err := s.setPage(p); err != nil {
		return nil, err
	}
	st, err := s.navigate(ctx, it.Href)
	if err != nil {
		return nil, err
	}
	return &TabResult{PageState: *st, Tab: len(s.tabs), Count: len(s.tabs)}, nil
}

// CloseTab closes a tab (default: the current one). Closing the current tab
// makes the previous one current. The last tab cannot be closed.
func (s *Session) CloseTab(ctx context.Context, index int) (*TabsResult, error) {
	if index < 0 {
		return nil, invalid("index %d: tabs count from 1", index)
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
			return nil, fmt.Errorf("there is no tab %d: %s", index, tabsLine(s.tabList(infos)))
		}
		pick = index - 1
	}
	if pick < 0 {
		return nil, fmt.Errorf("no tab to close: %s", tabsLine(s.tabList(infos)))
	}
	if len(infos) == 1 {
		return nil, fmt.Errorf("tab %d is the only tab; it stays open", pick+1)
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
		return nil, fmt.Errorf("could not close tab %d: %w", pick+1, err)
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
	return &TabsResult{Tabs: s.tabList(infos), Note: fmt.Sprintf("Closed %q.", closing.Title)}, nil
}
