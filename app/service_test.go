package main

import (
	"context"
	"os"
	"testing"
)

// TestDesktopBenchWindow measures the window's cold start (first paint) and
// resident memory with the production binary named by WAYMARK_BENCH_BIN, on
// the sample and on WAYMARK_BENCH_BOOK if set. It only logs (tests never assert
// on wall time); `waymark bench` prints the same figures.
func TestDesktopBenchWindow(t *testing.T) {
	bin := os.Getenv("WAYMARK_BENCH_BIN")
	if bin == "" {
		t.Skip("WAYMARK_BENCH_BIN is not set (a desktop build, e.g. bin/waymark)")
	}
	type run struct {
		book     string
		inWindow bool
	}
	runs := []run{{"", false}}
	if book := os.Getenv("WAYMARK_BENCH_BOOK"); book != "" {
		runs = append(runs, run{book, false}, run{book, true})
	}
	for _, c := range runs {
		r, err := benchWindow(context.Background(), bin, c.book, c.inWindow, 3)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s (opened in the window: %v): first paint %v, open %v (medians of %d), memory PSS %.0f MB (RSS summed %.0f MB, of it the app %.0f MB, the rest WebKit)",
			r.Book, c.inWindow, r.FirstPaint, r.Opened, r.Runs, float64(r.PSS)/(1<<20), float64(r.RSS)/(1<<20), float64(r.AppRSS)/(1<<20))
	}
}
