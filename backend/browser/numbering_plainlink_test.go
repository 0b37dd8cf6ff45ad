package browser

import (
	"fmt"
	"testing"
)

func init() {
	extraPages["/plainlinks.html"] = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Links</title></head><body><main>
<p><a href="/a">Plain text</a></p>
<p><a href="/b" class="nav" id="b1" target="_blank" rel="noopener" data-x="1">  Spaced
  text </a></p>
<p><a href="/c" title="Close the sidebar">«</a></p>
<p><a href="/d" title="Opens the index">Index</a></p>
<p><a href="/e" aria-label="Home page">H</a></p>
<p><a href="/f" role="button">Go</a></p>
<p><a href="/g"><img alt="Logo" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="20" height="20"></a></p>
<p><a href="/h" aria-disabled="true">Off</a></p>
<p><a href="/i" aria-pressed="true">Pressed</a></p>
<p><a href="/j" placeholder="ignored">Has a placeholder</a></p>
<p><a href="/k" aria-describedby="kd">»</a><span id="kd">Next chapter</span></p>
<div contenteditable="true"><a href="/l">Editable link</a></div>
<p><a href="https://elsewhere.example/m">Away</a></p>
<p><a href="/n?q=1#top">With a query</a></p>
<p><a href="/o/../p">Dot segment</a></p>
<details><summary>More</summary>Hidden</details><button>Bare button</button><input><textarea></textarea><select><option>One</option></select>
</main></body></html>`
}

// TestPlainLinkRowsAreTheGeneralRows: a link whose row the walk makes
// from its text and address alone (no attribute the names, role, value or
// state read, not editable) gets the row the general path gives; a link
// with one of those attributes, or inside an editable region, still goes
// the general way (its name from aria-label or title, its role, state,
// value and extra labels). Controls with no attribute at all are numbered
// by their name alone (summary, button, input, textarea, select).
func TestPlainLinkRowsAreTheGeneralRows(t *testing.T) {
	s := newSession(t)
	open(t, s, "/plainlinks.html")
	r := mustList(t, s, ListOptions{Limit: 100})
	got, tags := map[string]string{}, map[string]string{}
	for _, it := range r.Items {
		tags[it.Tag] = it.Role
		c := ""
		if it.Checked != nil {
			c = fmt.Sprint(*it.Checked)
		}
		got[it.Href] = fmt.Sprintf("%s|%s|%s|%s|%q|%v|%s|%q", it.Role, it.Name, it.Tag, it.Type, it.Value, it.Disabled, c, it.extra)
	}
	for _, tc := range []struct{ href, want string }{
		{"/a", `link|Plain text|a||""|false||""`},
		{"/b", `link|Spaced text|a||""|false||""`},
		{"/c", `link|Close the sidebar|a||""|false||"Close the sidebar"`},
		{"/d", `link|Index|a||""|false||"Opens the index"`},
		{"/e", `link|Home page|a||""|false||"Home page"`},
		{"/f", `button|Go|a||""|false||""`},
		{"/g", `link|Logo|a||""|false||""`},
		{"/h", `link|Off|a||""|true||""`},
		{"/i", `link|Pressed|a||""|false|true|""`},
		{"/j", `link|Has a placeholder|a||""|false||"ignored"`},
		{"/k", `link|Next chapter|a||""|false||"Next chapter"`},
		{"/l", `link|»Next chapter|a||"Editable link"|false||""`},
		{"https://elsewhere.example/m", `link|Away|a||""|false||""`},
		{"/n?q=1#top", `link|With a query|a||""|false||""`},
		{"/p", `link|Dot segment|a||""|false||""`},
	} {
		href := tc.href
		if href[0] == '/' {
			href = site.URL + href
		}
		if g, ok := got[href]; !ok || g != tc.want {
			t.Errorf("%s: got %q, want %q (all: %v)", tc.href, g, tc.want, got)
		}
	}
	for tag, role := range map[string]string{"summary": "button", "button": "button", "input": "textbox", "textarea": "textbox", "select": "combobox"} {
		if tags[tag] != role {
			t.Errorf("a bare <%s>: role %q, want %q (all: %v)", tag, tags[tag], role, tags)
		}
	}
}
