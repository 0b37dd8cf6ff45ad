package desktop

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"time"
)

// DevGuard is the dev build's front door (issue 13): Wails' dev server
// serves the window's bindings over HTTP and a WebSocket (/wails/ipc) and
// accepts any web origin, so a page on another local port could call
// DesktopApp.Call. The dev build starts Wails' server on a private loopback
// port and serves the address the user gave ($devserver) itself, passing on
// only requests whose Origin (when a browser sends one) and Host are the dev
// server's own address: a page of any other origin gets 403, and a
// DNS-rebinding host name too.
type DevGuard struct {
	public  string   // the address the user asked for, host:port
	hosts   []string // the Host values that are the dev server itself
	origins []string // the Origins that are the dev server itself
	proxy   http.Handler
}

// NewDevGuard guards the dev server at public, which really listens at
// internal (both host:port).
func NewDevGuard(public, internal string) (*DevGuard, error) {
	host, port, err := net.SplitHostPort(public)
	if err != nil {
		return nil, fmt.Errorf("devserver address %q: %w (give host:port, e.g. localhost:34115)", public, err)
	}
	g := &DevGuard{public: public}
	names := []string{host}
	if host == "localhost" || host == "127.0.0.1" || host == "::1" || host == "" {
		names = []string{"localhost", "127.0.0.1", "[::1]"}
	}
	for _, n := range names {
		if strings.Contains(n, ":") && !strings.HasPrefix(n, "[") {
			n = "[" + n + "]"
		}
		g.hosts = append(g.hosts, n+":"+port)
		g.origins = append(g.origins, "http://"+n+":"+port)
	}
	target, err := url.Parse("http://" + internal)
	if err != nil {
		return nil, err
	}
	g.proxy = httputil.NewSingleHostReverseProxy(target)
	return g, nil
}

// allowed says whether a request comes from the dev server's own pages (or
// from a program that is no web page: no Origin header).
func (g *DevGuard) allowed(r *http.Request) (bool, string) {
	okHost := false
	for _, h := range g.hosts {
		okHost = okHost || strings.EqualFold(r.Host, h)
	}
	if !okHost {
		return false, fmt.Sprintf("host %q is not this dev server (%s)", r.Host, strings.Join(g.hosts, ", "))
	}
	o := r.Header.Get("Origin")
	if o == "" {
		return true, ""
	}
	for _, want := range g.origins {
		if strings.EqualFold(o, want) {
			return true, ""
		}
	}
	return false, fmt.Sprintf("origin %q may not use this dev server's bindings (only %s)", o, strings.Join(g.origins, ", "))
}

func (g *DevGuard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if ok, why := g.allowed(r); !ok {
		http.Error(w, "waymark dev server: "+why, http.StatusForbidden)
		return
	}
	g.proxy.ServeHTTP(w, r)
}

// FreeLoopbackAddr returns a free port on 127.0.0.1 for the dev server's
// private side.
func FreeLoopbackAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// ServeDevGuard listens at public and serves g until ctx ends.
func ServeDevGuard(ctx context.Context, g *DevGuard) error {
	l, err := net.Listen("tcp", g.public)
	if err != nil {
		return fmt.Errorf("dev server at %s: %w", g.public, err)
	}
	srv := &http.Server{Handler: g, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	go func() {
		if err := srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Println("waymark dev server:", err)
		}
	}()
	return nil
}
