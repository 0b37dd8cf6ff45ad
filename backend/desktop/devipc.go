package desktop

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"reflect"
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

// FreeLoopbackAddr returns a free address for the dev server's private side:
// a free port on a random address of 127.0.0.0/8 (Linux answers on all of
// them), so that a page that scans 127.0.0.1's ports does not find it
// (issue 21: one did in 29 s); 127.0.0.1 when that cannot be had.
func FreeLoopbackAddr() (string, error) {
	var b [3]byte
	if _, err := rand.Read(b[:]); err == nil {
		ip := net.IPv4(127, 1+b[0]%254, b[1], 1+b[2]%254)
		if l, err := net.Listen("tcp", net.JoinHostPort(ip.String(), "0")); err == nil {
			defer l.Close()
			return l.Addr().String(), nil
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// DevGate is the dev build's only binding (issue 21). Wails' own dev server
// serves the bindings to any page that finds its loopback port, with no
// check of Origin or Host, and offers no way to add one. So the dev build
// binds DevGate instead of the window's App: its one method, Invoke, runs
// one of App's methods only for a caller that gives the per-run token. The
// token is served (DevTokenHandler) only to the dev server's own pages: a
// page of another origin cannot read the answer, and a request naming
// another host (DNS rebinding) gets none.
type DevGate struct {
	token  string
	target reflect.Value
}

// DevTokenPath is where the dev build's own pages read the per-run token.
const DevTokenPath = "/waymark/dev-token"

// NewDevGate gates target's exported methods behind a new per-run token.
func NewDevGate(target any) (*DevGate, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, fmt.Errorf("dev build token: %w", err)
	}
	return &DevGate{token: hex.EncodeToString(b[:]), target: reflect.ValueOf(target)}, nil
}

var errType = reflect.TypeOf((*error)(nil)).Elem()

// Invoke calls the method named method with args (one JSON value per
// parameter) when token is this run's, and returns its result.
func (g *DevGate) Invoke(token, method string, args []json.RawMessage) (any, error) {
	if subtle.ConstantTimeCompare([]byte(token), []byte(g.token)) != 1 {
		return nil, errors.New("this dev build's bindings answer only its own pages (the per-run token is missing or wrong)")
	}
	m := g.target.MethodByName(method)
	if !m.IsValid() {
		return nil, fmt.Errorf("no method %q", method)
	}
	t := m.Type()
	if t.IsVariadic() || len(args) != t.NumIn() {
		return nil, fmt.Errorf("%s takes %d arguments, not %d", method, t.NumIn(), len(args))
	}
	in := make([]reflect.Value, len(args))
	for i, raw := range args {
		v := reflect.New(t.In(i))
		if err := json.Unmarshal(raw, v.Interface()); err != nil {
			return nil, fmt.Errorf("%s, argument %d: %w", method, i+1, err)
		}
		in[i] = v.Elem()
	}
	out := m.Call(in)
	var result any
	for _, o := range out {
		if o.Type() == errType {
			if !o.IsNil() {
				return nil, o.Interface().(error)
			}
			continue
		}
		result = o.Interface()
	}
	return result, nil
}

// DevTokenHandler serves g's token at DevTokenPath to the dev server's own
// pages (and the dev window's) and passes every other request to next:
// the request must name a loopback host (not a DNS-rebinding name), and a
// browser's Sec-Fetch-Site, when sent, must say same-origin.
func DevTokenHandler(g *DevGate, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != DevTokenPath {
			next.ServeHTTP(w, r)
			return
		}
		if !ownHost(r.Host) {
			http.Error(w, fmt.Sprintf("host %q is not this dev build", r.Host), http.StatusForbidden)
			return
		}
		if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" {
			http.Error(w, "the token is for the dev build's own pages", http.StatusForbidden)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = io.WriteString(w, g.token)
	})
}

// ownHost: a loopback address or name, or the window's own scheme host.
func ownHost(hostport string) bool {
	h := hostport
	if host, _, err := net.SplitHostPort(hostport); err == nil {
		h = host
	}
	h = strings.ToLower(strings.Trim(h, "[]"))
	if h == "" || h == "localhost" || h == "wails" || h == "wails.localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
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
