package manuscript

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/testenv"
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
