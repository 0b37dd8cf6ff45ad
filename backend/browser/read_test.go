package browser

import (
	"strings"
	"testing"
)

// portion cuts at a paragraph end in the second half, else a sentence end,
// else a space, and the next portion starts at the next word.
func TestPortionCuts(t *testing.T) {
	for _, c := range []struct {
		name, text string
		from, n    int
		want       string
		next       int
	}{
		{"paragraph", "One two three.\nFour five six seven eight.", 0, 24, "One two three.", 15},
		{"sentence", "One two. Three four five six. Seven", 0, 32, "One two. Three four five six.", 30},
		{"space", "alpha beta gamma delta", 0, 14, "alpha beta", 11},
		{"all", "short text", 0, 100, "short text", 10},
		{"from the middle", "alpha beta gamma delta", 11, 100, "gamma delta", 22},
		{"past the end", "alpha", 9, 10, "", 5},
	} {
		got, next := portion([]rune(c.text), c.from, c.n)
		if got != c.want || next != c.next {
			t.Errorf("%s: portion = %q, %d; want %q, %d", c.name, got, next, c.want, c.next)
		}
	}
	if got := readableText("  a\u00a0\u00a0b \n\n    if x:\n        y()\n"); got != "  a b\n    if x:\n        y()" {
		t.Errorf("readableText = %q", got)
	}
	if got := spaced("Map\u00a0of\u200bKazan "); got != "Map of Kazan" {
		t.Errorf("spaced = %q", got)
	}
}

// browser_read reads the main text by portions, from a numbered heading, and
// refuses what cannot be read with a message saying what is allowed.
func TestToolReadByPortions(t *testing.T) {
	r := newToolRig(t)
	r.ok("browser_navigate", map[string]any{"url": site.URL + "/read.html"})
	tabs := r.ok("browser_tabs", nil)
	if title := tabs["tabs"].([]any)[0].(map[string]any)["title"]; title != "The Volga" {
		t.Errorf("the tab's title is %q, with its no-break space", title)
	}
	sum := r.ok("browser_extract", nil)
	if !strings.Contains(sum["text"].(string), "1. Level 1: The Volga") || !strings.Contains(sum["text"].(string), "3. Level 2: The towns") {
		t.Errorf("the summary does not number its headings:\n%s", sum["text"])
	}
	total := int(sum["text_chars"].(float64))
	more, _ := sum["more_at"].(float64)
	if total < 1500 || more < 1000 || int(more) >= total {
		t.Fatalf("text_chars %d, more_at %v: the long text should go on after the gist", total, more)
	}
	d := r.ok("browser_read", map[string]any{"from": more})
	if int(d["from"].(float64)) != int(more) || d["text"] == "" {
		t.Errorf("reading on from more_at: %v", d)
	}
	var heard strings.Builder
	for from, i := 0, 0; ; i++ {
		d := r.ok("browser_read", map[string]any{"from": from, "chars": 300})
		heard.WriteString(d["text"].(string) + "\n")
		if n := len([]rune(d["text"].(string))); n > 300 {
			t.Fatalf("a portion of %d characters, asked for 300", n)
		}
		from = int(d["next"].(float64))
		if d["has_more"] != true {
			if from != total {
				t.Errorf("the last portion ends at %d of %d", from, total)
			}
			break
		}
		if i > 100 {
			t.Fatal("no end")
		}
	}
	if !strings.Contains(heard.String(), "The Volga rises in the Valdai Hills") || !strings.Contains(heard.String(), "the ice roads across the river open when it is thick enough to carry a car.") ||
		!strings.Contains(heard.String(), "    if flood:\n        move_uphill()") {
		t.Errorf("reading by portions left out text:\n%s", heard.String())
	}
	// Heading 3 is read at its section, not at the contents link of the same name.
	h := r.ok("browser_read", map[string]any{"heading": 3})
	if hd, _ := h["heading"].(map[string]any); hd["text"] != "The towns" || !strings.HasPrefix(h["text"].(string), "The towns\nTver, Yaroslavl") {
		t.Errorf("read from heading 3: %v", h)
	}
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"heading": 9}, "there is no heading 9: the page has 5 headings (1 to 5)"},
		{map[string]any{"heading": 5}, "heading 5 (Related) is not in the main text of the page"},
		{map[string]any{"from": 10000000}, "past the end of the main text"},
		{map[string]any{"from": 5, "heading": 2}, "give one of from, heading and here"},
		{map[string]any{"chars": 50}, "minimum: 50/1 is less than 200"},
	} {
		if msg := r.fails("browser_read", c.args); !strings.Contains(msg, c.want) {
			t.Errorf("browser_read %v: %q, want %q", c.args, msg, c.want)
		}
	}
}
