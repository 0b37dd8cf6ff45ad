package desktop

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/waymark/waymark/app/sample"
	"github.com/waymark/waymark/backend/llm/llmtest"
)

// keyWatch is a model server (llmtest behind a proxy) that records the
// Authorization header of every request it gets, GET and POST alike.
type keyWatch struct {
	srv  *httptest.Server
	mu   sync.Mutex
	auth []string
}

func newKeyWatch(t *testing.T) *keyWatch {
	model := llmtest.New(t, llmtest.Repeat(llmtest.Completion{Content: "hello"}))
	up, _ := url.Parse(strings.TrimSuffix(model.URL(), "/v1"))
	k := &keyWatch{}
	proxy := httputil.NewSingleHostReverseProxy(up)
	k.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		k.mu.Lock()
		k.auth = append(k.auth, r.Method+" "+r.URL.Path+" "+r.Header.Get("Authorization"))
		k.mu.Unlock()
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(k.srv.Close)
	return k
}

func (k *keyWatch) URL() string { return k.srv.URL + "/v1" }

// saw reports the requests that carried key, and how many came at all.
func (k *keyWatch) saw(key string) (with []string, all int) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, a := range k.auth {
		if strings.Contains(a, key) {
			with = append(with, a)
		}
	}
	return with, len(k.auth)
}

// TestModelKeyBelongsToItsServer: the model server key is sent only to the
// saved server it was given for. Testing another address sends no key;
// saving another address forgets the key (and says so); a redirect of the
// saved server to another address does not carry it (issue 21: address B,
// typed in Settings and tested, received "Authorization: Bearer K" on 1 GET
// and 3 POSTs, and saving B kept the key).
func TestModelKeyBelongsToItsServer(t *testing.T) {
	const key = "sk-given-for-A-5e1c"
	a, _ := desktopApp(t, string(sample.Manuscript))
	serverA, serverB := newKeyWatch(t), newKeyWatch(t)
	s, _ := a.Settings()
	s.ModelURL, s.Model, s.ModelKey = serverA.URL(), "test", key
	if _, err := a.SaveSettings(s); err != nil {
		t.Fatal(err)
	}
	// Address B typed in Settings, not saved, tested with the key field empty.
	if _, err := a.TestConnection(serverB.URL(), "test", ""); err != nil {
		t.Fatal(err)
	}
	if with, all := serverB.saw(key); len(with) > 0 || all == 0 {
		t.Fatalf("testing an unsaved address sent the key of another server (%d of %d requests): %v", len(with), all, with)
	}
	// The saved server still gets its key.
	if _, err := a.TestConnection(serverA.URL(), "test", ""); err != nil {
		t.Fatal(err)
	}
	if with, all := serverA.saw(key); len(with) != all || all == 0 {
		t.Fatalf("the saved server got its key on %d of %d requests", len(with), all)
	}
	// A redirect of the saved server to another address keeps the key home.
	hop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, strings.TrimSuffix(serverB.URL(), "/v1")+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer hop.Close()
	s.ModelURL, s.ModelKey = hop.URL+"/v1", key
	if _, err := a.SaveSettings(s); err != nil {
		t.Fatal(err)
	}
	before, _ := serverB.saw(key)
	_, _ = a.TestConnection(hop.URL+"/v1", "test", "")
	if with, _ := serverB.saw(key); len(with) > len(before) {
		t.Fatalf("a redirect carried the key to another address: %v", with)
	}
	// Saving another address without a key forgets the old one, and says so.
	s, _ = a.Settings()
	s.ModelURL, s.ModelKey = serverB.URL(), ""
	saved, err := a.SaveSettings(s)
	if err != nil {
		t.Fatal(err)
	}
	if saved.ModelKeySet || !strings.Contains(saved.ModelKeyNote, "forgotten") {
		t.Fatalf("after the address changed: key set %v, note %q", saved.ModelKeySet, saved.ModelKeyNote)
	}
	if _, err := a.TestConnection(serverB.URL(), "test", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := a.RunCommand("summarise the book"); err != nil {
		t.Logf("command: %v", err)
	}
	if with, _ := serverB.saw(key); len(with) > 0 {
		t.Fatalf("the saved new address got the old server's key: %v", with)
	}
	// Changing the address back does not bring the key back either.
	s, _ = a.Settings()
	s.ModelURL = serverA.URL()
	if saved, _ := a.SaveSettings(s); saved.ModelKeySet {
		t.Fatal("the forgotten key came back with its old address")
	}
}
