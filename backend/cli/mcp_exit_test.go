package cli

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// profiles lists the temporary Chromium profiles in dir.
func profiles(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "waymark-chromium-*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// waitExit waits for the server process to end.
func (r *rawMCP) waitExit(within time.Duration) error {
	done := make(chan error, 1)
	go func() { done <- r.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(within):
		_ = r.cmd.Process.Kill()
		r.t.Fatalf("waymark mcp did not end within %s (stderr: %s)", within, r.stderr.String())
	}
	return nil
}

// TestMCPTemporaryProfileRemovedOnEveryExit runs the real `waymark mcp`
// with a browser and ends it each way a session ends: its input closed,
// SIGTERM, SIGINT; the temporary Chromium profile (cache, history of the
// pages visited) is gone afterwards. After SIGKILL it cannot be removed by
// the dying process: the next start removes it (issue 21: it was left
// behind every time).
func TestMCPTemporaryProfileRemovedOnEveryExit(t *testing.T) {
	bin := buildCLI(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<title>Visited</title><p>a page</p>")
	}))
	defer srv.Close()
	browse := func(t *testing.T, r *rawMCP) {
		t.Helper()
		r.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"browser_navigate","arguments":{"url":"` + srv.URL + `/p"}}}`)
		if l := r.next(90 * time.Second); !strings.Contains(string(l), "Visited") {
			t.Fatalf("navigate: %s", l)
		}
		if len(profiles(t, r.tmp)) == 0 {
			t.Fatalf("while browsing, no profile in TMPDIR %s", r.tmp)
		}
	}
	for _, c := range []struct {
		name string
		end  func(r *rawMCP)
	}{
		{"input closed", func(r *rawMCP) { r.stdin.Close() }},
		{"SIGTERM", func(r *rawMCP) { _ = r.cmd.Process.Signal(syscall.SIGTERM) }},
		{"SIGINT", func(r *rawMCP) { _ = r.cmd.Process.Signal(syscall.SIGINT) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := startRawMCP(t, bin, "--headless")
			browse(t, r)
			c.end(r)
			_ = r.waitExit(60 * time.Second)
			if left := profiles(t, r.tmp); len(left) != 0 {
				t.Fatalf("after %s the profile is left: %v", c.name, left)
			}
		})
	}
	t.Run("SIGKILL, then the next start", func(t *testing.T) {
		dir := shortTempDir(t)
		r := startRawMCPIn(t, dir, bin, "--headless")
		browse(t, r)
		stale := profiles(t, dir)
		_ = r.cmd.Process.Signal(syscall.SIGKILL)
		_ = r.waitExit(30 * time.Second)
		// A profile of a process that still runs is not touched.
		other := startRawMCPIn(t, dir, bin, "--headless")
		browse(t, other)
		live := profiles(t, dir)
		next := startRawMCPIn(t, dir, bin, "--headless")
		next.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
		next.next(30 * time.Second)
		got := profiles(t, dir)
		for _, p := range stale {
			for _, g := range got {
				if g == p {
					t.Fatalf("the killed session's profile %s is still there after the next start: %v", p, got)
				}
			}
		}
		if len(got) != 1 || len(live) != 1 || got[0] != live[0] {
			t.Fatalf("the running session's profile: before %v, after %v", live, got)
		}
	})
}

// TestMCPScreenshotsPrivate: over MCP, browser_screenshot writes into a
// folder of the user's own (0700) a file only they can read (0600), not
// into a shared temporary folder (issue 21: /tmp/waymark-screenshots was
// 0755 and its files 0644, so another user could read a screenshot that
// shows a password).
func TestMCPScreenshotsPrivate(t *testing.T) {
	bin := buildCLI(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<title>Account</title><p>Your password is on the screen.</p>")
	}))
	defer srv.Close()
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	r := startRawMCP(t, bin, "--headless")
	r.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"browser_navigate","arguments":{"url":"` + srv.URL + `/"}}}`)
	r.next(90 * time.Second)
	r.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"browser_screenshot","arguments":{}}}`)
	var reply struct {
		Result struct {
			StructuredContent struct {
				Status string `json:"status"`
				Data   struct {
					Path string `json:"path"`
				} `json:"data"`
			} `json:"structuredContent"`
		} `json:"result"`
	}
	l := r.next(60 * time.Second)
	if err := json.Unmarshal(l, &reply); err != nil || reply.Result.StructuredContent.Data.Path == "" {
		t.Fatalf("screenshot: %v %s", err, l)
	}
	p := reply.Result.StructuredContent.Data.Path
	if strings.HasPrefix(p, r.tmp) {
		t.Errorf("the screenshot is in a shared temporary folder: %s", p)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("the screenshot file is %v, want 0600", fi.Mode().Perm())
	}
	for d := filepath.Dir(p); strings.HasPrefix(d, r.home) && d != r.home; d = filepath.Dir(d) {
		di, err := os.Stat(d)
		if err != nil {
			t.Fatal(err)
		}
		if di.Mode().Perm()&0o077 != 0 {
			t.Errorf("the folder %s is %v: others may enter it", d, di.Mode().Perm())
		}
	}
	if !strings.HasPrefix(p, r.home) {
		t.Errorf("the screenshot %s is outside the user's home %s", p, r.home)
	}
}
