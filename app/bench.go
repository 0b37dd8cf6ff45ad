package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/textmatch"
)

// defaultBook is where the corpus sits beside a checkout of the repository.
const defaultBook = "../shared/corpus/books/war-and-peace.ru.md"

// median runs fn n times and returns the median duration.
func median(n int, fn func()) time.Duration {
	ds := make([]time.Duration, n)
	for i := range ds {
		t := time.Now()
		fn()
		ds[i] = time.Since(t)
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[n/2]
}

func mid(ds []time.Duration) time.Duration {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[len(ds)/2]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.3f ms", float64(d.Microseconds())/1000) }

// runBench measures the manuscript engine on a book against the targets of the
// manuscript-engine issue and prints medians and ratios measured in this run.
func runBench(ctx context.Context, args []string, stdout io.Writer) error {
	f, err := parseFlags(args, "book", "runs", "vs-playwright")
	if err != nil {
		return err
	}
	if f.vsPlaywright && (len(f.positional) != 1 || f.positional[0] != "browser") {
		return usageError{"--vs-playwright goes with bench browser (waymark bench browser --vs-playwright)"}
	}
	if len(f.positional) == 1 && f.positional[0] == "browser" {
		if f.vsPlaywright {
			return runBenchVsPlaywright(ctx, f.runs, stdout)
		}
		return runBenchBrowser(ctx, f.runs, stdout)
	}
	if len(f.positional) == 1 && f.positional[0] == "window" {
		return runBenchWindow(ctx, f.book, f.runs, stdout)
	}
	if len(f.positional) > 0 {
		return usageError{"bench takes no positional arguments but browser or window (waymark bench browser, waymark bench window)"}
	}
	book := f.book
	if book == "" {
		book = defaultBook
	}
	src, err := document.ReadFile(book, 0)
	if err != nil {
		return fmt.Errorf("bench needs a book (--book PATH; default %s): %w", defaultBook, err)
	}
	n := f.runs
	tw := tabwriter.NewWriter(stdout, 2, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "Waymark bench: %s (%d bytes), median of %d runs\n", filepath.Base(book), len(src), n)
	fmt.Fprintln(tw, "measure\tmedian\treference / ratio\ttarget\tresult")
	verdict := func(ok bool) string {
		if ok {
			return "ok"
		}
		return "OVER TARGET"
	}

	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	held := document.Parse(src, 1)
	runtime.GC()
	runtime.ReadMemStats(&after)
	heap := float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(len(src))
	fmt.Fprintf(tw, "heap held by the open document\t%.1f MB\tfile %.1f MB → %.1f×\t≤ 12×\t%s\n",
		float64(after.HeapAlloc-before.HeapAlloc)/1e6, float64(len(src))/1e6, heap, verdict(heap <= 12))
	runtime.KeepAlive(held)

	// Reference and subject alternate, after a warm-up, so that neither is favoured
	// by the state of the heap or the caches.
	document.ReferenceParse(src)
	document.ParseOwned(src, 1)
	var refs, opens []time.Duration
	for i := 0; i < n; i++ {
		refs = append(refs, median(1, func() { document.ReferenceParse(src) }))
		opens = append(opens, median(1, func() { document.ParseOwned(src, 1) })) // parsed only, never edited
	}
	ref, open := mid(refs), mid(opens)
	ratio := float64(open) / float64(ref)
	fmt.Fprintf(tw, "open (parse + linearise)\t%s\tgoldmark parse %s → %.2f×\t≤ 1.5×\t%s\n", ms(open), ms(ref), ratio, verdict(ratio <= 1.5))

	d := document.Parse(src, 1)
	q, _ := textmatch.Compile("профессор Звёздочкин Waymark")
	find := median(n*4, func() { d.Find(q, document.FindOptions{After: -1}) })
	fmt.Fprintf(tw, "Find absent phrase (full scan)\t%s\t%d items\t≤ 40 ms\t%s\n", ms(find), d.Len(), verdict(find <= 40*time.Millisecond))

	mid := d.Len() / 2
	for mid < d.Len() && d.Item(mid).Type != document.Paragraph {
		mid++
	}
	texts := []string{"Первый вариант абзаца для замера.", "Второй вариант абзаца, чуть длиннее, для замера."}
	k := 0
	var failed error
	repl := median(n*10, func() {
		e, err := d.PlanReplaceText(mid, texts[k%2])
		if err != nil {
			failed = err
			return
		}
		r := e.Apply()
		_ = d.CursorContext(r.Cursor)
		k++
	})
	if failed != nil {
		return fmt.Errorf("bench ReplaceText: %w", failed)
	}
	fmt.Fprintf(tw, "ReplaceText mid-book (re-base + context)\t%s\titem %d\t≤ 2 ms\t%s\n", ms(repl), mid, verdict(repl <= 2*time.Millisecond))

	dir, err := os.MkdirTemp("", "waymark-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	target := filepath.Join(dir, "book.md")
	if err := os.WriteFile(target, src, 0o644); err != nil {
		return err
	}
	save := median(n, func() {
		if err := manuscript.WriteAtomic(target, src); err != nil {
			failed = err
		}
	})
	if failed != nil {
		return fmt.Errorf("bench save: %w", failed)
	}
	fmt.Fprintf(tw, "atomic save (temp + fsync + rename)\t%s\t%d bytes\t≤ 50 ms\t%s\n", ms(save), len(src), verdict(save <= 50*time.Millisecond))

	// The agents issue's call: open the book and run FirstMatch on the built-in
	// engine, as one `waymark call RunCursorAgent --doc` does (in this process).
	db := filepath.Join(dir, "bench.db")
	callArgs := []string{"call", "RunCursorAgent", "--doc", target, "--db", db,
		`{"forward":true,"maxElements":20,"maxBytes":8192,"includeContent":true,"mode":"FirstMatch","taskDescription":"Find the first mention of \"Бородино\""}`}
	var sink strings.Builder
	if code := run(ctx, callArgs, nil, &sink, &sink); code != 0 { // first open records the snapshot
		return fmt.Errorf("bench RunCursorAgent: %s", sink.String())
	}
	agentRun := median(n, func() {
		sink.Reset()
		if code := run(ctx, callArgs, nil, &sink, &sink); code != 0 {
			failed = fmt.Errorf("bench RunCursorAgent: %s", sink.String())
		}
	})
	if failed != nil {
		return failed
	}
	fmt.Fprintf(tw, "call RunCursorAgent FirstMatch (open + run)\t%s\tbuilt-in engine, in-process\t≤ 150 ms\t%s\n", ms(agentRun), verdict(agentRun <= 150*time.Millisecond))
	return tw.Flush()
}
