package cli

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// leavePages serves a long letter that asks before it is left (beforeunload,
// once the user acted on it) and a page to go to from it.
func leavePages(t *testing.T) *httptest.Server {
	t.Helper()
	var letter strings.Builder
	letter.WriteString(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Unsaved letter</title></head><body>
<h1>Unsaved letter</h1>
<p><button onclick="document.title = 'Unsaved letter (edited)'">Edit the letter</button> <a href="/other.html">Other page</a></p>`)
	for i := 1; i <= 120; i++ {
		fmt.Fprintf(&letter, "<p>Paragraph %d of the letter: the weather was mild, the road was long and the horses were tired.</p>\n", i)
	}
	letter.WriteString(`<script>addEventListener('beforeunload', (e) => { e.preventDefault(); e.returnValue = ''; });</script></body></html>`)
	mux := http.NewServeMux()
	mux.HandleFunc("/letter.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, letter.String())
	})
	mux.HandleFunc("/other.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Other page</title></head><body><h1>Other</h1><p><a href="/letter.html">The letter</a></p></body></html>`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// TestBrowseLeavingAPageThatAsks (issue 33): go to, back, forward and reload
// from a page that asks before it is left are answered at once with the
// page's question, in the command's language (back and forward waited out
// the command's 45 s in silence). No (Cancel) stays on the page with the
// reading place and the numbers as they were (go to and reload forgot where
// reading stood and said the page had changed); yes does the step.
func TestBrowseLeavingAPageThatAsks(t *testing.T) {
	srv := leavePages(t)
	l := startListener(t, srv.URL+"/other.html")
	l.say("go to " + srv.URL + "/letter.html")
	l.expect("list", "1. button Edit the letter", "2. link Other page")
	l.say("click 1") // a page may ask only after the user acted on it
	l.say("read page")
	first := l.say("read more")
	m := charsLine.FindStringSubmatch(first)
	if m == nil || !strings.HasSuffix(first, "\nSay read more to go on.") {
		t.Fatalf("read more does not read a portion:\n%s", first)
	}
	next := atoi(m[2]) + 1
	asks := map[string]string{"en": "The page asks whether to leave it: what you changed there may be lost.", "ru": "Страница спрашивает, уйти ли с неё: изменения на ней могут пропасть."}
	for _, c := range []struct{ cmd, no, lang string }{
		{"go to " + srv.URL + "/other.html", "no", "en"},
		{"back", "no", "en"},
		{"reload", "no", "en"},
		{"открой " + srv.URL + "/other.html", "нет", "ru"},
		{"назад", "нет", "ru"},
		{"обнови", "нет", "ru"},
	} {
		a := l.say(c.cmd + "\n" + c.no)
		if !strings.Contains(a, "\n"+asks[c.lang]+"\n") {
			t.Fatalf("%q does not say what the page asks in its language:\n%s", c.cmd, a)
		}
		if strings.Contains(a, "list for new numbers") || strings.Contains(a, "новые номера") || strings.Contains(a, "reading place") || strings.Contains(a, "Место чтения") {
			t.Errorf("%q, then no: the page did not change, but the listener hears:\n%s", c.cmd, a)
		}
		// The reading goes on where it stood, and the numbers still hold.
		more := l.say("read more")
		if m := charsLine.FindStringSubmatch(more); m == nil || atoi(m[1]) != next {
			t.Fatalf("%q, then no: read more does not go on from character %d:\n%s", c.cmd, next, more)
		}
		next = atoi(charsLine.FindStringSubmatch(more)[2]) + 1
		if a := l.say("click 1"); !strings.Contains(a, "Edit the letter") {
			t.Fatalf("%q, then no: click 1 is refused:\n%s", c.cmd, a)
		}
	}
	// Yes does the step: the page changed, the old numbers are refused.
	a := l.say("back\nyes")
	if !strings.Contains(a, "Page: Other page.") {
		t.Fatalf("back, then yes: not on the page before:\n%s", a)
	}
	if a := l.say("click 1"); !strings.Contains(a, "The page changed since the last list") {
		t.Errorf("back, then yes: the old number 1 is not refused:\n%s", a)
	}
}
