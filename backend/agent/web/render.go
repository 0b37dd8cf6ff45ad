package web

import (
	"net/url"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/waymark/waymark/backend/browser"
)

// RenderResultIn turns a browser tool's result into short lines a screen
// reader can speak, in l: what the listener needs to know, in the commands
// the listener says (never the tools' names), and what the browser's guard
// stopped during the call. What is said depends on the result's type (one
// renderer per type, as goldmark has one per node kind), never on which tool
// ran or on the words of a note.
func RenderResultIn(l Lang, res browser.Outcome) string {
	text := renderResult(l, res)
	for _, r := range res.Refusals() {
		text += "\n" + l.t("Stopped: ", "Остановлено: ") + SpokenRefusal(l, r) + "."
	}
	return text
}

// ResultText is a tool's result as a listener hears it, for a door that
// gives words beside the data (an MCP reply's text, the data going as its
// structured content): a browser tool's result as a number command's answer
// says it (the opening line, RenderResultIn, the page's dialog), in English,
// as a tool called with JSON arguments has no command's language; a number
// command's answer (BrowseCommand) as its lines. ok is false for a result
// this package has no words for: the manuscript tools', a browsing goal's
// end, a browser result type with no renderer (the overlay's show and hide,
// the banners' pass), and a browser tool's failure, whose own message says
// what the caller can do (the door gives that).
func ResultText(res any) (text string, ok bool) {
	switch r := res.(type) {
	case BrowseAnswer:
		return r.Lines(), true
	case browser.Outcome:
		if _, failed := r.Failed(); failed {
			return "", false
		}
		if _, ok := renderers[reflect.TypeOf(r.Payload())]; !ok {
			return "", false
		}
		text = RenderResultIn(English, r)
		if say := OpeningLine(English, r); say != "" {
			text = say + "\n" + text
		}
		if d := OpenDialog(r); d != nil {
			text += "\n" + DialogLine(English, *d)
		}
		return text, true
	}
	return "", false
}

func renderResult(l Lang, res browser.Outcome) string {
	if _, failed := res.Failed(); failed {
		return l.t("Error: ", "Ошибка: ") + SpokenError(l, res.Cause())
	}
	if text := byType(renderers, l, res); text != "" {
		return text
	}
	return l.t("OK.", "Готово.")
}

// OpeningLine is the line said before res's answer in place of the step's
// own ("" keeps it): reading that starts at a named place says so.
func OpeningLine(l Lang, res browser.Outcome) string {
	return byType(openers, l, res)
}

// sayers say results by their data's type (a *browser.ListResult, …).
type sayers map[reflect.Type]func(Lang, any) string

// renderers say each browser result type; a type with nothing to say is
// said "OK.". openers give the line before the answer.
var renderers, openers = sayers{}, sayers{}

// sayAs registers the renderer of results of type *T in m.
func sayAs[T any](m sayers, say func(Lang, *T) string) {
	m[reflect.TypeFor[*T]()] = func(l Lang, d any) string { return say(l, d.(*T)) }
}

// byType says res's data with the renderer of its type in m ("": none).
func byType(m sayers, l Lang, res browser.Outcome) string {
	d := res.Payload()
	if say, ok := m[reflect.TypeOf(d)]; ok {
		return say(l, d)
	}
	return ""
}

// readingFrom says where reading starts when it starts at a named place.
func readingFrom(l Lang, d *browser.ReadResult) string {
	if d.Here == "" {
		return ""
	}
	return l.f("Reading from %s.", "Читаю с места «%s».", d.Here)
}

func init() {
	sayAs(openers, readingFrom)
	sayAs(renderers, listLines)
	sayAs(renderers, readLines)
	sayAs(renderers, summaryLines)
	sayAs(renderers, tabLines)
	sayAs(renderers, scrollLine)
	sayAs(renderers, findLines)
	sayAs(renderers, textLines)
	sayAs(renderers, tableLines)
	sayAs(renderers, uploadLine)
	sayAs(renderers, actLines)
	sayAs(renderers, actByIndexLines)
	sayAs(renderers, pressLines)
	sayAs(renderers, navigateLines)
	sayAs(renderers, historyLines)
	sayAs(renderers, reloadLines)
	sayAs(renderers, switchTabLines)
	sayAs(renderers, newTabLines)
	sayAs(renderers, closedTabLines)
	sayAs(renderers, downloadLines)
	sayAs(renderers, screenshotLine)
	sayAs(renderers, waitLines)
	sayAs(renderers, focusLines)
	sayAs(renderers, dialogLines)
}

// uploadLine says which files went to which field.
func uploadLine(l Lang, d *browser.UploadResult) string {
	var names []string
	for _, f := range d.Files {
		names = append(names, filepath.Base(f))
	}
	field := d.Field
	if field == "" {
		field = l.t("the file field", "поле файла")
	}
	return Spoken(l.f("Gave %s to %v (%s).", "Передал %s в %v (%s).", strings.Join(names, ", "), d.Number, field))
}

// spokenURL is an address as a listener hears it: percent-escapes decoded
// (…done.html?name=Анна, not ?name=%D0%90%D0%BD…) when they are whole UTF-8
// text with no control characters; else the address as it is.
func spokenURL(u string) string {
	if !strings.Contains(u, "%") {
		return u
	}
	d, err := url.PathUnescape(u)
	if err != nil || !utf8.ValidString(d) || strings.IndexFunc(d, unicode.IsControl) >= 0 {
		return u
	}
	return d
}

// rowsWord and columnsWord say a table's size.
func rowsWord(l Lang, n int) string {
	if l == Russian {
		return count(l, n) + " " + plural(n, "строка", "строки", "строк")
	}
	if n == 1 {
		return "1 row"
	}
	return count(l, n) + " rows"
}

func columnsWord(l Lang, n int) string {
	if l == Russian {
		return count(l, n) + " " + plural(n, "столбец", "столбца", "столбцов")
	}
	if n == 1 {
		return "1 column"
	}
	return count(l, n) + " columns"
}

// plural picks the Russian form for n: one, few (2–4), many.
func plural(n int, one, few, many string) string {
	switch {
	case n%10 == 1 && n%100 != 11:
		return one
	case n%10 >= 2 && n%10 <= 4 && (n%100 < 12 || n%100 > 14):
		return few
	}
	return many
}

// times says how many times: "once", "10 times"; "1 раз", "3 раза".
func times(l Lang, n int) string {
	if l == Russian {
		switch {
		case n%10 >= 2 && n%10 <= 4 && (n%100 < 12 || n%100 > 14):
			return thousands(l, n) + " раза"
		}
		return thousands(l, n) + " раз"
	}
	if n == 1 {
		return "once"
	}
	return thousands(l, n) + " times"
}

// spokenNames turns the tools' names in messages (written for the model)
// into what the listener says.
var spokenNames = strings.NewReplacer(
	"numbering is stale", "the numbers are out of date",
	"no numbering yet", "there are no numbers yet",
	"call browser_list_interactives with the limit and offset you mean, then act", "say list, then act",
	"call browser_list_interactives", "say list",
	"(browser_close_banners or Escape)", "(press Escape)",
	"browser_close_banners", "press Escape",
	"browser_list_interactives", "list",
	"browser_switch_tab", "say tab and its number",
	"browser_tabs", "say tabs",
	"browser_extract", "read page",
	"browser_read", "read more",
	"browser_overlay_act", "click",
	"browser_dialog", "your answer",
	`\u00a0`, " ", `\u200b`, "", "\u00a0", " ", "\u200b", "",
)

// Spoken says the tools' names in s as the listener says them.
func Spoken(s string) string { return spokenNames.Replace(s) }

// thousands writes n grouped by thousands as l writes numbers: 24,310 in
// English; 24 310 in Russian, with a narrow no-break space (a comma there
// reads as a decimal point).
func thousands(l Lang, n int) string {
	sep := ","
	if l == Russian {
		sep = "\u202f"
	}
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + sep + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// count is a count as l writes it in a sentence: grouped by thousands in
// Russian (1 422), plain in English (1422), as the lists have always said.
func count(l Lang, n int) string {
	if l == Russian {
		return thousands(l, n)
	}
	return strconv.Itoa(n)
}

// elements says a count of numbered elements: "1 element", "5001 elements"
// in English; the count alone in Russian, whose sentences put it after
// «элементов:».
func elements(l Lang, n int) string {
	switch {
	case l == Russian:
		return count(l, n)
	case n == 1:
		return "1 element"
	}
	return count(l, n) + " elements"
}

// characters says a count of typed characters.
func characters(l Lang, n int) string {
	if l == Russian {
		switch {
		case n%10 == 1 && n%100 != 11:
			return thousands(l, n) + " знак"
		case n%10 >= 2 && n%10 <= 4 && (n%100 < 12 || n%100 > 14):
			return thousands(l, n) + " знака"
		}
		return thousands(l, n) + " знаков"
	}
	if n == 1 {
		return "1 character"
	}
	return thousands(l, n) + " characters"
}

// OpenDialog returns the JavaScript dialog a result reports as waiting.
func OpenDialog(res browser.Outcome) *browser.Dialog {
	if _, failed := res.Failed(); failed {
		return nil
	}
	return res.WaitingDialog()
}
