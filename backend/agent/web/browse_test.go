package web

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/agent"
)

func TestParseBrowseCommand(t *testing.T) {
	cases := []struct {
		in, tool, args string
	}{
		{"list", "browser_list_interactives", `{}`},
		{"Список", "browser_list_interactives", `{}`},
		{"show numbers", "browser_overlay_show", `{}`},
		{"покажи номера", "browser_overlay_show", `{}`},
		{"click 5", "browser_overlay_act", `{"action":"click","index":5}`},
		{"нажми 12", "browser_overlay_act", `{"action":"click","index":12}`},
		{"type 3 hello world", "browser_overlay_act", `{"action":"type","index":3,"text":"hello world"}`},
		{"введи 3 «погода в Казани»", "browser_overlay_act", `{"action":"type","index":3,"text":"погода в Казани"}`},
		{"select 7 Kazan", "browser_overlay_act", `{"action":"select","index":7,"text":"Kazan"}`},
		{"выбери 7 Казань", "browser_overlay_act", `{"action":"select","index":7,"text":"Казань"}`},
		{"press Enter", "browser_press", `{"key":"Enter"}`},
		{"клавиша ввод", "browser_press", `{"key":"Enter"}`},
		{"press k", "browser_press", `{"key":"k"}`},
		{"scroll down", "browser_scroll", `{"by_y":600}`},
		{"прокрути вверх", "browser_scroll", `{"by_y":-600}`},
		{"scroll bottom", "browser_scroll", `{"to":"bottom"}`},
		{"scroll to 12", "browser_scroll", `{"index":12}`},
		{"прокрути к 7", "browser_scroll", `{"index":7}`},
		{"back", "browser_back", `{}`},
		{"вперёд", "browser_forward", `{}`},
		{"reload", "browser_reload", `{}`},
		{"read page", "browser_extract", `{"mode":"summary"}`},
		{"прочитай страницу", "browser_extract", `{"mode":"summary"}`},
		{"find Корзина", "browser_find", `{"text":"Корзина"}`},
		{"open 4 in new tab", "browser_open_in_new_tab", `{"index":4}`},
		{"открой 4 в новой вкладке", "browser_open_in_new_tab", `{"index":4}`},
		{"download 6", "browser_click_and_wait_download", `{"index":6}`},
		{"скачай 6", "browser_click_and_wait_download", `{"index":6}`},
		{"upload 2 /home/anna/My notes.txt", "browser_upload", `{"files":["/home/anna/My notes.txt"],"index":2}`},
		{"загрузи 2 «/home/anna/отчёт.pdf»", "browser_upload", `{"files":["/home/anna/отчёт.pdf"],"index":2}`},
		{"tab 2", "browser_switch_tab", `{"index":2}`},
		{"go to example.org", "browser_navigate", `{"url":"example.org"}`},
		{"go to 127.0.0.1:8101/x", "browser_navigate", `{"url":"127.0.0.1:8101/x"}`},
		{"list 51", "browser_list_interactives", `{"offset":50}`},
		{"список 51", "browser_list_interactives", `{"offset":50}`},
		{"list from here", "browser_list_interactives", `{"from_here":true}`},
		{"список отсюда", "browser_list_interactives", `{"from_here":true}`},
		{"read from heading 3", "browser_read", `{"heading":3}`},
		{"читай с заголовка 3", "browser_read", `{"heading":3}`},
		{"read from start", "browser_read", `{}`},
		{"tabs", "browser_tabs", `{}`},
		{"вкладки", "browser_tabs", `{}`},
		{"close tab", "browser_close_tab", `{}`},
		{"закрой вкладку 2", "browser_close_tab", `{"index":2}`},
		{"перейди на http://127.0.0.1:8080/shop", "browser_navigate", `{"url":"http://127.0.0.1:8080/shop"}`},
		{"localhost:8601", "browser_navigate", `{"url":"localhost:8601"}`},
		{"127.0.0.1:8080/docs/index.html", "browser_navigate", `{"url":"127.0.0.1:8080/docs/index.html"}`},
		{"example.org", "browser_navigate", `{"url":"example.org"}`},
		{"read from here", "browser_read", `{"here":true}`},
		{"читай отсюда", "browser_read", `{"here":true}`},
		{"headings", "browser_extract", `{"mode":"summary"}`},
	}
	for _, c := range cases {
		st, err := new(Browsing).Parse(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		b := argsJSON(st.Args)
		if st.Tool != c.tool || b != c.args || st.Say == "" {
			t.Errorf("%q = %s %s (%q), want %s %s", c.in, st.Tool, b, st.Say, c.tool, c.args)
		}
	}
	for _, bad := range []struct{ in, want string }{
		{"click 0", "numbers start at 1"},
		{"type 3", `Not a command: "type 3". Say it like: type 3 hello. Say help for the commands.`},
		{"clcik 5", `Not a command: "clcik 5". Did you mean "click 5"? Say help for the commands.`},
		{"click5", `Did you mean "click 5"?`},
		{"lsit", `Did you mean "list"?`},
		{"нажим 5", `Может быть, «нажми 5»?`},
		{"press Hyperspace", "unknown key"},
		{"find me a cheap kettle and buy it", ""},
		{"buy the cheapest kettle", `Not a command: "buy the cheapest kettle". Goals in plain words need a model server (Settings); say help for the number commands.`},
	} {
		_, err := new(Browsing).Parse(bad.in)
		if bad.want == "" {
			continue // "find …" is a valid orientation command
		}
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: %v, want %q", bad.in, err, bad.want)
		}
	}
	if _, err := new(Browsing).Parse("make coffee"); !errors.Is(err, agent.ErrNeedsModel) {
		t.Errorf("unknown command: %v", err)
	}
}

// "more" and its kin go on from where the last list or reading stopped, as
// the results said; at the end they say so instead of starting over, and a
// new page forgets both.
func TestBrowsingMore(t *testing.T) {
	ok := func(data string) any {
		var d any
		_ = json.Unmarshal([]byte(data), &d)
		return map[string]any{"status": "ok", "data": d}
	}
	type step struct {
		cmd, tool, args, say string
		result               string // the tool's data, observed after the step
	}
	steps := []step{
		{"more", "browser_list_interactives", `{}`, "Listing the elements.", `{"total":120,"offset":0,"has_more":true,"next_offset":50}`},
		{"more", "browser_list_interactives", `{"offset":50}`, "Listing from number 51.", `{"total":120,"offset":50,"has_more":true,"next_offset":100}`},
		{"ещё", "browser_list_interactives", `{"offset":100}`, "Список с номера 101.", `{"total":120,"offset":100,"has_more":false}`},
		{"next", "", `null`, "That was the end of the list: 120 elements in all. Say list to start again, or list and a number to start there.", ``},
		{"read page", "browser_extract", `{"mode":"summary"}`, "Reading the page.", `{"url":"http://x/a","text_chars":4000,"more_at":1490}`},
		{"more", "browser_read", `{"continue_url":"http://x/a","from":1490}`, "Reading on.", `{"url":"http://x/a","from":1490,"next":2950,"total":4000}`},
		{"читай дальше", "browser_read", `{"continue_url":"http://x/a","from":2950}`, "Читаю дальше.", `{"url":"http://x/a","from":2950,"next":4000,"total":4000}`},
		{"read more", "", `null`, "That was the end of the text (4000 characters). Say read from start, read from heading 3, or read page.", ``},
		{"list more", "", `null`, "That was the end of the list: 120 elements in all. Say list to start again, or list and a number to start there.", ``},
		{"go to example.org", "browser_navigate", `{"url":"example.org"}`, "Opening example.org.", `{"url":"https://example.org/"}`},
		{"list more", "browser_list_interactives", `{}`, "Listing the elements.", ``},
		{"read more", "browser_read", `{}`, "Reading the text from the start.", ``},
		{"help", "", `null`, Help(English), ``},
		{"помощь", "", `null`, Help(Russian), ``},
		// A reading goes on from where a heading's portion ended; a link to
		// another page and back finds the place again (issue 23, point 3).
		{"read from heading 3", "browser_read", `{"heading":3}`, "Reading from heading 3.", `{"url":"http://x/b","from":900,"next":2300,"total":4000,"headings":12}`},
		{"read more", "browser_read", `{"continue_url":"http://x/b","from":2300}`, "Reading on.", `{"url":"http://x/b","from":2300,"next":3700,"total":4000,"headings":12}`},
		{"click 4", "browser_overlay_act", `{"action":"click","index":4}`, "Clicking 4.", `{"action":"click","navigated":true,"url":"http://x/c"}`},
		{"read more", "browser_read", `{}`, "Reading the text from the start.", ``},
		{"back", "browser_back", `{}`, "Going back.", `{"url":"http://x/b"}`},
		{"read more", "browser_read", `{"continue_url":"http://x/b","from":3700}`, "Reading on.", ``},
		// An in-page link: reading goes on from its target; find's more goes
		// on with the matches.
		{"click 5", "browser_overlay_act", `{"action":"click","index":5}`, "Clicking 5.", `{"action":"click","url":"http://x/b#part-2"}`},
		{"more", "browser_read", `{"here":true}`, "Reading from here.", ``},
		{"find package", "browser_find", `{"text":"package"}`, "Looking for \"package\".", `{"total":75,"offset":0,"matches":[1,2,3,4,5,6,7,8,9,10]}`},
		{"more", "browser_find", `{"offset":10,"text":"package"}`, "More matches for \"package\".", ``},
	}
	var b Browsing
	for _, s := range steps {
		st, err := b.Parse(s.cmd)
		if err != nil {
			t.Fatalf("%q: %v", s.cmd, err)
		}
		args := argsJSON(st.Args)
		if st.Tool != s.tool || args != s.args || st.Say != s.say {
			t.Fatalf("%q = %s %s %q, want %s %s %q", s.cmd, st.Tool, args, st.Say, s.tool, s.args, s.say)
		}
		if s.result != "" {
			b.Observe(st, ok(s.result))
		}
	}
}
