package browser

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestDialogLoopIsStopped (issue 32 point 9): a page that loops on alert()
// as it loads left the terminal silent (the navigation waited out its
// timeout, then answered "ok" with no word of the dialog). Now the
// navigation answers with the dialog open as soon as it appears; answering
// it, the page opens the next at once, and after a few in a row Waymark
// closes them, stops the page's scripts and says so; the page can be listed
// again. Also for a loop of the same message and for a timer loop, and
// with Waymark's own page dialogs (Options.OwnDialogs, pagedialog.go).
func TestDialogLoopIsStopped(t *testing.T) {
	for _, own := range []bool{false, true} {
		t.Run(fmt.Sprintf("own=%v", own), func(t *testing.T) { testDialogLoopIsStopped(t, own) })
	}
}

func testDialogLoopIsStopped(t *testing.T, own bool) {
	pages := map[string]string{
		"/for":   `<script>for (let i = 0; ; i++) alert('Again ' + i);</script>`,
		"/same":  `<script>while (true) alert('You won!');</script>`,
		"/timer": `<script>setInterval(() => alert('Still here'), 10);</script>`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><meta charset="utf-8"><title>Loop</title><p>Hi</p><a href="/x">A link</a>%s`, pages[r.URL.Path])
	}))
	defer srv.Close()
	for path := range pages {
		t.Run(path, func(t *testing.T) {
			r := newToolRig(t, func(o *Options) { o.OwnDialogs = own })
			nav := r.ok("browser_navigate", map[string]any{"url": srv.URL + path})
			if nav["dialog_open"] == nil {
				t.Fatalf("the navigation did not say a dialog is open: %v", nav)
			}
			stopped := false
			for i := 0; i < dialogLoop+1 && !stopped; i++ {
				d := r.ok("browser_dialog", map[string]any{"accept": true})
				if n, _ := d["dialogs_stopped"].(float64); d["next_dialog"] == nil {
					if note, _ := d["note"].(string); !strings.Contains(note, "keeps opening dialogs") {
						t.Fatalf("answer %d: no next dialog and no word of the loop: %v (stopped %v)", i+1, d, n)
					}
					stopped = true
				}
			}
			if !stopped {
				t.Fatalf("after %d answers the page still opens dialogs", dialogLoop+1)
			}
			// No dialog waits any more: the tab takes commands, and the
			// next page opens and works.
			r.ok("browser_list_interactives", nil)
			r.ok("browser_navigate", map[string]any{"url": srv.URL + "/plain"})
			num(t, r.ok("browser_list_interactives", nil), "A link")
		})
	}
}
