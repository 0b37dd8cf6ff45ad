package agent

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
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
		{"go to example.org", "browser_navigate", `{"url":"https://example.org"}`},
		{"перейди на http://127.0.0.1:8080/shop", "browser_navigate", `{"url":"http://127.0.0.1:8080/shop"}`},
	}
	for _, c := range cases {
		st, err := ParseBrowseCommand(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		b, _ := json.Marshal(st.Args)
		if st.Tool != c.tool || string(b) != c.args || st.Say == "" {
			t.Errorf("%q = %s %s (%q), want %s %s", c.in, st.Tool, b, st.Say, c.tool, c.args)
		}
	}
	for _, bad := range []struct{ in, want string }{
		{"click 0", "numbers start at 1"},
		{"type 3", "does not understand"},
		{"press Hyperspace", "unknown key"},
		{"find me a cheap kettle and buy it", ""},
		{"buy the cheapest kettle", "needs a model server"},
	} {
		_, err := ParseBrowseCommand(bad.in)
		if bad.want == "" {
			continue // "find …" is a valid orientation command
		}
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: %v, want %q", bad.in, err, bad.want)
		}
	}
	if _, err := ParseBrowseCommand("make coffee"); !errors.Is(err, ErrNeedsModel) {
		t.Errorf("unknown command: %v", err)
	}
}
