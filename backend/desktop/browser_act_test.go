package desktop

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
)

// The window's act buttons (BrowserAct) act by number in the window's
// browsing conversation, directly: the answer keeps the conversation's
// language (it was English whatever the user spoke, when the act was written
// back as "click 5" for the interpreter to parse), typed text is never said
// or kept, and a wrong number or action is refused in words.
func TestBrowserActActsInTheConversation(t *testing.T) {
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><title>Form</title><h1>Form</h1>
<label>Name <input id="name"></label>
<button onclick="document.title = 'Sent ' + document.getElementById('name').value">Send</button>`)
	}))
	defer page.Close()
	a := browserApp(t, filepath.Join(t.TempDir(), "w.db"))
	if _, err := a.BrowserCommand("перейди на " + page.URL); err != nil {
		t.Fatal(err)
	}
	v, err := a.BrowserCommand("список")
	if err != nil {
		t.Fatal(err)
	}
	number := map[string]int{}
	for _, it := range v.Items {
		number[it.Name] = it.Number
	}
	if number["Name"] == 0 || number["Send"] == 0 {
		t.Fatalf("the list has no Name and Send: %+v", v.Items)
	}
	for _, c := range []struct {
		index        int
		action, text string
		want         string
	}{
		{number["Name"], "type", "Анна-42", "Готово: 7 знаков введено в Name"},
		{number["Send"], "click", "", fmt.Sprintf("Готово: нажал %d (Send).", number["Send"])},
	} {
		v, err := a.BrowserAct(c.index, c.action, c.text)
		if err != nil {
			t.Fatalf("%s %d: %v", c.action, c.index, err)
		}
		if v.Status != "ok" || !strings.Contains(v.Result, c.want) || strings.Contains(v.Result+v.Say, "Анна-42") {
			t.Errorf("%s %d: the window says %q (%s), want %q in it and no typed text", c.action, c.index, v.Result, v.Status, c.want)
		}
	}
	if v, err := a.BrowserCommand("прочитай страницу"); err != nil || !strings.Contains(v.Result, "Название: Sent Анна-42") {
		t.Errorf("the click did not send the typed name: %v\n%s", err, v.Result)
	}
	v, err = a.BrowserAct(99, "click", "")
	if err != nil || v.Status != "error" || !strings.Contains(v.Result, "99") {
		t.Errorf("click 99 on a page of 3 elements: %v %+v", err, v)
	}
	v, err = a.BrowserAct(0, "click", "")
	if err != nil || v.Status != "error" || v.Result != "«0» — не номер элемента; номера начинаются с 1 (скажите «список», чтобы их услышать)" {
		t.Errorf("click 0: %v %q", err, v.Result)
	}
	if _, err := a.BrowserAct(1, "hover", ""); err == nil || !strings.Contains(err.Error(), "click, type or select") {
		t.Errorf("an unknown action: %v", err)
	}
	if _, err := a.BrowserAct(1, "type", ""); err == nil || !strings.Contains(err.Error(), "needs the text") {
		t.Errorf("type with no text: %v", err)
	}
}
