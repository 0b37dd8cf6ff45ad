package desktop

import (
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/tools"
)

// placesBook has letters of one, two and four bytes (one or two UTF-16
// units) before its places, so a place given in bytes is never the editor's.
const placesBook = "# Книга 😀\n\nМира signed the 😀 log.\n\n## Глава вторая\n\nThe brass telescope 😀.\n\n- Ёлка и ель.\n"

// TestDesktopPlacesInTheEditor: every place the window jumps to — an outline
// heading, a search match, a reading portion's item, a target set's member —
// is where the editor's text (UTF-16) shows what the panel names, and the item
// at the cursor is the one the cursor is in; the places come from the tools.
func TestDesktopPlacesInTheEditor(t *testing.T) {
	a, _ := desktopApp(t, placesBook)
	u := utf16.Encode([]rune(placesBook))
	at := func(pos int) string {
		if pos < 0 || pos > len(u) {
			return "<no place>"
		}
		return string(utf16.Decode(u[pos:]))
	}
	u16 := func(s string) int { return len(utf16.Encode([]rune(s))) }

	o, err := a.Outline()
	if err != nil {
		t.Fatal(err)
	}
	s, err := a.Search("telescope")
	if err != nil {
		t.Fatal(err)
	}
	p, err := a.ReadPortion(true)
	if err != nil {
		t.Fatal(err)
	}
	created, err := call(a, a.context(), manuscript.TargetSetCreateRef, manuscript.TargetSetCreateArgs{Name: "check"}, tools.Context{})
	if err != nil {
		t.Fatal(err)
	}
	setID := created.ID
	if _, err := call(a, a.context(), manuscript.TargetSetAddRef, manuscript.TargetSetAddArgs{TargetSetID: setID, ItemIndices: []int{4, 1}}, tools.Context{}); err != nil {
		t.Fatal(err)
	}
	sets, err := a.TargetSets()
	if err != nil || len(sets) != 1 || sets[0].Name != "check" || sets[0].Count != 2 {
		t.Fatalf("TargetSets = %+v, %v; want the set check with 2 items", sets, err)
	}
	ts, err := a.TargetSet(setID)
	if err != nil {
		t.Fatal(err)
	}
	item, err := a.ItemAt(u16(placesBook[:strings.Index(placesBook, "ель.")]))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.ItemAt(len(u) + 1); err == nil || !strings.Contains(err.Error(), "outside the text") {
		t.Errorf("ItemAt past the end: %v, want it outside the text", err)
	}

	type place struct {
		what string
		pos  int
		want string // what the editor's line there shows
	}
	var places []place
	for _, h := range o.Headings {
		places = append(places, place{"outline " + h.Text, h.Pos, strings.Repeat("#", h.Level) + " " + h.Text})
	}
	for _, m := range s.Matches {
		places = append(places, place{"search match", m.From, "telescope 😀."})
		if at(m.To) != " 😀.\n\n- Ёлка и ель.\n" {
			t.Errorf("search match ends at %d: %q", m.To, at(m.To))
		}
	}
	for _, it := range p.Items {
		places = append(places, place{"reading " + it.Label, it.Pos, it.Text})
	}
	for _, it := range ts.Items {
		places = append(places, place{"set member " + it.Label, it.Pos, it.Snippet})
	}
	for _, c := range []struct {
		what  string
		count int
	}{{"outline", 2}, {"search match", 1}, {"reading", 5}, {"set member", 2}} {
		n := 0
		for _, p := range places {
			if strings.HasPrefix(p.what, c.what) {
				n++
			}
		}
		if n != c.count {
			t.Errorf("%d places of %s, want %d", n, c.what, c.count)
		}
	}
	for _, p := range places {
		// Each place starts a line of the editor (a match: inside one) that
		// shows what the panel names.
		line, _, _ := strings.Cut(at(p.pos), "\n")
		startsLine := p.pos == 0 || p.pos > 0 && p.pos <= len(u) && u[p.pos-1] == '\n'
		if !strings.Contains(line, p.want) || p.what != "search match" && !startsLine {
			t.Errorf("%s at %d: the editor shows %q there, want a line with %q", p.what, p.pos, line, p.want)
		}
	}
	if item.Type != "ListItem" || item.Index != 4 {
		t.Errorf("ItemAt in “ель.” = %+v, want the list item 4", item)
	}
}
