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
	// A tab the site opens (target=_blank) shows up as tab 2, and the click
	// says so while the first tab stays current.
	d := r.ok("browser_overlay_act", map[string]any{"index": num(t, list, "Weather in a new window"), "action": "click"})
	if nt, _ := d["new_tabs"].([]any); len(nt) != 1 || nt[0].(map[string]any)["index"] != float64(2) || !strings.Contains(d["note"].(string), "new tab: 2") {
		t.Fatalf("the click does not report the tab it opened: %v", d)
	}
	tabs := r.ok("browser_tabs", nil)["tabs"].([]any)
	if len(tabs) != 2 || tabs[0].(map[string]any)["current"] != true {
		t.Fatalf("after target=_blank: %v", tabs)
	}
	// Open a link in a new tab by number: it becomes current (tab 3).
	d = r.ok("browser_open_in_new_tab", map[string]any{"index": num(t, list, "Search page")})
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

func TestDownloadSafeFileName(t *testing.T) {
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
	r.grant = &Grant{User: true} // the user's own upload commands
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
		{map[string]any{"index": num(t, list, "Send"), "files": []string{a}}, "opened no file chooser"},
		{map[string]any{"index": num(t, list, "Submit"), "files": []string{a}}, "sends its form"},
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
	// A button added before Victim moves it.
	r.ok("browser_overlay_act", map[string]any{"index": num(t, list, "Add"), "action": "click"})
	rs, err := r.ss.Get(testCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	evalText(t, rs, `() => { const b = document.createElement('button'); b.textContent = 'Before'; document.body.prepend(b); return 'ok'; }`)
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

func TestActByIndexBlindIDsNeverReused(t *testing.T) {
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

func TestTabOpenScriptLink(t *testing.T) {
	r := newToolRig(t)
	r.ok("browser_navigate", map[string]any{"url": site.URL + "/tabs.html"})
	list := r.ok("browser_list_interactives", nil)
	for _, c := range []struct{ name, want string }{
		{"Quiet link", "opened no tab"},
		{"Get report", "not a link"},
	} {
		if msg := r.fails("browser_open_in_new_tab", map[string]any{"index": num(t, list, c.name)}); !strings.Contains(msg, c.want) {
			t.Errorf("open %s in a new tab: %q lacks %q", c.name, msg, c.want)
		}
	}
	// A script link (href="javascript:…") gets a real Ctrl+click, which the
	// page answers with window.open; the new tab becomes current, loaded.
	d := r.ok("browser_open_in_new_tab", map[string]any{"index": num(t, list, "Script link")})
	if d["tab"] != float64(2) || d["tabs"] != float64(2) || !strings.HasSuffix(d["url"].(string), "/form.html") || d["loaded"] != true {
		t.Fatalf("ctrl+click in a new tab: %v", d)
	}
	tabs := r.ok("browser_tabs", nil)["tabs"].([]any)
	if first := tabs[0].(map[string]any); first["title"] != "Tabs start" || first["current"] != false {
		t.Fatalf("the first tab moved or is still current: %v", tabs)
	}
	if msg := r.fails("browser_overlay_act", map[string]any{"index": 1, "action": "click"}); !strings.Contains(msg, "stale") {
		t.Fatalf("the first tab's numbers in the new tab: %q", msg)
	}
}

func TestTabClosedByThePage(t *testing.T) {
	r := newToolRig(t)
	r.ok("browser_navigate", map[string]any{"url": site.URL + "/tabs.html"})
	list := r.ok("browser_list_interactives", nil)
	r.ok("browser_overlay_act", map[string]any{"index": num(t, list, "Open helper"), "action": "click"})
	if d := r.ok("browser_switch_tab", map[string]any{"title_contains": "helper"}); d["tab"] != float64(2) {
		t.Fatalf("switch to the helper: %v", d)
	}
	s := r.ss.Current()
	list = r.ok("browser_list_interactives", nil)
	// The click closes the tab under it; the result says where the session is.
	d := r.ok("browser_overlay_act", map[string]any{"index": num(t, list, "Done"), "action": "click"})
	if d["title"] != "Tabs start" || d["numbering_stale"] != true || !strings.Contains(d["note"].(string), "closed its tab; tab 1") {
		t.Fatalf("click on the helper's Done: %v", d)
	}
	// The session lives on in the tab that opened the helper.
	tabs := r.ok("browser_tabs", nil)["tabs"].([]any)
	if len(tabs) != 1 || tabs[0].(map[string]any)["current"] != true || tabs[0].(map[string]any)["title"] != "Tabs start" {
		t.Fatalf("after the helper closed itself: %v", tabs)
	}
	if r.ss.Current() != s {
		t.Fatal("the browser session was started again instead of going back to the first tab")
	}
	list = r.ok("browser_list_interactives", nil)
	r.ok("browser_overlay_act", map[string]any{"index": num(t, list, "Quiet link"), "action": "click"})
	if got := r.text(`() => document.getElementById('out').textContent`); got != "quiet link clicked" {
		t.Fatalf("the first tab after the helper closed: %q", got)
	}
}

func TestDownloadWaitAndFailure(t *testing.T) {
	dir := t.TempDir()
	ss := NewSessions(Options{Headless: true, ControlURL: testProc.ControlURL(), DownloadDir: dir})
	t.Cleanup(func() { _ = ss.Close() })
	r := newToolRig(t)
	r.ss = ss
	Register(r.reg2(), ss)
	r.ok("browser_navigate", map[string]any{"url": site.URL + "/tabs.html"})
	// A plain click starts the download; browser_download_wait reports it.
	list := r.ok("browser_list_interactives", nil)
	r.ok("browser_overlay_act", map[string]any{"index": num(t, list, "Get report"), "action": "click"})
	d := r.ok("browser_download_wait", map[string]any{"timeout_ms": 10000})
	if d["name"] != "report.txt" || d["bytes"] != float64(2048) || !strings.HasSuffix(d["url"].(string), "name=report.txt&size=2048") {
		t.Fatalf("download_wait: %v", d)
	}
	// Reported once: the next wait has nothing to report.
	if msg := r.fails("browser_download_wait", map[string]any{"timeout_ms": 300}); !strings.Contains(msg, "no download started") {
		t.Fatalf("second wait: %q", msg)
	}
	// A connection that drops mid-file is a failed download, not a file.
	list = r.ok("browser_list_interactives", nil)
	msg := r.fails("browser_click_and_wait_download", map[string]any{"index": num(t, list, "Broken download"), "timeout_ms": 30000})
	if !strings.Contains(msg, "broken") || !strings.Contains(msg, "failed or was cancelled") {
		t.Fatalf("broken download: %q", msg)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != ".waymark-partial" && e.Name() != "report.txt" {
			t.Errorf("left in the download folder: %s", e.Name())
		}
	}
}

func TestUploadThroughButtons(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "avatar.png"), filepath.Join(dir, "cv.pdf")
	_ = os.WriteFile(a, []byte("png-bytes"), 0o644)
	_ = os.WriteFile(b, []byte("pdf"), 0o644)
	r := newToolRig(t)
	r.grant = &Grant{Files: []string{dir}} // the folder the user named
	r.ok("browser_navigate", map[string]any{"url": site.URL + "/upload.html"})
	for _, c := range []struct {
		button  string
		files   []string
		field   string
		chooser bool
		page    string
	}{
		// A button beside a hidden file field gives the files to that field.
		{"Choose avatar", []string{a}, "Avatar image", false, "avatar.png 9"},
		// A button that makes its field on click: its file chooser gets them.
		{"Pick document", []string{b}, "Pick document", true, "cv.pdf 3"},
	} {
		list := r.ok("browser_list_interactives", nil)
		d := r.ok("browser_upload", map[string]any{"index": num(t, list, c.button), "files": c.files})
		if d["field"] != c.field || (d["chooser"] == true) != c.chooser {
			t.Errorf("upload through %s: %v", c.button, d)
		}
		if got := r.text(`() => document.getElementById('out').textContent`); got != c.page {
			t.Errorf("upload through %s: the page says %q, want %q", c.button, got, c.page)
		}
	}
	list := r.ok("browser_list_interactives", nil)
	if msg := r.fails("browser_upload", map[string]any{"index": num(t, list, "Pick document"), "files": []string{a, b}}); !strings.Contains(msg, "takes one file") {
		t.Errorf("two files through a single chooser: %q", msg)
	}
}

func TestActByIndexAfterDOMChange(t *testing.T) {
	for _, c := range []struct {
		change string // the button that changes the page after the list
		want   string // "" when the act must happen, else part of the error
		shift  int    // how far Victim's number moves
	}{
		{"Insert above", "", 1},
		{"Rebuild", "", 0}, // a new node: found again by role and name
		{"Duplicate", "not on the page any more (or not only once)", 0},
		{"Remove", "not on the page any more", 0},
	} {
		t.Run(c.change, func(t *testing.T) {
			r := newToolRig(t)
			r.ok("browser_navigate", map[string]any{"url": site.URL + "/rebuild.html"})
			list := r.ok("browser_list_interactives", nil)
			victim := num(t, list, "Victim")
			r.ok("browser_overlay_act", map[string]any{"index": num(t, list, c.change), "action": "click"})
			if c.want != "" {
				if msg := r.fails("browser_act_by_index", map[string]any{"index": victim, "action": "click"}); !strings.Contains(msg, c.want) {
					t.Fatalf("act_by_index after %s: %q lacks %q", c.change, msg, c.want)
				}
				if got := r.text(`() => document.getElementById('out').textContent`); got != "nothing clicked" {
					t.Fatalf("something was clicked: %q", got)
				}
				return
			}
			d := r.ok("browser_act_by_index", map[string]any{"index": victim, "action": "click"})
			if d["name"] != "Victim" || d["number"] != float64(victim+c.shift) || !strings.Contains(d["note"].(string), "Fallback") {
				t.Fatalf("act_by_index after %s: %v (Victim was %d)", c.change, d, victim)
			}
			if got := r.text(`() => document.getElementById('out').textContent`); got != "victim clicked" {
				t.Fatalf("the page says %q", got)
			}
		})
	}
}

// TestDownloadsOfOtherSessions: Chromium tells every connection about every
// download; two sessions sharing a browser and a download folder each see
// only their own.
func TestDownloadsOfOtherSessions(t *testing.T) {
	dir := t.TempDir()
	a := newSession(t, func(o *Options) { o.DownloadDir = dir })
	b := newSession(t, func(o *Options) { o.DownloadDir = dir })
	open(t, a, "/tabs.html")
	l := mustList(t, a, ListOptions{})
	d, err := a.ClickAndWaitDownload(testCtx(t), numberOf(t, l, "Device name"), 10000)
	if err != nil || d.Name != "_con.txt" || d.Bytes != 10 {
		t.Fatalf("session a: %+v, %v", d, err)
	}
	if d, err := b.DownloadWait(testCtx(t), 500); err == nil || !strings.Contains(err.Error(), "no download started") {
		t.Fatalf("session b reports a's download: %+v, %v", d, err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, ".waymark-partial"))
	if len(entries) != 1 {
		t.Fatalf("staging after a closed: %v (b's folder only)", entries)
	}
	_ = b.Close()
	if _, err := os.Stat(filepath.Join(dir, ".waymark-partial")); !os.IsNotExist(err) {
		t.Fatalf("the staging folder outlives the sessions: %v", err)
	}
}
