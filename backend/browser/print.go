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

// printHeartbeat is how often Print tells Progress it is still printing.
const printHeartbeat = 5 * time.Second

// Printer prints standalone HTML pages to PDF, one after another, with a
// headless Chromium of its own (Debian's, as every browser tool uses): a
// temporary profile, removed by Close, and each page's @page size and
// margins. A page is expected to run no script (publish.LayOutBook forbids
// them by its policy). The user's browser session, if one is open, is not
// touched. A book printed twice to number its contents starts one
// Chromium, not two.
type Printer struct {
	proc *BrowserProcess
	b    *rod.Browser
	dir  string // the private folder the pages are written to
}

// StartPrinter starts the printer's Chromium; Close ends it. A cancelled
// ctx ends it at once; its error is then ctx's own (context.Canceled), for
// the caller to say so in its words.
func StartPrinter(ctx context.Context, opts Options) (*Printer, error) {
	pr, err := startPrinter(ctx, opts)
	if err != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return pr, err
}

func startPrinter(ctx context.Context, opts Options) (*Printer, error) {
	opts.Headless = true
	opts.ProfileDir, opts.ControlURL = "", ""
	// The page is a file in a private folder: a file: page may show the
	// book's images beside it (<base href>), and nothing else is served.
	dir, err := os.MkdirTemp("", "waymark-print-")
	if err != nil {
		return nil, fmt.Errorf("print to PDF: %w", err)
	}
	pr := &Printer{dir: dir}
	if pr.proc, err = StartBrowser(ctx, opts); err != nil {
		pr.Close()
		return nil, fmt.Errorf("print to PDF: %w", err)
	}
	ws := &cdp.WebSocket{}
	if err := ws.Connect(ctx, pr.proc.ControlURL(), nil); err != nil {
		pr.Close()
		return nil, fmt.Errorf("print to PDF: connect to Chromium: %w", err)
	}
	// The printer lives within ctx: its events end with it.
	pr.b = rod.New().Client(cdp.New().Start(ws)).Context(ctx).NoDefaultDevice()
	if err := pr.b.Connect(); err != nil {
		pr.Close()
		return nil, fmt.Errorf("print to PDF: connect to Chromium: %w", err)
	}
	return pr, nil
}

// Close ends the printer's Chromium and removes its files.
func (pr *Printer) Close() {
	if pr.proc != nil {
		_ = pr.proc.Close()
	}
	_ = os.RemoveAll(pr.dir)
}

// Print prints page to PDF in a new tab, closed afterwards. A cancelled ctx
// ends it at once with ctx's own error.
func (pr *Printer) Print(ctx context.Context, page []byte, po PrintOptions) ([]byte, error) {
	pdf, err := pr.print(ctx, page, po)
	if err != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return pdf, err
}

func (pr *Printer) print(ctx context.Context, page []byte, po PrintOptions) ([]byte, error) {
	start := time.Now()
	report := func(stage string) {
		if po.Progress != nil {
			po.Progress(stage, time.Since(start))
		}
	}
	file := filepath.Join(pr.dir, "book.html")
	if po.BaseDir != "" {
		page = withBase(page, po.BaseDir)
	}
	if err := os.WriteFile(file, page, 0o600); err != nil {
		return nil, fmt.Errorf("print to PDF: %w", err)
	}
	p, err := pr.b.Context(ctx).Page(proto.TargetCreateTarget{URL: "about:blank"})
	if err != nil {
		return nil, fmt.Errorf("print to PDF: open a page: %w", err)
	}
	defer func() { _ = p.Context(context.Background()).Timeout(5 * time.Second).Close() }()
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
	report("print")
	stop := heartbeat(ctx, func() { report("print") })
	r, err := printToPDF(p, po)
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

// heartbeat calls beat every printHeartbeat until the returned stop is
// called (no beat after it returns) or ctx ends.
func heartbeat(ctx context.Context, beat func()) (stop func()) {
	done, stopped := make(chan struct{}), make(chan struct{})
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
				beat()
			}
		}
	}()
	return func() { close(done); <-stopped }
}

// printToPDF asks Chromium for the page's PDF, tagged, with an outline, as
// a stream.
func printToPDF(p *rod.Page, po PrintOptions) (*proto.PagePrintToPDFResult, error) {
	top, bottom := 0.0, 0.0
	return proto.PagePrintToPDF{
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
	}.Call(p)
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
