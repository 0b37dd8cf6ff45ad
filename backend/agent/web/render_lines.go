package web

import (
	"fmt"
	"math"
	"strings"

	"github.com/waymark/waymark/backend/browser"
)

// The renderers of what a page holds: the numbered list, what find found, a
// portion of the text, the page's summary, a table, the tabs, the scroll
// position.

// listLines reads a window of the numbering: how many there are, the window,
// and how to go on.
func listLines(l Lang, d *browser.ListResult) string {
	var sb strings.Builder
	total, off, items := d.Total, d.Offset, d.Items
	// A first window of a long page numbers only as far as it needs (and
	// one more): the page has more than total-1 elements, how many more is
	// known once the next window is listed.
	switch {
	case d.TotalAtLeast && len(items) > 0:
		sb.WriteString(l.f("More than %s elements, %d to %d:", "Больше %s элементов, с %d по %d:", count(l, total-1), off+1, off+len(items)))
	case total == 0:
		sb.WriteString(l.t("No numbered elements on this page.", "На этой странице нет элементов с номерами."))
	case len(items) == 0:
		sb.WriteString(l.f("No elements from number %d: the page has %s. Say list to start again.", "С номера %d элементов нет: на странице их %s. Скажите «список», чтобы начать сначала.", off+1, count(l, total)))
	case len(items) == total:
		sb.WriteString(l.f("%s:", "Элементов: %s.", elements(l, total)))
	default:
		sb.WriteString(l.f("%s elements, %d to %d:", "Элементов: %s, с %d по %d:", count(l, total), off+1, off+len(items)))
	}
	if d.Unsettled {
		sb.WriteString("\n" + l.t("The page was still changing (loading) when it was numbered; list again in a moment to hear all of it.",
			"Страница ещё менялась (загружалась), когда её нумеровали; скажите «список» ещё раз через мгновение."))
	}
	for _, it := range items {
		sb.WriteByte('\n')
		sb.WriteString(itemLine(l, it))
	}
	switch {
	case d.HasMore && d.TotalAtLeast:
		sb.WriteString(l.f("\nSay more for %d onward.", "\nСкажите «ещё», чтобы услышать с %d.", d.NextOffset+1))
	case d.HasMore:
		sb.WriteString(l.f("\nSay more for %d to %d.", "\nСкажите «ещё», чтобы услышать с %d по %d.", d.NextOffset+1, min(total, d.NextOffset+len(items))))
	case off > 0 && len(items) > 0:
		sb.WriteString(l.t("\nEnd of the list.", "\nКонец списка."))
	}
	return Spoken(sb.String())
}

// textLines says an occurrence of a text in the page's text: which of how
// many, the line it stands in, how to go on.
func textLines(l Lang, d *browser.TextSearchResult) string {
	q, total := d.Text, d.Total
	if total == 0 {
		return Spoken(l.f("%q is not in the page's text.", "«%s» в тексте страницы нет.", q))
	}
	var sb strings.Builder
	sb.WriteString(l.f("%q, occurrence %s of %s, at character %s:\n", "«%s», вхождение %s из %s, знак %s:\n", q, thousands(l, d.Occurrence), thousands(l, total), thousands(l, d.At+1)))
	sb.WriteString(d.Line)
	if total > 1 {
		sb.WriteString(l.t("\nSay next occurrence, previous occurrence or occurrence and its number; read from here to read on from this line.",
			"\nСкажите «следующее вхождение», «предыдущее вхождение» или «вхождение» и номер; «читай отсюда», чтобы читать с этой строки."))
	} else {
		sb.WriteString(l.t("\nSay read from here to read on from this line.", "\nСкажите «читай отсюда», чтобы читать с этой строки."))
	}
	return Spoken(sb.String())
}

// tableView is a place in a table with its columns' names.
type tableView struct {
	l     Lang
	d     *browser.TableResult
	heads []string
	// named tells the columns with a header from those named by number.
	named []bool
}

func newTableView(l Lang, d *browser.TableResult) tableView {
	v := tableView{l: l, d: d}
	for i, h := range d.Headers {
		name := strings.TrimSpace(h)
		v.named = append(v.named, name != "")
		if name == "" {
			name = l.f("column %d", "столбец %d", i+1)
		}
		v.heads = append(v.heads, name)
	}
	return v
}

// colName is column c's name (its number when it has none).
func (v tableView) colName(c int) string {
	if c >= 1 && c <= len(v.heads) {
		return v.heads[c-1]
	}
	return v.l.f("column %d", "столбец %d", c)
}

// hasName tells whether column c has a header of its own.
func (v tableView) hasName(c int) bool {
	return c >= 1 && c <= len(v.named) && v.named[c-1]
}

// anyNamed tells whether some column has a header.
func (v tableView) anyNamed() bool {
	for _, n := range v.named {
		if n {
			return true
		}
	}
	return false
}

// rowLine says the row's cells, each with its column's name (a column
// without one is not called "column 2": its cell is said alone).
func (v tableView) rowLine() string {
	var parts []string
	for i, c := range v.d.Cells {
		t := strings.TrimSpace(c)
		switch {
		case t == "":
		case v.hasName(i + 1):
			parts = append(parts, v.colName(i+1)+": "+t)
		default:
			parts = append(parts, t)
		}
	}
	return v.l.f("Row %d of %d: ", "Строка %d из %d: ", v.d.Row, v.d.Rows) + strings.Join(parts, "; ") + "."
}

// tableLines says a place in a table: the table (its size and column
// names), a cell with its row's and column's names, a row cell by cell, or a
// column row by row.
func tableLines(l Lang, d *browser.TableResult) string {
	v := newTableView(l, d)
	switch d.Mode {
	case "table":
		return Spoken(v.tableSummary())
	case "row":
		return Spoken(v.rowLine())
	case "column":
		return Spoken(v.columnLines())
	}
	cell := strings.TrimSpace(d.Cell)
	if cell == "" {
		cell = l.t("(empty)", "(пусто)")
	}
	if !v.hasName(d.Column) {
		return Spoken(l.f("Row %d of %d, %v; column %d of %d: %s", "Строка %d из %d, %v; столбец %d из %d: %s", d.Row, d.Rows, d.RowName, d.Column, d.Columns, cell))
	}
	return Spoken(l.f("Row %d of %d, %v; %s (column %d of %d): %s", "Строка %d из %d, %v; %s (столбец %d из %d): %s", d.Row, d.Rows, d.RowName, v.colName(d.Column), d.Column, d.Columns, cell))
}

func (v tableView) tableSummary() string {
	l, d := v.l, v.d
	what := l.f("Table %v of %v", "Таблица %v из %v", d.Table, d.Tables)
	if d.Caption != "" {
		what += ": " + d.Caption
	}
	size := l.f("%s, %s: %s.", "%s, %s: %s.", rowsWord(l, d.Rows), columnsWord(l, d.Columns), strings.Join(v.heads, ", "))
	if !v.anyNamed() {
		size = l.f("%s, %s, without column names.", "%s, %s, без названий столбцов.", rowsWord(l, d.Rows), columnsWord(l, d.Columns))
	}
	return what + ". " + size + "\n" +
		v.rowLine() +
		l.t("\nSay next row, next column, row and its number, column and its number, read row or read column.",
			"\nСкажите «следующая строка», «следующий столбец», «строка» и номер, «столбец» и номер, «прочитай строку» или «прочитай столбец».")
}

func (v tableView) columnLines() string {
	l, d := v.l, v.d
	var sb strings.Builder
	last := d.Row + len(d.ColumnCells) - 1
	if v.hasName(d.Column) {
		sb.WriteString(l.f("Column %d of %d, %s, rows %d to %d of %d:", "Столбец %d из %d, %s, строки с %d по %d из %d:", d.Column, d.Columns, v.colName(d.Column), d.Row, last, d.Rows))
	} else {
		sb.WriteString(l.f("Column %d of %d, rows %d to %d of %d:", "Столбец %d из %d, строки с %d по %d из %d:", d.Column, d.Columns, d.Row, last, d.Rows))
	}
	for _, c := range d.ColumnCells {
		fmt.Fprintf(&sb, "\n%v. %v: %v", c.Row, c.RowName, c.Text)
	}
	if last < d.Rows {
		sb.WriteString(l.f("\nSay row %d, then read column, for the rest.", "\nСкажите «строка %d», потом «прочитай столбец», чтобы услышать остальное.", last+1))
	}
	return sb.String()
}

// inTextLine says how many times the page's text holds what find looked
// for, and how to go through it ("" when it holds it nowhere).
func inTextLine(l Lang, n int, q string) string {
	if n == 0 || q == "" {
		return ""
	}
	return l.f("The page's text holds %q %s: say find in text %s to go through it.", "В тексте страницы «%s» встречается %s: скажите «найди в тексте %s», чтобы пройти по вхождениям.",
		q, times(l, n), q)
}

// findLines says what find found: how many, which window, how to go on.
func findLines(l Lang, d *browser.FindResult) string {
	matches, total, off, q := d.Matches, d.Total, d.Offset, d.Query
	if len(matches) == 0 {
		if total > 0 {
			return l.f("No more matches: there were %d.", "Больше совпадений нет: их было %d.", total)
		}
		if t := inTextLine(l, d.InText, q); t != "" {
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
		sb.WriteByte('\n')
		sb.WriteString(itemLine(l, it))
	}
	if next := off + len(matches); next < total {
		sb.WriteString(l.f("\nSay more for matches %d to %d.", "\nСкажите «ещё», чтобы услышать совпадения с %d по %d.", next+1, min(total, next+len(matches))))
	}
	if t := inTextLine(l, d.InText, q); t != "" && off == 0 {
		sb.WriteString("\n" + t)
	}
	if d.Relisted {
		// Numbers heard before the page changed are void now.
		sb.WriteString(l.t("\nThe page had changed, so it was numbered again: use these numbers.",
			"\nСтраница изменилась, поэтому номера назначены заново: пользуйтесь этими."))
	}
	return Spoken(sb.String())
}

// summary writes read page's lines.
type summary struct {
	l  Lang
	d  *browser.Summary
	sb strings.Builder
}

func (s *summary) line(text string) { s.sb.WriteString(text); s.sb.WriteByte('\n') }

// summaryLines is read page: title, headings (a window of them, with how
// many in all and how to hear the rest), regions, the start of the text one
// block a line, and the form fields, each once with its number.
func summaryLines(l Lang, d *browser.Summary) string {
	s := &summary{l: l, d: d}
	s.headings()
	if d.HeadingsFrom == 0 {
		s.regions()
		s.mainText()
		s.fields()
		if d.MoreAt > 0 {
			s.line(l.t("Say read more for the rest of the text, or read from heading and its number.", "Скажите «читай дальше», чтобы услышать остальной текст, или «читай с заголовка» и его номер."))
		}
	}
	return Spoken(strings.TrimRight(s.sb.String(), "\n"))
}

// headings says the title and address (at the first window) and a window of
// the headings.
func (s *summary) headings() {
	l, d := s.l, s.d
	from, heads := d.HeadingsFrom, d.Headings
	total := max(d.HeadingsTotal, len(heads)+from)
	if from == 0 {
		s.line(l.f("Title: %s", "Название: %s", orNone(l, d.Title)))
		s.line(l.f("Address: %s", "Адрес: %s", spokenURL(d.URL)))
	}
	switch {
	case len(heads) == 0:
		s.line(l.t("Headings: none", "Заголовков нет"))
	case from == 0 && len(heads) == total:
		s.line(l.t("Headings:", "Заголовки:"))
	default:
		s.line(l.f("Headings %d to %d of %d:", "Заголовки с %d по %d из %d:", from+1, from+len(heads), total))
	}
	for _, h := range heads {
		s.line(fmt.Sprintf("%s%v. %s %d: %v", strings.Repeat("  ", max(0, min(h.Level, 6)-1)), h.Number, l.t("Level", "Уровень"), h.Level, h.Text))
	}
	if next := from + len(heads); next < total {
		s.line(l.f("Say more headings for %d to %d.", "Скажите «ещё заголовки», чтобы услышать с %d по %d.", next+1, min(total, next+60)))
	}
}

// regions says the page's landmarks and its live messages.
func (s *summary) regions() {
	l := s.l
	var regions []string
	for _, r := range s.d.Landmarks {
		w := roleIn(l, r.Role)
		if r.Name != "" {
			w += " " + r.Name
		}
		regions = append(regions, w)
	}
	if len(regions) > 0 {
		s.line(l.t("Regions: ", "Области: ") + strings.Join(regions, ", "))
	}
	for _, lv := range s.d.Live {
		if lv.Role == "alert" {
			s.line(l.t("Alert: ", "Внимание: ") + lv.Text)
		} else {
			s.line(l.t("Status: ", "Состояние: ") + lv.Text)
		}
	}
}

// mainText says the start of the main text, and what was passed before it.
func (s *summary) mainText() {
	l, d := s.l, s.d
	moreAt, chars, mainAt := d.MoreAt, d.TextChars, d.MainAt
	if mainAt > 0 {
		s.line(l.f("Passed the site's menus before the first heading (%s): say read from start to hear them, or list for their links.",
			"Пропущены меню сайта перед первым заголовком (%s): скажите «читай с начала», чтобы их услышать, или «список», чтобы услышать их ссылки.", characters(l, mainAt)))
	}
	switch {
	case moreAt > 0 && mainAt > 0:
		s.line(l.f("Main text (characters %s to %s of %s):", "Основной текст (знаки с %s по %s из %s):", thousands(l, mainAt+1), thousands(l, moreAt), thousands(l, chars)))
	case moreAt > 0:
		s.line(l.f("Main text (the first %s of %s characters):", "Основной текст (первые %s из %s знаков):", thousands(l, moreAt), thousands(l, chars)))
	default:
		s.line(l.t("Main text:", "Основной текст:"))
	}
	s.line(orNone(l, d.MainText))
}

// fields says the form fields, each once with its number.
func (s *summary) fields() {
	if len(s.d.Fields) == 0 {
		return
	}
	s.line(s.l.t("Form fields:", "Поля формы:"))
	for _, f := range s.d.Fields {
		s.line(fieldLine(s.l, f))
	}
}

// fieldLine is one form field of read page.
func fieldLine(l Lang, f browser.Field) string {
	kind := roleIn(l, f.Kind)
	if f.Type == "password" {
		kind = l.t("password field", "поле пароля")
	}
	s := fmt.Sprintf("%s %s", kind, orNone(l, f.Label))
	if f.Number > 0 {
		s = fmt.Sprintf("%d. %s", f.Number, s)
	} else {
		s = "- " + s + l.t(" (no number yet: say list)", " (номера ещё нет: скажите «список»)")
	}
	if f.Value != "" {
		s += l.t(", value ", ", значение ") + f.Value
	}
	if f.Checked != nil {
		s += l.t(map[bool]string{true: ", checked", false: ", not checked"}[*f.Checked], map[bool]string{true: ", отмечен", false: ", не отмечен"}[*f.Checked])
	}
	if f.Required {
		s += l.t(", required", ", обязательное")
	}
	if f.Disabled {
		s += l.t(", disabled", ", недоступно")
	}
	return s
}

func orNone(l Lang, s string) string {
	if strings.TrimSpace(s) == "" {
		return l.t("(none)", "(нет)")
	}
	return s
}

// readLines is one portion of the text: where it is, the text, how to go on.
// A portion read from a heading starts with the heading (said once).
func readLines(l Lang, d *browser.ReadResult) string {
	var sb strings.Builder
	switch {
	case d.PlaceLost:
		sb.WriteString(noteIn(l, d.Note, "Это место не нашлось в основном тексте: читаю с начала.") + "\n")
	case d.OtherPage:
		sb.WriteString(noteIn(l, d.Note, "Это другая страница, не та, что читалась: читаю её с начала.") + "\n")
	case d.Note != "":
		sb.WriteString(Spoken(d.Note) + "\n")
	}
	if d.Total == 0 {
		return Spoken(sb.String() + l.t("This page has no text to read.", "На этой странице нет текста для чтения."))
	}
	sb.WriteString(l.f("Characters %s to %s of %s:\n", "Знаки с %s по %s из %s:\n", thousands(l, d.From+1), thousands(l, d.Next), thousands(l, d.Total)))
	sb.WriteString(d.Text)
	if d.HasMore {
		sb.WriteString(l.t("\nSay read more to go on.", "\nСкажите «читай дальше», чтобы продолжить."))
	} else {
		sb.WriteString(l.t("\nEnd of the text.", "\nКонец текста."))
	}
	return Spoken(sb.String())
}

// tabLines lists the tabs, the current one said so.
func tabLines(l Lang, d *browser.TabsResult) string {
	var sb strings.Builder
	if len(d.Tabs) == 1 {
		sb.WriteString(l.t("1 tab:", "1 вкладка:"))
	} else {
		sb.WriteString(l.f("%d tabs:", "Вкладок: %d.", len(d.Tabs)))
	}
	for _, t := range d.Tabs {
		title := t.Title
		if title == "" {
			title = t.URL
		}
		fmt.Fprintf(&sb, "\n%v. %v", t.Index, spokenURL(title))
		if t.Current {
			sb.WriteString(l.t(", current", ", текущая"))
		}
	}
	if len(d.Tabs) > 1 {
		sb.WriteString(l.t("\nSay tab and its number to go there.", "\nСкажите «вкладка» и её номер, чтобы перейти туда."))
	}
	return Spoken(sb.String())
}

// scrollLine says where the page is now.
func scrollLine(l Lang, d *browser.ScrollResult) string {
	var parts []string
	switch {
	case d.AtTop && d.AtBottom:
		parts = append(parts, l.t("The whole page fits on the screen.", "Вся страница помещается на экране."))
	case d.AtTop:
		parts = append(parts, l.t("At the top of the page.", "В начале страницы."))
	case d.AtBottom:
		parts = append(parts, l.t("At the bottom of the page.", "В конце страницы."))
	case d.MaxY > 0 && d.ViewportHeight > 0:
		screens := int(math.Ceil((d.MaxY + d.ViewportHeight) / d.ViewportHeight))
		parts = append(parts, l.f("%d%% down the page, screen %d of %d.", "%d%% страницы, экран %d из %d.", int(math.Round(100*d.Y/d.MaxY)), min(screens, int(math.Round(d.Y/d.ViewportHeight))+1), screens))
	}
	if !d.Moved && len(parts) > 0 && !d.AtTop && !d.AtBottom {
		parts = append(parts, l.t("The page did not move.", "Страница не сдвинулась."))
	}
	if d.InView != nil && !*d.InView {
		parts = append(parts, l.t("The element is still not on the screen.", "Элемент всё ещё не на экране."))
	}
	if d.PageGrew {
		parts = append(parts, l.t("More loaded.", "Загрузилось ещё."))
	}
	if d.NumberingStale {
		parts = append(parts, l.t("The page changed: say list for new numbers.", "Страница изменилась: скажите «список», чтобы услышать новые номера."))
	}
	if len(parts) == 0 {
		return l.t("OK.", "Готово.")
	}
	return strings.Join(parts, " ")
}

// itemLine is one numbered element as a screen reader should hear it:
// "5. button Save", with its state, its role in words.
func itemLine(l Lang, it *browser.Item) string {
	role := it.Role
	if role == "" {
		role = it.Tag
	}
	role = roleIn(l, role)
	if it.Type == "password" {
		role = l.t("password field", "поле пароля")
	}
	name, state := toggleState(l, it.Name)
	line := fmt.Sprintf("%v. %v %v%s", it.Number, role, name, state)
	if it.FrameSite != "" {
		// A field of another site framed by the page: what is typed goes there.
		line += l.f(", in a frame from %s", ", в рамке с сайта %s", it.FrameSite)
	}
	if it.Checked != nil {
		if *it.Checked {
			line += l.t(", checked", ", отмечен")
		} else {
			line += l.t(", not checked", ", не отмечен")
		}
	}
	if it.Value != "" {
		line += l.t(", value ", ", значение ") + it.Value
	}
	if it.Typed > 0 {
		line += l.t(", "+characters(l, it.Typed)+" typed", ", введено "+characters(l, it.Typed))
	}
	if it.Disabled {
		line += l.t(", disabled", ", недоступен")
	}
	return line
}

// toggleState: a toggle that shows its state only as an arrow (SQLite's
// "► Table Of Contents") says it in words.
func toggleState(l Lang, name string) (string, string) {
	if r := []rune(name); len(r) > 1 {
		switch r[0] {
		case '►', '▶', '▸', '▹', '▷', '⯈':
			return strings.TrimSpace(string(r[1:])), l.t(", collapsed", ", свёрнут")
		case '▼', '▾', '▿', '▽', '⯆':
			return strings.TrimSpace(string(r[1:])), l.t(", expanded", ", развёрнут")
		}
	}
	return name, ""
}
