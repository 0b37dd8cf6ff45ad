package web

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/browser"
)

// The browser's refusals of issue 32 are said in the listener's language,
// with the number and what the page did.
func TestSecurityRefusalsSpoken(t *testing.T) {
	for _, c := range []struct {
		err         error
		msg, en, ru string
	}{
		{&browser.Error{Kind: browser.KindCovered, Args: []any{browser.Cover(`button "Buy"`), 1, browser.Label{Role: "button", Name: "Cancel order"}}},
			`the page moved something (button "Buy") over element 1 (button "Cancel order") when the pointer came to it; nothing was pressed (list again to hear the page as it is now)`,
			`The page moved something (button “Buy”) over element 1 (button “Cancel order”) as the pointer came to it: nothing was pressed. Say list to hear the page as it is now.`,
			`Страница подвинула на элемент 1 (кнопка «Cancel order») что-то другое (кнопка «Buy»), когда к нему подошёл указатель: ничего не нажато. Скажите «список», чтобы услышать страницу такой, какая она сейчас.`},
		{&browser.Error{Kind: browser.KindRenamed, Args: []any{2, browser.Label{Role: "button", Name: "Safe action"}, browser.Label{Role: "button", Name: "Transfer"}}},
			`the page changed element 2 (button "Safe action") into (button "Transfer") when the pointer came to it; nothing was pressed (list again to hear the page as it is now)`,
			`The page changed element 2 (button “Safe action”) into (button “Transfer”) as the pointer came to it: nothing was pressed. Say list to hear the page as it is now.`,
			`Страница подменила элемент 2 (кнопка «Safe action») на другой (кнопка «Transfer»), когда к нему подошёл указатель: ничего не нажато. Скажите «список», чтобы услышать страницу такой, какая она сейчас.`},
		{&browser.Error{Kind: browser.KindOtherSitePassword, Args: []any{1, browser.Label{Role: "textbox", Name: "Password"}, "localhost:4242", "localhost:4242"}},
			`element 1 (textbox "Password") is a password field in a frame from localhost:4242, another site than the page's: what is typed there goes to localhost:4242; nothing was typed; to type it there all the same, give the same command again`,
			`Element 1 (textbox “Password”) is a password field in a frame from localhost:4242, another site than this page: what you type there goes to localhost:4242. Nothing was typed. To type it there all the same, say the same command again.`,
			`Элемент 1 (поле ввода «Password») — поле пароля в рамке с сайта localhost:4242, это другой сайт, не эта страница: то, что вы введёте, уйдёт на localhost:4242. Ничего не введено. Чтобы всё же ввести туда, повторите ту же команду.`},
	} {
		if got := c.err.Error(); got != c.msg {
			t.Errorf("the model's text:\n got %s\nwant %s", got, c.msg)
		}
		if got := SpokenError(English, c.err); got != c.en {
			t.Errorf("English:\n got %s\nwant %s", got, c.en)
		}
		if got := SpokenError(Russian, c.err); got != c.ru {
			t.Errorf("Russian:\n got %s\nwant %s", got, c.ru)
		}
	}
}

// A password field is said as one, and a field of another site's frame with
// that site (issue 32 point 5: "1. textbox Password" said neither).
func TestItemLineSaysPasswordAndOtherSite(t *testing.T) {
	m := &browser.Item{Number: 1, Role: "textbox", Type: "password", Name: "Password", FrameSite: "localhost:4242"}
	for l, want := range map[Lang]string{
		English: "1. password field Password, in a frame from localhost:4242",
		Russian: "1. поле пароля Password, в рамке с сайта localhost:4242",
	} {
		if got := itemLine(l, m); got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
	if got := itemLine(English, &browser.Item{Number: 2, Role: "textbox", Name: "User"}); got != "2. textbox User" {
		t.Errorf("a plain field: %q", got)
	}
}

// What the guard stopped is said in the listener's language (the refusals
// of issue 32: a disguised password, a page's own downloads, a local file),
// by its kind: each keeps its English for the model and is said as the
// text-matching SpokenRefusal said it (testdata/spoken_refusals.golden.json).
func TestRefusalsSpokenInRussian(t *testing.T) {
	stops := map[string]browser.Refusal{
		"local_file":          {Kind: browser.RefusedLocalFile, What: "/etc/passwd"},
		"password_in_address": {Kind: browser.RefusedPasswordInAddress, What: "http://127.0.0.1:4242/hit"},
		"disguised_password":  {Kind: browser.RefusedDisguisedPassword, What: "http://127.0.0.1:4242/hit"},
		"download":            {Kind: browser.RefusedDownload, What: "drive3.txt"},
		"file_address":        {Kind: browser.RefusedFileAddress, What: "file:///etc/hostname"},
	}
	b, err := os.ReadFile("testdata/spoken_refusals.golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var want []spokenCase
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if len(want) != len(stops) {
		t.Errorf("%d golden refusals, %d made", len(want), len(stops))
	}
	for _, w := range want {
		r, ok := stops[w.Name]
		if !ok {
			t.Errorf("%s: not made", w.Name)
			continue
		}
		if r.String() != w.Msg {
			t.Errorf("%s: the text changed:\n got %s\nwant %s", w.Name, r.String(), w.Msg)
		}
		if got := SpokenRefusal(English, r); got != w.En {
			t.Errorf("%s, English:\n got %s\nwant %s", w.Name, got, w.En)
		}
		ru := SpokenRefusal(Russian, r)
		if ru != w.Ru {
			t.Errorf("%s, Russian:\n got %s\nwant %s", w.Name, ru, w.Ru)
		}
		if regexp.MustCompile(`\b(?:the|page|was|not|by)\b`).MatchString(ru) {
			t.Errorf("%s is said in Russian as %q", w.Name, ru)
		}
	}
}

// A dialog loop the browser stopped is said (issue 32 point 9), in the
// listener's language.
func TestDialogLoopStopSaid(t *testing.T) {
	res := browser.OK(&browser.DialogResult{
		Answered: browser.Dialog{Type: "alert", Message: "Again 2"}, Accepted: true, Stopped: 1, LeftPage: true,
		Note: "The page keeps opening dialogs (4 in a row): they were closed and the page was left (the tab is empty now); go to a page to go on.",
	})
	for l, want := range map[Lang]string{English: "kept opening dialogs", Russian: "открывала диалог за диалогом"} {
		if got := RenderResultIn(l, res); !strings.Contains(got, want) {
			t.Errorf("said %q, want %q in it", got, want)
		}
	}
}
