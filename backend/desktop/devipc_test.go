package desktop

import (
	"context"
	"net"
	"net/http"
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
	public, err := FreeLoopbackAddr()
	if err != nil {
		t.Fatal(err)
	}
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
