package desktop

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gorilla/websocket"
)

// TestDevGuardRefusesForeignOrigins: in front of a WebSocket server that
// accepts any origin (as Wails' dev server does), the guard lets through
// the dev server's own pages and programs without an Origin, and refuses a
// page of another origin (another local port, another site) and a
// DNS-rebinding host name with 403 (issue 13: a page on another local port
// wrote a file through DesktopApp.Call Export). The real dev build is
// checked the same way by TestDesktopDevIPC.
func TestDevGuardRefusesForeignOrigins(t *testing.T) {
	up := websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}
	inner := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer c.Close()
		_, msg, err := c.ReadMessage()
		if err == nil {
			_ = c.WriteMessage(websocket.TextMessage, append([]byte("echo "), msg...))
		}
	})}
	il, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go inner.Serve(il)
	defer inner.Close()
	pl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	public := pl.Addr().String()
	pl.Close()
	_, port, _ := net.SplitHostPort(public)
	g, err := NewDevGuard("localhost:"+port, il.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	g.public = public // listen on the free 127.0.0.1 port; "localhost" names it
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := ServeDevGuard(ctx, g); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, url, origin string
		ok                bool
	}{
		{"its own page", "ws://localhost:" + port + "/wails/ipc", "http://localhost:" + port, true},
		{"its own page by address", "ws://127.0.0.1:" + port + "/wails/ipc", "http://127.0.0.1:" + port, true},
		{"a program (no Origin)", "ws://127.0.0.1:" + port + "/wails/ipc", "", true},
		{"a page on another local port", "ws://localhost:" + port + "/wails/ipc", "http://localhost:8000", false},
		{"a web site", "ws://localhost:" + port + "/wails/ipc", "https://evil.example", false},
		{"a null origin (sandboxed frame, file: page)", "ws://localhost:" + port + "/wails/ipc", "null", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := http.Header{}
			if c.origin != "" {
				h.Set("Origin", c.origin)
			}
			conn, resp, err := websocket.DefaultDialer.Dial(c.url, h)
			if !c.ok {
				if err == nil {
					conn.Close()
					t.Fatal("the connection was accepted")
				}
				if resp == nil || resp.StatusCode != http.StatusForbidden {
					t.Fatalf("refusal: %v %v", err, resp)
				}
				return
			}
			if err != nil {
				t.Fatalf("dial: %v", err)
			}
			defer conn.Close()
			_ = conn.WriteMessage(websocket.TextMessage, []byte("hi"))
			if _, msg, err := conn.ReadMessage(); err != nil || string(msg) != "echo hi" {
				t.Fatalf("through the guard: %q %v", msg, err)
			}
		})
	}
	// A host name that resolves to loopback but is not the dev server's
	// (DNS rebinding) is refused too.
	req, _ := http.NewRequest("GET", "http://127.0.0.1:"+port+"/", nil)
	req.Host = "attacker.example:" + port
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("rebinding host: %d", resp.StatusCode)
	}
}

// TestDevGate: the dev build's one binding runs the window's methods only
// for the per-run token, which it serves to loopback names and same-origin
// requests alone (issue 21: a page on 127.0.0.1 called DesktopApp.Call
// Export through Wails' own dev server).
func TestDevGate(t *testing.T) {
	target := &gateTarget{}
	g, err := NewDevGate(target)
	if err != nil {
		t.Fatal(err)
	}
	h := DevTokenHandler(g, http.NotFoundHandler())
	get := func(host, site string) (int, string) {
		req := httptest.NewRequest("GET", "http://"+host+DevTokenPath, nil)
		if site != "" {
			req.Header.Set("Sec-Fetch-Site", site)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w.Code, w.Body.String()
	}
	code, token := get("localhost:34115", "same-origin")
	if code != 200 || len(token) != 64 {
		t.Fatalf("the own page's token: %d %q", code, token)
	}
	for _, c := range []struct{ host, site string }{
		{"attacker.example:34115", ""}, {"127.0.0.1:34115", "cross-site"}, {"127.0.0.1:34115", "same-site"},
	} {
		if code, body := get(c.host, c.site); code != http.StatusForbidden || strings.Contains(body, token) {
			t.Errorf("host %s, Sec-Fetch-Site %q: %d %q", c.host, c.site, code, body)
		}
	}
	if code, _ := get("[::1]:34115", ""); code != 200 {
		t.Errorf("a program on ::1: %d", code)
	}
	for _, bad := range []string{"", "0123", strings.Repeat("0", 64)} {
		if _, err := g.Invoke(bad, "Export", []json.RawMessage{[]byte(`"/tmp/x"`)}); err == nil || target.exported != "" {
			t.Fatalf("token %q: %v, exported %q", bad, err, target.exported)
		}
	}
	res, err := g.Invoke(token, "Export", []json.RawMessage{[]byte(`"/tmp/x"`)})
	if err != nil || res != "exported /tmp/x" || target.exported != "/tmp/x" {
		t.Fatalf("with the token: %v %v %q", res, err, target.exported)
	}
	if _, err := g.Invoke(token, "Fail", nil); err == nil || err.Error() != "it failed" {
		t.Fatalf("a method's error: %v", err)
	}
	for _, c := range []struct {
		method string
		args   []json.RawMessage
	}{{"Nope", nil}, {"Export", nil}, {"Export", []json.RawMessage{[]byte(`7`)}}, {"unexported", nil}} {
		if _, err := g.Invoke(token, c.method, c.args); err == nil {
			t.Errorf("%s %s was run", c.method, c.args)
		}
	}
}

type gateTarget struct{ exported string }

func (g *gateTarget) Export(path string) (string, error) {
	g.exported = path
	return "exported " + path, nil
}

func (g *gateTarget) Fail() error { return errors.New("it failed") }

func (g *gateTarget) unexported() {}
