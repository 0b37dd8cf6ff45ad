package web

import (
	"reflect"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/browser"
)

// What a listener hears is chosen by the result's type and its flags, never
// by the tool's name or a note's words: the same page said after back and
// after going to an address, a note in other words with its flag, a note
// with the old words and no flag.
func TestRenderByResultType(t *testing.T) {
	focus := &browser.Described{Role: "link", Name: "Prices"}
	page := browser.PageState{URL: "http://x/a#prices", Title: "Shop", Focused: focus}
	tab := browser.TabResult{PageState: browser.PageState{URL: "http://x/b", Title: "B", Note: "any words"}, Tab: 2, Count: 3}
	act := browser.ActResult{Number: 4, Action: "click", Name: "Prices", URL: "http://x/a#prices", Title: "Shop"}
	cases := []struct {
		name    string
		l       Lang
		res     browser.Outcome
		want    []string
		wantNot []string
	}{
		{"navigate to a place in a page", English, browser.OK(&page),
			[]string{"Page: Shop.", "Focus: link Prices.", "Say read more to read from there"}, []string{"back on"}},
		{"back to the same page", English, browser.OK(&browser.HistoryResult{PageState: page}),
			[]string{"Page: Shop.", "Focus is back on link Prices."}, []string{"read more"}},
		{"reload", English, browser.OK(&browser.ReloadResult{PageState: page}),
			[]string{"Page: Shop.", "Focus: link Prices."}, []string{"read more", "back on"}},
		{"switch tab", Russian, browser.OK(&tab),
			[]string{"Вкладка 2 из 3.", "Теперь это текущая вкладка"}, []string{"any words"}},
		{"open in a new tab", English, browser.OK(&browser.NewTabResult{TabResult: tab}),
			[]string{"Opened in a new tab, tab 2 of 3."}, []string{"any words"}},
		{"click a link to a place", English, browser.OK(&act),
			[]string{"Done: click 4 (Prices).", "Say read more to read from there"}, nil},
		{"act by an old number", English, browser.OK(&browser.ActByIndexResult{ActResult: act}),
			[]string{"Done: click 4 (Prices)."}, []string{"read more"}},
		{"a list numbered while the page changed", Russian, browser.OK(&browser.ListResult{Total: 0, Note: "other words", Unsettled: true}),
			[]string{"Страница ещё менялась"}, []string{"other words"}},
		{"a note with the old words, no flag", English, browser.OK(&browser.ListResult{Total: 0, Note: "The page was still changing (loading) when it was numbered"}),
			[]string{"No numbered elements"}, []string{"still changing"}},
		{"reading from a place not found", Russian, browser.OK(&browser.ReadResult{Note: "other words", PlaceLost: true, Total: 3, Next: 3, Text: "abc"}),
			[]string{"Это место не нашлось в основном тексте", "Знаки с 1 по 3 из 3:\nabc"}, []string{"other words"}},
		{"another page than the one read", Russian, browser.OK(&browser.ReadResult{Note: "other words", OtherPage: true, Total: 3, Next: 3, Text: "abc"}),
			[]string{"Это другая страница"}, nil},
		{"a dialog loop left", English, browser.OK(&browser.DialogResult{LeftPage: true}),
			[]string{"kept opening dialogs"}, nil},
		{"a failure", Russian, browser.Result[browser.PageState]{Status: "error", Error: "other words", Err: &browser.StaleError{Generation: 2}},
			[]string{"Ошибка: Страница изменилась после последнего списка."}, []string{"browser_", "other words"}},
		{"a failure from elsewhere", English, browser.Result[browser.PageState]{Status: "error", Error: "the other side hung up"},
			[]string{"Error: The other side hung up"}, nil},
		{"nothing to say", English, browser.OK(&browser.HideResult{Hidden: true}),
			[]string{"OK."}, nil},
	}
	for _, c := range cases {
		got := RenderResultIn(c.l, c.res)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q has no %q", c.name, got, w)
			}
		}
		for _, w := range c.wantNot {
			if strings.Contains(got, w) {
				t.Errorf("%s: %q has %q", c.name, got, w)
			}
		}
	}
	refused := browser.OK(&browser.HideResult{Hidden: true})
	refused.Stopped = []browser.Refusal{{Kind: browser.RefusedLocalFile, What: "/etc/passwd"}}
	if got := RenderResultIn(English, refused); !strings.Contains(got, "\nStopped: the page asked for the local file /etc/passwd, which you did not give; it was not opened.") {
		t.Errorf("a refusal is not said: %q", got)
	}
}

// Every browser result type a tool returns has a renderer or says "OK."
// on purpose: a new result type must be given one.
func TestEveryResultTypeIsSaid(t *testing.T) {
	silent := map[string]bool{"OverlayResult": true, "HideResult": true, "BannerReport": true}
	for _, d := range []any{
		&browser.PageState{}, &browser.HistoryResult{}, &browser.ReloadResult{}, &browser.TabResult{}, &browser.NewTabResult{},
		&browser.TabsResult{}, &browser.ClosedTabResult{}, &browser.ActResult{}, &browser.ActByIndexResult{}, &browser.PressResult{},
		&browser.ListResult{}, &browser.FindResult{}, &browser.TextSearchResult{}, &browser.TableResult{}, &browser.Summary{},
		&browser.ReadResult{}, &browser.ScrollResult{}, &browser.WaitResult{}, &browser.FocusResult{}, &browser.DialogResult{},
		&browser.Download{}, &browser.UploadResult{}, &browser.ScreenshotResult{},
		&browser.OverlayResult{}, &browser.HideResult{}, &browser.BannerReport{},
	} {
		name := reflect.TypeOf(d).Elem().Name()
		if _, ok := renderers[reflect.TypeOf(d)]; ok == silent[name] {
			t.Errorf("%s: has a renderer %v, silent %v", name, ok, silent[name])
		}
	}
}

// TestListHeadCounts: a list's first line agrees with its count: "1 element:",
// not "1 elements:" (a page with one link), in both languages.
func TestListHeadCounts(t *testing.T) {
	one := []*browser.Item{{Number: 1, Role: "link", Name: "Home", Tag: "a"}}
	two := append(one, &browser.Item{Number: 2, Role: "button", Name: "Send", Tag: "button"})
	for _, c := range []struct {
		l     Lang
		d     browser.ListResult
		first string
	}{
		{English, browser.ListResult{Total: 1, Items: one}, "1 element:"},
		{Russian, browser.ListResult{Total: 1, Items: one}, "Элементов: 1."},
		{English, browser.ListResult{Total: 2, Items: two}, "2 elements:"},
		{English, browser.ListResult{Total: 3, Items: two, HasMore: true, NextOffset: 2}, "3 elements, 1 to 2:"},
		{English, browser.ListResult{Total: 0}, "No numbered elements on this page."},
	} {
		got, _, _ := strings.Cut(listLines(c.l, &c.d), "\n")
		if got != c.first {
			t.Errorf("%s, %d of %d: the list begins %q, want %q", c.l, len(c.d.Items), c.d.Total, got, c.first)
		}
	}
}
