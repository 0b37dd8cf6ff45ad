package cli

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/testenv"
)

// Reading a page (issue 33, points 8–13 and 5) on real documentation pages
// nobody here wrote (Debian's packages, served on loopback), through the
// terminal's door: the window's Browser workspace says the same commands
// through the same BrowseCommand interpreter.

// Point 8: the page's text is searched, not only the numbered elements:
// every occurrence counted, the Nth, the next and the previous, in English
// and Russian, and reading goes on from the occurrence.
func TestBrowseSearchPageText(t *testing.T) {
	testenv.SkipSweepInShortMode(t)
	srv := docsSite(t, "/usr/share/doc/gnu-standards", "gnu-standards")
	l := startListener(t, srv.URL+"/standards.html")

	// find (the numbered elements) also says how often the text has it.
	found := l.say("find malloc")
	m := regexp.MustCompile(`The page's text holds "malloc" (\d+) times: say find in text malloc to go through it\.`).FindStringSubmatch(found)
	if m == nil {
		t.Fatalf("find malloc does not say how often the text holds it:\n%s", found)
	}
	total := atoi(m[1])
	if total < 10 {
		t.Fatalf("the GNU Coding Standards hold malloc %d times; there are at least 10", total)
	}

	first := l.say("найди в тексте malloc")
	if !strings.HasPrefix(first, "Ищу «malloc» в тексте.\n«malloc», вхождение 1 из "+fmt.Sprint(total)+", знак ") {
		t.Fatalf("найди в тексте malloc:\n%s", first)
	}
	third := l.say("третье вхождение malloc")
	if !strings.Contains(third, "«malloc», вхождение 3 из "+fmt.Sprint(total)+", знак ") {
		t.Fatalf("третье вхождение malloc:\n%s", third)
	}
	line3 := strings.Split(third, "\n")[2]
	if !strings.Contains(strings.ToLower(line3), "malloc") {
		t.Errorf("the third occurrence's line does not hold malloc: %q", line3)
	}
	fourth := l.say("next occurrence")
	if !strings.Contains(fourth, fmt.Sprintf(`"malloc", occurrence 4 of %d, at character `, total)) {
		t.Fatalf("next occurrence after the third:\n%s", fourth)
	}
	back := l.say("предыдущее вхождение")
	if !strings.Contains(back, "«malloc», вхождение 3 из ") || strings.Split(back, "\n")[2] != line3 {
		t.Fatalf("предыдущее вхождение is not the third again:\n%s", back)
	}
	// Reading goes on from the occurrence's line.
	read := l.say("read from here")
	if !strings.HasPrefix(read, "Reading from occurrence 3 of \"malloc\".\nCharacters ") || !strings.Contains(read, ":\n"+strings.TrimPrefix(strings.TrimSuffix(line3, "…"), "…")) {
		t.Fatalf("read from here does not start at the third occurrence's line %q:\n%s", line3, read)
	}
	at := digits(regexp.MustCompile(`знак ([\d\x{202f}]+):`).FindStringSubmatch(third)[1])
	from := atoi(charsLine.FindStringSubmatch(read)[1])
	if from > at || at-from > 300 {
		t.Errorf("reading starts at character %d, the occurrence is at %d", from, at)
	}
	last := l.say("последнее вхождение")
	if !strings.Contains(last, fmt.Sprintf("«malloc», вхождение %d из %d", total, total)) {
		t.Errorf("последнее вхождение:\n%s", last)
	}
	l.expect("next occurrence", fmt.Sprintf(`That was the last occurrence of "malloc": %d in all.`, total))
	l.expect("find in text no-such-word-here", `"no-such-word-here" is not in the page's text.`)
}

// Point 9: after following a link to a place that is not a heading (a
// Python function's entry, an index anchor), reading starts at the place
// itself, not at the next heading thousands of characters later.
func TestBrowseReadFromLinkTarget(t *testing.T) {
	testenv.SkipSweepInShortMode(t)
	py := docsSite(t, "/usr/share/doc/python3.11/html", "python3.11-doc")
	l := startListener(t, py.URL+"/library/shutil.html")
	link := number(t, l.say("find copytree"), "link copytree()")
	if a := l.say(fmt.Sprintf("click %d", link)); !strings.Contains(a, "Say read more to read from there") {
		t.Fatalf("the first copytree() link is no link into the page:\n%s", a)
	}
	a := l.say("read more")
	if !regexp.MustCompile(`(?s)^Reading from [^\n]*\.\nCharacters [\d,]+ to [\d,]+ of [\d,]+:\nshutil\.copytree\(src, dst, symlinks=False.*\nRecursively copy an entire directory tree rooted at src`).MatchString(a) {
		t.Errorf("read more after the copytree link does not start at its entry:\n%s", a)
	}
	if a := l.say("read from here"); !strings.Contains(a, ":\nshutil.copytree(src, dst,") {
		t.Errorf("read from here after the copytree link does not start at its entry:\n%s", a)
	}

	gnu := docsSite(t, "/usr/share/doc/gnu-standards", "gnu-standards")
	l.say("go to " + gnu.URL + "/standards.html#index-malloc-return-value")
	a = l.say("читай отсюда")
	if !strings.Contains(a, ":\nCheck every call to malloc or realloc to see if it returned NULL.") {
		t.Errorf("reading from the index anchor of malloc does not start at its paragraph:\n%s", a)
	}
}

// Point 10: a find after a click that shows a hidden part looks at the page
// as it is now (SQLite's table of contents opens with a ► toggle).
func TestBrowseFindAfterReveal(t *testing.T) {
	testenv.SkipSweepInShortMode(t)
	srv := docsSite(t, "/usr/share/doc/sqlite3", "sqlite3-doc")
	l := startListener(t, srv.URL+"/cli.html")
	list := l.say("list")
	// The toggle says its state in words, not only as the arrow (point 13).
	m := regexp.MustCompile(`(?m)^(\d+)\. clickable (?:► ?)?Table Of Contents(, collapsed)?$`).FindStringSubmatch(list)
	if m == nil {
		t.Fatalf("the list has no contents toggle:\n%s", list)
	}
	toggle := atoi(m[1])
	if m[2] == "" {
		t.Errorf("the contents toggle does not say it is collapsed: %q", m[0])
	}
	if a := l.say("find Export to CSV"); !strings.Contains(a, "Nothing found.") && !strings.Contains(a, "No numbered element has it.") {
		t.Fatalf("the closed contents' links were found before the click:\n%s", a)
	}
	l.say(fmt.Sprintf("click %d", toggle))
	a := l.say("find Export to CSV")
	n := number(t, a, "link 8.6. Export to CSV")
	if !strings.HasSuffix(a, "\nThe page had changed, so it was numbered again: use these numbers.") {
		t.Errorf("find after the click does not say the numbers are new:\n%s", a)
	}
	l.expect(fmt.Sprintf("click %d", n), fmt.Sprintf("Done: click %d (8.6. Export to CSV). Page: Command Line Shell For SQLite. Say read more to read from there, or list from here for the elements from there on.", n))
	if a := l.say("список"); !strings.Contains(a, "нажимаемый элемент Table Of Contents, развёрнут") {
		t.Errorf("the open toggle is not said to be expanded:\n%s", a)
	}
}

// digits is the number written in s, its groups' separators left out.
func digits(s string) int {
	return atoi(regexp.MustCompile(`\D`).ReplaceAllString(s, ""))
}

// Point 12: read page starts at the main content, past the site's menus,
// and says so and how to hear them (SQLite's and PostgreSQL's pages have no
// main landmark). Point 11: a table's cells are read apart.
func TestBrowseMainContentFirst(t *testing.T) {
	testenv.SkipSweepInShortMode(t)
	sq := docsSite(t, "/usr/share/doc/sqlite3", "sqlite3-doc")
	l := startListener(t, sq.URL+"/cli.html")
	page := l.say("read page")
	if !regexp.MustCompile(`\nPassed the site's menus before the first heading \([\d,]+ characters\): say read from start to hear them, or list for their links\.\nMain text \(characters [\d,]+ to [\d,]+ of [\d,]+\):\n1\. Getting Started\n`).MatchString(page) {
		t.Errorf("read page on SQLite's shell page does not start at its first heading past the menu:\n%s", page)
	}
	if strings.Contains(page[strings.Index(page, "Main text"):], "Small. Fast. Reliable.") {
		t.Errorf("the main text still starts with the site's menu:\n%s", page)
	}
	start := l.say("read from start")
	if !strings.Contains(start, ":\nSmall. Fast. Reliable.\nChoose any three.\n") {
		t.Errorf("read from start does not read the menu passed:\n%s", start)
	}
	ru := l.say("прочитай страницу")
	if !regexp.MustCompile(`\nПропущены меню сайта перед первым заголовком \([\d\x{202f}]+ знак[а-я]*\): скажите «читай с начала», чтобы их услышать, или «список», чтобы услышать их ссылки\.\nОсновной текст \(знаки с [\d\x{202f}]+ по [\d\x{202f}]+ из [\d\x{202f}]+\):\n1\. Getting Started\n`).MatchString(ru) {
		t.Errorf("прочитай страницу:\n%s", ru)
	}
	if regexp.MustCompile(`\d,\d{3}`).MatchString(ownWords(ru)) {
		t.Errorf("a Russian answer groups a number with a comma:\n%s", ru)
	}

	pg := docsSite(t, "/usr/share/doc/postgresql-doc-15/html", "postgresql-doc-15")
	l.say("go to " + pg.URL + "/datatype-numeric.html")
	page = l.say("read page")
	if !regexp.MustCompile(`\nPassed the site's menus before the first heading \(\d+ characters\)[^\n]*\nMain text \([^\n]*\):\n8\.1\. Numeric Types\n8\.1\.1\. Integer Types\n`).MatchString(page) || strings.Contains(page, "\nPrev") {
		t.Errorf("read page on PostgreSQL's numeric types does not start at its heading:\n%s", page)
	}
	text := page
	for i := 0; i < 5 && !strings.Contains(text, "bigint |"); i++ {
		text = l.say("read more")
	}
	for _, row := range []string{
		"Name | Storage Size | Description | Range",
		"bigint | 8 bytes | large-range integer | -9223372036854775808 to +9223372036854775807",
	} {
		if !strings.Contains(text, "\n"+row+"\n") {
			t.Errorf("the numeric types table is not read with its cells apart (%q):\n%s", row, text)
		}
	}
}

// Point 13: a field with no label, placeholder or title is named by the
// text or choice beside it, not by its form name (SQLite's search box, "q").
func TestBrowseUnlabelledFieldNamed(t *testing.T) {
	testenv.SkipSweepInShortMode(t)
	srv := docsSite(t, "/usr/share/doc/sqlite3", "sqlite3-doc")
	l := startListener(t, srv.URL+"/docs.html")
	a := l.say("найди Search Documentation")
	if !regexp.MustCompile(`(?m)^\d+\. поле ввода Search Documentation$`).MatchString(a) || regexp.MustCompile(`(?m)^\d+\. поле ввода q$`).MatchString(a) {
		t.Errorf("SQLite's search box is not named by the choice beside it:\n%s", a)
	}
}

// Point 11: a table read cell by cell, row by row and column by column,
// each cell with its column's name and its row's, in English and Russian
// (PostgreSQL's numeric types).
func TestBrowseTableByRowAndColumn(t *testing.T) {
	testenv.SkipSweepInShortMode(t)
	pg := docsSite(t, "/usr/share/doc/postgresql-doc-15/html", "postgresql-doc-15")
	l := startListener(t, pg.URL+"/datatype-numeric.html")
	l.expect("table",
		"Table 1 of 1: Table 8.2. Numeric Types. 10 rows, 4 columns: Name, Storage Size, Description, Range.",
		"Row 1 of 10: Name: smallint; Storage Size: 2 bytes; Description: small-range integer; Range: -32768 to +32767.")
	l.expect("row 3", "Row 3 of 10, bigint; Name (column 1 of 4): bigint")
	l.expect("column 4", "Row 3 of 10, bigint; Range (column 4 of 4): -9223372036854775808 to +9223372036854775807")
	l.expect("следующий столбец", "Это был последний столбец, всего 4.")
	l.expect("предыдущая строка", "Строка 2 из 10, integer; Range (столбец 4 из 4): -2147483648 to +2147483647")
	l.expect("прочитай строку", "Строка 2 из 10: Name: integer; Storage Size: 4 bytes; Description: typical choice for integer; Range: -2147483648 to +2147483647.")
	col := l.expect("read column", "Column 4 of 4, Range, rows 2 to 10 of 10:", "2. integer: -2147483648 to +2147483647", "3. bigint: -9223372036854775808 to +9223372036854775807")
	if strings.Contains(col, "smallint") {
		t.Errorf("read column from row 2 said row 1:\n%s", col)
	}
	l.expect("row 11", "Error: There is no row 11: table 1 has 10.")
	l.expect("таблица 9", "Ошибка: Таблицы 9 нет: на странице их 1.")
}

// A layout's spacers are not rows or columns: SQLite's strftime table has
// an empty first row and an empty middle column (td width=10); the reader
// heard "14 rows, 3 columns" and "Row 1 of 14: ." before.
func TestBrowseTableSkipsSpacers(t *testing.T) {
	testenv.SkipSweepInShortMode(t)
	srv := docsSite(t, "/usr/share/doc/sqlite3", "sqlite3-doc")
	l := startListener(t, srv.URL+"/lang_datefunc.html")
	l.expect("table",
		"Table 1 of 2. 13 rows, 2 columns, without column names.",
		"Row 1 of 13: %d; day of month: 00.")
	l.expect("column 2", "Row 1 of 13, %d; column 2 of 2: day of month: 00")
	l.expect("read column", "Column 2 of 2, rows 1 to 13 of 13:", "1. %d: day of month: 00", "13. %%: %")
	l.expect("столбец 1", "Строка 1 из 13, %d; столбец 1 из 2: %d")
}
