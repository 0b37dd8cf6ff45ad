package publish

import (
	"context"
	"fmt"
	"strconv"
)

// A book's contents carry each chapter's page number (issue 35 point 4),
// though Chromium has no target-counter(): the book is printed whole twice
// with the same layout. The first print has a placeholder in each entry's
// number box (the box is as wide either way, so no line moves) and its
// text laid out but not drawn (a draft: half the time of a whole print);
// where each heading landed is read from that PDF (destPages), and the
// second print carries those numbers. The second print's pages are read again and must
// equal the numbers it carries; if any moved, it is printed once more with
// the new ones, and after MaxPrints the export fails rather than write a
// wrong number. One whole print each time: the PDF keeps its tag tree and
// outline as Chromium writes them.

// MaxPrints is how many times a book is printed at most to settle its
// contents' page numbers (two when nothing moves).
const MaxPrints = 3

// PagePrinter prints one whole print page to PDF; pass is the print's
// number, 1 to MaxPrints; draft says the print is only read for where its
// headings are (its text is not drawn, so the soft hyphens no line breaks
// at need not be taken out of it: that changes no line).
type PagePrinter func(ctx context.Context, page []byte, pass int, draft bool) ([]byte, error)

// Prints is how many times Print prints the book when no number moves:
// twice with a contents, once without.
func (bp *BookPage) Prints() int {
	if len(bp.entries) == 0 {
		return 1
	}
	return 2
}

// Size is the size of the print page's HTML, without its contents.
func (bp *BookPage) Size() int { return len(bp.head) + len(bp.body) }

// Print prints the book to PDF through print, its contents' page numbers
// filled in and checked against the print that carries them.
func (bp *BookPage) Print(ctx context.Context, print PagePrinter) ([]byte, error) {
	digits := tocDigits
	var pages map[string]int // nil: placeholders
	for pass := 1; pass <= MaxPrints; pass++ {
		// The first print of a book with a contents is a draft: only read.
		draft := pages == nil && len(bp.entries) > 0
		pdf, err := print(ctx, bp.page(pages, digits, draft), pass, draft)
		if err != nil {
			return nil, err
		}
		if len(bp.entries) == 0 {
			return pdf, nil
		}
		got, err := bp.entryPages(pdf)
		if err != nil {
			return nil, err
		}
		if pages != nil && bp.moved(pages, got) == nil {
			return pdf, nil
		}
		if pass == MaxPrints {
			return nil, bp.unsettled(pages, got)
		}
		pages = got
		for _, n := range got {
			digits = max(digits, len(strconv.Itoa(n)))
		}
	}
	return nil, fmt.Errorf("print the book: no print") // not reached: MaxPrints ≥ 1
}

// entryPages reads, from a print, the page each contents entry's heading is
// on; a heading the print does not place is an error (never a guessed
// number).
func (bp *BookPage) entryPages(pdf []byte) (map[string]int, error) {
	dests, err := destPages(pdf)
	if err != nil {
		return nil, fmt.Errorf("read the chapters' pages from the printed PDF: %w", err)
	}
	pages := make(map[string]int, len(bp.entries))
	for _, e := range bp.entries {
		n, ok := dests[e.id]
		if !ok {
			return nil, bp.localized(
				fmt.Sprintf("the printed PDF does not say which page the chapter “%s” starts on, so its contents cannot be numbered; no file was written", e.text),
				fmt.Sprintf("в напечатанном PDF не видно, с какой страницы начинается глава «%s», и оглавление нельзя пронумеровать; файл не записан", e.text))
		}
		pages[e.id] = n
	}
	return pages, nil
}

// moved is the first entry whose page differs between two prints (nil:
// none).
func (bp *BookPage) moved(was, now map[string]int) *tocEntry {
	for i, e := range bp.entries {
		if was[e.id] != now[e.id] {
			return &bp.entries[i]
		}
	}
	return nil
}

// unsettled is the error of a book whose contents' numbers still moved in
// the last print.
func (bp *BookPage) unsettled(was, now map[string]int) error {
	e := bp.moved(was, now)
	return bp.localized(
		fmt.Sprintf("the contents' page numbers did not settle in %d prints (the chapter “%s” was on page %d, then on page %d); no file was written", MaxPrints, e.text, was[e.id], now[e.id]),
		fmt.Sprintf("номера страниц в оглавлении не устоялись за %d печати (глава «%s» была на странице %d, потом на странице %d); файл не записан", MaxPrints, e.text, was[e.id], now[e.id]))
}

// localized is an error in the book's language.
func (bp *BookPage) localized(en, ru string) error {
	if bp.lang == "ru" {
		return fmt.Errorf("%s", ru)
	}
	return fmt.Errorf("%s", en)
}
