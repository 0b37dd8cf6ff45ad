package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"os"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/tools"
)

// toolRig is a registry with the browser tools on a session of its own, so
// tests call tools exactly as the model, MCP and the CLI do.
type toolRig struct {
	t   *testing.T
	reg *tools.Registry
	ss  *Sessions
	// grant, when set, is the user's grant of every call (policy.go).
	grant *Grant
}

// reg2 gives the rig a fresh registry (to register tools on other sessions).
func (r *toolRig) reg2() *tools.Registry {
	r.reg = tools.New()
	return r.reg
}

func newToolRig(t *testing.T, opts ...func(*Options)) *toolRig {
	o := Options{Headless: true, ControlURL: testProc.ControlURL(), ScreenshotDir: t.TempDir()}
	for _, f := range opts {
		f(&o)
	}
	ss := NewSessions(o)
	t.Cleanup(func() { _ = ss.Close() })
	reg := tools.New()
	Register(reg, ss)
	return &toolRig{t: t, reg: reg, ss: ss}
}

// anyResult is any browser tool's Result, its data left as JSON.
type anyResult struct {
	Status  string          `json:"status"`
	Error   string          `json:"error"`
	Data    json.RawMessage `json:"data"`
	Refused []string        `json:"refused"`
}

// call runs a tool and returns its Result; a Go error (invalid arguments) is
// returned as err.
func (r *toolRig) call(name string, args any) (anyResult, map[string]any, error) {
	r.t.Helper()
	b, _ := json.Marshal(args)
	ctx := testCtx(r.t)
	if r.grant != nil {
		ctx = WithGrant(ctx, *r.grant)
	}
	out, err := r.reg.Call(ctx, tools.Call{Name: name, Args: b}, tools.Context{})
	if err != nil {
		return anyResult{}, nil, err
	}
	if _, ok := out.(Outcome); !ok {
		r.t.Fatalf("%s returned %T, not a browser Result", name, out)
	}
	var res anyResult
	b, _ = json.Marshal(out)
	_ = json.Unmarshal(b, &res)
	var data map[string]any
	_ = json.Unmarshal(res.Data, &data)
	return res, data, nil
}

// ok runs a tool that must succeed and returns its data.
func (r *toolRig) ok(name string, args any) map[string]any {
	r.t.Helper()
	res, data, err := r.call(name, args)
	if err != nil || res.Status != "ok" {
		r.t.Fatalf("%s(%v): err=%v result=%+v", name, args, err, res)
	}
	return data
}

// fails runs a tool that must fail as a tool result and returns the message.
func (r *toolRig) fails(name string, args any) string {
	r.t.Helper()
	res, _, err := r.call(name, args)
	if err != nil {
		return err.Error()
	}
	if res.Status != "error" || res.Error == "" {
		r.t.Fatalf("%s(%v) succeeded: %+v", name, args, res)
	}
	return res.Error
}

// num finds the number of the item called name in list data.
func num(t *testing.T, data map[string]any, name string) int {
	t.Helper()
	for _, key := range []string{"items", "matches"} {
		items, _ := data[key].([]any)
		for _, it := range items {
			m := it.(map[string]any)
			if m["name"] == name {
				return int(m["number"].(float64))
			}
		}
	}
	t.Fatalf("no %q in %v", name, data)
	return 0
}

func (r *toolRig) text(js string) string {
	s, err := r.ss.Get(context.Background())
	if err != nil {
		r.t.Fatal(err)
	}
	return evalText(r.t, s, js)
}

func TestToolNavigateAndHistory(t *testing.T) {
	r := newToolRig(t)
	d := r.ok("browser_navigate", map[string]any{"url": site.URL + "/search.html"})
	if d["title"] != "Search" || d["http_status"] != float64(200) || d["loaded"] != true {
		t.Fatalf("navigate: %v", d)
	}
	d = r.ok("browser_navigate", map[string]any{"url": site.URL + "/missing.html"})
	if d["http_status"] != float64(404) {
		t.Fatalf("a missing page reports status %v, want 404", d["http_status"])
	}
	if d = r.ok("browser_back", nil); d["title"] != "Search" {
		t.Fatalf("back: %v", d)
	}
	if d = r.ok("browser_forward", nil); !strings.HasSuffix(d["url"].(string), "/missing.html") {
		t.Fatalf("forward: %v", d)
	}
	if d = r.ok("browser_reload", nil); !strings.HasSuffix(d["url"].(string), "/missing.html") {
		t.Fatalf("reload: %v", d)
	}
	for _, c := range []struct{ url, want string }{
		{"", "url"},
		{"javascript:alert(1)", "only http, https and file"},
		{"chrome://settings", "only http, https and file"},
		{"not a url", "full address"},
	} {
		if msg := r.fails("browser_navigate", map[string]any{"url": c.url}); !strings.Contains(msg, c.want) {
			t.Errorf("navigate %q: %q lacks %q", c.url, msg, c.want)
		}
	}
}

func TestToolListPagingAndAct(t *testing.T) {
	r := newToolRig(t)
	r.ok("browser_navigate", map[string]any{"url": site.URL + "/form.html"})
	all := r.ok("browser_list_interactives", map[string]any{"limit": 500})
	total := int(all["total"].(float64))
	if total < 15 {
		t.Fatalf("form.html numbers %d elements: %v", total, all)
	}
	// Hidden, covered, off-screen and tabindex=-1 elements are never numbered.
	for _, hidden := range []string{"Ghost button", "Invisible button", "Covered button", "Skip link", "Not focusable"} {
		for _, it := range all["items"].([]any) {
			if it.(map[string]any)["name"] == hidden {
				t.Errorf("%q was numbered", hidden)
			}
		}
	}
	// A window: numbers count over the whole list.
	win := r.ok("browser_list_interactives", map[string]any{"limit": 5, "offset": 5})
	items := win["items"].([]any)
	if len(items) != 5 || items[0].(map[string]any)["number"] != float64(6) || win["has_more"] != true || win["next_offset"] != float64(10) {
		t.Fatalf("window 5..10: %v", win)
	}
	// limit/offset given with an act must be those of the last list.
	msg := r.fails("browser_overlay_act", map[string]any{"index": 6, "action": "click", "limit": 50, "offset": 0})
	if !strings.Contains(msg, "limit=5 offset=5") {
		t.Fatalf("act with another window's limit/offset: %q", msg)
	}
	list := r.ok("browser_list_interactives", map[string]any{"limit": 500})
	r.ok("browser_overlay_act", map[string]any{"index": num(t, list, "Open card"), "action": "click"})
	if got := r.text(`() => document.getElementById('card').textContent`); got != "Card opened" {
		t.Fatalf("click by number: card says %q", got)
	}
	r.ok("browser_overlay_act", map[string]any{"index": num(t, list, "Email address"), "action": "type", "text": "reader@example.org"})
	if got := r.text(`() => document.getElementById('email').value`); got != "reader@example.org" {
		t.Fatalf("type cleared and typed %q", got)
	}
	d := r.ok("browser_overlay_act", map[string]any{"index": num(t, list, "Country"), "action": "select", "text": "kazakh"})
	if got := r.text(`() => document.getElementById('country').value`); got != "kz" {
		t.Fatalf("select by partial text picked %q (%v)", got, d)
	}
	if msg := r.fails("browser_overlay_act", map[string]any{"index": num(t, list, "Country"), "action": "select", "text": "Atlantis"}); !strings.Contains(msg, "Atlantis") {
		t.Fatalf("select of a missing option: %q", msg)
	}
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"index": 0, "action": "click"}, "index"},
		{map[string]any{"index": 1, "action": "hover"}, "click"},
		{map[string]any{"index": 1, "action": "select"}, "text"},
		{map[string]any{"index": total + 1, "action": "click"}, "not in list"},
	} {
		if msg := r.fails("browser_overlay_act", c.args); !strings.Contains(msg, c.want) {
			t.Errorf("act %v: %q lacks %q", c.args, msg, c.want)
		}
	}
	if msg := r.fails("browser_list_interactives", map[string]any{"scope": "everything"}); !strings.Contains(msg, "page viewport main dialog") {
		t.Errorf("bad scope: %q", msg)
	}
	if msg := r.fails("browser_list_interactives", map[string]any{"limit": 501}); msg == "" {
		t.Error("limit 501 accepted")
	}
}

func TestToolActBeforeListAndAfterNavigation(t *testing.T) {
	r := newToolRig(t)
	r.ok("browser_navigate", map[string]any{"url": site.URL + "/search.html"})
	if msg := r.fails("browser_overlay_act", map[string]any{"index": 1, "action": "click"}); !strings.Contains(msg, "browser_list_interactives first") {
		t.Fatalf("act before any list: %q", msg)
	}
	r.ok("browser_list_interactives", nil)
	r.ok("browser_navigate", map[string]any{"url": site.URL + "/form.html"})
	if msg := r.fails("browser_overlay_act", map[string]any{"index": 1, "action": "click"}); !strings.Contains(msg, "stale") {
		t.Fatalf("act after navigation: %q", msg)
	}
}

func TestToolFind(t *testing.T) {
	r := newToolRig(t)
	r.ok("browser_navigate", map[string]any{"url": site.URL + "/form.html"})
	cases := []struct {
		role, text string
		want       string
	}{
		{"", "войти", "Войти в систему"},      // Cyrillic, lower case
		{"", "ВОЙТИ В", "Войти в систему"},    // upper case, partial
		{"", "help   CENTER", "Help center"},  // aria-label, spaces
		{"", "search the", "Search the site"}, // placeholder
		{"", "comment", "Comment"},            // title
		{"link", "новости", "Новости"},        // role + text
		{"textbox", "postal", "Postal code"},  // aria-labelledby
		{"checkbox", "", "Remember me"},       // role only
		{"button", "close", "Close dialog"},   // aria-label on a button
	}
	for _, c := range cases {
		d := r.ok("browser_find", map[string]any{"role": c.role, "text": c.text})
		m := d["matches"].([]any)
		if len(m) == 0 || m[0].(map[string]any)["name"] != c.want {
			t.Errorf("find(%q, %q) = %v, want first %q", c.role, c.text, m, c.want)
		}
	}
	d := r.ok("browser_find", map[string]any{"text": "no such thing at all"})
	if d["total"] != float64(0) || !strings.Contains(d["note"].(string), "Nothing matched") {
		t.Errorf("find of nothing: %v", d)
	}
	if msg := r.fails("browser_find", map[string]any{}); !strings.Contains(msg, "role or text") {
		t.Errorf("find without role or text: %q", msg)
	}
}

func TestToolPressAndFocus(t *testing.T) {
	r := newToolRig(t)
	r.ok("browser_navigate", map[string]any{"url": site.URL + "/search.html"})
	list := r.ok("browser_list_interactives", nil)
	r.ok("browser_overlay_act", map[string]any{"index": num(t, list, "Query"), "action": "type", "text": "Kazan"})
	d := r.ok("browser_press", map[string]any{"key": "Enter"})
	if d["navigated"] != true || d["title"] != "Results for Kazan" {
		t.Fatalf("Enter in the search field: %v", d)
	}
	for _, bad := range []string{"Ctrl+", "NoSuchKey", "Hyper+x"} {
		if msg := r.fails("browser_press", map[string]any{"key": bad}); msg == "" {
			t.Errorf("key %q accepted", bad)
		}
	}
}

func TestToolScrollLoadsMore(t *testing.T) {
	r := newToolRig(t)
	r.ok("browser_navigate", map[string]any{"url": site.URL + "/lazy.html"})
	first := r.ok("browser_list_interactives", map[string]any{"limit": 500})
	d := r.ok("browser_scroll", map[string]any{"to": "bottom"})
	if d["moved"] != true {
		t.Fatalf("scroll to bottom: %v", d)
	}
	grew := d["page_grew"] == true
	for i := 0; i < 3 && !grew; i++ {
		d = r.ok("browser_scroll", map[string]any{"by_y": 2000})
		grew = d["page_grew"] == true
	}
	if !grew || d["numbering_stale"] != true {
		t.Fatalf("wheel scrolling did not make the lazy list load more: %v", d)
	}
	again := r.ok("browser_list_interactives", map[string]any{"limit": 500})
	if again["total"].(float64) <= first["total"].(float64) {
		t.Fatalf("after loading more: %v elements, before %v", again["total"], first["total"])
	}
	if d := r.ok("browser_scroll", map[string]any{"to": "top"}); d["at_top"] != true {
		t.Fatalf("scroll to top: %v", d)
	}
	if msg := r.fails("browser_scroll", map[string]any{"to": "left"}); !strings.Contains(msg, "top bottom") {
		t.Errorf("bad to: %q", msg)
	}
}

// TestToolScrollToElement wheels the page until a numbered element is in
// view, there and back, and refuses numbers not in the list.
func TestToolScrollToElement(t *testing.T) {
	r := newToolRig(t)
	r.ok("browser_navigate", map[string]any{"url": site.URL + "/links5000.html"})
	// A first window numbers only its prefix: a number past it is refused
	// with the offset to list; the window holding 4000 numbers the page.
	r.ok("browser_list_interactives", map[string]any{})
	if msg := r.fails("browser_scroll", map[string]any{"index": 4000}); !strings.Contains(msg, "list with offset 51") {
		t.Fatalf("scroll to a number past the first window: %q", msg)
	}
	r.ok("browser_list_interactives", map[string]any{"offset": 3950})
	d := r.ok("browser_scroll", map[string]any{"index": 4000})
	if d["in_view"] != true || d["y"].(float64) < 1000 {
		t.Fatalf("scroll to element 4000: %v", d)
	}
	if d := r.ok("browser_scroll", map[string]any{"index": 1}); d["in_view"] != true || d["at_top"] != true {
		t.Fatalf("back to element 1: %v", d)
	}
	// A jump instead of the wheel: to an element, by pixels, to the bottom.
	if d := r.ok("browser_scroll", map[string]any{"index": 2500, "behavior": "instant"}); d["in_view"] != true || d["y"].(float64) < 1000 {
		t.Fatalf("instant scroll to element 2500: %v", d)
	}
	if d := r.ok("browser_scroll", map[string]any{"by_y": -300, "behavior": "instant"}); d["moved"] != true {
		t.Fatalf("instant scroll by -300: %v", d)
	}
	if d := r.ok("browser_scroll", map[string]any{"to": "bottom", "behavior": "instant"}); d["at_bottom"] != true {
		t.Fatalf("instant scroll to the bottom: %v", d)
	}
	for _, c := range []struct {
		args  map[string]any
		words string
	}{
		{map[string]any{"index": 99999}, "not in list"},
		{map[string]any{"index": 3, "to": "top"}, "alone"},
		{map[string]any{"by_y": 10, "behavior": "fast"}, "smooth"},
	} {
		if msg := r.fails("browser_scroll", c.args); !strings.Contains(msg, c.words) {
			t.Errorf("scroll %v: %q, want it to say %q", c.args, msg, c.words)
		}
	}
}

func TestToolExtractForListening(t *testing.T) {
	r := newToolRig(t)
	r.ok("browser_navigate", map[string]any{"url": site.URL + "/extract.html"})
	r.ok("browser_list_interactives", nil)
	d := r.ok("browser_extract", map[string]any{"mode": "summary"})
	text := d["text"].(string)
	for _, want := range []string{"Title: Погода в Казани", "Level 1: Weather in Kazan", "Level 2: Tomorrow", "navigation \"Main menu\"", "main",
		"sunny with a light wind", "E-mail (textbox) = \"me@example.org\", required", "Password (password field)", "City (combobox) = \"Kazan\"", "not checked"} {
		if !strings.Contains(text, want) {
			t.Errorf("summary lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "topsecret") {
		t.Errorf("the summary reads a password aloud:\n%s", text)
	}
	if strings.Contains(text, "Ads here") {
		t.Errorf("the main-text gist includes the aside:\n%s", text)
	}
	if msg := r.fails("browser_extract", map[string]any{"mode": "full"}); !strings.Contains(msg, "summary") {
		t.Errorf("bad mode: %q", msg)
	}
}

func TestToolScreenshot(t *testing.T) {
	r := newToolRig(t)
	r.ok("browser_navigate", map[string]any{"url": site.URL + "/form.html"})
	for _, full := range []bool{false, true} {
		d := r.ok("browser_screenshot", map[string]any{"full_page": full})
		f, err := os.Open(d["path"].(string))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("screenshot is not a PNG: %v", err)
		}
		h := img.Bounds().Dy()
		if full && h < 1500 || !full && h > 1000 {
			t.Errorf("full_page=%v: image height %d", full, h)
		}
	}
}

func TestToolOverlayShowsWithoutARIA(t *testing.T) {
	r := newToolRig(t)
	r.ok("browser_navigate", map[string]any{"url": site.URL + "/form.html"})
	ariaBefore := r.text(`() => [...document.querySelectorAll('*:not(waymark-overlay)')].map(e => [...e.attributes].filter(a => a.name.startsWith('aria') || a.name === 'role').map(a => a.name + '=' + a.value).join(',')).join('|')`)
	d := r.ok("browser_overlay_show", nil)
	if d["badges"].(float64) < 10 || d["listed_now"] != true {
		t.Fatalf("overlay: %v", d)
	}
	ariaAfter := r.text(`() => [...document.querySelectorAll('*:not(waymark-overlay)')].map(e => [...e.attributes].filter(a => a.name.startsWith('aria') || a.name === 'role').map(a => a.name + '=' + a.value).join(',')).join('|')`)
	if ariaBefore != ariaAfter {
		t.Fatalf("showing the numbers changed the page's ARIA:\n%s\n%s", ariaBefore, ariaAfter)
	}
	// The badges are hidden from screen readers: the accessibility tree has no
	// node whose name is a bare badge number.
	s, _ := r.ss.Get(context.Background())
	tree := evalText(t, s, `() => document.body.innerText`)
	if strings.Contains(tree, "\n1\n") {
		t.Errorf("badge numbers appear in the page text")
	}
	if got := r.text(`() => document.querySelector('waymark-overlay').getAttribute('aria-hidden')`); got != "true" {
		t.Errorf("the overlay's own layer is not hidden from screen readers: aria-hidden=%q", got)
	}
	r.ok("browser_overlay_hide", nil)
	if msg := r.fails("browser_overlay_show", map[string]any{"scheme": "pink"}); !strings.Contains(msg, "yellow-on-black") {
		t.Errorf("bad scheme: %q", msg)
	}
}

func TestToolWait(t *testing.T) {
	r := newToolRig(t)
	r.ok("browser_navigate", map[string]any{"url": site.URL + "/search.html"})
	for _, args := range []map[string]any{{"ms": 50}, {"network_idle": true}, {"state": "load"}, {}} {
		r.ok("browser_wait", args)
	}
	for _, args := range []map[string]any{{"ms": -1}, {"ms": 30001}, {"state": "visible"}, {"state": "soon"}} {
		if msg := r.fails("browser_wait", args); msg == "" {
			t.Errorf("wait %v accepted", args)
		}
	}
}

func TestToolErrorsAreResultsNotCrashes(t *testing.T) {
	r := newToolRig(t)
	_, _, err := r.call("browser_overlay_act", map[string]any{"index": "five", "action": "click"})
	if !errors.Is(err, tools.ErrInvalidArgs) {
		t.Fatalf("a string index: %v", err)
	}
	_, _, err = r.call("browser_navigate", map[string]any{"url": "x", "selector": "#a"})
	if err == nil || !strings.Contains(err.Error(), "selector") {
		t.Fatalf("an unknown argument (selector) was accepted: %v", err)
	}
}

func init() {
	extraPages["/dates.html"] = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dates</title></head><body><main>
<label>Arrival <input type="date" id="arrival"></label>
<label>Time <input type="time" id="at"></label>
<label>Name <input id="name"></label></main></body></html>`
}

// TestToolTypeIntoDateAndTime types into fields made of parts (month, day,
// year; hours, minutes, AM/PM) from their first part, as a keyboard user would.
// The result says how much was typed, never the value (issue 21).
func TestToolTypeIntoDateAndTime(t *testing.T) {
	r := newToolRig(t)
	r.ok("browser_navigate", map[string]any{"url": site.URL + "/dates.html"})
	l := r.ok("browser_list_interactives", map[string]any{})
	num := func(name string) int {
		for _, it := range l["items"].([]any) {
			m := it.(map[string]any)
			if m["name"] == name {
				return int(m["number"].(float64))
			}
		}
		t.Fatalf("no %q in %v", name, l)
		return 0
	}
	for _, c := range []struct{ field, typed, want string }{
		{"Arrival", "12252015", "2015-12-25"},
		{"Time", "0210P", "14:10"},
		{"Name", "Natasha", "Natasha"},
	} {
		d := r.ok("browser_overlay_act", map[string]any{"index": num(c.field), "action": "type", "text": c.typed})
		id := fmt.Sprint(l["items"].([]any)[num(c.field)-1].(map[string]any)["id"])
		if got := r.text(`() => document.querySelector('[data-blind-id="` + id + `"]').value`); got != c.want {
			t.Errorf("typed %q into %s: the field holds %q, want %q", c.typed, c.field, got, c.want)
		}
		if d["value"] != nil || d["typed_chars"] == nil {
			t.Errorf("typed %q into %s: the result says the value back or not how much was typed: %v", c.typed, c.field, d)
		}
	}
}
