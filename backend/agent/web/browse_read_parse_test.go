package web

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/browser"
)

// argsJSON is a step's arguments as JSON with sorted keys ("null": none).
func argsJSON(args any) string {
	if args == nil {
		return "null"
	}
	var m map[string]any
	b, _ := json.Marshal(args)
	_ = json.Unmarshal(b, &m)
	if m == nil {
		return "{}"
	}
	b, _ = json.Marshal(m)
	return string(b)
}

// The commands that search the page's text (issue 33, point 8), in English
// and Russian, and what they go on with.
func TestParseTextSearch(t *testing.T) {
	cases := []struct{ in, tool, args, say string }{
		{"find in text malloc", "browser_find_text", `{"occurrence":1,"text":"malloc"}`, `Looking for "malloc" in the text.`},
		{"search the text for free software", "browser_find_text", `{"occurrence":1,"text":"free software"}`, `Looking for "free software" in the text.`},
		{"найди в тексте malloc", "browser_find_text", `{"occurrence":1,"text":"malloc"}`, "Ищу «malloc» в тексте."},
		{"ищи в тексте «свободные программы»", "browser_find_text", `{"occurrence":1,"text":"свободные программы"}`, "Ищу «свободные программы» в тексте."},
		{"третье вхождение malloc", "browser_find_text", `{"occurrence":3,"text":"malloc"}`, "Вхождение 3 «malloc»."},
		{"3-е вхождение malloc", "browser_find_text", `{"occurrence":3,"text":"malloc"}`, "Вхождение 3 «malloc»."},
		{"third occurrence of malloc", "browser_find_text", `{"occurrence":3,"text":"malloc"}`, `Occurrence 3 of "malloc".`},
		{"occurrence 7 of malloc", "browser_find_text", `{"occurrence":7,"text":"malloc"}`, `Occurrence 7 of "malloc".`},
		{"last occurrence of malloc", "browser_find_text", `{"last":true,"occurrence":1,"text":"malloc"}`, `Looking for the last "malloc" in the text.`},
		{"find malloc", "browser_find", `{"text":"malloc"}`, `Looking for "malloc".`},
	}
	for _, c := range cases {
		step, err := new(Browsing).Parse(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		args := argsJSON(step.Args)
		if step.Tool != c.tool || string(args) != c.args || step.Say != c.say {
			t.Errorf("%q: %s %s %q, want %s %s %q", c.in, step.Tool, args, step.Say, c.tool, c.args, c.say)
		}
	}
}

// Next, previous, the Nth and the last go on from the search heard last, and
// say where they end without a tool; "read from here" reads from the
// occurrence's line.
func TestTextSearchGoesOn(t *testing.T) {
	b := new(Browsing)
	if s, _ := b.Parse("next occurrence"); s.Tool != "" || s.Say != "Nothing was searched for yet: say find in text and a word." {
		t.Errorf("next occurrence before any search: %+v", s)
	}
	step, _ := b.Parse("найди в тексте malloc")
	res := map[string]any{"status": "ok", "data": map[string]any{"url": "http://x/p.html", "text": "malloc", "total": 10, "occurrence": 1, "at": 120, "line_at": 100, "chars": 5000}}
	b.Observe(step, res)
	cases := []struct{ in, tool, args, say string }{
		{"next occurrence", "browser_find_text", `{"occurrence":2,"text":"malloc"}`, `Occurrence 2 of "malloc".`},
		{"ещё", "browser_find_text", `{"occurrence":2,"text":"malloc"}`, "Вхождение 2 «malloc»."},
		{"предыдущее вхождение", "", `{}`, "Это было первое вхождение «malloc»; всего их 10."},
		{"вхождение 4", "browser_find_text", `{"occurrence":4,"text":"malloc"}`, "Вхождение 4 «malloc»."},
		{"последнее вхождение", "browser_find_text", `{"occurrence":10,"text":"malloc"}`, "Вхождение 10 «malloc»."},
		{"read from here", "browser_read", `{"continue_url":"http://x/p.html","from":100}`, `Reading from occurrence 1 of "malloc".`},
		{"read more", "browser_read", `{"continue_url":"http://x/p.html","from":100}`, "Reading on."},
	}
	for _, c := range cases {
		s, err := b.Parse(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		args := argsJSON(s.Args)
		if s.Args == nil {
			args = `{}`
		}
		if s.Tool != c.tool || string(args) != c.args || s.Say != c.say {
			t.Errorf("%q: %s %s %q, want %s %s %q", c.in, s.Tool, args, s.Say, c.tool, c.args, c.say)
		}
	}
	b.Observe(BrowseStep{Tool: "browser_find_text", Args: browser.FindTextArgs{Text: "malloc"}},
		map[string]any{"status": "ok", "data": map[string]any{"url": "http://x/p.html", "text": "malloc", "total": 10, "occurrence": 10, "at": 900, "line_at": 880, "chars": 5000}})
	if s, _ := b.Parse("next occurrence"); s.Tool != "" || s.Say != `That was the last occurrence of "malloc": 10 in all.` {
		t.Errorf("next after the last: %+v", s)
	}
	// Another step: "read from here" is no longer at the occurrence.
	b.Observe(BrowseStep{Tool: "browser_list_interactives"}, map[string]any{"status": "ok", "data": map[string]any{"total": 3}})
	if s, _ := b.Parse("read from here"); s.Tool != "browser_read" || s.Args != (browser.ReadArgs{Here: true}) {
		t.Errorf("read from here after a list: %+v", s)
	}
}

// Russian numbers are grouped with a narrow no-break space, not a comma,
// which reads as a decimal point there (issue 33, point 13).
func TestThousands(t *testing.T) {
	cases := []struct {
		l    Lang
		n    int
		want string
	}{
		{English, 999, "999"}, {English, 1422, "1,422"}, {English, 217877, "217,877"}, {English, 1234567, "1,234,567"},
		{Russian, 999, "999"}, {Russian, 1422, "1\u202f422"}, {Russian, 217877, "217\u202f877"}, {Russian, -1234567, "-1\u202f234\u202f567"},
	}
	for _, c := range cases {
		if got := thousands(c.l, c.n); got != c.want {
			t.Errorf("thousands(%s, %d) = %q, want %q", c.l, c.n, got, c.want)
		}
	}
}

// A toggle that shows its state only as an arrow says it in words.
func TestItemLineToggleState(t *testing.T) {
	cases := []struct {
		l          Lang
		name, want string
	}{
		{English, "► Table Of Contents", "10. clickable Table Of Contents, collapsed"},
		{English, "▼ Table Of Contents", "10. clickable Table Of Contents, expanded"},
		{Russian, "► Оглавление", "10. нажимаемый элемент Оглавление, свёрнут"},
		{Russian, "▼ Оглавление", "10. нажимаемый элемент Оглавление, развёрнут"},
		{English, "►", "10. clickable ►"},
		{English, "Next ►", "10. clickable Next ►"},
	}
	for _, c := range cases {
		if got := itemLine(c.l, &browser.Item{Number: 10, Role: "clickable", Name: c.name}); got != c.want {
			t.Errorf("%s %q: %q, want %q", c.l, c.name, got, c.want)
		}
	}
}

// Addresses are said decoded (issue 33, point 5): a Russian name in a query
// is heard as words, not as percent-escapes; an escape that is no text stays.
func TestSpokenURL(t *testing.T) {
	cases := []struct{ in, want string }{
		{"http://127.0.0.1:8080/done.html?name=%D0%90%D0%BD%D0%BD%D0%B0", "http://127.0.0.1:8080/done.html?name=Анна"},
		{"https://ru.wikipedia.org/wiki/%D0%9A%D0%B0%D0%B7%D0%B0%D0%BD%D1%8C", "https://ru.wikipedia.org/wiki/Казань"},
		{"http://x/a%20b", "http://x/a b"},
		{"http://x/%FF%FE", "http://x/%FF%FE"},
		{"http://x/%0Aline", "http://x/%0Aline"},
		{"http://x/100%", "http://x/100%"},
		{"http://x/plain", "http://x/plain"},
	}
	for _, c := range cases {
		if got := spokenURL(c.in); got != c.want {
			t.Errorf("spokenURL(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	got := summaryLines(Russian, &browser.Summary{Title: "Готово", URL: cases[0].in, MainText: "Спасибо"})
	if !strings.Contains(got, "\nАдрес: http://127.0.0.1:8080/done.html?name=Анна\n") {
		t.Errorf("прочитай страницу says the address encoded:\n%s", got)
	}
}

// The words of a text search do not take an element's name: "find Next"
// still finds the link called Next.
func TestFindNextIsAnElementFind(t *testing.T) {
	for _, c := range []string{"find Next", "find previous", "найди далее", "найди следующее"} {
		s, err := new(Browsing).Parse(c)
		if err != nil || s.Tool != "browser_find" {
			t.Errorf("%q: %+v %v, want browser_find", c, s, err)
		}
	}
}

// "more" past the end says the total grouped in Russian, plain in English.
func TestEndOfListTotals(t *testing.T) {
	b := new(Browsing)
	b.Observe(BrowseStep{Tool: "browser_list_interactives"}, map[string]any{"status": "ok", "data": map[string]any{"total": 5001, "offset": 4950, "next_offset": 5001}})
	if s, _ := b.Parse("ещё"); s.Say != "Это был конец списка, всего элементов: 5\u202f001. Скажите «список», чтобы начать сначала, или «список» и номер, чтобы начать с него." {
		t.Errorf("ещё: %q", s.Say)
	}
	if s, _ := b.Parse("more"); s.Say != "That was the end of the list: 5001 elements in all. Say list to start again, or list and a number to start there." {
		t.Errorf("more: %q", s.Say)
	}
}
