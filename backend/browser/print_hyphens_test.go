package browser

import (
	"context"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/waymark/waymark/backend/testenv"
)

// hyphenatedPage is a printable page of Russian prose from the corpus with
// a soft hyphen every three letters of each long word (as publish's
// patterns put them, densely), laid out as publish lays a book out.
func hyphenatedPage(t *testing.T, paper string) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "corpus", "books", "war-and-peace.ru.md"))
	if err != nil {
		t.Skipf("the Russian book is not here: %v", err)
	}
	text := string(src)
	i := strings.Index(text, "\n## ")
	text = text[i : i+24000]
	for !utf8.ValidString(text) {
		text = text[:len(text)-1]
	}
	long := regexp.MustCompile(`\p{L}{6,}`)
	var b strings.Builder
	fmt.Fprintf(&b, `<!doctype html><html lang="ru"><head><meta charset="utf-8"><style>
@page { size: %s; margin: 18mm 16mm 20mm; }
html { font-family: 'PT Serif', 'DejaVu Serif', serif; font-size: 10.5pt; line-height: 1.45; }
body { margin: 0; text-align: justify; hyphens: manual; }
p { margin: 0; text-indent: 1.5em; }
</style></head><body>
`, paper)
	for _, para := range strings.Split(text, "\n") {
		para = strings.TrimSpace(strings.TrimLeft(para, "#"))
		if para == "" {
			continue
		}
		para = long.ReplaceAllStringFunc(html.EscapeString(para), func(w string) string {
			r := []rune(w)
			var o strings.Builder
			for j, c := range r {
				if j > 1 && j < len(r)-1 && j%3 == 0 {
					o.WriteString("\u00ad")
				}
				o.WriteRune(c)
			}
			return o.String()
		})
		fmt.Fprintf(&b, "<p>%s</p>\n", para)
	}
	b.WriteString("</body></html>\n")
	return []byte(b.String())
}

// pdfLines is pdftotext's layout text of a PDF, line by line.
func pdfLines(t *testing.T, pdf []byte) []string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "p.pdf")
	if err := os.WriteFile(f, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-layout", f, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	var lines []string
	for _, l := range strings.Split(string(out), "\n") {
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

// TestPrintKeepsOnlyTheHyphensLinesBreakAt: a printed book's text layer
// held every soft hyphen of its page (3,351 in 20 KB of Russian), so a PDF
// reader's search and a copied passage met "ок\u00adтяб\u00adря". Now only
// the hyphens a line breaks at are in the text, and the lines are the same
// as when every soft hyphen was printed (on A5 and A4, whose page boxes
// Chromium rounds differently).
func TestPrintKeepsOnlyTheHyphensLinesBreakAt(t *testing.T) {
	testenv.NeedProgram(t, "pdftotext", "poppler-utils")
	for _, paper := range []struct {
		name string
		w, h float64
	}{{"a5", 148 / 25.4, 210 / 25.4}, {"a4", 210 / 25.4, 297 / 25.4}} {
		t.Run(paper.name, func(t *testing.T) {
			page := hyphenatedPage(t, paper.name)
			ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
			defer cancel()
			print := func(keep bool) []string {
				pdf, err := printOnce(ctx, page, PrintOptions{Width: paper.w, Height: paper.h, KeepSoftHyphens: keep})
				if err != nil {
					t.Fatal(err)
				}
				return pdfLines(t, pdf)
			}
			all, used := print(true), print(false)
			inAll, inUsed, atEnds := 0, 0, 0
			for _, l := range all {
				inAll += strings.Count(l, "\u00ad")
			}
			for _, l := range used {
				inUsed += strings.Count(l, "\u00ad")
				if strings.HasSuffix(l, "\u00ad-") {
					atEnds++
				}
			}
			t.Logf("%s: %d lines; soft hyphens in the text: %d printed as written, %d kept (%d at line ends)", paper.name, len(used), inAll, inUsed, atEnds)
			if inUsed != atEnds || inUsed == 0 || inUsed*10 > inAll {
				t.Errorf("%d soft hyphens in the text, %d of them at a line's end (of %d on the page): want only those at line ends", inUsed, atEnds, inAll)
			}
			strip := func(ls []string) string { return strings.ReplaceAll(strings.Join(ls, "\n"), "\u00ad", "") }
			if a, b := strip(all), strip(used); a != b {
				al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
				for i := range min(len(al), len(bl)) {
					if al[i] != bl[i] {
						t.Fatalf("the lines moved (line %d of %d/%d):\n  as written: %s\n  now:        %s", i+1, len(al), len(bl), al[i], bl[i])
					}
				}
				t.Fatalf("the lines moved: %d lines, then %d", len(al), len(bl))
			}
		})
	}
}

// printOnce prints one page with a Printer of its own.
func printOnce(ctx context.Context, page []byte, po PrintOptions) ([]byte, error) {
	pr, err := StartPrinter(ctx, Options{})
	if err != nil {
		return nil, err
	}
	defer pr.Close()
	return pr.Print(ctx, page, po)
}
