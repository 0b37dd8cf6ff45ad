package web

import (
	"testing"

	"github.com/waymark/waymark/backend/browser"
)

// TestDialogLineNamesAnotherTab: a question of another tab (one the site
// opened itself) is said with its tab, in the command's language; the
// current tab's as before.
func TestDialogLineNamesAnotherTab(t *testing.T) {
	other := func(kind, msg string) browser.Dialog {
		return browser.Dialog{Type: kind, Message: msg, Tab: 2, TabTitle: "Helper\n  window"}
	}
	for _, c := range []struct {
		l    Lang
		d    browser.Dialog
		want string
	}{
		{English, browser.Dialog{Type: "alert", Message: "Saved."}, "The page says: Saved."},
		{English, other("alert", "Your session ends soon."), "The page in tab 2 (Helper window) says: Your session ends soon."},
		{English, other("confirm", "Stay signed in?"), "The page in tab 2 (Helper window) asks: Stay signed in?"},
		{English, other("alert", ""), "The page in tab 2 (Helper window) shows a message with no text."},
		{Russian, other("alert", "Сеанс скоро закончится."), "Страница во вкладке 2 (Helper window) сообщает: Сеанс скоро закончится."},
		{Russian, other("prompt", "Ваше имя?"), "Страница во вкладке 2 (Helper window) спрашивает: Ваше имя?"},
		{Russian, browser.Dialog{Type: "confirm", Message: "Да?"}, "Страница спрашивает: Да?"},
	} {
		if got := DialogLine(c.l, c.d); got != c.want {
			t.Errorf("DialogLine(%v, %+v) = %q, want %q", c.l, c.d, got, c.want)
		}
	}
}
