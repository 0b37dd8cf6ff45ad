package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"reflect"
	"strings"
	"sync"

	"github.com/waymark/waymark/backend/desktop"
)

// bindingShim is what Wails puts into the window — window.go.main.DesktopApp
// with one promise-returning function per bound method, and window.runtime's
// events — for a page served over plain HTTP: each call goes to /bind/METHOD
// and events arrive from /events. The UI tier and the benchmarks open the real
// frontend this way in Chromium, bound to the real services.
const bindingShim = `<script>
(() => {
  const handlers = {};
  const source = new EventSource('/events');
  source.onmessage = (m) => {
    const e = JSON.parse(m.data);
    for (const cb of (handlers[e.name] || []).slice()) cb(e.data);
  };
  window.__waymarkEvents = new Promise((ok) => { source.onopen = () => ok(true); });
  window.runtime = {
    EventsOn(name, cb) {
      (handlers[name] = handlers[name] || []).push(cb);
      return () => { handlers[name] = (handlers[name] || []).filter((f) => f !== cb); };
    },
    EventsOff(name) { delete handlers[name]; },
  };
  window.go = { main: { DesktopApp: new Proxy({}, { get: (_, method) => async (...args) => {
    const r = await fetch('/bind/' + String(method), { method: 'POST', body: JSON.stringify(args) });
    const body = await r.json();
    if (!r.ok) throw body.error;
    return body.result;
  } }) } };
})();
</script>`

// bindingServer serves the built frontend (dist) with the shim, forwarding
// every exported method of app the way Wails does: JSON arguments in order,
// the first result out, a non-nil error as a rejected promise with its message.
type bindingServer struct {
	app   *DesktopApp
	page  []byte
	files http.Handler

	mu      sync.Mutex
	clients map[chan []byte]bool
}

// newBindingServer serves dist; its broadcast is the app's Emit (set s.app
// once the app is made).
func newBindingServer(dist fs.FS) (*bindingServer, error) {
	index, err := fs.ReadFile(dist, "index.html")
	if err != nil {
		return nil, fmt.Errorf("the built frontend has no index.html (cd frontend && npm run build): %w", err)
	}
	page := strings.Replace(string(index), "<head>", "<head>"+bindingShim, 1)
	return &bindingServer{page: []byte(page), files: http.FileServer(http.FS(dist)), clients: map[chan []byte]bool{}}, nil
}

func (s *bindingServer) broadcast(name string, data any) {
	b, err := json.Marshal(map[string]any{"name": name, "data": data})
	if err != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.clients {
		select {
		case c <- b:
		default: // a stuck client loses events rather than blocking the app
		}
	}
}

func (s *bindingServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case strings.HasPrefix(r.URL.Path, "/bind/"):
		s.bind(w, r, strings.TrimPrefix(r.URL.Path, "/bind/"))
	case r.URL.Path == desktop.TextPath:
		desktop.AssetHandler(s.app.App).ServeHTTP(w, r)
	case r.URL.Path == "/events":
		s.events(w, r)
	case r.URL.Path == "/" || r.URL.Path == "/index.html":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(s.page)
	default:
		s.files.ServeHTTP(w, r)
	}
}

func (s *bindingServer) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	c := make(chan []byte, 256)
	s.mu.Lock()
	s.clients[c] = true
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.clients, c)
		s.mu.Unlock()
	}()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, ": open\n\n")
	fl.Flush()
	for {
		select {
		case <-r.Context().Done():
			return
		case b := <-c:
			fmt.Fprintf(w, "data: %s\n\n", b)
			fl.Flush()
		}
	}
}

var errorType = reflect.TypeFor[error]()

// bind calls one exported method of the app with the JSON arguments.
func (s *bindingServer) bind(w http.ResponseWriter, r *http.Request, name string) {
	reply := func(status int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(v)
	}
	fail := func(err error) { reply(http.StatusBadRequest, map[string]string{"error": err.Error()}) }
	m := reflect.ValueOf(s.app).MethodByName(name)
	if !m.IsValid() || name == "" || strings.ToUpper(name[:1]) != name[:1] {
		fail(fmt.Errorf("DesktopApp has no bound method %q", name))
		return
	}
	var raw []json.RawMessage
	if err := json.NewDecoder(r.Body).Decode(&raw); err != nil {
		fail(fmt.Errorf("%s: arguments must be a JSON array: %w", name, err))
		return
	}
	t := m.Type()
	if len(raw) != t.NumIn() {
		fail(fmt.Errorf("%s takes %d argument(s), got %d", name, t.NumIn(), len(raw)))
		return
	}
	args := make([]reflect.Value, t.NumIn())
	for i := range args {
		p := reflect.New(t.In(i))
		if err := json.Unmarshal(raw[i], p.Interface()); err != nil {
			fail(fmt.Errorf("%s: argument %d: %w", name, i+1, err))
			return
		}
		args[i] = p.Elem()
	}
	out := m.Call(args)
	var result any
	for _, v := range out {
		if v.Type().Implements(errorType) && v.Type() == errorType {
			if !v.IsNil() {
				fail(v.Interface().(error))
				return
			}
			continue
		}
		if result == nil {
			result = v.Interface()
		}
	}
	reply(http.StatusOK, map[string]any{"result": result})
}
