package browser

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/tools"
	"github.com/waymark/waymark/backend/tools/toolstest"
)

var updateSchemas = flag.Bool("update-schemas", false, "rewrite testdata/tool_schemas.golden")

// browserArgCases records, for every browser tool, arguments it accepts and
// arguments it refuses with an invalid-arguments error naming what was wrong.
var browserArgCases = []struct {
	tool, args string
	refuse     string // "" = accepted
}{
	{"browser_navigate", `{"url": "https://example.org/"}`, ""},
	{"browser_navigate", `{}`, "url"},
	{"browser_navigate", `{"url": ""}`, "url"},
	{"browser_navigate", `{"url": "x", "selector": "#a"}`, `unknown field "selector"; allowed fields: url`},

	{"browser_wait", `{}`, ""},
	{"browser_wait", `{"ms": 30000, "network_idle": true, "state": "domcontentloaded"}`, ""},
	{"browser_wait", `{"ms": -1}`, "minimum"},
	{"browser_wait", `{"ms": 30001}`, "maximum"},
	{"browser_wait", `{"state": "idle"}`, "state"},
	{"browser_wait", `{"network_idle": "yes"}`, "network_idle"},

	{"browser_back", `{}`, ""},
	{"browser_back", `{"steps": 2}`, `unknown field "steps"; allowed fields: none`},
	{"browser_forward", `{}`, ""},
	{"browser_forward", `{"steps": 2}`, `unknown field "steps"; allowed fields: none`},
	{"browser_reload", `{}`, ""},
	{"browser_reload", `{"hard": true}`, `unknown field "hard"; allowed fields: none`},
	{"browser_overlay_hide", `{}`, ""},
	{"browser_overlay_hide", `{"all": true}`, `unknown field "all"; allowed fields: none`},
	{"browser_tabs", `{}`, ""},
	{"browser_tabs", `{"index": 1}`, `unknown field "index"; allowed fields: none`},
	{"browser_close_banners", `{}`, ""},
	{"browser_close_banners", `{"accept": true}`, `unknown field "accept"; allowed fields: none`},

	{"browser_list_interactives", `{}`, ""},
	{"browser_list_interactives", `{"scope": "viewport", "limit": 500, "offset": 0, "from_here": true}`, ""},
	{"browser_list_interactives", `{"scope": "all"}`, "scope"},
	{"browser_list_interactives", `{"limit": 0}`, "minimum"},
	{"browser_list_interactives", `{"limit": 501}`, "maximum"},
	{"browser_list_interactives", `{"offset": -1}`, "minimum"},

	{"browser_overlay_show", `{}`, ""},
	{"browser_overlay_show", `{"scheme": "white-on-blue"}`, ""},
	{"browser_overlay_show", `{"scheme": "red"}`, "scheme"},

	{"browser_find", `{}`, ""},
	{"browser_find", `{"role": "button", "text": "go", "limit": 100, "offset": 0}`, ""},
	{"browser_find", `{"limit": 101}`, "maximum"},
	{"browser_find", `{"limit": 0}`, "minimum"},
	{"browser_find", `{"offset": -1}`, "minimum"},
	{"browser_find", `{"name": "go"}`, `unknown field "name"; allowed fields: limit, offset, role, text`},

	{"browser_overlay_act", `{"index": 1, "action": "click"}`, ""},
	{"browser_overlay_act", `{"index": 1, "action": "type", "text": "a", "limit": 50, "offset": 0}`, ""},
	{"browser_overlay_act", `{"index": 0, "action": "click"}`, "minimum"},
	{"browser_overlay_act", `{"index": 1}`, "action"},
	{"browser_overlay_act", `{"action": "click"}`, "index"},
	{"browser_overlay_act", `{"index": 1, "action": "hover"}`, "action"},
	{"browser_overlay_act", `{"index": 1, "action": "click", "limit": 501}`, "maximum"},
	{"browser_overlay_act", `{"index": 1, "action": "click", "offset": null}`, "offset"},

	{"browser_dialog", `{"accept": true}`, ""},
	{"browser_dialog", `{"accept": false, "text": "Pierre"}`, ""},
	{"browser_dialog", `{}`, "accept"},
	{"browser_dialog", `{"accept": true, "text": null}`, "text"},
	{"browser_dialog", `{"accept": "yes"}`, "accept"},

	{"browser_focus_next", `{}`, ""},
	{"browser_focus_next", `{"role": "link"}`, ""},
	{"browser_focus_next", `{"role": 1}`, "role"},
	{"browser_focus_prev", `{"role": "button"}`, ""},
	{"browser_focus_prev", `{"index": 1}`, `unknown field "index"; allowed fields: role`},

	{"browser_act_by_index", `{"index": 1, "action": "select", "text": "x"}`, ""},
	{"browser_act_by_index", `{"index": 1, "action": "click", "limit": 5}`, `unknown field "limit"; allowed fields: action, index, text`},
	{"browser_act_by_index", `{"index": 0, "action": "click"}`, "minimum"},
	{"browser_act_by_index", `{"index": 1}`, "action"},

	{"browser_open_in_new_tab", `{"index": 1}`, ""},
	{"browser_open_in_new_tab", `{}`, "index"},
	{"browser_open_in_new_tab", `{"index": 0}`, "minimum"},

	{"browser_switch_tab", `{}`, ""},
	{"browser_switch_tab", `{"index": 2}`, ""},
	{"browser_switch_tab", `{"title_contains": "War"}`, ""},
	{"browser_switch_tab", `{"index": 0}`, "minimum"},
	{"browser_switch_tab", `{"title": "War"}`, `unknown field "title"; allowed fields: index, title_contains`},

	{"browser_close_tab", `{}`, ""},
	{"browser_close_tab", `{"index": 1}`, ""},
	{"browser_close_tab", `{"index": 0}`, "minimum"},

	{"browser_click_and_wait_download", `{"index": 1}`, ""},
	{"browser_click_and_wait_download", `{"index": 1, "timeout_ms": 100}`, ""},
	{"browser_click_and_wait_download", `{"index": 1, "timeout_ms": 99}`, "minimum"},
	{"browser_click_and_wait_download", `{"index": 1, "timeout_ms": 600001}`, "maximum"},
	{"browser_click_and_wait_download", `{"timeout_ms": 1000}`, "index"},

	{"browser_download_wait", `{}`, ""},
	{"browser_download_wait", `{"timeout_ms": 600000}`, ""},
	{"browser_download_wait", `{"timeout_ms": 50}`, "minimum"},
	{"browser_download_wait", `{"index": 1}`, `unknown field "index"; allowed fields: timeout_ms`},

	{"browser_upload", `{"index": 1, "files": ["/tmp/a.txt"]}`, ""},
	{"browser_upload", `{"index": 1, "files": []}`, "files"},
	{"browser_upload", `{"index": 1}`, "files"},
	{"browser_upload", `{"index": 1, "files": [""]}`, "files"},
	{"browser_upload", `{"index": 1, "files": null}`, "files"},
	{"browser_upload", `{"files": ["/tmp/a.txt"]}`, "index"},

	{"browser_press", `{"key": "Enter"}`, ""},
	{"browser_press", `{}`, "key"},
	{"browser_press", `{"key": ""}`, "key"},

	{"browser_scroll", `{}`, ""},
	{"browser_scroll", `{"to": "top"}`, ""},
	{"browser_scroll", `{"by_y": -200.5, "by_x": 3}`, ""},
	{"browser_scroll", `{"index": 2, "behavior": "instant"}`, ""},
	{"browser_scroll", `{"to": "middle"}`, "to"},
	{"browser_scroll", `{"behavior": "fast"}`, "behavior"},
	{"browser_scroll", `{"index": 0}`, "minimum"},
	{"browser_scroll", `{"by_y": "1"}`, "by_y"},

	{"browser_extract", `{}`, ""},
	{"browser_extract", `{"mode": "summary"}`, ""},
	{"browser_extract", `{"mode": "full"}`, "mode"},

	{"browser_read", `{}`, ""},
	{"browser_read", `{"from": 10, "chars": 200, "continue_url": "https://example.org/"}`, ""},
	{"browser_read", `{"heading": 1, "chars": 6000}`, ""},
	{"browser_read", `{"from": -1}`, "minimum"},
	{"browser_read", `{"chars": 199}`, "minimum"},
	{"browser_read", `{"chars": 6001}`, "maximum"},
	{"browser_read", `{"heading": 0}`, "minimum"},

	{"browser_find_text", `{"text": "malloc"}`, ""},
	{"browser_find_text", `{"text": "malloc", "occurrence": 3}`, ""},
	{"browser_find_text", `{"text": "malloc", "last": true}`, ""},
	{"browser_find_text", `{}`, "text"},
	{"browser_find_text", `{"text": ""}`, "text"},
	{"browser_find_text", `{"text": "malloc", "occurrence": 0}`, "minimum"},

	{"browser_table", `{}`, ""},
	{"browser_table", `{"table": 2, "row": 3, "column": 4, "mode": "column"}`, ""},
	{"browser_table", `{"mode": "table"}`, ""},
	{"browser_table", `{"row": 0}`, "minimum"},
	{"browser_table", `{"mode": "grid"}`, "mode"},

	{"browser_screenshot", `{}`, ""},
	{"browser_screenshot", `{"full_page": true}`, ""},
	{"browser_screenshot", `{"full_page": 1}`, "full_page"},
}

// closedToolRegistry is the browser tools on sessions that are closed: an
// accepted call gets as far as starting the browser and answers with an error
// result; a refused one never gets there.
func closedToolRegistry(t *testing.T) *tools.Registry {
	ss := NewSessions(Options{Headless: true})
	if err := ss.Close(); err != nil {
		t.Fatal(err)
	}
	reg := tools.New()
	Register(reg, ss)
	return reg
}

// TestToolArgumentsAcceptAndRefuse calls every browser tool with the recorded
// arguments: the valid ones pass validation and decoding (and reach the
// closed browser), the invalid ones are refused with a Go error naming the
// field. (Written before the tools moved to one file each; it passed on both sides.)
func TestToolArgumentsAcceptAndRefuse(t *testing.T) {
	reg := closedToolRegistry(t)
	seen := map[string]bool{}
	for _, c := range browserArgCases {
		seen[c.tool] = true
		out, err := reg.Call(context.Background(), tools.Call{Name: c.tool, Args: json.RawMessage(c.args)}, tools.Context{})
		if c.refuse == "" {
			res, _ := out.(Outcome)
			msg, failed := "", false
			if res != nil {
				msg, failed = res.Failed()
			}
			if err != nil || !failed || !strings.Contains(msg, "the browser could not be started") {
				t.Errorf("%s %s: %v %+v; want it accepted (and the closed browser reported)", c.tool, c.args, err, out)
			}
			continue
		}
		if err == nil || !errors.Is(err, tools.ErrInvalidArgs) || !strings.Contains(err.Error(), c.refuse) {
			t.Errorf("%s %s: err = %v; want invalid arguments naming %q", c.tool, c.args, err, c.refuse)
		}
		t.Logf("%s %.60s → %v", c.tool, c.args, err)
	}
	for _, name := range reg.Names() {
		if !seen[name] {
			t.Errorf("tool %s has no recorded arguments", name)
		}
	}
}

// TestToolSchemasKeepTheirShape compares every browser tool's input schema,
// descriptions left out, with testdata/tool_schemas.golden (rewrite it with
// -update-schemas when a change is meant).
func TestToolSchemasKeepTheirShape(t *testing.T) {
	toolstest.CheckSchemas(t, closedToolRegistry(t), nil, filepath.Join("testdata", "tool_schemas.golden"), *updateSchemas)
}
