package web

import (
	"net/http"
	"strings"

	"github.com/waymark/waymark/backend/browser"
)

// The renderers of what an action did to the page: a click, a key, going to
// an address, back, a tab, a download, a dialog answered. Each says what
// happened, the page it led to, the focus, and whether the numbers still hold.

// said gathers the sentences of one answer.
type said struct {
	l     Lang
	parts []string
}

func (s *said) add(en, ru string, a ...any) { s.parts = append(s.parts, s.l.f(en, ru, a...)) }

func (s *said) addT(en, ru string) { s.parts = append(s.parts, s.l.t(en, ru)) }

// String is the answer: its sentences, or "OK." when there are none.
func (s *said) String() string {
	if len(s.parts) == 0 {
		return s.l.t("OK.", "Готово.")
	}
	return Spoken(strings.Join(s.parts, " "))
}

// page says the page by its title, else by its address.
func (s *said) page(title, url string) {
	if title != "" {
		s.add("Page: %s.", "Страница: %s.", title)
	} else if url != "" {
		s.add("Page: %s.", "Страница: %s.", spokenURL(url))
	}
}

// httpStatus says an error page as one.
func (s *said) httpStatus(st int) {
	if st >= 400 {
		s.add("The server answered %d, %s: this is an error page.", "Сервер ответил %d (%s): это страница ошибки.", st, strings.ToLower(http.StatusText(st)))
	}
}

// focus says the focused element, when it has a name.
func (s *said) focus(f *browser.Described) {
	if f != nil && f.Name != "" {
		s.add("Focus: %v %v.", "Фокус: %v %v.", roleIn(s.l, describedRole(f)), f.Name)
	}
}

// numbering says how to go on: from the place an in-page link led to
// (here), or with new numbers when the page changed.
func (s *said) numbering(stale, here bool) {
	if here {
		s.addT("Say read more to read from there, or list from here for the elements from there on.",
			"Скажите «читай дальше», чтобы читать оттуда, или «список отсюда», чтобы услышать элементы с этого места.")
	} else if stale {
		s.addT("The page changed: say list for new numbers.", "Страница изменилась: скажите «список», чтобы услышать новые номера.")
	}
}

// newTabs says the tabs an action opened, and how to go there.
func (s *said) newTabs(tabs []browser.Tab) {
	for _, t := range tabs {
		title := t.Title
		if title == "" {
			title = t.URL
		}
		s.add("Opened a new tab: %v, %s. Say tab %v to go there.", "Открыта новая вкладка: %v, %s. Скажите «вкладка %v», чтобы перейти туда.", t.Index, title, t.Index)
	}
}

func describedRole(f *browser.Described) string {
	if f.Role != "" {
		return f.Role
	}
	return f.Tag
}

// atPlace reports whether an address leads to a place in a page (#fragment):
// the page is scrolled there, and the listener can read or list from there.
func atPlace(u string) bool {
	i := strings.IndexByte(u, '#')
	return i >= 0 && i < len(u)-1
}

// actVerbs are the actions as the answers say them (English, Russian).
var actVerbs = map[string][2]string{"click": {"click", "нажал"}, "type": {"type", "ввёл в"}, "select": {"select", "выбрал в"}}

// actLines says a click, typing or choice by number (browser_overlay_act):
// a click on a link to a place in the page says how to read from there.
func actLines(l Lang, d *browser.ActResult) string {
	return actSaid(l, d, d.Action == "click" && len(d.NewTabs) == 0 && atPlace(d.URL))
}

// actByIndexLines says an action by an old number (browser_act_by_index).
func actByIndexLines(l Lang, d *browser.ActByIndexResult) string {
	return actSaid(l, &d.ActResult, false)
}

func actSaid(l Lang, d *browser.ActResult, here bool) string {
	s := &said{l: l}
	name := d.Name
	if name == "" {
		name = d.Role
	}
	switch verb, known := actVerbs[d.Action]; {
	case d.Action == "select" && d.Selected != "":
		s.add("Chose %s in %v (%v).", "Выбрал %s в %v (%v).", d.Selected, d.Number, name)
	case d.Action == "type":
		// What was typed is never said back: how much, and where.
		s.add("Done: typed %s into %v (%v).", "Готово: %s введено в %v (%v).", characters(l, d.TypedChars), name, d.Number)
	case known:
		s.add("Done: %s %v (%v).", "Готово: %s %v (%v).", l.t(verb[0], verb[1]), d.Number, name)
	}
	if d.Navigated {
		s.page(d.Title, d.URL)
	} else {
		s.focus(d.Focused)
	}
	s.newTabs(d.NewTabs)
	s.numbering(d.NumberingStale, here)
	return s.String()
}

// pressLines says a key pressed, and where it led.
func pressLines(l Lang, d *browser.PressResult) string {
	s := &said{l: l}
	s.add("Pressed %s.", "Нажата клавиша %s.", d.Key)
	s.page(d.Title, d.URL)
	if !d.Navigated {
		s.focus(d.Focused)
	}
	s.numbering(d.NumberingStale, false)
	return s.String()
}

// loaded says a page loaded: its title, an error status, the focus.
func (s *said) loaded(p *browser.PageState) {
	s.page(p.Title, p.URL)
	s.httpStatus(p.Status)
	if !p.Navigated {
		s.focus(p.Focused)
	}
}

// navigateLines says the page an address opened (browser_navigate); an
// address of a place in a page says how to read from there.
func navigateLines(l Lang, d *browser.PageState) string {
	s := &said{l: l}
	s.loaded(d)
	s.numbering(false, atPlace(d.URL))
	return s.String()
}

// historyLines says the page back or forward led to, and the element that
// has the focus again.
func historyLines(l Lang, d *browser.HistoryResult) string {
	s := &said{l: l}
	s.page(d.Title, d.URL)
	s.httpStatus(d.Status)
	if f := d.Focused; f != nil {
		s.add("Focus is back on %v %v.", "Фокус снова на: %v %v.", roleIn(l, describedRole(f)), f.Name)
	}
	return s.String()
}

// reloadLines says the page loaded again.
func reloadLines(l Lang, d *browser.ReloadResult) string {
	s := &said{l: l}
	s.loaded(&d.PageState)
	return s.String()
}

// switchTabLines says the tab made current, and that its elements are to be
// listed before acting by number.
func switchTabLines(l Lang, d *browser.TabResult) string {
	s := &said{l: l}
	s.add("Tab %d of %v.", "Вкладка %d из %v.", d.Tab, d.Count)
	s.loaded(&d.PageState)
	if d.Note != "" {
		s.parts = append(s.parts, noteIn(l, d.Note, "Теперь это текущая вкладка; перечислите её элементы, прежде чем действовать по номеру."))
	}
	return s.String()
}

// newTabLines says the tab a link was opened in.
func newTabLines(l Lang, d *browser.NewTabResult) string {
	s := &said{l: l}
	s.add("Opened in a new tab, tab %d of %v.", "Открыто в новой вкладке, вкладка %d из %v.", d.Tab, d.Count)
	s.loaded(&d.PageState)
	return s.String()
}

// closedTabLines says the tab closed and the one current now.
func closedTabLines(l Lang, d *browser.ClosedTabResult) string {
	s := &said{l: l}
	if d.Note != "" {
		s.parts = append(s.parts, Spoken(d.Note))
	}
	for _, t := range d.Tabs {
		if t.Current {
			title := t.Title
			if title == "" {
				title = t.URL
			}
			s.add("Now on tab %v: %v.", "Теперь вкладка %v: %v.", t.Index, title)
		}
	}
	return s.String()
}

// downloadLines says where a download was saved.
func downloadLines(l Lang, d *browser.Download) string {
	s := &said{l: l}
	s.page("", d.URL)
	if d.Path != "" {
		s.add("Saved to %s.", "Сохранено в %s.", d.Path)
	}
	return s.String()
}

// screenshotLine says where the screenshot was saved.
func screenshotLine(l Lang, d *browser.ScreenshotResult) string {
	s := &said{l: l}
	if d.Path != "" {
		s.add("Saved to %s.", "Сохранено в %s.", d.Path)
	}
	return s.String()
}

// waitLines says the page after a wait.
func waitLines(l Lang, d *browser.WaitResult) string {
	s := &said{l: l}
	s.page(d.Title, d.URL)
	s.numbering(d.NumberingStale, false)
	return s.String()
}

// focusLines says the element the focus moved to.
func focusLines(l Lang, d *browser.FocusResult) string {
	s := &said{l: l}
	s.focus(d.Focused)
	return s.String()
}

// dialogLines says the page after a dialog was answered, and a dialog loop
// the browser stopped (issue 32 point 9).
func dialogLines(l Lang, d *browser.DialogResult) string {
	s := &said{l: l}
	s.page(d.Title, d.URL)
	s.numbering(d.NumberingStale, false)
	if d.LeftPage {
		s.addT("The page kept opening dialogs, one after another: they were closed and the page was left (the tab is empty now). Go to a page to go on.",
			"Страница открывала диалог за диалогом: они закрыты, страница покинута (вкладка теперь пуста). Перейдите на страницу, чтобы продолжить.")
	}
	return s.String()
}

// noteIn says a tool's note in l: ru is its Russian when the result's type
// says which note it is ("": the note as it is).
func noteIn(l Lang, note, ru string) string {
	if l == Russian && ru != "" {
		return ru
	}
	return Spoken(note)
}
