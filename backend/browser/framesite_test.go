package browser

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestPasswordInOtherSitesFrame (issue 32 point 5): a page on 127.0.0.1
// framing a login on localhost: the list names the frame's site on the
// field, and typing a password there is refused with that site named until
// the same command comes again; nothing reaches the frame before. A frame
// of the page's own site asks nothing. On the old code the field had no site
// and the password went in at once.
func TestPasswordInOtherSitesFrame(t *testing.T) {
	var hits hitLog
	login := `<!doctype html><meta charset="utf-8"><title>Login</title>
<label>Password <input type="password" id="pw"></label>
<script>document.getElementById('pw').addEventListener('input', e => fetch('/hit?typed=' + e.target.value.length));</script>`
	var other string
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/hit":
			hits.add(r.Host + "?" + r.URL.RawQuery)
		case "/login":
			fmt.Fprint(w, login)
		case "/framed":
			fmt.Fprintf(w, `<!doctype html><meta charset="utf-8"><title>Bank</title><p>Bank</p><iframe src="%s/login" style="width:400px;height:200px"></iframe>`, other)
		case "/own":
			fmt.Fprint(w, `<!doctype html><meta charset="utf-8"><title>Bank</title><p>Bank</p><iframe src="/login" style="width:400px;height:200px"></iframe>`)
		}
	})
	top := httptest.NewServer(h)
	defer top.Close()
	framed := newServerOn("localhost", h)
	defer framed.Close()
	other = framed.URL
	site := strings.TrimPrefix(framed.URL, "http://")

	s := newSession(t)
	ctx := testCtx(t)
	if _, err := s.Navigate(ctx, top.URL+"/framed"); err != nil {
		t.Fatal(err)
	}
	list := mustList(t, s, ListOptions{})
	n := numberOf(t, list, "Password")
	if got := list.Items[n-1].FrameSite; got != site {
		t.Errorf("the field's frame site is %q, want %q", got, site)
	}
	s.noteTyped(n, "FramePass99")
	_, err := s.Act(ctx, ActOptions{Index: n, Action: "type", Text: "FramePass99"})
	if err == nil || !strings.Contains(err.Error(), "password field in a frame from "+site) {
		t.Fatalf("typing a password into another site's frame was not asked about: %v", err)
	}
	time.Sleep(300 * time.Millisecond)
	if got := hits.all(); got != "" {
		t.Errorf("the frame got input before the user said yes: %s", got)
	}
	// A door that asked the user itself says so for that site only.
	if _, err := s.Act(WithConfirmedSite(ctx, "elsewhere.test:1"), ActOptions{Index: n, Action: "type", Text: "ThirdPass33"}); err == nil {
		t.Error("a yes for another site let the password in")
	}
	if _, err := s.Act(WithConfirmedSite(ctx, site), ActOptions{Index: n, Action: "type", Text: "Fourth4"}); err != nil {
		t.Errorf("a yes for the frame's site: %v", err)
	}
	// Another text is another command: asked again.
	if _, err := s.Act(ctx, ActOptions{Index: n, Action: "type", Text: "OtherPass11"}); err == nil {
		t.Error("a different text went in without being asked about")
	}
	if _, err := s.Act(ctx, ActOptions{Index: n, Action: "type", Text: "OtherPass11"}); err != nil {
		t.Fatalf("the same command again did not type: %v", err)
	}
	for i := 0; i < 20 && !strings.Contains(hits.all(), "typed=11"); i++ {
		time.Sleep(100 * time.Millisecond)
	}
	if !strings.Contains(hits.all(), "typed=11") {
		t.Errorf("the confirmed password did not reach the field: %q", hits.all())
	}

	// The page's own site in a frame: no question.
	if _, err := s.Navigate(ctx, top.URL+"/own"); err != nil {
		t.Fatal(err)
	}
	list = mustList(t, s, ListOptions{})
	n = numberOf(t, list, "Password")
	if got := list.Items[n-1].FrameSite; got != "" {
		t.Errorf("a frame of the page's own site has frame site %q", got)
	}
	if _, err := s.Act(ctx, ActOptions{Index: n, Action: "type", Text: "OwnPass123"}); err != nil {
		t.Errorf("typing into the page's own frame: %v", err)
	}
}
