package browser

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
)

// TestDriveByDownloadsAreNotSaved (issue 32 point 7): a page that clicks 20
// download links as it loads had 10 files written to the download folder
// with no command from the user. Now nothing is saved until the user's
// download command: the folder stays empty, the page's extra downloads are
// cancelled and the result says so; the user's own download still works.
func TestDriveByDownloadsAreNotSaved(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/file":
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Header().Set("Content-Disposition", `attachment; filename="`+strings.ReplaceAll(r.URL.Query().Get("name"), `"`, "")+`"`)
			fmt.Fprint(w, strings.Repeat("x", 100))
		default:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<!doctype html><meta charset="utf-8"><title>Free stuff</title><p>Welcome</p>
<a href="/file?name=wanted.txt">Get the file</a>
<script>
for (let i = 0; i < 20; i++) {
  const a = document.createElement('a');
  a.href = '/file?name=drive' + i + '.txt'; a.download = 'drive' + i + '.txt';
  document.body.appendChild(a); a.click();
}
</script>`)
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	r := newToolRig(t)
	ss := NewSessions(Options{Headless: true, ControlURL: testProc.ControlURL(), DownloadDir: dir})
	t.Cleanup(func() { _ = ss.Close() })
	r.ss = ss
	Register(r.reg2(), ss)
	nav, _, _ := r.call("browser_navigate", map[string]any{"url": srv.URL + "/"})
	time.Sleep(2 * time.Second) // the page's downloads would be written by now
	saved := func() []string {
		var out []string
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if e.Name() != ".waymark-partial" {
				out = append(out, e.Name())
			}
		}
		return out
	}
	if got := saved(); len(got) != 0 {
		t.Errorf("%d files were saved with no download command: %v", len(got), got)
	}
	list, _, _ := r.call("browser_list_interactives", nil)
	refused := strings.Join(append(nav.Refused, list.Refused...), "\n")
	if !strings.Contains(refused, "download") || !strings.Contains(refused, "not saved") {
		t.Errorf("the results do not say the page's downloads were stopped: %q", refused)
	}
	// The user's own download command saves the file the user asked for.
	l := r.ok("browser_list_interactives", nil)
	d := r.ok("browser_click_and_wait_download", map[string]any{"index": num(t, l, "Get the file"), "timeout_ms": 20000})
	if d["name"] != "wanted.txt" {
		t.Errorf("the user's download: %v", d)
	}
	if got := saved(); len(got) != 1 || got[0] != "wanted.txt" {
		t.Errorf("the download folder holds %v, want only wanted.txt", got)
	}
}
