package manuscript

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/testenv"
	"github.com/waymark/waymark/backend/tools"
)

// TestPDFTitleAndContentsPages (issue 35 point 4): the title page carried a
// page number, and a contents list one entry longer than a page put that
// entry alone on a page of its own. Now the title page has no number, the
// next pages do, and the contents' last page holds at least three entries.
// (26 chapters: an A5 contents page holds the title and 25.)
func TestPDFTitleAndContentsPages(t *testing.T) {
	if _, err := exec.LookPath("chromium"); err != nil {
		t.Skip("no chromium")
	}
	testenv.NeedProgram(t, "pdftotext", "poppler-utils")
	var b strings.Builder
	b.WriteString("# The Ledger\n\n")
	for i := 1; i <= 26; i++ {
		fmt.Fprintf(&b, "## Chapter %d\n\nText.\n\n", i)
	}
	doc, st := testenv.BookAndStore(t, b.String())
	call := rigOn(t, st, doc)
	p := filepath.Join(t.TempDir(), "book.pdf")
	if _, err := call("Export", `{"format": "pdf", "path": "`+p+`"}`); err != nil {
		t.Fatal(err)
	}
	pages := pdfPages(t, p)
	if len(pages) < 5 {
		t.Fatalf("%d pages", len(pages))
	}
	if title := strings.Fields(pages[0]); strings.Join(title, " ") != "The Ledger" {
		t.Errorf("the title page holds %q, want the title alone (no page number)", title)
	}
	if !strings.HasSuffix(strings.TrimSpace(pages[1]), "2") {
		t.Errorf("the contents' first page does not end with its number 2: %q", pages[1])
	}
	entries := 0
	for _, l := range strings.Split(pages[2], "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "Chapter ") {
			entries++
		}
	}
	if !strings.Contains(pages[2], "Chapter 26") || entries < 3 {
		t.Errorf("the contents' last page holds %d entries, want at least 3 with the last (Chapter 26):\n%s", entries, pages[2])
	}
}

// TestPDFContentsPageNumbers (issue 35 point 4): the contents had no page
// numbers (Chromium has no target-counter()). Now each entry carries the
// page its chapter starts on, as pdftotext reads the printed pages: the
// chapter's heading opens that page and its footer shows that number. The
// chapters are of different lengths (some run over several pages) and the
// contents take three pages, so the contents' own length is in the count.
// The title page has no number; the chapters' text is there (the first
// print draws none); the progress says the book is printed twice.
func TestPDFContentsPageNumbers(t *testing.T) {
	if _, err := exec.LookPath("chromium"); err != nil {
		t.Skip("no chromium")
	}
	testenv.NeedProgram(t, "pdftotext", "poppler-utils")
	const chapters = 60
	var b strings.Builder
	b.WriteString("# The Ledger\n\n")
	for i := 1; i <= chapters; i++ {
		fmt.Fprintf(&b, "## Chapter %d\n\n", i)
		for p := 0; p < (i%4)*12+1; p++ {
			fmt.Fprintf(&b, "Paragraph %d of chapter %d, long enough to fill a line of an A5 page and run onto the next one as prose does.\n\n", p, i)
		}
	}
	doc, st := testenv.BookAndStore(t, b.String())
	ws := NewWorkspace(st)
	if _, err := ws.Open(context.Background(), doc); err != nil {
		t.Fatal(err)
	}
	r := tools.New()
	RegisterTools(r, ws)
	p := filepath.Join(t.TempDir(), "book.pdf")
	var progress []string
	if _, err := ExportRef.CallWith(context.Background(), r, ExportArgs{Format: "pdf", Path: p}, tools.Context{Progress: func(e tools.Progress) {
		progress = append(progress, e.Text)
	}}); err != nil {
		t.Fatal(err)
	}
	pages := pdfPages(t, p)
	if title := strings.Join(strings.Fields(pages[0]), " "); title != "The Ledger" {
		t.Errorf("the title page holds %q, want the title alone (no page number)", title)
	}
	listed, contentsPages := contentsNumbers(t, pages)
	if contentsPages < 2 {
		t.Errorf("the contents take %d page(s); the test wants them longer than one", contentsPages)
	}
	if len(listed) != chapters+1 { // the book's title heading, then the chapters
		t.Fatalf("the contents list %d numbered entries, want %d:\n%s", len(listed), chapters+1, strings.Join(pages[1:1+contentsPages], "\f"))
	}
	for name, n := range listed {
		if n < 1 || n > len(pages) {
			t.Errorf("%q is listed on page %d of %d", name, n, len(pages))
			continue
		}
		lines := nonEmptyLines(pages[n-1])
		if len(lines) < 2 || lines[0] != name || lines[len(lines)-1] != strconv.Itoa(n) {
			t.Errorf("%q is listed on page %d, which begins %q and ends %q", name, n, lines[0], lines[len(lines)-1])
		}
		if strings.HasPrefix(name, "Chapter") && !strings.Contains(strings.ReplaceAll(pages[n-1], "\u00ad", ""), "Paragraph 0 of") {
			t.Errorf("the page of %q does not show its text:\n%s", name, pages[n-1])
		}
	}
	all := strings.Join(progress, "\n")
	for _, want := range []string{"prints it twice", "print 1 of 2", "print 2 of 2"} {
		if !strings.Contains(all, want) {
			t.Errorf("no progress saying %q:\n%s", want, all)
		}
	}
}

// contentsNumbers reads the contents pages (from the second page on, up to
// the first page that is not the contents): each entry's title and number,
// and how many pages they take.
func contentsNumbers(t *testing.T, pages []string) (map[string]int, int) {
	t.Helper()
	entry := regexp.MustCompile(`^(\S.*?)\s{2,}(\d+)$`)
	listed := map[string]int{}
	n := 0
	for _, pg := range pages[1:] {
		lines := nonEmptyLines(pg)
		if len(lines) == 0 || (n == 0) != (lines[0] == "Contents") || n > 0 && !entry.MatchString(lines[0]) {
			break
		}
		n++
		for _, l := range lines {
			if m := entry.FindStringSubmatch(l); m != nil {
				v, _ := strconv.Atoi(m[2])
				listed[m[1]] = v
			}
		}
	}
	return listed, n
}

// nonEmptyLines is a page's lines, trimmed, without blank ones.
func nonEmptyLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}
