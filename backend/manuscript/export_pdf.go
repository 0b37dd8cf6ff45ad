package manuscript

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/publish"
)

// exportPDF prints the book to PDF on the paper asked for, with its title
// and author in the PDF's information. A book with a contents is printed
// twice by one Chromium (publish.BookPage.Print: the first print tells each
// chapter's page, the second carries the numbers); the progress says which
// print it is, in the language asked for (else the book's).
func exportPDF(ctx context.Context, r exportRequest, bk *bookToExport, path string) ([]byte, error) {
	paper := publish.Papers[r.Paper]
	if r.Paper == "" {
		paper = publish.Papers[publish.PaperNames[0]]
	}
	// Chromium is only recommended by the package: without it, say what
	// to install before anything is laid out.
	bin, err := browser.FindBin(pdfBrowserBin)
	if errors.Is(err, browser.ErrNoBrowser) {
		return nil, publish.NeedChromium()
	}
	say := pdfProgress{r: r, ru: r.progressRussian(bk.meta.Lang)}
	say.say("Starting Chromium to print the book, while the book is laid out for it", "Запускаем Chromium для печати, а книгу тем временем готовим к ней")
	// Chromium starts while the book is laid out.
	type started struct {
		pr  *browser.Printer
		err error
	}
	start := make(chan started, 1)
	go func() {
		pr, err := browser.StartPrinter(ctx, browser.Options{Bin: bin})
		start <- started{pr, err}
	}()
	bp, left, err := publish.LayOutBook(bk.body, bk.meta, paper, bk.policy)
	st := <-start
	if st.pr != nil {
		defer st.pr.Close()
	}
	if err != nil {
		return nil, err
	}
	bk.left = append(bk.left, left...)
	say.prints = bp.Prints()
	if st.err != nil {
		return nil, say.failed(ctx, path, st.err)
	}
	say.start(bp.Size())
	pr := st.pr
	pdf, err := bp.Print(ctx, func(ctx context.Context, page []byte, pass int, draft bool) ([]byte, error) {
		return pr.Print(ctx, page, browser.PrintOptions{Width: paper.Width, Height: paper.Height, KeepSoftHyphens: draft,
			Progress: func(stage string, took time.Duration) { say.stage(pass, stage, took) }})
	})
	if err != nil {
		return nil, say.failed(ctx, path, err)
	}
	return publish.SetPDFInfo(pdf, bk.meta.Title, bk.meta.Author, time.Now())
}

// pdfProgress tells the door how a PDF export is going, print by print, in
// Russian or English (exportRequest.progressRussian).
type pdfProgress struct {
	r      exportRequest
	ru     bool
	prints int // how many prints are planned (two with a contents)
}

func (s pdfProgress) say(en, ru string, args ...any) {
	if s.ru {
		s.r.report(ru, args...)
		return
	}
	s.r.report(en, args...)
}

func (s pdfProgress) start(size int) {
	if s.prints < 2 {
		s.say("The book is laid out for printing (%d KB of HTML)", "Книга готова к печати (%d КБ HTML)", size>>10)
		return
	}
	s.say("The book is laid out for printing (%d KB of HTML); Chromium prints it twice: first to learn the page each chapter starts on, then with those numbers in the contents",
		"Книга готова к печати (%d КБ HTML); Chromium печатает её дважды: сначала чтобы узнать, с какой страницы начинается каждая глава, потом с этими номерами в оглавлении", size>>10)
}

// stage tells one stage ("load", "print", "read") of print pass.
func (s pdfProgress) stage(pass int, stage string, took time.Duration) {
	of := max(s.prints, pass)
	secs := int(took.Seconds())
	switch {
	case stage == "load" && s.prints < 2:
		s.say("Chromium is laying the book out", "Chromium раскладывает книгу по страницам")
	case stage == "load" && pass == 1:
		s.say("Chromium is laying the book out (print 1 of %d, to learn the page each chapter starts on)", "Chromium раскладывает книгу по страницам (печать 1 из %d: узнаём, с какой страницы начинается каждая глава)", of)
	case stage == "load" && pass == 2:
		s.say("Chromium is laying the book out again (print 2 of %d, with the page numbers in the contents)", "Chromium снова раскладывает книгу по страницам (печать 2 из %d: с номерами страниц в оглавлении)", of)
	case stage == "load":
		s.say("Chromium is laying the book out once more (print %d of %d: some chapters moved, so with their new page numbers)", "Chromium ещё раз раскладывает книгу по страницам (печать %d из %d: главы сдвинулись, печатаем с их новыми номерами страниц)", pass, of)
	case stage == "hyphens":
		s.say("Keeping the hyphens the printed lines break at (%d s so far)", "Оставляем только переносы на концах строк (прошло %d с)", secs)
	case stage == "print" && s.prints < 2:
		s.say("Chromium is printing the pages (%d s so far)", "Chromium печатает страницы (прошло %d с)", secs)
	case stage == "read" && s.prints < 2:
		s.say("Reading the printed PDF (%d s so far)", "Читаем напечатанный PDF (прошло %d с)", secs)
	case stage == "print":
		s.say("Chromium is printing the pages (print %d of %d, %d s so far)", "Chromium печатает страницы (печать %d из %d, прошло %d с)", pass, of, secs)
	case stage == "read":
		s.say("Reading the printed PDF (print %d of %d, %d s so far)", "Читаем напечатанный PDF (печать %d из %d, прошло %d с)", pass, of, secs)
	}
}

// failed is the export's error: a cancelled one says so, and that no file
// was written, in the progress's language.
func (s pdfProgress) failed(ctx context.Context, path string, err error) error {
	if ctx.Err() != nil && s.ru {
		return fmt.Errorf("экспорт PDF в %s отменён; файл не записан", filepath.Base(path))
	}
	return exportFailed(ctx, "pdf", path, err)
}
