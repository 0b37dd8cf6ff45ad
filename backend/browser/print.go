package browser

import (
	"context"
	"fmt"
	"html"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/proto"
)

// PrintOptions lay out a printed PDF.
type PrintOptions struct {
	// Width and Height are the paper's size in inches.
	Width, Height float64
	// FooterTemplate is Chromium's page footer (its span.pageNumber is the
	// page number); empty: no header or footer.
	FooterTemplate string
	// BaseDir is the folder relative images are found in (the book's).
	BaseDir string
	// Progress, when set, hears each stage ("load", "hyphens", "print",
	// "read") and, while Chromium prints, every few seconds how long it has
	// taken.
	Progress func(stage string, elapsed time.Duration)
	// KeepSoftHyphens prints the page's soft hyphens as they are: by
	// default those no printed line breaks at are taken out first, so the
	// PDF's text holds whole words (print_hyphens.go).
	KeepSoftHyphens bool
}

// printHeartbeat is how often PrintPDF tells Progress it is still printing.
const printHeartbeat = 5 * time.Second

// PrintPDF prints a standalone HTML page to PDF with a headless Chromium of
// its own (Debian's, as every browser tool uses): a temporary profile,
// removed afterwards, and the page's @page size and margins. The page is
// expected to run no script (publish.PrintPage forbids them by its policy).
// The user's browser session, if one is open, is not touched.
//
// A cancelled ctx ends it at once; its error is then ctx's own
// (context.Canceled), for the caller to say so in its words.
func PrintPDF(ctx context.Context, opts Options, page []byte, po PrintOptions) ([]byte, error) {
	pdf, err := printPDF(ctx, opts, page, po)
	if err != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return pdf, err
}

func printPDF(ctx context.Context, opts Options, page []byte, po PrintOptions) ([]byte, error) {
	start := time.Now()
	report := func(stage string) {
		if po.Progress != nil {
			po.Progress(stage, time.Since(start))
		}
	}
	opts.Headless = true
	opts.ProfileDir, opts.ControlURL = "", ""
	// The page is a file in a private folder: a file: page may show the
	// book's images beside it (<base href>), and nothing else is served.
	dir, err := os.MkdirTemp("", "waymark-print-")
	if err != nil {
		return nil, fmt.Errorf("print to PDF: %w", err)
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "book.html")
	if po.BaseDir != "" {
		page = withBase(page, po.BaseDir)
	}
	if err := os.WriteFile(file, page, 0o600); err != nil {
		return nil, fmt.Errorf("print to PDF: %w", err)
	}
	proc, err := StartBrowser(ctx, opts)
	if err != nil {
		return nil, fmt.Errorf("print to PDF: %w", err)
	}
	defer proc.Close()
	ws := &cdp.WebSocket{}
	if err := ws.Connect(ctx, proc.ControlURL(), nil); err != nil {
		return nil, fmt.Errorf("print to PDF: connect to Chromium: %w", err)
	}
	b := rod.New().Client(cdp.New().Start(ws)).Context(ctx).NoDefaultDevice()
	if err := b.Connect(); err != nil {
		return nil, fmt.Errorf("print to PDF: connect to Chromium: %w", err)
	}
	p, err := b.Page(proto.TargetCreateTarget{URL: "about:blank"})
	if err != nil {
		return nil, fmt.Errorf("print to PDF: open a page: %w", err)
	}
	report("load")
	if err := p.Navigate("file://" + file); err != nil {
		return nil, fmt.Errorf("print to PDF: load the book: %w", err)
	}
	if err := p.WaitLoad(); err != nil {
		return nil, fmt.Errorf("print to PDF: load the book: %w", err)
	}
	// The fonts are local (fonts-paratype); give their loading a moment to
	// finish before the layout is printed.
	_, _ = p.Timeout(10 * time.Second).Eval(`() => document.fonts.ready.then(() => true)`)
	if !po.KeepSoftHyphens {
		report("hyphens")
		if _, err := dropUnusedHyphens(p, po.Width); err != nil {
			return nil, fmt.Errorf("print to PDF: %w", err)
		}
	}
	top, bottom := 0.0, 0.0
	report("print")
	done, stopped := make(chan struct{}), make(chan struct{})
	stop := func() { close(done); <-stopped } // no report after it returns
	go func() {
		defer close(stopped)
		t := time.NewTicker(printHeartbeat)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				report("print")
			}
		}
	}()
	r, err := (proto.PagePrintToPDF{
		PaperWidth: &po.Width, PaperHeight: &po.Height,
		MarginTop: &top, MarginBottom: &bottom, MarginLeft: &top, MarginRight: &top,
		PreferCSSPageSize:       true,
		PrintBackground:         true,
		DisplayHeaderFooter:     po.FooterTemplate != "",
		HeaderTemplate:          "<span></span>",
		FooterTemplate:          po.FooterTemplate,
		GenerateDocumentOutline: true,
		GenerateTaggedPDF:       true,
		TransferMode:            proto.PagePrintToPDFTransferModeReturnAsStream,
	}).Call(p)
	stop()
	if err != nil {
		return nil, fmt.Errorf("print to PDF: %w", err)
	}
	report("read")
	sr := rod.NewStreamReader(p, r.Stream)
	defer sr.Close()
	pdf, err := io.ReadAll(sr)
	if err != nil {
		return nil, fmt.Errorf("print to PDF: read the PDF: %w", err)
	}
	return pdf, nil
}

// withBase puts <base href="file:///DIR/"> at the top of the page's head, so
// its relative image paths are the book's folder.
func withBase(page []byte, dir string) []byte {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(dir) + "/"}
	base := fmt.Sprintf("<base href=\"%s\">\n", html.EscapeString(u.String()))
	const head = "<head>\n"
	for i := 0; i+len(head) <= len(page) && i < 512; i++ {
		if string(page[i:i+len(head)]) == head {
			out := make([]byte, 0, len(page)+len(base))
			out = append(out, page[:i+len(head)]...)
			out = append(out, base...)
			return append(out, page[i+len(head):]...)
		}
	}
	return page
}
