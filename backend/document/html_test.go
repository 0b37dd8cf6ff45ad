package document

import (
	"strings"
	"testing"
)

// TestRenderHTML checks the exported page: the book's structure, its title
// escaped, and nothing in the manuscript that could run in a browser.
func TestRenderHTML(t *testing.T) {
	cases := []struct {
		name, src, title string
		has, hasNot      []string
	}{
		{"structure", "# Часть первая\n\nНаташа *вошла* и **села**.\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n", "War & Peace",
			[]string{"<title>War &amp; Peace</title>", "<h1>Часть первая</h1>", "<em>вошла</em>", "<strong>села</strong>", "<li>one</li>", "<td>1</td>", `<meta charset="utf-8">`},
			nil},
		{"title cannot break out", "Text.\n", `</title><script>alert(1)</script>`,
			[]string{"&lt;/title&gt;&lt;script&gt;"}, []string{"<script>"}},
		{"raw HTML in the text is left out", "Before.\n\n<script>alert(1)</script>\n\nInline <img src=x onerror=alert(1)> here.\n", "t",
			[]string{"Before.", "here."}, []string{"<script>", "onerror"}},
		{"script links are not links", "[click](javascript:alert(1))\n", "t",
			[]string{"click"}, []string{`href="javascript:`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := RenderHTML([]byte(c.src), c.title)
			if err != nil {
				t.Fatal(err)
			}
			s := string(out)
			if !strings.HasPrefix(s, "<!doctype html>") || !strings.HasSuffix(s, "</html>\n") {
				t.Fatalf("not a whole page: %.80q … %.40q", s, s[max(0, len(s)-40):])
			}
			for _, w := range c.has {
				if !strings.Contains(s, w) {
					t.Errorf("missing %q in:\n%s", w, s)
				}
			}
			for _, w := range c.hasNot {
				if strings.Contains(s, w) {
					t.Errorf("holds %q:\n%s", w, s)
				}
			}
		})
	}
}
