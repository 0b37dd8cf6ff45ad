package web_test

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/waymark/waymark/backend/agent/web"
	"github.com/waymark/waymark/backend/llm/llmtest"
)

// TestPasswordIntoAnotherSitesFrameAsksOnce: a page framing another site's
// login; the user's own password goes there only after the user's yes, and
// that yes is enough (the browser, which refuses such typing until asked, is
// told); a no types nothing.
func TestPasswordIntoAnotherSitesFrameAsksOnce(t *testing.T) {
	for _, c := range []struct {
		answer string
		typed  bool
	}{{"yes", true}, {"no", false}} {
		t.Run(c.answer, func(t *testing.T) {
			var mu sync.Mutex
			var hits []string
			var other string
			h := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				switch req.URL.Path {
				case "/hit":
					mu.Lock()
					hits = append(hits, req.URL.RawQuery)
					mu.Unlock()
				case "/login":
					fmt.Fprint(w, `<!doctype html><meta charset="utf-8"><title>Login</title><label>Password <input type="password" id="pw"></label>
<script>document.getElementById('pw').addEventListener('input', e => fetch('/hit?typed=' + e.target.value.length));</script>`)
				case "/framed":
					fmt.Fprintf(w, `<!doctype html><meta charset="utf-8"><title>Bank</title><p>Bank</p><iframe src="%s/login" style="width:400px;height:200px"></iframe>`, other)
				}
			})
			top := httptest.NewServer(h)
			defer top.Close()
			framed := httptest.NewUnstartedServer(h)
			framed.Start()
			defer framed.Close()
			_, port, _ := net.SplitHostPort(framed.Listener.Addr().String())
			other = "http://localhost:" + port
			r := newRig(t)
			lst := turn{"browser_list_interactives", map[string]any{}}
			srv := llmtest.New(t, scripted(t, []turn{lst, {"browser_overlay_act", map[string]any{"index": "{Password}", "action": "type", "text": "FramePass99"}}, lst}))
			var asked []string
			a := &web.Assistant{Reg: r.reg, Model: modelClient(t, srv.URL()), MaxSteps: 6, AskTimeout: 5 * time.Second, Ask: answering(&asked, []string{c.answer})}
			r.call("browser_navigate", map[string]any{"url": top.URL + "/framed"})
			if _, err := a.Run(ctxFor(t), "log in on "+top.URL+"/framed with the password FramePass99"); err != nil {
				t.Fatal(err)
			}
			if len(asked) != 1 || !strings.Contains(asked[0], "localhost:"+port) {
				t.Fatalf("asked %q, want one question naming the frame's site", asked)
			}
			time.Sleep(300 * time.Millisecond)
			mu.Lock()
			got := strings.Join(hits, ",")
			mu.Unlock()
			if typed := strings.Contains(got, "typed=11"); typed != c.typed {
				t.Fatalf("after %q the frame received %q (typed: %v, want %v)", c.answer, got, typed, c.typed)
			}
		})
	}
}
