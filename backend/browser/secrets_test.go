package browser

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestSecretForms: an address or a body carrying a typed password in a
// simple disguise is recognised (issue 32 point 4: the guard knew only the
// password as it is and %-encoded; btoa(password) and the password reversed
// went out).
func TestSecretForms(t *testing.T) {
	const pw = "Hunter2Secret"
	rev := reverse(pw)
	b64 := base64.StdEncoding.EncodeToString
	var ts typedSecrets
	ts.add(pw)
	for _, c := range []struct {
		addr string
		want bool
	}{
		{"http://x.test/hit?p=" + pw, true},
		{"http://x.test/hit?p=" + url.QueryEscape(pw), true},
		{"http://x.test/hit?b64=" + b64([]byte(pw)), true},
		{"http://x.test/hit?b64=" + url.QueryEscape(b64([]byte(pw))), true},
		{"http://x.test/hit?b64=" + base64.RawURLEncoding.EncodeToString([]byte(pw)), true},
		{"http://x.test/hit?h=" + hex.EncodeToString([]byte(pw)), true},
		{"http://x.test/hit?h=" + strings.ToUpper(hex.EncodeToString([]byte(pw))), true},
		{"http://x.test/hit?r=" + rev, true},
		{"http://x.test/hit?rb=" + b64([]byte(rev)), true},
		{"http://x.test/hit?br=" + reverse(b64([]byte(pw))), true},
		{"http://x.test/hit?j=" + b64([]byte(`{"user":"anna","pw":"`+pw+`"}`)), true},
		{"http://x.test/hit?j=" + b64([]byte(`{"u":"a","pw":"`+pw+`"}`)), true},
		{"http://x.test/hit?j=" + b64([]byte(`x`+pw+`y`)), true},
		{"http://x.test/hit?k=" + b64([]byte(pw[:len(pw)-2])), true}, // sent at a key before the last
		{"http://x.test/" + hex.EncodeToString([]byte(rev)) + "/img.png", true},
		{"http://x.test/hunter/secret?page=2", false},
		{"http://x.test/hit?b64=" + b64([]byte("something else entirely")), false},
		{"http://x.test/hit?h=" + hex.EncodeToString([]byte("Hunt")), false},
	} {
		if got := ts.carriedBy(c.addr); got != c.want {
			t.Errorf("carriedBy(%s) = %v, want %v", c.addr, got, c.want)
		}
	}
	for _, c := range []struct {
		body string
		want bool
	}{
		{"user=anna&pw=" + pw, false}, // the form's own submit
		{`{"password":"` + pw + `"}`, false},
		{"d=" + b64([]byte(pw)), true},
		{"d=" + hex.EncodeToString([]byte(pw)), true},
		{"d=" + rev, true},
		{"d=" + url.QueryEscape(b64([]byte(rev))), true},
	} {
		if got := ts.codedInBody(c.body); got != c.want {
			t.Errorf("codedInBody(%s) = %v, want %v", c.body, got, c.want)
		}
	}
}

// exfilPage is a login page that sends what is typed into its password
// field, in the way named by its path.
func exfilPage(how string) string {
	send := map[string]string{
		"b64":      `location = '/hit?b64=' + btoa(v)`,
		"reversed": `location = '/hit?r=' + v.split('').reverse().join('')`,
		"revb64":   `location = '/hit?rb=' + encodeURIComponent(btoa(v.split('').reverse().join('')))`,
		"urlsafe":  `location = '/hit?u=' + btoa(v).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')`,
		"hex":      `new Image().src = '/hit?h=' + [...v].map(c => c.charCodeAt(0).toString(16).padStart(2, '0')).join('')`,
		"fetch":    `fetch('/hit?f=' + btoa(JSON.stringify({u: 'anna', p: v})))`,
		"body":     `fetch('/hit', {method: 'POST', body: 'd=' + btoa(v)})`,
	}[how]
	return `<!doctype html><meta charset="utf-8"><title>Sign in</title>
<form method="post" action="/login"><label>User <input name="user"></label>
<label>Password <input type="password" name="pw" id="pw"></label><button>Sign in</button></form>
<script>
const pw = document.getElementById('pw');
pw.addEventListener('input', () => { const v = pw.value; ` + send + `; });
pw.addEventListener('change', () => { const v = pw.value; ` + send + `; });
</script>`
}

// exfilServer serves exfilPage at /NAME and records everything it is sent.
type exfilServer struct {
	*httptest.Server
	mu   sync.Mutex
	seen []string
}

func newExfilServer() *exfilServer {
	e := &exfilServer{}
	e.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := ""
		if r.Body != nil {
			b := make([]byte, 4096)
			n, _ := r.Body.Read(b)
			body = string(b[:n])
		}
		e.mu.Lock()
		e.seen = append(e.seen, r.Method+" "+r.URL.String()+" "+body)
		e.mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/hit":
			fmt.Fprint(w, `<!doctype html><title>Got it</title><p>ok</p>`)
		case "/login":
			fmt.Fprint(w, `<!doctype html><title>Welcome</title><p>Welcome</p>`)
		default:
			fmt.Fprint(w, exfilPage(strings.TrimPrefix(r.URL.Path, "/")))
		}
	}))
	return e
}

// leaked says which request carried the password in a simple form, or
// reached /hit at all (a part of the password sent at a key).
func (e *exfilServer) leaked(pw string) string {
	var ts typedSecrets
	ts.add(pw)
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, s := range e.seen {
		if strings.HasPrefix(s, "POST /login ") {
			continue // the user's own submit
		}
		if ts.carriedBy(s) || ts.codedInBody(s) || strings.Contains(s, "/hit") {
			return s
		}
	}
	return ""
}

// TestTypedPasswordNeverLeavesDisguised (issue 32 point 4): a page that sends
// what is typed into its password field, at every key and on change, as
// btoa(password), reversed, reversed and in base64, url-safe base64, hex in
// an image's address, base64 JSON in a fetch, base64 in a fetch's body:
// nothing of it reaches the server (on the old code btoa and reversed went
// out as navigations, the others as subresource requests), and the user's
// own submit of the form still does.
func TestTypedPasswordNeverLeavesDisguised(t *testing.T) {
	for i, how := range []string{"b64", "reversed", "revb64", "urlsafe", "hex", "fetch", "body"} {
		t.Run(how, func(t *testing.T) {
			srv := newExfilServer()
			defer srv.Close()
			pw := fmt.Sprintf("Hunter%dSecret", i+2)
			r := newToolRig(t)
			r.ok("browser_navigate", map[string]any{"url": srv.URL + "/" + how})
			list := r.ok("browser_list_interactives", nil)
			r.ok("browser_overlay_act", map[string]any{"index": num(t, list, "User"), "action": "type", "text": "anna"})
			r.ok("browser_overlay_act", map[string]any{"index": num(t, list, "Password"), "action": "type", "text": pw})
			r.call("browser_press", map[string]any{"key": "Tab"}) // change fires
			time.Sleep(500 * time.Millisecond)
			if got := srv.leaked(pw); got != "" {
				t.Errorf("the server got the password: %s", got)
			}
			if how == "b64" {
				// The user's own submit of the form sends it.
				list = r.ok("browser_list_interactives", nil)
				r.call("browser_overlay_act", map[string]any{"index": num(t, list, "Sign in"), "action": "click"})
				time.Sleep(300 * time.Millisecond)
				srv.mu.Lock()
				all := strings.Join(srv.seen, "\n")
				srv.mu.Unlock()
				if !strings.Contains(all, "POST /login user=anna&pw="+pw) {
					t.Errorf("the user's own submit did not reach the server:\n%s", all)
				}
			}
		})
	}
}

// TestTypedPasswordNotOnDisk (issue 32 point 4): with a profile kept on disk,
// the page that sends btoa(password) leaves no form of the password in any
// file of the profile (History, Sessions, Cache…) once the session closed.
func TestTypedPasswordNotOnDisk(t *testing.T) {
	srv := newExfilServer()
	defer srv.Close()
	dir := filepath.Join(t.TempDir(), "profile")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	s, err := Launch(ctx, Options{Headless: true, ProfileDir: dir, ScreenshotDir: t.TempDir(), DownloadDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	const pw = "Disk7Secret"
	if _, err := s.Navigate(ctx, srv.URL+"/b64"); err != nil {
		t.Fatal(err)
	}
	list, err := s.List(ctx, ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n := numberOf(t, list, "Password")
	s.noteTyped(n, pw)
	_, _ = s.Act(ctx, ActOptions{Index: n, Action: "type", Text: pw})
	_, _ = s.Press(ctx, "Tab")
	time.Sleep(500 * time.Millisecond)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	var ts typedSecrets
	ts.add(pw)
	files := 0
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		files++
		if ts.carriedBy(string(b)) {
			t.Errorf("%s holds the password", strings.TrimPrefix(p, dir))
		}
		return nil
	})
	if files == 0 {
		t.Fatal("the profile has no files: nothing was checked")
	}
	t.Logf("%d files of the kept profile checked", files)
	if got := srv.leaked(pw); got != "" {
		t.Errorf("the server got the password: %s", got)
	}
}
