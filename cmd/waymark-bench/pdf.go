package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"time"

	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/store"
	"github.com/waymark/waymark/backend/tools"
)

// pdfTarget is the whole-book PDF's target (issue 35 point 2).
const pdfTarget = 60 * time.Second

// runBenchPDF exports the whole book to an A5 PDF through the Export tool,
// as every door does, --runs times, and prints the median against the
// target with the stages' progress lines of the last run.
func runBenchPDF(ctx context.Context, o options, stdout io.Writer) error {
	book, err := findBook(o)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "waymark-bench-pdf-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	st, err := store.Open(filepath.Join(dir, "bench.db"))
	if err != nil {
		return err
	}
	defer st.Close()
	ws := manuscript.NewWorkspace(st)
	if _, err := ws.Open(ctx, book); err != nil {
		return err
	}
	r := tools.New()
	manuscript.RegisterTools(r, ws)
	var times []time.Duration
	var lines []string
	size, pages := int64(0), 0
	for i := 0; i < o.runs; i++ {
		out := filepath.Join(dir, fmt.Sprintf("book-%d.pdf", i))
		lines = lines[:0]
		t0 := time.Now()
		_, err := manuscript.ExportRef.CallWith(ctx, r, manuscript.ExportArgs{Format: "pdf", Path: out}, tools.Context{Progress: func(p tools.Progress) {
			lines = append(lines, fmt.Sprintf("  %6.1f s  %s", time.Since(t0).Seconds(), p.Text))
		}})
		if err != nil {
			return err
		}
		times = append(times, time.Since(t0))
		pdf, err := os.ReadFile(out)
		if err != nil {
			return err
		}
		size, pages = int64(len(pdf)), pdfPageCount(pdf)
		os.Remove(out)
	}
	m := mid(times)
	fmt.Fprintf(stdout, "Waymark bench pdf: %s to an A5 PDF, median of %d runs\n", filepath.Base(book), o.runs)
	for _, l := range lines {
		fmt.Fprintln(stdout, l)
	}
	fmt.Fprintf(stdout, "whole book\t%.1f s\t(target ≤ %.0f s: %s)\t%d pages, %d KB\n", m.Seconds(), pdfTarget.Seconds(), verdict(m <= pdfTarget), pages, size>>10)
	return nil
}

var pdfCount = regexp.MustCompile(`/Type\s*/Pages\b[^>]*?/Count\s+(\d+)`)

// pdfPageCount is the page count of a PDF's page tree root (the largest
// /Count of a /Pages node).
func pdfPageCount(pdf []byte) int {
	n := 0
	for _, m := range pdfCount.FindAllSubmatch(pdf, -1) {
		if c, err := strconv.Atoi(string(m[1])); err == nil && c > n {
			n = c
		}
	}
	return n
}
