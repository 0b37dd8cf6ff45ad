package browser

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestBlockedLocalFileIsSaid (issue 32 point 9): a web page's link, or
// window.open, to a local file is refused by Chromium without a request;
// the click answered "ok" with no reason. Now the result says the browser
// did not open it, and why.
func TestBlockedLocalFileIsSaid(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><meta charset="utf-8"><title>Links</title>
<a href="file:///etc/hostname">Local link</a>
<a href="file:///etc/hostname" target="_blank">Local link in a new tab</a>
<button onclick="window.open('file:///etc/hostname')">Open window</button>`)
	}))
	defer srv.Close()
	for _, name := range []string{"Local link", "Local link in a new tab", "Open window"} {
		t.Run(name, func(t *testing.T) {
			r := newToolRig(t)
			r.ok("browser_navigate", map[string]any{"url": srv.URL + "/"})
			list := r.ok("browser_list_interactives", nil)
			res, _, err := r.call("browser_overlay_act", map[string]any{"index": num(t, list, name), "action": "click"})
			if err != nil {
				t.Fatal(err)
			}
			said := res.Error + " " + strings.Join(res.Refused, " ")
			if !strings.Contains(said, "did not open file:///etc/hostname") || !strings.Contains(said, "may not open a local file") {
				// The log entry may follow the result: the next call says it.
				next, _, _ := r.call("browser_list_interactives", nil)
				said += " " + strings.Join(next.Refused, " ")
			}
			if !strings.Contains(said, "did not open file:///etc/hostname") || !strings.Contains(said, "may not open a local file") {
				t.Errorf("the click said no reason: %+v", res)
			}
		})
	}
}
