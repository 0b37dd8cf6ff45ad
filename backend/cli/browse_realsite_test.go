package cli

import (
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/desktop"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/store"
	"github.com/waymark/waymark/backend/testenv"
	"github.com/waymark/waymark/backend/waymark"
)

// debianDocs serves issue 33's documentation sites from Debian's packages
// on loopback: PostgreSQL 15 (/pg/), SQLite (/sq/), the GNU Coding
// Standards (/gnu/) and the Python 3.11 docs (/py/).
func debianDocs(t *testing.T) *httptest.Server {
	return serveDocs(t, []docSite{
		{"/pg", "/usr/share/doc/postgresql-doc-15/html", "postgresql-doc-15"},
		{"/sq", "/usr/share/doc/sqlite3", "sqlite3-doc"},
		{"/gnu", "/usr/share/doc/gnu-standards", "gnu-standards"},
		{"/py", "/usr/share/doc/python3.11/html", "python3.11-doc"},
	})
}

// taskDoor is one way a user gives commands: the terminal (waymark browse's
// loop) or the window's Browser workspace (the desktop service it calls).
type taskDoor struct {
	name     string
	say      func(cmd string) string
	commands int
	heard    int // characters of the answers
	said     []string
	log      strings.Builder
}

func (d *taskDoor) do(cmd string) string {
	a := d.say(cmd)
	d.commands++
	d.heard += len([]rune(a))
	d.said = append(d.said, cmd)
	fmt.Fprintf(&d.log, "> %s\n%s\n", cmd, a)
	return a
}

// siteTask is one of issue 33's second set of ten real-site tasks: run
// says "finished", "partly" or "not" from what the user heard.
type siteTask struct {
	name string
	run  func(d *taskDoor, base string) string
}

// numberOf is the number the answer gives an element whose line matches
// line (a regular expression for the part after "N. "); 0 when none.
func numberOf(answer, line string) int {
	m := regexp.MustCompile(`(?m)^(\d+)\. ` + line + `$`).FindStringSubmatch(answer)
	if m == nil {
		return 0
	}
	return atoi(m[1])
}

// has says whether every one of want is in a.
func has(a string, want ...string) bool {
	for _, w := range want {
		if !strings.Contains(a, w) {
			return false
		}
	}
	return true
}

var siteTasks = []siteTask{
	{"1. PostgreSQL: the range of bigint, from the numeric types table", func(d *taskDoor, base string) string {
		d.do("go to " + base + "/pg/datatype-numeric.html")
		if !has(d.do("table"), "Name, Storage Size, Description, Range") {
			return "not"
		}
		d.do("row 3")
		if has(d.do("read row"), "bigint", "-9223372036854775808 to +9223372036854775807") {
			return "finished"
		}
		return "partly"
	}},
	{"2. PostgreSQL (ru): how much space a real takes (таблица, строка 6)", func(d *taskDoor, base string) string {
		d.do("перейди на " + base + "/pg/datatype-numeric.html")
		if !has(d.do("таблица"), "Таблица 1 из 1") {
			return "not"
		}
		d.do("строка 6")
		if has(d.do("прочитай строку"), "real", "4 bytes") {
			return "finished"
		}
		return "partly"
	}},
	{"3. PostgreSQL: follow the contents link to 8.1.4 Serial Types and read from there", func(d *taskDoor, base string) string {
		d.do("go to " + base + "/pg/datatype-numeric.html")
		n := numberOf(d.do("find Serial Types"), `link 8\.1\.4\. Serial Types`)
		if n == 0 {
			return "not"
		}
		d.do(fmt.Sprintf("click %d", n))
		if has(d.do("read from here"), "8.1.4. Serial Types", "are not true types") {
			return "finished"
		}
		return "partly"
	}},
	{"4. PostgreSQL (ru): jump to 8.1.1 Integer Types and read from there", func(d *taskDoor, base string) string {
		d.do("перейди на " + base + "/pg/datatype-numeric.html")
		n := numberOf(d.do("найди Integer Types"), `ссылка 8\.1\.1\. Integer Types`)
		if n == 0 {
			return "not"
		}
		d.do(fmt.Sprintf("нажми %d", n))
		if has(d.do("читай отсюда"), "8.1.1. Integer Types", "store whole numbers") {
			return "finished"
		}
		return "partly"
	}},
	{"5. SQLite (ru): read the datatypes page from its main content", func(d *taskDoor, base string) string {
		d.do("перейди на " + base + "/sq/datatype3.html")
		a := d.do("прочитай страницу")
		i, j := strings.Index(a, "Основной текст"), strings.Index(a, "1. Datatypes In SQLite\nMost SQL database engines")
		if i >= 0 && j > i && has(a, "Пропущены меню сайта") {
			return "finished"
		}
		if j >= 0 {
			return "partly"
		}
		return "not"
	}},
	{"6. SQLite (ru): the third mention of affinity in the text", func(d *taskDoor, base string) string {
		d.do("перейди на " + base + "/sq/datatype3.html")
		if !has(d.do("найди в тексте affinity"), "вхождение 1 из 97") {
			return "not"
		}
		if has(d.do("вхождение 3"), "вхождение 3 из 97", `"type affinity"`) {
			return "finished"
		}
		return "partly"
	}},
	{"7. GNU standards: the third malloc in the text, and read on from it", func(d *taskDoor, base string) string {
		d.do("go to " + base + "/gnu/standards.html")
		if !has(d.do("find in text malloc"), "occurrence 1 of 10") {
			return "not"
		}
		if !has(d.do("occurrence 3"), "occurrence 3 of 10") {
			return "partly"
		}
		if has(d.do("read from here"), "nonreentrancy aside from that of malloc itself", "4.4 Formatting Error Messages") {
			return "finished"
		}
		return "partly"
	}},
	{"8. GNU standards: a number from the page before is refused on the next page", func(d *taskDoor, base string) string {
		d.do("go to " + base + "/gnu/standards.html")
		if !has(d.do("list"), "1 to 50") {
			return "not"
		}
		d.do("go to " + base + "/sq/datatype3.html")
		a := d.do("click 5")
		if has(a, "say list") || has(a, "Say list") || has(a, "say list first") {
			if has(d.do("read page"), "Title: Datatypes In SQLite") {
				return "finished"
			}
			return "partly"
		}
		return "not"
	}},
	{"9. Python docs: from shutil's contents to copytree's entry, read from the entry", func(d *taskDoor, base string) string {
		d.do("go to " + base + "/py/library/shutil.html")
		n := numberOf(d.do("find copytree"), `link copytree\(\)`)
		if n == 0 {
			return "not"
		}
		d.do(fmt.Sprintf("click %d", n))
		if has(d.do("read from here"), "shutil.copytree(src, dst", "Recursively copy an entire directory tree") {
			return "finished"
		}
		return "partly"
	}},
	{"10. Python docs: go to another page and back, the reading place kept", func(d *taskDoor, base string) string {
		d.do("go to " + base + "/py/library/shutil.html")
		d.do("read page")
		first := d.do("read more")
		m := regexp.MustCompile(`Characters ([\d,]+) to`).FindStringSubmatch(first)
		if m == nil {
			return "not"
		}
		d.do("go to " + base + "/py/library/os.html")
		d.do("back")
		a := d.do("read more")
		after := regexp.MustCompile(`Characters ([\d,]+) to`).FindStringSubmatch(a)
		if after != nil && atoi(strings.ReplaceAll(after[1], ",", "")) > atoi(strings.ReplaceAll(m[1], ",", "")) {
			return "finished"
		}
		return "partly"
	}},
}

// knownSiteBugs are the failures these tasks found that are another
// change's to fix (task number and door), said loudly in the log.
// (None now: "click 5" heard from the page before "go to" clicked the new
// page's element 5 in the window, "Done: click 5 (Download)", until the
// window mirrored the user's own last list, issue 33 point 4.)
var knownSiteBugs = map[string]string{}

// TestRealSiteTasksBothDoors does issue 33's second set of ten tasks on
// Debian's documentation sites in both doors, the terminal's loop and the
// window's Browser workspace, and prints per task and door: finished,
// partly or not, the commands said and the characters heard. Every task
// must be finished in both doors, but for the known bugs above.
func TestRealSiteTasksBothDoors(t *testing.T) {
	testenv.SkipSweepInShortMode(t)
	srv := debianDocs(t)
	l := startListener(t, "about:blank")
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	first := browser.NewSessions(browser.Options{Headless: true})
	w := waymark.New(waymark.Config{WS: manuscript.NewWorkspace(st), Browser: first})
	a := desktop.New(desktop.Config{Waymark: w, NewBrowser: func(s desktop.Settings) *browser.Sessions {
		return browser.NewSessions(desktop.BrowserOptions(browser.Options{Headless: true, ScreenshotDir: dir, DownloadDir: dir}, s))
	}})
	defer func() {
		desktop.Shutdown(a)
		_ = first.Close()
	}()
	window := func(cmd string) string {
		v, err := a.BrowserCommand(cmd)
		if err != nil {
			return "Error: " + err.Error()
		}
		return v.Result
	}
	var table strings.Builder
	table.WriteString("| task | door | done | commands | characters heard |\n| --- | --- | --- | ---: | ---: |\n")
	for _, tk := range siteTasks {
		for _, d := range []*taskDoor{{name: "terminal", say: l.say}, {name: "window", say: window}} {
			done := tk.run(d, srv.URL)
			fmt.Fprintf(&table, "| %s | %s | %s | %d | %d |\n", tk.name, d.name, done, d.commands, d.heard)
			if bug := knownSiteBugs[tk.name[:strings.IndexByte(tk.name, '.')]+" "+d.name]; bug != "" && done != "finished" {
				t.Logf("KNOWN BUG, not fixed here: %s, %s: %s (%s); heard:\n%s", tk.name, d.name, done, bug, d.log.String())
			} else if done != "finished" {
				t.Errorf("%s, %s: %s; heard:\n%s", tk.name, d.name, done, d.log.String())
			}
		}
	}
	t.Logf("the ten tasks:\n%s", table.String())
}
