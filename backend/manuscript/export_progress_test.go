package manuscript

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/waymark/waymark/backend/testenv"
	"github.com/waymark/waymark/backend/tools"
)

// TestExportPDFProgressAndCancel (issue 35 point 2): a whole-book PDF
// showed no progress, and a cancel said "read the PDF: context canceled".
// Now each stage is a tools.Progress event every door shows, and a
// cancelled export says so and leaves no file.
func TestExportPDFProgressAndCancel(t *testing.T) {
	if _, err := exec.LookPath("chromium"); err != nil {
		t.Skip("no chromium")
	}
	doc, st := testenv.BookAndStore(t, "# The Ledger\n\n## One\n\nText of the first chapter.\n\n## Two\n\nMore text.\n")
	ws := NewWorkspace(st)
	if _, err := ws.Open(context.Background(), doc); err != nil {
		t.Fatal(err)
	}
	r := tools.New()
	RegisterTools(r, ws)
	out := t.TempDir()
	run := func(ctx context.Context, name string, onEvent func(tools.Progress)) error {
		args, _ := json.Marshal(map[string]any{"format": "pdf", "path": filepath.Join(out, name)})
		_, err := r.Call(ctx, tools.Call{Name: "Export", Args: args}, tools.Context{Progress: onEvent})
		return err
	}
	var mu sync.Mutex
	var lines []string
	if err := run(context.Background(), "book.pdf", func(p tools.Progress) {
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, p.Text)
	}); err != nil {
		t.Fatal(err)
	}
	all := strings.Join(lines, "\n")
	for _, want := range []string{"Starting Chromium", "laying the book out", "printing the pages", "Reading the printed PDF"} {
		if !strings.Contains(all, want) {
			t.Errorf("no progress saying %q:\n%s", want, all)
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	err := run(ctx, "cancelled.pdf", func(p tools.Progress) {
		if strings.Contains(p.Text, "laying the book out") {
			cancel()
		}
	})
	if err == nil || err.Error() != "the PDF export of cancelled.pdf was cancelled; no file was written" {
		t.Errorf("cancelled: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "cancelled.pdf")); err == nil {
		t.Error("a cancelled export wrote its file")
	}
}

// TestExportPDFTwoPrintsProgressAndCancel (issue 35 point 4): a book with a
// contents is printed twice (the first print tells each chapter's page);
// the progress says which print it is, in the book's language, and a
// cancel during the second print ends the export cleanly, no file written.
func TestExportPDFTwoPrintsProgressAndCancel(t *testing.T) {
	if _, err := exec.LookPath("chromium"); err != nil {
		t.Skip("no chromium")
	}
	for _, c := range []struct {
		name, book, cancelAt, wantErr string
		want                          []string
		progress                      string // ProgressLanguage (the window's)
	}{
		{"en", "# The Ledger\n\n## One\n\nText of the first chapter.\n\n## Two\n\nMore text.\n",
			"print 2 of 2", "the PDF export of cancelled.pdf was cancelled; no file was written",
			[]string{"prints it twice", "laying the book out (print 1 of 2", "laying the book out again (print 2 of 2"}, ""},
		{"ru", "# Война и мир\n\n## Глава первая\n\nТекст первой главы.\n\n## Глава вторая\n\nЕщё текст.\n",
			"печать 2 из 2", "экспорт PDF в cancelled.pdf отменён; файл не записан",
			[]string{"Chromium печатает её дважды", "раскладывает книгу по страницам (печать 1 из 2", "снова раскладывает книгу по страницам (печать 2 из 2"}, ""},
		// The window's language, not the book's (issue 35 point 6: a Russian
		// book's export said its progress in Russian in an English window).
		{"ru book, en window", "# Война и мир\n\n## Глава первая\n\nТекст первой главы.\n\n## Глава вторая\n\nЕщё текст.\n",
			"print 2 of 2", "the PDF export of cancelled.pdf was cancelled; no file was written",
			[]string{"prints it twice", "laying the book out (print 1 of 2", "laying the book out again (print 2 of 2"}, "en"},
		{"en book, ru window", "# The Ledger\n\n## One\n\nText of the first chapter.\n\n## Two\n\nMore text.\n",
			"печать 2 из 2", "экспорт PDF в cancelled.pdf отменён; файл не записан",
			[]string{"Chromium печатает её дважды", "раскладывает книгу по страницам (печать 1 из 2"}, "ru"},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc, st := testenv.BookAndStore(t, c.book)
			ws := NewWorkspace(st)
			if _, err := ws.Open(context.Background(), doc); err != nil {
				t.Fatal(err)
			}
			r := tools.New()
			RegisterTools(r, ws)
			out := t.TempDir()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var mu sync.Mutex
			var lines []string
			_, err := ExportRef.CallWith(ctx, r, ExportArgs{Format: "pdf", Path: filepath.Join(out, "cancelled.pdf"), ProgressLanguage: c.progress}, tools.Context{Progress: func(p tools.Progress) {
				mu.Lock()
				defer mu.Unlock()
				lines = append(lines, p.Text)
				if strings.Contains(p.Text, c.cancelAt) {
					cancel()
				}
			}})
			if err == nil || err.Error() != c.wantErr {
				t.Errorf("cancelled in the second print: %v, want %q", err, c.wantErr)
			}
			if _, err := os.Stat(filepath.Join(out, "cancelled.pdf")); err == nil {
				t.Error("a cancelled export wrote its file")
			}
			mu.Lock()
			all := strings.Join(lines, "\n")
			mu.Unlock()
			for _, want := range c.want {
				if !strings.Contains(all, want) {
					t.Errorf("no progress saying %q:\n%s", want, all)
				}
			}
		})
	}
}
