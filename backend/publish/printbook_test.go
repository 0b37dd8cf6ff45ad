package publish

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/testenv"
)

// chromiumPrinter prints with one real headless Chromium for the test;
// shift adds pages before the book's body on a given print (a layout that
// moves between prints).
func chromiumPrinter(t *testing.T, shift func(pass int) int, passes *int) PagePrinter {
	t.Helper()
	if _, err := exec.LookPath("chromium"); err != nil {
		t.Skip("no chromium")
	}
	pr, err := browser.StartPrinter(context.Background(), browser.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pr.Close)
	a5 := Papers["a5"]
	return func(ctx context.Context, page []byte, pass int, draft bool) ([]byte, error) {
		*passes = pass
		if n := shift(pass); n > 0 {
			extra := strings.Repeat(`<div style="break-before: page">An inserted page.</div>`, n)
			page = bytes.Replace(page, []byte("<main"), []byte(extra+"<main"), 1)
		}
		return pr.Print(ctx, page, browser.PrintOptions{Width: a5.Width, Height: a5.Height, KeepSoftHyphens: draft})
	}
}

// printedNumbers is each contents entry's number in the page the PDF was
// printed from, by heading id.
func printedNumbers(page []byte) map[string]int {
	out := map[string]int{}
	for _, l := range strings.Split(string(page), "\n") {
		var id string
		var n int
		if i := strings.Index(l, `<a href="#`); i >= 0 && strings.HasPrefix(l, "<li") {
			id = l[i+len(`<a href="#`) : i+strings.Index(l[i:], `">`)]
			j := strings.LastIndex(l, `<span class="n">`) + len(`<span class="n">`)
			n, _ = strconv.Atoi(l[j : j+strings.Index(l[j:], "<")])
			out[id] = n
		}
	}
	return out
}

// pdftotext is pdftotext's text of a PDF, without soft hyphens.
func pdftotext(t *testing.T, pdf []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "book.pdf")
	if err := os.WriteFile(p, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", p, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return strings.ReplaceAll(string(out), "\u00ad", "") // soft hyphens
}

// TestBookPrintNumbersSettle: the contents' numbers are those of the print
// that carries them. A layout that does not move is printed twice; one
// that moves once (a page more from the second print on) is printed a
// third time with the moved numbers; one that moves every time fails after
// MaxPrints, naming the chapter, and returns no PDF; a book without a
// contents is printed once. The PDF returned shows the book's text (the
// first print, only read for its pages, does not draw it).
func TestBookPrintNumbersSettle(t *testing.T) {
	testenv.NeedProgram(t, "pdftotext", "poppler-utils")
	var b strings.Builder
	b.WriteString("# The Ledger\n\n")
	for i := 1; i <= 5; i++ {
		fmt.Fprintf(&b, "## Chapter %d\n\nText of chapter %d.\n\n", i, i)
	}
	book := []byte(b.String())
	for _, c := range []struct {
		name     string
		body     []byte
		shift    func(pass int) int
		passes   int
		unsettle bool
		text     string // the book's text the PDF shows
	}{
		{"steady", book, func(int) int { return 0 }, 2, false, "Text of chapter 5."},
		{"moves once", book, func(pass int) int { return min(pass-1, 1) }, 3, false, "Text of chapter 5."},
		{"moves every time", book, func(pass int) int { return pass - 1 }, MaxPrints, true, ""},
		{"no contents", []byte("Only text, no heading.\n"), func(int) int { return 0 }, 1, false, "Only text, no heading."},
	} {
		t.Run(c.name, func(t *testing.T) {
			passes := 0
			print := chromiumPrinter(t, c.shift, &passes)
			var last []byte
			record := func(ctx context.Context, page []byte, pass int, draft bool) ([]byte, error) {
				last = page
				return print(ctx, page, pass, draft)
			}
			bp, _, err := LayOutBook(c.body, Meta{Title: "The Ledger", Lang: "en", ChapterLevel: 2}, Papers["a5"], ImagePolicy{})
			if err != nil {
				t.Fatal(err)
			}
			pdf, err := bp.Print(context.Background(), record)
			if passes != c.passes {
				t.Errorf("printed %d times, want %d", passes, c.passes)
			}
			if c.unsettle {
				if err == nil || pdf != nil || !strings.Contains(err.Error(), "did not settle in 3 prints (the chapter “The Ledger” was on page") {
					t.Errorf("a layout that never settles: pdf %d bytes, err %v", len(pdf), err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if text := pdftotext(t, pdf); !strings.Contains(text, c.text) {
				t.Errorf("the PDF does not show the book's text %q (a draft?):\n%s", c.text, text)
			}
			dests, err := destPages(pdf)
			if err != nil {
				t.Fatal(err)
			}
			printed := printedNumbers(last)
			if len(printed) != len(bp.entries) {
				t.Fatalf("%d numbered entries printed, want %d", len(printed), len(bp.entries))
			}
			for id, n := range printed {
				if dests[id] != n {
					t.Errorf("entry %s printed with page %d, its heading is on page %d", id, n, dests[id])
				}
			}
		})
	}
}
