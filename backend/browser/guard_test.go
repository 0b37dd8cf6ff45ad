package browser

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/go-rod/rod/lib/proto"
)

// TestGetLoginFormKeepsThePassword: a login form that sends by GET would
// put the password into the address (the tab's history, the profile's
// history and cache, what read page says). Typed at once (type) or key by
// key (browser_press), the password never reaches the address: the form's
// navigation is stopped, the result says so, the server never sees the
// password, and neither the tab's history nor read page holds it (issue 21).
func TestGetLoginFormKeepsThePassword(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.URL.String())
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/signin":
			fmt.Fprint(w, `<!doctype html><title>Sign in</title><form method="get" action="/welcome">
<label>User <input name="user"></label><label>Password <input type="password" name="pw"></label><button>Sign in</button></form>`)
		default:
			fmt.Fprintf(w, `<!doctype html><title>Welcome</title><p>Welcome %s, your address was %s</p>`, htmlEscape(r.URL.Query().Get("user")), htmlEscape(r.URL.String()))
		}
	}))
	defer srv.Close()
	for _, c := range []struct {
		name, password string
		keys           bool
	}{
		{"typed at once", "hunter2-once", false},
		{"typed key by key", "Kx9-keys", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newToolRig(t)
			r.ok("browser_navigate", map[string]any{"url": srv.URL + "/signin"})
			list := r.ok("browser_list_interactives", nil)
			r.ok("browser_overlay_act", map[string]any{"index": num(t, list, "User"), "action": "type", "text": "anna"})
			var sent anyResult
			if c.keys {
				r.ok("browser_overlay_act", map[string]any{"index": num(t, list, "Password"), "action": "click"})
				for _, ch := range c.password {
					r.ok("browser_press", map[string]any{"key": string(ch)})
				}
				sent, _, _ = r.call("browser_press", map[string]any{"key": "Enter"})
			} else {
				r.ok("browser_overlay_act", map[string]any{"index": num(t, list, "Password"), "action": "type", "text": c.password})
				sent, _, _ = r.call("browser_overlay_act", map[string]any{"index": num(t, list, "Sign in"), "action": "click"})
			}
			if len(sent.Refused) == 0 || !strings.Contains(strings.Join(sent.Refused, " "), "password in the address") {
				t.Errorf("the result does not say the form was stopped: %+v", sent)
			}
			mu.Lock()
			got := strings.Join(seen, "\n")
			mu.Unlock()
			if strings.Contains(got, c.password) {
				t.Errorf("the server saw the password:\n%s", got)
			}
			s, _ := r.ss.Get(testCtx(t))
			h, err := proto.PageGetNavigationHistory{}.Call(s.page)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range h.Entries {
				if strings.Contains(e.URL, c.password) || strings.Contains(e.Title, c.password) {
					t.Errorf("the tab's history holds the password: %s", e.URL)
				}
			}
			if text := r.ok("browser_extract", nil)["text"].(string); strings.Contains(text, c.password) {
				t.Errorf("read page says the password: %s", text)
			}
		})
	}
}
