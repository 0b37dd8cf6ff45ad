package web

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/waymark/waymark/backend/browser"
)

// RenderResultIn turns a browser tool's {status, data, error} into short lines
// a screen reader can speak, in l: what the listener needs to know, in the
// commands the listener says (never the tools' names), and what the browser's
// guard stopped during the call.
func RenderResultIn(l Lang, tool string, res any) string {
	b, _ := json.Marshal(res) // once: a page's list can be long
	text := renderResult(l, tool, b)
	var g struct {
		Refused []string `json:"refused"`
	}
	if json.Unmarshal(b, &g) == nil {
		for _, r := range g.Refused {
			text += "\n" + l.t("Stopped: ", "Остановлено: ") + SpokenRefusal(l, r) + "."
		}
	}
	return text
}

func renderResult(l Lang, tool string, b []byte) string {
	var r struct {
		Status string          `json:"status"`
		Error  string          `json:"error"`
		Data   json.RawMessage `json:"data"`
	}
	if json.Unmarshal(b, &r) != nil || r.Status == "" {
		return Spoken(string(b))
	}
	if r.Status == "error" {
		return l.t("Error: ", "Ошибка: ") + SpokenError(l, r.Error)
	}
	var d map[string]any
	if json.Unmarshal(r.Data, &d) != nil {
		var s string
		if json.Unmarshal(r.Data, &s) == nil && s != "" {
			return Spoken(s)
		}
		return l.t("OK.", "Готово.")
	}
	switch tool {
	case "browser_list_interactives":
		return listLines(l, d)
	case "browser_read":
		return readLines(l, d)
	case "browser_extract":
		return summaryLines(l, d)
	case "browser_tabs":
		return tabLines(l, d)
	case "browser_scroll":
		return scrollLine(l, d)
	case "browser_find":
		return findLines(l, d)
	case "browser_find_text":
		return textLines(l, d)
	case "browser_table":
		return tableLines(l, d)
	case "browser_upload":
		var names []string
		for _, f := range asList(d["files"]) {
			names = append(names, filepath.Base(fmt.Sprint(f)))
		}
		field := fmt.Sprint(first(d, "field"))
		if field == "" {
			field = l.t("the file field", "поле файла")
		}
		return Spoken(l.f("Gave %s to %v (%s).", "Передал %s в %v (%s).", strings.Join(names, ", "), d["number"], field))
	}
	if text, ok := d["text"].(string); ok && text != "" {
		return Spoken(text)
	}
	var parts []string
	if a, ok := d["action"].(string); ok && d["number"] != nil {
		verb := map[string][2]string{"click": {"click", "нажал"}, "type": {"type", "ввёл в"}, "select": {"select", "выбрал в"}}[a]
		if sel, _ := d["selected"].(string); a == "select" && sel != "" {
			parts = append(parts, l.f("Chose %s in %v (%v).", "Выбрал %s в %v (%v).", sel, d["number"], first(d, "name", "role")))
		} else if n, _ := d["typed_chars"].(float64); a == "type" {
			// What was typed is never said back: how much, and where.
			parts = append(parts, l.f("Done: typed %s into %v (%v).", "Готово: %s введено в %v (%v).", characters(l, int(n)), first(d, "name", "role"), d["number"]))
		} else if verb[0] != "" {
			parts = append(parts, l.f("Done: %s %v (%v).", "Готово: %s %v (%v).", l.t(verb[0], verb[1]), d["number"], first(d, "name", "role")))
		}
	} else if k, ok := d["key"].(string); ok {
		parts = append(parts, l.f("Pressed %s.", "Нажата клавиша %s.", k))
	}
	if tab, ok := d["tab"].(float64); ok {
		switch tool {
		case "browser_open_in_new_tab":
			parts = append(parts, l.f("Opened in a new tab, tab %d of %v.", "Открыто в новой вкладке, вкладка %d из %v.", int(tab), d["tabs"]))
		default:
			parts = append(parts, l.f("Tab %d of %v.", "Вкладка %d из %v.", int(tab), d["tabs"]))
		}
	}
	// A link to a place in a page (#fragment): the page is scrolled there,
	// and the listener can read or list from that place.
	here := false
	if u, _ := d["url"].(string); (tool == "browser_overlay_act" && d["action"] == "click" || tool == "browser_navigate") && len(asList(d["new_tabs"])) == 0 {
		if i := strings.IndexByte(u, '#'); i >= 0 && i < len(u)-1 {
			here = true
		}
	}
	if nav, _ := d["navigated"].(bool); nav || d["action"] == nil {
		if t, _ := d["title"].(string); t != "" {
			parts = append(parts, l.f("Page: %s.", "Страница: %s.", t))
		} else if u, _ := d["url"].(string); u != "" {
			parts = append(parts, l.f("Page: %s.", "Страница: %s.", spokenURL(u)))
		}
	}
	if st, _ := d["http_status"].(float64); st >= 400 {
		parts = append(parts, l.f("The server answered %d, %s: this is an error page.", "Сервер ответил %d (%s): это страница ошибки.", int(st), strings.ToLower(http.StatusText(int(st)))))
	}
	if f, ok := d["focused"].(map[string]any); ok && (tool == "browser_back" || tool == "browser_forward") {
		parts = append(parts, l.f("Focus is back on %v %v.", "Фокус снова на: %v %v.", roleIn(l, fmt.Sprint(first(f, "role", "tag"))), first(f, "name")))
	} else if ok && d["navigated"] != true {
		if n := first(f, "name"); n != "" {
			parts = append(parts, l.f("Focus: %v %v.", "Фокус: %v %v.", roleIn(l, fmt.Sprint(first(f, "role", "tag"))), n))
		}
	}
	if p, _ := d["path"].(string); p != "" {
		parts = append(parts, l.f("Saved to %s.", "Сохранено в %s.", p))
	}
	for _, t := range asList(d["new_tabs"]) {
		m, _ := t.(map[string]any)
		title := fmt.Sprint(first(m, "title", "url"))
		parts = append(parts, l.f("Opened a new tab: %v, %s. Say tab %v to go there.", "Открыта новая вкладка: %v, %s. Скажите «вкладка %v», чтобы перейти туда.", m["index"], title, m["index"]))
	}
	if stale, _ := d["numbering_stale"].(bool); here {
		parts = append(parts, l.t("Say read more to read from there, or list from here for the elements from there on.",
			"Скажите «читай дальше», чтобы читать оттуда, или «список отсюда», чтобы услышать элементы с этого места."))
	} else if stale {
		parts = append(parts, l.t("The page changed: say list for new numbers.", "Страница изменилась: скажите «список», чтобы услышать новые номера."))
	}
	if note, _ := d["note"].(string); strings.HasPrefix(note, "The page keeps opening dialogs") {
		// browser_dialog stopped a dialog loop (issue 32 point 9).
		parts = append(parts, l.t("The page kept opening dialogs, one after another: they were closed and the page was left (the tab is empty now). Go to a page to go on.",
			"Страница открывала диалог за диалогом: они закрыты, страница покинута (вкладка теперь пуста). Перейдите на страницу, чтобы продолжить."))
	}
	if note, _ := d["note"].(string); note != "" && (tool == "browser_close_tab" || tool == "browser_switch_tab") {
		parts = append(parts, spokenNote(l, note))
	}
	if tool == "browser_close_tab" {
		for _, t := range asList(d["tabs"]) {
			if m, _ := t.(map[string]any); m["current"] == true {
				parts = append(parts, l.f("Now on tab %v: %v.", "Теперь вкладка %v: %v.", m["index"], first(m, "title", "url")))
			}
		}
	}
	if len(parts) == 0 {
		return l.t("OK.", "Готово.")
	}
	return Spoken(strings.Join(parts, " "))
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

// spokenNote says a tool's note in l (the notes the number commands meet).
func spokenNote(l Lang, note string) string {
	if l != Russian {
		return Spoken(note)
	}
	switch {
	case strings.HasPrefix(note, "This tab is current now"):
		return "Теперь это текущая вкладка; перечислите её элементы, прежде чем действовать по номеру."
	case strings.HasPrefix(note, "This is another page than the one read before"):
		return "Это другая страница, не та, что читалась: читаю её с начала."
	case strings.HasPrefix(note, "The place could not be found"):
		return "Это место не нашлось в основном тексте: читаю с начала."
	case strings.HasPrefix(note, "The page was still changing"):
		return "Страница ещё менялась (загружалась), когда её нумеровали; скажите «список» ещё раз через мгновение."
	}
	return Spoken(note)
}

// listLines reads a window of the numbering: how many there are, the window,
// and how to go on.
func listLines(l Lang, d map[string]any) string {
	var sb strings.Builder
	total := int(numOf(d["total"]))
	off := int(numOf(d["offset"]))
	items := asList(d["items"])
	// A first window of a long page numbers only as far as it needs (and
	// one more): the page has more than total-1 elements, how many more is
	// known once the next window is listed.
	atLeast, _ := d["total_at_least"].(bool)
	switch {
	case atLeast && len(items) > 0:
		sb.WriteString(l.f("More than %s elements, %d to %d:", "Больше %s элементов, с %d по %d:", count(l, total-1), off+1, off+len(items)))
	case total == 0:
		sb.WriteString(l.t("No numbered elements on this page.", "На этой странице нет элементов с номерами."))
	case len(items) == 0:
		sb.WriteString(l.f("No elements from number %d: the page has %s. Say list to start again.", "С номера %d элементов нет: на странице их %s. Скажите «список», чтобы начать сначала.", off+1, count(l, total)))
	case len(items) == total:
		sb.WriteString(l.f("%s elements:", "Элементов: %s.", count(l, total)))
	default:
		sb.WriteString(l.f("%s elements, %d to %d:", "Элементов: %s, с %d по %d:", count(l, total), off+1, off+len(items)))
	}
	if note, _ := d["note"].(string); note != "" && strings.HasPrefix(note, "The page was still changing") {
		sb.WriteString("\n" + spokenNote(l, note))
	}
	for _, it := range items {
		m, _ := it.(map[string]any)
		sb.WriteByte('\n')
		sb.WriteString(itemLine(l, m))
	}
	if more, _ := d["has_more"].(bool); more {
		next := int(numOf(d["next_offset"]))
		if atLeast {
			sb.WriteString(l.f("\nSay more for %d onward.", "\nСкажите «ещё», чтобы услышать с %d.", next+1))
		} else {
			sb.WriteString(l.f("\nSay more for %d to %d.", "\nСкажите «ещё», чтобы услышать с %d по %d.", next+1, min(total, next+len(items))))
		}
	} else if off > 0 && len(items) > 0 {
		sb.WriteString(l.t("\nEnd of the list.", "\nКонец списка."))
	}
	return Spoken(sb.String())
}

// textLines says an occurrence of a text in the page's text: which of how
// many, the line it stands in, how to go on.
func textLines(l Lang, d map[string]any) string {
	q, _ := d["text"].(string)
	total, occ := int(numOf(d["total"])), int(numOf(d["occurrence"]))
	if total == 0 {
		return Spoken(l.f("%q is not in the page's text.", "«%s» в тексте страницы нет.", q))
	}
	var sb strings.Builder
	sb.WriteString(l.f("%q, occurrence %s of %s, at character %s:\n", "«%s», вхождение %s из %s, знак %s:\n", q, thousands(l, occ), thousands(l, total), thousands(l, int(numOf(d["at"]))+1)))
	sb.WriteString(fmt.Sprint(d["line"]))
	if total > 1 {
		sb.WriteString(l.t("\nSay next occurrence, previous occurrence or occurrence and its number; read from here to read on from this line.",
			"\nСкажите «следующее вхождение», «предыдущее вхождение» или «вхождение» и номер; «читай отсюда», чтобы читать с этой строки."))
	} else {
		sb.WriteString(l.t("\nSay read from here to read on from this line.", "\nСкажите «читай отсюда», чтобы читать с этой строки."))
	}
	return Spoken(sb.String())
}

// tableLines says a place in a table: the table (its size and column
// names), a cell with its row's and column's names, a row cell by cell, or a
// column row by row.
func tableLines(l Lang, d map[string]any) string {
	var heads []string
	for i, h := range asList(d["headers"]) {
		name := strings.TrimSpace(fmt.Sprint(h))
		if name == "" {
			name = l.f("column %d", "столбец %d", i+1)
		}
		heads = append(heads, name)
	}
	rows, cols := int(numOf(d["rows"])), int(numOf(d["columns"]))
	row, col := int(numOf(d["row"])), int(numOf(d["column"]))
	colName := func(c int) string {
		if c >= 1 && c <= len(heads) {
			return heads[c-1]
		}
		return l.f("column %d", "столбец %d", c)
	}
	rowLine := func(cells []any) string {
		var parts []string
		for i, c := range cells {
			if t := strings.TrimSpace(fmt.Sprint(c)); t != "" {
				parts = append(parts, colName(i+1)+": "+t)
			}
		}
		return l.f("Row %d of %d: ", "Строка %d из %d: ", row, rows) + strings.Join(parts, "; ") + "."
	}
	var sb strings.Builder
	switch d["mode"] {
	case "table":
		what := l.f("Table %v of %v", "Таблица %v из %v", d["table"], d["tables"])
		if c, _ := d["caption"].(string); c != "" {
			what += ": " + c
		}
		sb.WriteString(what + ". " + l.f("%s, %s: %s.", "%s, %s: %s.", rowsWord(l, rows), columnsWord(l, cols), strings.Join(heads, ", ")) + "\n")
		sb.WriteString(rowLine(asList(d["cells"])))
		sb.WriteString(l.t("\nSay next row, next column, row and its number, column and its number, read row or read column.",
			"\nСкажите «следующая строка», «следующий столбец», «строка» и номер, «столбец» и номер, «прочитай строку» или «прочитай столбец»."))
	case "row":
		sb.WriteString(rowLine(asList(d["cells"])))
	case "column":
		cells := asList(d["column_cells"])
		last := row + len(cells) - 1
		sb.WriteString(l.f("Column %d of %d, %s, rows %d to %d of %d:", "Столбец %d из %d, %s, строки с %d по %d из %d:", col, cols, colName(col), row, last, rows))
		for _, c := range cells {
			m, _ := c.(map[string]any)
			fmt.Fprintf(&sb, "\n%v. %v: %v", m["row"], m["row_name"], m["text"])
		}
		if last < rows {
			sb.WriteString(l.f("\nSay row %d, then read column, for the rest.", "\nСкажите «строка %d», потом «прочитай столбец», чтобы услышать остальное.", last+1))
		}
	default:
		cell := strings.TrimSpace(fmt.Sprint(d["cell"]))
		if cell == "" {
			cell = l.t("(empty)", "(пусто)")
		}
		sb.WriteString(l.f("Row %d of %d, %v; %s (column %d of %d): %s", "Строка %d из %d, %v; %s (столбец %d из %d): %s", row, rows, d["row_name"], colName(col), col, cols, cell))
	}
	return Spoken(sb.String())
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

// inTextLine says how many times the page's text holds what find looked
// for, and how to go through it ("" when it holds it nowhere).
func inTextLine(l Lang, d map[string]any, q string) string {
	n := int(numOf(d["in_text"]))
	if n == 0 || q == "" {
		return ""
	}
	return l.f("The page's text holds %q %s: say find in text %s to go through it.", "В тексте страницы «%s» встречается %s: скажите «найди в тексте %s», чтобы пройти по вхождениям.",
		q, times(l, n), q)
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

// findLines says what find found: how many, which window, how to go on.
func findLines(l Lang, d map[string]any) string {
	matches := asList(d["matches"])
	total := int(numOf(d["total"]))
	off := int(numOf(d["offset"]))
	q, _ := d["query"].(string)
	if len(matches) == 0 {
		if total > 0 {
			return l.f("No more matches: there were %d.", "Больше совпадений нет: их было %d.", total)
		}
		if t := inTextLine(l, d, q); t != "" {
			return Spoken(l.t("No numbered element has it. ", "Ни у одного элемента с номером этого нет. ") + t)
		}
		return l.t("Nothing found.", "Ничего не найдено.")
	}
	var sb strings.Builder
	switch {
	case total == 1:
		sb.WriteString(l.t("1 match:", "1 совпадение:"))
	case len(matches) == total:
		sb.WriteString(l.f("%s matches:", "Совпадений: %s.", count(l, total)))
	default:
		sb.WriteString(l.f("%s matches, %d to %d:", "Совпадений: %s, с %d по %d:", count(l, total), off+1, off+len(matches)))
	}
	for _, it := range matches {
		m, _ := it.(map[string]any)
		sb.WriteByte('\n')
		sb.WriteString(itemLine(l, m))
	}
	if next := off + len(matches); next < total {
		sb.WriteString(l.f("\nSay more for matches %d to %d.", "\nСкажите «ещё», чтобы услышать совпадения с %d по %d.", next+1, min(total, next+len(matches))))
	}
	if t := inTextLine(l, d, q); t != "" && off == 0 {
		sb.WriteString("\n" + t)
	}
	if re, _ := d["relisted"].(bool); re {
		// Numbers heard before the page changed are void now.
		sb.WriteString(l.t("\nThe page had changed, so it was numbered again: use these numbers.",
			"\nСтраница изменилась, поэтому номера назначены заново: пользуйтесь этими."))
	}
	return Spoken(sb.String())
}

// summaryLines is read page: title, headings (a window of them, with how
// many in all and how to hear the rest), regions, the start of the text one
// block a line, and the form fields, each once with its number.
func summaryLines(l Lang, d map[string]any) string {
	var sb strings.Builder
	line := func(s string) { sb.WriteString(s); sb.WriteByte('\n') }
	from := int(numOf(d["headings_from"]))
	heads := asList(d["headings"])
	total := int(numOf(d["headings_total"]))
	if total < len(heads)+from {
		total = len(heads) + from
	}
	if from == 0 {
		line(l.f("Title: %s", "Название: %s", orNone(l, fmt.Sprint(first(d, "title")))))
		line(l.f("Address: %s", "Адрес: %s", spokenURL(fmt.Sprint(first(d, "url")))))
	}
	switch {
	case len(heads) == 0:
		line(l.t("Headings: none", "Заголовков нет"))
	case from == 0 && len(heads) == total:
		line(l.t("Headings:", "Заголовки:"))
	default:
		line(l.f("Headings %d to %d of %d:", "Заголовки с %d по %d из %d:", from+1, from+len(heads), total))
	}
	for _, h := range heads {
		m, _ := h.(map[string]any)
		lv := int(numOf(m["level"]))
		line(fmt.Sprintf("%s%v. %s %d: %v", strings.Repeat("  ", max(0, min(lv, 6)-1)), m["number"], l.t("Level", "Уровень"), lv, m["text"]))
	}
	if next := from + len(heads); next < total {
		line(l.f("Say more headings for %d to %d.", "Скажите «ещё заголовки», чтобы услышать с %d по %d.", next+1, min(total, next+60)))
	}
	if from > 0 {
		return Spoken(strings.TrimRight(sb.String(), "\n"))
	}
	var regions []string
	for _, r := range asList(d["landmarks"]) {
		m, _ := r.(map[string]any)
		w := roleIn(l, fmt.Sprint(m["role"]))
		if n, _ := m["name"].(string); n != "" {
			w += " " + n
		}
		regions = append(regions, w)
	}
	if len(regions) > 0 {
		line(l.t("Regions: ", "Области: ") + strings.Join(regions, ", "))
	}
	for _, lv := range asList(d["live"]) {
		m, _ := lv.(map[string]any)
		if m["role"] == "alert" {
			line(l.t("Alert: ", "Внимание: ") + fmt.Sprint(m["text"]))
		} else {
			line(l.t("Status: ", "Состояние: ") + fmt.Sprint(m["text"]))
		}
	}
	text, _ := d["main_text"].(string)
	moreAt, chars, mainAt := int(numOf(d["more_at"])), int(numOf(d["text_chars"])), int(numOf(d["main_at"]))
	if mainAt > 0 {
		line(l.f("Passed the site's menus before the first heading (%s): say read from start to hear them, or list for their links.",
			"Пропущены меню сайта перед первым заголовком (%s): скажите «читай с начала», чтобы их услышать, или «список», чтобы услышать их ссылки.", characters(l, mainAt)))
	}
	if moreAt > 0 && mainAt > 0 {
		line(l.f("Main text (characters %s to %s of %s):", "Основной текст (знаки с %s по %s из %s):", thousands(l, mainAt+1), thousands(l, moreAt), thousands(l, chars)))
	} else if moreAt > 0 {
		line(l.f("Main text (the first %s of %s characters):", "Основной текст (первые %s из %s знаков):", thousands(l, moreAt), thousands(l, chars)))
	} else {
		line(l.t("Main text:", "Основной текст:"))
	}
	line(orNone(l, text))
	if fields := asList(d["fields"]); len(fields) > 0 {
		line(l.t("Form fields:", "Поля формы:"))
		for _, f := range fields {
			m, _ := f.(map[string]any)
			kind := fmt.Sprint(m["kind"])
			if m["type"] == "password" {
				kind = l.t("password field", "поле пароля")
			} else {
				kind = roleIn(l, kind)
			}
			s := fmt.Sprintf("%s %s", kind, orNone(l, fmt.Sprint(first(m, "label"))))
			if n := int(numOf(m["number"])); n > 0 {
				s = fmt.Sprintf("%d. %s", n, s)
			} else {
				s = "- " + s + l.t(" (no number yet: say list)", " (номера ещё нет: скажите «список»)")
			}
			if v, _ := m["value"].(string); v != "" {
				s += l.t(", value ", ", значение ") + v
			}
			if c, ok := m["checked"].(bool); ok {
				s += l.t(map[bool]string{true: ", checked", false: ", not checked"}[c], map[bool]string{true: ", отмечен", false: ", не отмечен"}[c])
			}
			if r, _ := m["required"].(bool); r {
				s += l.t(", required", ", обязательное")
			}
			if dis, _ := m["disabled"].(bool); dis {
				s += l.t(", disabled", ", недоступно")
			}
			line(s)
		}
	}
	if moreAt > 0 {
		line(l.t("Say read more for the rest of the text, or read from heading and its number.", "Скажите «читай дальше», чтобы услышать остальной текст, или «читай с заголовка» и его номер."))
	}
	return Spoken(strings.TrimRight(sb.String(), "\n"))
}

func orNone(l Lang, s string) string {
	if strings.TrimSpace(s) == "" {
		return l.t("(none)", "(нет)")
	}
	return s
}

// readLines is one portion of the text: where it is, the text, how to go on.
// A portion read from a heading starts with the heading (said once).
func readLines(l Lang, d map[string]any) string {
	var sb strings.Builder
	if note, _ := d["note"].(string); note != "" {
		sb.WriteString(spokenNote(l, note) + "\n")
	}
	from, next, total := int(numOf(d["from"])), int(numOf(d["next"])), int(numOf(d["total"]))
	if total == 0 {
		return Spoken(sb.String() + l.t("This page has no text to read.", "На этой странице нет текста для чтения."))
	}
	sb.WriteString(l.f("Characters %s to %s of %s:\n", "Знаки с %s по %s из %s:\n", thousands(l, from+1), thousands(l, next), thousands(l, total)))
	sb.WriteString(fmt.Sprint(d["text"]))
	if more, _ := d["has_more"].(bool); more {
		sb.WriteString(l.t("\nSay read more to go on.", "\nСкажите «читай дальше», чтобы продолжить."))
	} else {
		sb.WriteString(l.t("\nEnd of the text.", "\nКонец текста."))
	}
	return Spoken(sb.String())
}

// tabLines lists the tabs, the current one said so.
func tabLines(l Lang, d map[string]any) string {
	tabs := asList(d["tabs"])
	var sb strings.Builder
	if len(tabs) == 1 {
		sb.WriteString(l.t("1 tab:", "1 вкладка:"))
	} else {
		sb.WriteString(l.f("%d tabs:", "Вкладок: %d.", len(tabs)))
	}
	for _, t := range tabs {
		m, _ := t.(map[string]any)
		fmt.Fprintf(&sb, "\n%v. %v", m["index"], spokenURL(fmt.Sprint(first(m, "title", "url"))))
		if m["current"] == true {
			sb.WriteString(l.t(", current", ", текущая"))
		}
	}
	if len(tabs) > 1 {
		sb.WriteString(l.t("\nSay tab and its number to go there.", "\nСкажите «вкладка» и её номер, чтобы перейти туда."))
	}
	return Spoken(sb.String())
}

// scrollLine says where the page is now.
func scrollLine(l Lang, d map[string]any) string {
	var parts []string
	y, maxY, vh := numOf(d["y"]), numOf(d["max_y"]), numOf(d["viewport_height"])
	switch {
	case d["at_top"] == true && d["at_bottom"] == true:
		parts = append(parts, l.t("The whole page fits on the screen.", "Вся страница помещается на экране."))
	case d["at_top"] == true:
		parts = append(parts, l.t("At the top of the page.", "В начале страницы."))
	case d["at_bottom"] == true:
		parts = append(parts, l.t("At the bottom of the page.", "В конце страницы."))
	case maxY > 0 && vh > 0:
		screens := int(math.Ceil((maxY + vh) / vh))
		parts = append(parts, l.f("%d%% down the page, screen %d of %d.", "%d%% страницы, экран %d из %d.", int(math.Round(100*y/maxY)), min(screens, int(math.Round(y/vh))+1), screens))
	}
	if moved, _ := d["moved"].(bool); !moved && len(parts) > 0 && d["at_top"] != true && d["at_bottom"] != true {
		parts = append(parts, l.t("The page did not move.", "Страница не сдвинулась."))
	}
	if v, ok := d["in_view"].(bool); ok && !v {
		parts = append(parts, l.t("The element is still not on the screen.", "Элемент всё ещё не на экране."))
	}
	if g, _ := d["page_grew"].(bool); g {
		parts = append(parts, l.t("More loaded.", "Загрузилось ещё."))
	}
	if s, _ := d["numbering_stale"].(bool); s {
		parts = append(parts, l.t("The page changed: say list for new numbers.", "Страница изменилась: скажите «список», чтобы услышать новые номера."))
	}
	if len(parts) == 0 {
		return l.t("OK.", "Готово.")
	}
	return strings.Join(parts, " ")
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

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

func numOf(v any) float64 {
	f, _ := v.(float64)
	return f
}

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

// itemLine is one numbered element as a screen reader should hear it:
// "5. button Save", with its state, its role in words.
func itemLine(l Lang, m map[string]any) string {
	role := roleIn(l, fmt.Sprint(first(m, "role", "tag")))
	if m["type"] == "password" {
		role = l.t("password field", "поле пароля")
	}
	name := fmt.Sprint(first(m, "name"))
	// A toggle that shows its state only as an arrow (SQLite's "► Table Of
	// Contents") says it in words.
	state := ""
	if r := []rune(name); len(r) > 1 {
		switch r[0] {
		case '►', '▶', '▸', '▹', '▷', '⯈':
			state, name = l.t(", collapsed", ", свёрнут"), strings.TrimSpace(string(r[1:]))
		case '▼', '▾', '▿', '▽', '⯆':
			state, name = l.t(", expanded", ", развёрнут"), strings.TrimSpace(string(r[1:]))
		}
	}
	line := fmt.Sprintf("%v. %v %v%s", first(m, "number", "index"), role, name, state)
	if site, _ := m["frame_site"].(string); site != "" {
		// A field of another site framed by the page: what is typed goes there.
		line += l.f(", in a frame from %s", ", в рамке с сайта %s", site)
	}
	if c, ok := m["checked"].(bool); ok {
		if c {
			line += l.t(", checked", ", отмечен")
		} else {
			line += l.t(", not checked", ", не отмечен")
		}
	}
	if v, _ := m["value"].(string); v != "" {
		line += l.t(", value ", ", значение ") + v
	}
	if n, _ := m["typed"].(float64); n > 0 {
		line += l.t(", "+characters(l, int(n))+" typed", ", введено "+characters(l, int(n)))
	}
	if dis, _ := m["disabled"].(bool); dis {
		line += l.t(", disabled", ", недоступен")
	}
	return line
}

// OpenDialog returns the JavaScript dialog a result reports as waiting.
func OpenDialog(res any) *browser.Dialog {
	r, ok := res.(browser.Result)
	if !ok || r.Status != "ok" {
		return nil
	}
	b, _ := json.Marshal(r.Data)
	var d struct {
		Dialog *browser.Dialog `json:"dialog_open"`
		Next   *browser.Dialog `json:"next_dialog"`
	}
	_ = json.Unmarshal(b, &d)
	if d.Dialog != nil {
		return d.Dialog
	}
	return d.Next
}

func first(m map[string]any, keys ...string) any {
	for _, k := range keys {
		if v, ok := m[k]; ok && v != nil && v != "" {
			return v
		}
	}
	return ""
}
