package cli

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/waymark/waymark/backend/agent/author"
	"github.com/waymark/waymark/backend/testenv"
	"github.com/waymark/waymark/backend/waymark"

	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/browser/browsertest"
)

// listener drives `waymark browse` as a blind user does: one command, then
// the lines the loop answers up to its next prompt (what is heard).
type listener struct {
	t    *testing.T
	in   *io.PipeWriter
	mu   sync.Mutex
	out  strings.Builder
	seen int
	done chan error
	log  strings.Builder
}

func (l *listener) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.out.Write(p)
}

// startListener opens the loop on a fresh headless browser at start.
func startListener(t *testing.T, start string) *listener {
	t.Helper()
	ss := browser.NewSessions(browser.Options{Headless: true, ScreenshotDir: t.TempDir(), DownloadDir: t.TempDir()})
	t.Cleanup(func() { _ = ss.Close() })
	reg := waymark.New(waymark.Config{Browser: ss}).Registry
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	r, w := io.Pipe()
	l := &listener{t: t, in: w, done: make(chan error, 1)}
	go func() { l.done <- browseLoop(ctx, reg, author.Builtin{}, start, r, l) }()
	t.Cleanup(func() {
		_ = w.Close()
		<-l.done
		cancel()
		t.Logf("what the listener heard:\n%s", l.log.String())
	})
	l.next() // the opening lines, up to the first prompt
	return l
}

// next waits for the next prompt and returns what came before it.
func (l *listener) next() string {
	l.t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		l.mu.Lock()
		// The prompt is the last thing the loop writes before it waits (an
		// answer is written a whole line at a time, so a text line that
		// starts with "> " never ends the output).
		s := l.out.String()[l.seen:]
		if s == "> " || strings.HasSuffix(s, "\n> ") {
			l.seen += len(s)
			l.mu.Unlock()
			return strings.TrimRight(strings.TrimSuffix(s, "> "), "\n")
		}
		l.mu.Unlock()
		time.Sleep(10 * time.Millisecond)
	}
	l.t.Fatalf("no prompt after 2 minutes; heard:\n%s", l.out.String())
	return ""
}

// say types a command and returns the answer.
func (l *listener) say(cmd string) string {
	l.t.Helper()
	if _, err := fmt.Fprintln(l.in, cmd); err != nil {
		l.t.Fatalf("typing %q: %v", cmd, err)
	}
	a := l.next()
	fmt.Fprintf(&l.log, "> %s\n%s\n", cmd, a)
	return a
}

// expect checks that the answer to cmd holds every block of whole lines.
func (l *listener) expect(cmd string, blocks ...string) string {
	l.t.Helper()
	a := l.say(cmd)
	for _, b := range blocks {
		if !strings.Contains("\n"+a+"\n", "\n"+b+"\n") {
			l.t.Errorf("%q: the listener does not hear the lines\n%s\nbut:\n%s", cmd, b, a)
		}
	}
	return a
}

var charsLine = regexp.MustCompile(`(?m)^Characters ([\d,]+) to ([\d,]+) of ([\d,]+):$`)

func atoi(s string) int {
	n, _ := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
	return n
}

// readToEnd says "read more" until the end of the text and checks that the
// portions follow each other with nothing left out: it returns the text heard.
func (l *listener) readToEnd(first string) string {
	l.t.Helper()
	var text strings.Builder
	a := first
	prevEnd, total := -1, -1
	for i := 0; ; i++ {
		m := charsLine.FindStringSubmatch(a)
		if m == nil {
			l.t.Fatalf("a portion without its place:\n%s", a)
		}
		from, to, tot := atoi(m[1]), atoi(m[2]), atoi(m[3])
		if prevEnd >= 0 && from != prevEnd+1 {
			l.t.Fatalf("portion %d starts at %d, the last one ended at %d: something was skipped", i, from, prevEnd)
		}
		if total >= 0 && tot != total {
			l.t.Fatalf("the text's length changed from %d to %d", total, tot)
		}
		// The range also holds the spaces skipped between two portions (a
		// code line's inner spaces where a portion was cut).
		if to-from+1 > browser.DefaultPortion+40 || to < from {
			l.t.Fatalf("portion %d is %d..%d: more than %d characters", i, from, to, browser.DefaultPortion)
		}
		prevEnd, total = to, tot
		body := a[strings.Index(a, m[0])+len(m[0]):]
		text.WriteString(body)
		if strings.HasSuffix(a, "\nEnd of the text.") {
			if to != total {
				l.t.Fatalf("the end was said at %d of %d", to, total)
			}
			return text.String()
		}
		if !strings.HasSuffix(a, "\nSay read more to go on.") {
			l.t.Fatalf("a portion that neither ends nor says how to go on:\n%s", a)
		}
		if i > 400 {
			l.t.Fatal("more than 400 portions")
		}
		a = l.say("read more")
	}
}

// heading finds a heading's number in what "read page" said.
func heading(t *testing.T, readPage, text string) int {
	t.Helper()
	m := regexp.MustCompile(`(?m)^\s*(\d+)\. Level \d: ` + regexp.QuoteMeta(text) + `$`).FindStringSubmatch(readPage)
	if m == nil {
		t.Fatalf("read page does not name the heading %q:\n%s", text, readPage)
	}
	return atoi(m[1])
}

// number finds an element's number in what "find" said.
func number(t *testing.T, found, line string) int {
	t.Helper()
	m := regexp.MustCompile(`(?m)^(\d+)\. ` + regexp.QuoteMeta(line) + `$`).FindStringSubmatch(found)
	if m == nil {
		t.Fatalf("find does not name %q:\n%s", line, found)
	}
	return atoi(m[1])
}

// Number browsing without dead ends on the fixture sites (issue 12, points
// 5–8): paging past 50, "list from here" after an in-page link, reading a
// text by portions and from a heading, a new tab said and its title without
// escapes, tabs as number commands, a typo answered in one line, and the
// results a listener needs (the chosen option, the upload, the scroll
// position, a 404).
func TestBrowseByNumbersWithoutDeadEnds(t *testing.T) {
	sites, err := browsertest.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer sites.Close()
	l := startListener(t, sites.URL("/guide"))
	l.expect("list", "12 elements:\n1. link Travel guide\n2. link The Kremlin\n3. link Bauman Street", "6. combobox Language of the guide, value English")
	l.expect("select 6 Tatar", `Choosing "Tatar" in 6.`+"\nChose Tatar in 6 (Language of the guide). Focus: combobox Language of the guide.")
	l.expect("click 3", "Done: click 3 (Bauman Street). Page: A walk through Kazan. Say read more to read from there, or list from here for the elements from there on.")
	l.expect("list from here", "Listing from here.\n12 elements, 9 to 12:\n9. link Cafés on Bauman Street\n10. link Houses of the quarter\n11. link Boats to Sviyazhsk\n12. link All sites\nEnd of the list.")
	page := l.expect("read page", "Headings:\n1. Level 1: A walk through Kazan\n  2. Level 2: The Kremlin\n  3. Level 2: Bauman Street",
		"Say read more for the rest of the text, or read from heading and its number.")
	if !strings.Contains(page, "Main text (the first ") {
		t.Errorf("read page does not say how much of the text it read:\n%s", page)
	}
	// The heading is said once: as the first line of the text.
	a := l.expect("read from heading 3", "Reading from heading 3.")
	if !regexp.MustCompile(`^Reading from heading 3\.\nCharacters [\d,]+ to [\d,]+ of [\d,]+:\nBauman Street\nFrom the Spasskaya tower, Bauman Street runs south`).MatchString(a) {
		t.Errorf("reading from heading 3 starts elsewhere than at the section (not at its contents link):\n%s", a)
	}
	heard := l.readToEnd(a)
	for _, want := range []string{"Across Lake Kaban lies the old Tatar quarter", "Boats leave from the river station for the island town of Sviyazhsk every morning in summer."} {
		if !strings.Contains(heard, want) {
			t.Errorf("reading on never reached %q", want)
		}
	}
	if a := l.say("more"); !strings.HasPrefix(a, "That was the end of the text (") {
		t.Errorf("more after the end: %q", a)
	}
	l.expect("click 7", "Done: click 7 (Open the map in a new tab). Focus: link Open the map in a new tab. Opened a new tab: 2, Map of Kazan. Say tab 2 to go there.")
	l.expect("tabs", "2 tabs:\n1. A walk through Kazan, current\n2. Map of Kazan\nSay tab and its number to go there.")
	l.expect("вкладка 2", "Вкладка 2 из 2. Страница: Map of Kazan. Теперь это текущая вкладка; перечислите её элементы, прежде чем действовать по номеру.")
	l.expect("clcik 5", `Not a command: "clcik 5". Did you mean "click 5"? Say help for the commands.`)
	// The terminal has no Settings: it says what to do there (issue 23, point 5).
	l.expect("buy a kettle", `Not a command: "buy a kettle". Goals in plain words need a model server: start waymark browse again with WAYMARK_MODEL_URL (and WAYMARK_MODEL) set to it. Say help for the number commands.`)
	if h := l.say("help"); strings.Count(h, "\n") > 7 || !strings.HasPrefix(h, "Number commands:") {
		t.Errorf("help is not a few short lines:\n%s", h)
	}

	// Paging: 5,001 links.
	l.expect("go to "+sites.URL("/links"), "Page: Archive.")
	// The first window numbers only as far as it needs: the total is a
	// lower bound, said so; the next window numbers the whole page.
	l.expect("list", "More than 50 elements, 1 to 50:\n1. link Archive\n2. link Article number 1", "50. link Article number 49\nSay more for 51 onward.")
	l.expect("more", "Listing from number 51.\n5001 elements, 51 to 100:\n51. link Article number 50", "Say more for 101 to 150.")
	l.expect("list more", "5001 elements, 101 to 150:\n101. link Article number 100")
	l.expect("список 4990", "Элементов: 5\u202f001, с 4990 по 5001:\n4990. ссылка Article number 4989", "5001. ссылка Article number 5000\nКонец списка.")
	l.expect("ещё", "Это был конец списка, всего элементов: 5\u202f001. Скажите «список», чтобы начать сначала, или «список» и номер, чтобы начать с него.")
	l.expect("next", "That was the end of the list: 5001 elements in all. Say list to start again, or list and a number to start there.")
	if a := l.say("scroll down"); !regexp.MustCompile(`^Scrolling down\.\n[1-9]\d*% down the page, screen 2 of \d+\.$`).MatchString(a) {
		t.Errorf("scroll down does not say where the page is: %q", a)
	}
	l.expect("go to "+sites.URL("/links/999999"), "Page: "+sites.URL("/links/999999")+". The server answered 404, not found: this is an error page.")

	// An upload says which file went where.
	file := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(file, []byte("my notes"), 0o644); err != nil {
		t.Fatal(err)
	}
	l.expect("go to "+sites.URL("/files"), "Page: Documents.")
	l.expect("list", "5 elements:\n1. link Documents\n2. button Document to send\n3. button Send\n4. link Download the annual report\n5. link All sites")
	l.expect("upload 2 "+file, "Giving the file to 2.\nGave notes.txt to 2 (Document to send).")
	if strings.Contains(l.log.String(), `\u00a0`) || strings.Contains(l.log.String(), "browser_") {
		t.Errorf("the listener heard an escape or a tool's name:\n%s", l.log.String())
	}
}

// docsSite serves a documentation tree that a Debian package ships, on
// loopback; without the package the test says loudly that it skipped.
func docsSite(t *testing.T, dir, pkg string) *httptest.Server {
	t.Helper()
	if _, err := os.Stat(dir); err != nil {
		fmt.Fprintf(os.Stderr, "\n*** SKIPPED %s: %s is missing (Debian package %s; bash build/setup.sh installs it) ***\n\n", t.Name(), dir, pkg)
		t.Skipf("SKIPPED: %s is missing: install the Debian package %s (build/setup.sh does)", dir, pkg)
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(srv.Close)
	return srv
}

// A whole chapter of the Python tutorial (python3.11-doc) heard by portions,
// from a heading, and its elements paged and listed from an in-page link's
// target.
func TestBrowsePythonDocs(t *testing.T) {
	testenv.SkipSweepInShortMode(t)
	srv := docsSite(t, "/usr/share/doc/python3.11/html", "python3.11-doc")
	l := startListener(t, srv.URL+"/tutorial/controlflow.html")
	page := l.expect("read page", "Title: 4. More Control Flow Tools — Python 3.11.2 documentation",
		"Say read more for the rest of the text, or read from heading and its number.")
	first := l.say("read more")
	heard := l.readToEnd(first)
	for _, want := range []string{"4.9. Intermezzo: Coding Style", ">>> def fib(n):    # write Fibonacci series up to n", "Use docstrings."} {
		if !strings.Contains(heard, want) {
			t.Errorf("reading the chapter to its end never said %q", want)
		}
	}
	n := heading(t, page, "4.7. Defining Functions")
	a := l.expect(fmt.Sprintf("read from heading %d", n), fmt.Sprintf("Reading from heading %d.", n))
	if !strings.Contains(a, ":\n4.7. Defining Functions\nWe can create a function that writes the Fibonacci series to an arbitrary boundary:") {
		t.Errorf("read from heading %d starts elsewhere:\n%s", n, a)
	}
	if n := heading(t, page, "This Page"); !strings.Contains(l.say(fmt.Sprintf("read from heading %d", n)), "is not in the main text of the page (it heads a menu or side panel)") {
		t.Errorf("a side panel's heading is not said to be outside the text")
	}

	// Reading the page numbered all of it (its form fields were said by
	// number), so the list knows how many elements there are.
	if list := l.say("list"); !regexp.MustCompile(`^Listing the elements.\n(\d{3}) elements, 1 to 50:\n`).MatchString(list) || !strings.HasSuffix(list, "\nSay more for 51 to 100.") {
		t.Fatalf("the first page of the list:\n%s", list)
	}
	more := l.say("more")
	total := atoi(regexp.MustCompile(`\n(\d+) elements, 51 to 100:`).FindStringSubmatch(more + "\n")[1:][0])
	if total <= 100 || !strings.HasSuffix(more, fmt.Sprintf("Say more for 101 to %d.", min(150, total))) {
		t.Fatalf("the second page of the list:\n%s", more)
	}
	l.expect("ещё", fmt.Sprintf("Элементов: %d, с 101 по %d:", total, min(150, total)))
	link := number(t, l.say("find 4.7. Defining Functions"), "link 4.7. Defining Functions")
	l.expect(fmt.Sprintf("click %d", link), fmt.Sprintf("Done: click %d (4.7. Defining Functions). Page: 4. More Control Flow Tools — Python 3.11.2 documentation. Say read more to read from there, or list from here for the elements from there on.", link))
	here := l.say("list from here")
	m := regexp.MustCompile(`\n(\d+)\. link def\n`).FindStringSubmatch(here)
	if m == nil || !strings.Contains(here, "\n"+m[1]+". link def\n") || atoi(m[1]) >= link {
		t.Errorf("list from here does not start at section 4.7 (its first link is the def statement):\n%s", here)
	}
	// The first element heard is the one right after the section's start:
	// every element before it lies above section 4.7.
	start := atoi(regexp.MustCompile(`elements, (\d+) to`).FindStringSubmatch(here)[1])
	if start > atoi(m[1]) || atoi(m[1])-start > 2 {
		t.Errorf("list from here starts at %d, the section's def link is %s:\n%s", start, m[1], here)
	}
}

// Debian Reference (debian-reference-en): a chapter opened in a new tab has
// a title with no-break spaces, said plainly; a long chapter is read from a
// heading to its end; tabs and paging as number commands.
func TestBrowseDebianReference(t *testing.T) {
	testenv.SkipSweepInShortMode(t)
	srv := docsSite(t, "/usr/share/debian-reference", "debian-reference-en")
	l := startListener(t, srv.URL+"/index.en.html")
	l.expect("list", "1. link Next\n2. link Preface", "Say more for 51 onward.")
	l.expect("more", "51. link 1.3.8. Virtual filesystem of MC")
	n := number(t, l.say("find GNU/Linux tutorials"), "link 1. GNU/Linux tutorials")
	l.expect(fmt.Sprintf("open %d in new tab", n), "Opened in a new tab, tab 2 of 2. Page: Chapter 1. GNU/Linux tutorials.")
	l.expect("tabs", "2 tabs:\n1. Debian Reference\n2. Chapter 1. GNU/Linux tutorials, current\nSay tab and its number to go there.")
	page := l.say("read page")
	h := heading(t, page, "1.5. The simple shell command")
	a := l.expect(fmt.Sprintf("read from heading %d", h), fmt.Sprintf("Reading from heading %d.", h))
	if !strings.Contains(a, ":\n1.5. The simple shell command\n") {
		t.Errorf("reading from heading %d starts elsewhere:\n%s", h, a)
	}
	heard := l.readToEnd(a)
	if !strings.Contains(heard, "1.6. Unix-like text processing") {
		t.Errorf("reading on from 1.5 never reached 1.6")
	}
	l.expect("tab 5", "Switching to tab 5.\nError: There is no tab 5: the tabs are 1 “Debian Reference”, 2 “Chapter 1. GNU/Linux tutorials”")
	l.expect("tab 1", "Tab 1 of 2. Page: Debian Reference. This tab is current now; list its elements before acting by number.")
	l.expect("more", "Listing the elements.")
	l.expect("close tab", "Closing this tab.")
	if strings.Contains(l.log.String(), `\u00a0`) || strings.Contains(l.log.String(), "\u00a0") {
		t.Errorf("a no-break space reached the listener:\n%s", l.log.String())
	}
}

// Debian Reference's pages say their title once (issue 23, point 8): the
// navigation header above each chapter repeats its heading, and read page
// began "Chapter 2. Debian package management" twice, "Debian Reference"
// twice on the contents page.
func TestDebianReferenceTitleSaidOnce(t *testing.T) {
	srv := docSites(t)
	for _, c := range []struct{ page, title string }{
		{"/dr/ch02.en.html", "Chapter 2. Debian package management"},
		{"/dr/index.en.html", "Debian Reference"},
		{"/mg/dreq.en.html", "Chapter 4. Required files under the debian directory"},
	} {
		l := startListener(t, srv.URL+c.page)
		a := l.say("read page")
		m := regexp.MustCompile(`(?s)\nMain text[^\n]*:\n(.*)`).FindStringSubmatch(a)
		if m == nil {
			t.Fatalf("%s: read page has no main text:\n%s", c.page, a)
		}
		lines := strings.Split(m[1], "\n")
		if lines[0] != c.title || len(lines) < 2 || lines[1] == c.title {
			t.Errorf("%s: the main text begins %q, want the title %q once", c.page, lines[:min(3, len(lines))], c.title)
		}
		h := l.say("read from heading 1")
		if n := strings.Count("\n"+h+"\n", "\n"+c.title+"\n"); n != 1 {
			t.Errorf("%s: read from heading 1 says the title %d times:\n%s", c.page, n, h)
		}
	}
}
