package browser

import (
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

// Every browser tool's result is typed (Result[T], T the tool's own data
// type), and its output schema is made from that type: what MCP's tools/list
// and the frontend's generated types show. A schema that does not describe
// the result is a lie to every client, so real results on a real page are
// checked against it here, failures included.
func TestBrowserOutputSchemasHoldTheResults(t *testing.T) {
	r := newToolRig(t)
	ctx := testCtx(t)
	calls := []struct{ tool, args string }{
		{"browser_navigate", `{"url": "` + site.URL + `/form.html"}`},
		{"browser_list_interactives", `{}`},
		{"browser_list_interactives", `{"from_here": true, "limit": 5}`},
		{"browser_find", `{"text": "save"}`},
		{"browser_find_text", `{"text": "Postal"}`},
		{"browser_extract", `{}`},
		{"browser_read", `{}`},
		{"browser_read", `{"here": true}`},
		{"browser_overlay_show", `{}`},
		{"browser_overlay_hide", `{}`},
		{"browser_overlay_act", `{"index": 3, "action": "type", "text": "x@y.z"}`},
		{"browser_overlay_act", `{"index": 9999, "action": "click"}`},
		{"browser_act_by_index", `{"index": 1, "action": "click"}`},
		{"browser_press", `{"key": "Tab"}`},
		{"browser_focus_next", `{}`},
		{"browser_focus_prev", `{}`},
		{"browser_scroll", `{"to": "bottom"}`},
		{"browser_wait", `{"ms": 10}`},
		{"browser_table", `{}`},
		{"browser_tabs", `{}`},
		{"browser_switch_tab", `{"index": 1}`},
		{"browser_close_banners", `{}`},
		{"browser_screenshot", `{}`},
		{"browser_navigate", `{"url": "` + site.URL + `/search.html"}`},
		{"browser_back", `{}`},
		{"browser_forward", `{}`},
		{"browser_reload", `{}`},
	}
	for _, c := range calls {
		res, err := r.reg.Call(ctx, tools.Call{Name: c.tool, Args: json.RawMessage(c.args)}, tools.Context{})
		if err != nil {
			t.Fatalf("%s %s: %v", c.tool, c.args, err)
		}
		if _, ok := res.(Outcome); !ok {
			t.Fatalf("%s returned %T, not a Result", c.tool, res)
		}
		b, _ := json.Marshal(res)
		var s jsonschema.Schema
		if err := json.Unmarshal(r.reg.MustGet(c.tool).OutputSchema, &s); err != nil {
			t.Fatalf("%s's output schema: %v", c.tool, err)
		}
		rs, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("%s's output schema: %v", c.tool, err)
		}
		var inst any
		_ = json.Unmarshal(b, &inst)
		if err := rs.Validate(inst); err != nil {
			t.Errorf("%s %s: the result does not fit its output schema: %v\n%s", c.tool, c.args, err, b)
		}
	}
}

// A tool's Ref is the tool's own types: the call goes through the registry
// (its validation included) and the data comes back typed; a Ref that does
// not match its tool says so.
func TestBrowserRefsCallTheirTools(t *testing.T) {
	r := newToolRig(t)
	ctx := testCtx(t)
	nav, err := NavigateRef.Call(ctx, r.reg, NavigateArgs{URL: site.URL + "/form.html"})
	if err != nil || nav.Status != "ok" || nav.Data == nil || nav.Data.Title != "Form fixture" {
		t.Fatalf("navigate: %v %+v", err, nav)
	}
	list, err := ListInteractivesRef.Call(ctx, r.reg, ListInteractivesArgs{Limit: 5})
	if err != nil || list.Data == nil || len(list.Data.Items) != 5 || list.Data.Items[0].Number != 1 {
		t.Fatalf("list: %v %+v", err, list)
	}
	if _, err := ListInteractivesRef.Call(ctx, r.reg, ListInteractivesArgs{Limit: 501}); err == nil {
		t.Error("a limit over 500 went through the Ref unchecked")
	}
	wrong := tools.RefTo[ListInteractivesArgs, Result[TabsResult]]("browser_list_interactives")
	if _, err := wrong.Call(ctx, r.reg, ListInteractivesArgs{}); err == nil {
		t.Error("a Ref with another result type than its tool's was called")
	}
}
