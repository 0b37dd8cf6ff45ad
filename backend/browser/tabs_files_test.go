package browser

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTabs(t *testing.T) {
	r := newToolRig(t)
	r.ok("browser_navigate", map[string]any{"url": site.URL + "/tabs.html"})
	list := r.ok("browser_list_interactives", nil)
	// A tab the site opens (target=_blank) shows up as tab 2.
	r.ok("browser_overlay_act", map[string]any{"index": num(t, list, "Weather in a new window"), "action": "click"})
	tabs := r.ok("browser_tabs", nil)["tabs"].([]any)
	if len(tabs) != 2 || tabs[0].(map[string]any)["current"] != true {
		t.Fatalf("after target=_blank: %v", tabs)
	}
	// Open a link in a new tab by number: it becomes current (tab 3).
	d := r.ok("browser_open_in_new_tab", map[string]any{"index": num(t, list, "Search page")})
	if d["tab"] != float64(3) || d["title"] != "Search" {
		t.Fatalf("open in new tab: %v", d)
	}
	// Numbers of the first tab are stale in the new one.
	if msg := r.fails("browser_overlay_act", map[string]any{"index": 1, "action": "click"}); !strings.Contains(msg, "stale") {
		t.Fatalf("act with the old tab's numbers: %q", msg)
	}
	d = r.ok("browser_switch_tab", map[string]any{"title_contains": "КАЗАН"})
	if d["tab"] != float64(2) || d["title"] != "Погода в Казани" {
		t.Fatalf("switch by title: %v", d)
	}
	if d = r.ok("browser_switch_tab", map[string]any{"index": 1}); d["title"] != "Tabs start" {
		t.Fatalf("switch by index: %v", d)
	}
	// The first tab still works after switching back.
	list = r.ok("browser_list_interactives", nil)
	r.ok("browser_overlay_act", map[string]any{"index": num(t, list, "Open sign-in"), "action": "click"})
	tabs = r.ok("browser_tabs", nil)["tabs"].([]any)
	if len(tabs) != 4 || tabs[3].(map[string]any)["title"] != "Sign in" {
		t.Fatalf("window.open tab: %v", tabs)
	}
	d = r.ok("browser_close_tab", map[string]any{"index": 2})
	if got := len(d["tabs"].([]any)); got != 3 {
		t.Fatalf("after closing tab 2: %v", d)
	}
	for _, c := range []struct {
		name string
		args map[string]any
		want string
	}{
		{"browser_switch_tab", map[string]any{"index": 9}, "no tab 9"},
		{"browser_switch_tab", map[string]any{"title_contains": "nowhere"}, "no tab's title"},
		{"browser_switch_tab", map[string]any{}, "index"},
		{"browser_close_tab", map[string]any{"index": 7}, "no tab 7"},
	} {
		if msg := r.fails(c.name, c.args); !strings.Contains(msg, c.want) {
			t.Errorf("%s %v: %q lacks %q", c.name, c.args, msg, c.want)
		}
	}
}

func TestDownloads(t *testing.T) {
	for _, c := range []struct {
		policy string
		want   []string // names after two downloads of the same file
	}{
		{ConflictRename, []string{"report.txt", "report (1).txt"}},
		{ConflictOverwrite, []string{"report.txt", "report.txt"}},
	} {
		t.Run(c.policy, func(t *testing.T) {
			dir := t.TempDir()
			ss := NewSessions(Options{Headless: true, ControlURL: testProc.ControlURL(), DownloadDir: dir, DownloadConflict: c.policy})
			t.Cleanup(func() { _ = ss.Close() })
			r := newToolRig(t)
			r.ss = ss
			Register(r.reg2(), ss)
			r.ok("browser_navigate", map[string]any{"url": site.URL + "/tabs.html"})
			for i, want := range c.want {
				list := r.ok("browser_list_interactives", nil)
				d := r.ok("browser_click_and_wait_download", map[string]any{"index": num(t, list, "Get report")})
				if d["name"] != want || d["bytes"] != float64(2048) || filepath.Dir(d["path"].(string)) != dir {
					t.Fatalf("download %d: %v, want name %s in %s", i+1, d, want, dir)
				}
				if fi, err := os.Stat(d["path"].(string)); err != nil || fi.Size() != 2048 {
					t.Fatalf("saved file: %v %v", fi, err)
				}
			}
		})
	}
	dir := t.TempDir()
	ss := NewSessions(Options{Headless: true, ControlURL: testProc.ControlURL(), DownloadDir: dir})
	t.Cleanup(func() { _ = ss.Close() })
	r := newToolRig(t)
	r.ss = ss
	Register(r.reg2(), ss)
	r.ok("browser_navigate", map[string]any{"url": site.URL + "/tabs.html"})
	for _, c := range []struct{ link, want string }{{"Bad name", "_.._etc_passwd"}, {"Device name", "_con.txt"}} {
		list := r.ok("browser_list_interactives", nil)
		d := r.ok("browser_click_and_wait_download", map[string]any{"index": num(t, list, c.link)})
		if d["name"] != c.want || filepath.Dir(d["path"].(string)) != dir {
			t.Errorf("%s saved as %v, want %s in %s", c.link, d["path"], c.want, dir)
		}
	}
	list := r.ok("browser_list_interactives", nil)
	if msg := r.fails("browser_click_and_wait_download", map[string]any{"index": num(t, list, "Never finishes"), "timeout_ms": 500}); !strings.Contains(msg, "did not finish") {
		t.Errorf("endless download: %q", msg)
	}
	// The endless download is still the one not reported.
	if msg := r.fails("browser_download_wait", map[string]any{"timeout_ms": 100}); !strings.Contains(msg, "endless") && !strings.Contains(msg, "did not finish") {
		t.Errorf("wait with the endless download running: %q", msg)
	}
	if msg := r.fails("browser_download_wait", map[string]any{"timeout_ms": 5}); msg == "" {
		t.Error("timeout_ms 5 accepted")
	}
}

func TestSafeFileName(t *testing.T) {
	long := strings.Repeat("я", 150) + ".pdf"
	for _, c := range []struct{ in, want string }{
		{"report.pdf", "report.pdf"},
		{"../../etc/passwd", "passwd"},
		{`..\..\windows\system.ini`, "system.ini"},
		{".bashrc", "bashrc"},
		{"CON", "_CON"},
		{"lpt1.txt", "_lpt1.txt"},
		{"a<b>:c?.txt", "a_b__c_.txt"},
		{"tab\there\x00.txt", "tabhere.txt"},
		{"", "download"},
		{"...", "download"},
		{"name. ", "name"},
		{"Отчёт за май.docx", "Отчёт за май.docx"},
	} {
		if got := SafeFileName(c.in); got != c.want {
			t.Errorf("SafeFileName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := SafeFileName(long); len(got) > 200 || !strings.HasSuffix(got, ".pdf") || !strings.HasPrefix(got, "яяя") {
		t.Errorf("a long name became %q (%d bytes)", got, len(got))
	}
}

func TestUpload(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "photo.jpg"), filepath.Join(dir, "notes.txt")
	_ = os.WriteFile(a, []byte("12345"), 0o644)
	_ = os.WriteFile(b, []byte("abc"), 0o644)
	r := newToolRig(t)
	r.ok("browser_navigate", map[string]any{"url": site.URL + "/upload.html"})
	list := r.ok("browser_list_interactives", nil)
	r.ok("browser_upload", map[string]any{"index": num(t, list, "Photo"), "files": []string{a}})
	if got := r.text(`() => document.getElementById('out').textContent`); got != "photo.jpg 5" {
		t.Fatalf("after upload the page says %q", got)
	}
	r.ok("browser_upload", map[string]any{"index": num(t, list, "Attachments"), "files": []string{a, b}})
	if got := r.text(`() => document.getElementById('out').textContent`); got != "photo.jpg 5, notes.txt 3" {
		t.Fatalf("after a multiple upload the page says %q", got)
	}
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"index": num(t, list, "Photo"), "files": []string{a, b}}, "takes one file"},
		{map[string]any{"index": num(t, list, "Photo"), "files": []string{"photo.jpg"}}, "absolute path"},
		{map[string]any{"index": num(t, list, "Photo"), "files": []string{filepath.Join(dir, "missing.jpg")}}, "no such file"},
		{map[string]any{"index": num(t, list, "Photo"), "files": []string{dir}}, "not a regular file"},
		{map[string]any{"index": num(t, list, "Send"), "files": []string{a, b}}, "not a file field"},
	} {
		if msg := r.fails("browser_upload", c.args); !strings.Contains(msg, c.want) {
			t.Errorf("upload %v: %q lacks %q", c.args, msg, c.want)
		}
	}
}

func TestFocusNextPrev(t *testing.T) {
	r := newToolRig(t)
	r.ok("browser_navigate", map[string]any{"url": site.URL + "/upload.html"})
	list := r.ok("browser_list_interactives", nil)
	// A file field is a button to assistive technology; Photo comes first.
	d := r.ok("browser_focus_next", map[string]any{"role": "button"})
	f := d["focused"].(map[string]any)
	if f["name"] != "Photo" || d["number"] != float64(num(t, list, "Photo")) {
		t.Fatalf("focus next button: %v", d)
	}
	d = r.ok("browser_focus_next", map[string]any{"role": "button"})
	if f = d["focused"].(map[string]any); f["name"] != "Attachments" {
		t.Fatalf("focus next button again: %v", d)
	}
	d = r.ok("browser_focus_next", nil)
	if f = d["focused"].(map[string]any); f["name"] != "Send" || d["number"] != float64(num(t, list, "Send")) {
		t.Fatalf("focus next: %v", d)
	}
	d = r.ok("browser_focus_prev", nil)
	if f = d["focused"].(map[string]any); f["name"] != "Attachments" {
		t.Fatalf("focus prev: %v", d)
	}
	if msg := r.fails("browser_focus_next", map[string]any{"role": "slider"}); !strings.Contains(msg, "slider") {
		t.Fatalf("focus to a missing role: %q", msg)
	}
}

func TestActByIndexFallback(t *testing.T) {
	r := newToolRig(t)
	r.ok("browser_navigate", map[string]any{"url": site.URL + "/dynamic.html"})
	list := r.ok("browser_list_interactives", nil)
	victim := num(t, list, "Victim")
	r.ok("browser_overlay_act", map[string]any{"index": num(t, list, "Add"), "action": "click"})
	// overlay_act refuses the stale number; act_by_index re-lists and finds Victim.
	if msg := r.fails("browser_overlay_act", map[string]any{"index": victim, "action": "click"}); !strings.Contains(msg, "stale") {
		t.Fatalf("stale act: %q", msg)
	}
	d := r.ok("browser_act_by_index", map[string]any{"index": victim, "action": "click"})
	if d["name"] != "Victim" || !strings.Contains(d["note"].(string), "Fallback") {
		t.Fatalf("act_by_index: %v", d)
	}
	if got := r.text(`() => document.getElementById('out').textContent`); got != "victim clicked" {
		t.Fatalf("page says %q", got)
	}
}

func TestBlindIDsNeverReused(t *testing.T) {
	s := newSession(t)
	open(t, s, "/dynamic.html")
	first := mustList(t, s, ListOptions{})
	seen := map[string]string{}
	for _, it := range first.Items {
		seen[it.ID] = it.Name
	}
	again := mustList(t, s, ListOptions{})
	for _, it := range again.Items {
		if seen[it.ID] != it.Name {
			t.Fatalf("id %s changed from %q to %q on a re-list", it.ID, seen[it.ID], it.Name)
		}
	}
	open(t, s, "/form.html")
	for _, it := range mustList(t, s, ListOptions{}).Items {
		if name, ok := seen[it.ID]; ok {
			t.Fatalf("id %s of %q on the first page was given again to %q", it.ID, name, it.Name)
		}
	}
}
