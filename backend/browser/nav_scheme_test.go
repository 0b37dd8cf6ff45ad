package browser

import (
	"net"
	"reflect"
	"strings"
	"testing"
)

// The addresses tried for what the user typed, in order.
func TestNavCandidates(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"127.0.0.1:8101/x", []string{"http://127.0.0.1:8101/x", "https://127.0.0.1:8101/x"}},
		{"localhost:3000", []string{"http://localhost:3000", "https://localhost:3000"}},
		{"example.org/x", []string{"https://example.org/x", "http://example.org/x"}},
		{"https://127.0.0.1:8101/x", []string{"https://127.0.0.1:8101/x", "http://127.0.0.1:8101/x"}},
		{"https://app.localhost/", []string{"https://app.localhost/", "http://app.localhost/"}},
		{"https://example.org/x", []string{"https://example.org/x"}},
		{"http://example.org/x", []string{"http://example.org/x"}},
		{"http://127.0.0.1:8101/x", []string{"http://127.0.0.1:8101/x"}},
		{"file:///tmp/a.html", []string{"file:///tmp/a.html"}},
	} {
		got, err := navCandidates(c.in)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: %v %v, want %v", c.in, got, err, c.want)
		}
	}
	if _, err := navCandidates("javascript:alert(1)"); err == nil {
		t.Error("javascript: was accepted")
	}
}

// "go to 127.0.0.1:PORT/x" opens the plain-http loopback server, also when
// it was written with https (which such a server cannot speak); the result
// says what happened. A port where nothing listens is said plainly.
func TestNavigateLoopbackFallsBackToHTTP(t *testing.T) {
	s := newSession(t)
	host := strings.TrimPrefix(site.URL, "http://")
	for _, c := range []struct{ in, note string }{
		{host + "/form.html", ""},
		{"https://" + host + "/form.html", "could not be opened"},
		{strings.TrimPrefix(cross.URL, "http://") + "/form.html", ""},
	} {
		st, err := s.Navigate(testCtx(t), c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if !strings.HasPrefix(st.URL, "http://") || !strings.HasSuffix(st.URL, "/form.html") || st.Status != 200 {
			t.Errorf("%s opened %s (%d)", c.in, st.URL, st.Status)
		}
		if (c.note == "") != (st.Note == "") || !strings.Contains(st.Note, c.note) {
			t.Errorf("%s: note %q, want %q", c.in, st.Note, c.note)
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().String()
	l.Close()
	_, err = s.Navigate(testCtx(t), closed+"/x")
	// Said plainly, once, with no browser error code (issue 23, point 5).
	if err == nil || err.Error() != "Nothing answers at "+closed+"." {
		t.Errorf("a closed port: %v, want %q", err, "Nothing answers at "+closed+".")
	}
}
