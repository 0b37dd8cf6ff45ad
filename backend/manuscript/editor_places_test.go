package manuscript_test

import (
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/waymark/waymark/backend/manuscript"
)

// placesBook has letters of two and four bytes (Cyrillic, an emoji: one and
// two UTF-16 units) before every heading but the first, so a place counted
// in bytes is never the editor's.
const placesBook = "# Книга\n\nМира signed the 😀 log.\n\n## Глава вторая 😀\n\nThe brass telescope.\n\n- Ёлка и ель.\n"

// fromUtf16 is the editor's text from UTF-16 offset at on, as the window
// shows it when it moves the cursor there.
func fromUtf16(text string, at int) string {
	u := utf16.Encode([]rune(text))
	if at < 0 || at > len(u) {
		return "<outside the text>"
	}
	return string(utf16.Decode(u[at:]))
}

// TestToolsGiveEditorPlaces: the places the window (and any editor over MCP
// or the CLI) jumps to come from the tools, in UTF-16 code units: the
// outline's headings, a reading portion's items, a target set's members and
// the item at the cursor. At each place the editor's text starts with what
// the tool names, also after typing moved everything (one index per revision,
// never a stale one).
func TestToolsGiveEditorPlaces(t *testing.T) {
	e := newEnv(t, placesBook)
	if err := e.call("CreateCursor", `{"cursorName": "R", "forward": true, "maxElements": 10, "maxBytes": 4096, "includeContent": true}`, nil); err != nil {
		t.Fatal(err)
	}
	var set manuscript.TargetSetCreated
	if err := e.call("TargetSetCreate", `{"name": "to check"}`, &set); err != nil {
		t.Fatal(err)
	}
	if err := e.callArgs("TargetSetAdd", map[string]any{"targetSetId": set.ID, "itemIndices": []int{4, 1}}, nil); err != nil {
		t.Fatal(err)
	}

	// place is where a tool sends the editor (at, in UTF-16 units; -1: it
	// gives none) and what it says is there.
	type place struct {
		at    int
		names string
	}
	outline := func() []place {
		var o manuscript.OutlineResult
		if err := e.call("Outline", `{}`, &o); err != nil {
			t.Fatal(err)
		}
		if o.SizeBytes != len(e.file()) {
			t.Errorf("outline: sizeBytes %d, the file has %d", o.SizeBytes, len(e.file()))
		}
		var ps []place
		for _, h := range o.Headings {
			ps = append(ps, place{h.Utf16Offset, strings.Repeat("#", h.Level) + " " + h.Text})
		}
		return ps
	}
	portion := func() []place {
		if err := e.call("CreateCursor", `{"cursorName": "R", "forward": true, "maxElements": 10, "maxBytes": 4096, "includeContent": true}`, nil); err != nil {
			t.Fatal(err)
		}
		var p struct {
			Items []struct {
				Utf16Offset int    `json:"utf16Offset"`
				Markdown    string `json:"markdown"`
			} `json:"items"`
		}
		if err := e.call("CursorNext", `{"cursorName": "R"}`, &p); err != nil {
			t.Fatal(err)
		}
		var ps []place
		for _, it := range p.Items {
			ps = append(ps, place{it.Utf16Offset, it.Markdown})
		}
		return ps
	}
	members := func() []place {
		var g manuscript.TargetSetGetResult
		if err := e.callArgs("TargetSetGet", map[string]any{"targetSetId": set.ID}, &g); err != nil {
			t.Fatal(err)
		}
		var ps []place
		for _, m := range g.Members {
			ps = append(ps, place{m.Utf16Offset, m.Snippet})
		}
		return ps
	}
	itemAt := func(word string) func() []place {
		return func() []place {
			text := e.file()
			var r struct {
				Index int    `json:"index"`
				Type  string `json:"type"`
			}
			if err := e.callArgs("ItemAt", map[string]any{"utf16Offset": u16(text[:strings.Index(text, word)])}, &r); err != nil {
				t.Fatal(err)
			}
			var it struct {
				Text string `json:"text"`
			}
			if err := e.callArgs("Read", map[string]any{"index": r.Index}, &it); err != nil {
				t.Fatal(err)
			}
			return []place{{-1, r.Type + ": " + it.Text}}
		}
	}

	cases := []struct {
		name string
		got  func() []place
		// want: what each place names, then what the editor's text starts
		// with there (when it differs: a list item's marker).
		want [][2]string
	}{
		{"outline headings", outline, [][2]string{{"# Книга"}, {"## Глава вторая 😀"}}},
		{"reading portion", portion, [][2]string{{"# Книга"}, {"Мира signed the 😀 log."}, {"## Глава вторая 😀"}, {"The brass telescope."}, {"- Ёлка и ель."}}},
		{"target set members", members, [][2]string{{"Мира signed the 😀 log."}, {"Ёлка и ель.", "- Ёлка и ель."}}},
		{"item at the cursor in a paragraph", itemAt("log."), [][2]string{{"Paragraph: Мира signed the 😀 log."}}},
		{"item at the cursor in a list", itemAt("ель."), [][2]string{{"ListItem: Ёлка и ель."}}},
	}
	check := func(when string) {
		text := e.file()
		for _, c := range cases {
			ps := c.got()
			if len(ps) != len(c.want) {
				t.Errorf("%s, %s: %d places %+v, want %d", when, c.name, len(ps), ps, len(c.want))
				continue
			}
			for k, p := range ps {
				names, shows := c.want[k][0], c.want[k][1]
				if shows == "" {
					shows = names
				}
				if p.names != names {
					t.Errorf("%s, %s: place %d names %q, want %q", when, c.name, k, p.names, names)
				}
				if got := fromUtf16(text, p.at); p.at >= 0 && !strings.HasPrefix(got, shows) {
					t.Errorf("%s, %s: at %d the editor shows %q, want %q", when, c.name, p.at, first(got), shows)
				}
			}
		}
	}
	check("as opened")
	// Typing at the top, with a letter of two UTF-16 units, moves every place.
	if err := e.call("TypeText", `{"baseRevision": 1, "fromUtf16": 0, "toUtf16": 0, "text": "😀 Пролог.\n\n"}`, nil); err != nil {
		t.Fatal(err)
	}
	cases[1].want = append([][2]string{{"😀 Пролог."}}, cases[1].want...)
	check("after typing")
}

func first(s string) string {
	if r := []rune(s); len(r) > 30 {
		return string(r[:30])
	}
	return s
}

// TestItemAtRefusesPlacesOutsideTheText: a place past the end or inside a
// surrogate pair names no item, and says why.
func TestItemAtRefusesPlacesOutsideTheText(t *testing.T) {
	e := newEnv(t, placesBook)
	emoji := u16(placesBook[:strings.Index(placesBook, "😀")])
	for _, c := range []struct {
		at   int
		want string
	}{
		{u16(placesBook) + 1, "is outside the text"},
		{emoji + 1, "falls inside a character"},
	} {
		err := e.callArgs("ItemAt", map[string]any{"utf16Offset": c.at}, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ItemAt %d: err = %v, want %q", c.at, err, c.want)
		}
	}
}
