// Command waymark-bench measures Waymark against its targets and prints
// medians with ratios against a reference measured in the same run. It is
// not part of the product: the product keeps only the timing hook the window
// prints with WAYMARK_REPORT_PAINT=1 (app/service_bench.go).
//
//	waymark-bench [--book PATH] [--runs N]        the manuscript engine on a book
//	waymark-bench browser [--runs N] [--vs-playwright]
//	waymark-bench window [--book PATH] [--runs N] [--bin PATH] [--ref-bin OLD]
//	waymark-bench cli [--book PATH] [--runs N] [--bin PATH]
//	waymark-bench pdf [--book PATH] [--runs N]
//
// Run it from the repository: go run -tags sqlite_fts5 ./cmd/waymark-bench …
// (a built waymark-bench runs from any folder: it finds the repository, and
// the corpus beside it, by --repo, the working folder or its own source).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/waymark/waymark/backend/cli"
	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/textmatch"
	"github.com/yuin/goldmark/text"
)

const usage = `Usage:
  waymark-bench [--book PATH] [--runs N] [--repo PATH]
        measure the manuscript engine on a book and print medians and ratios
  waymark-bench browser [--runs N] [--vs-playwright] [--bin PATH] [--repo PATH]
        measure the browser (headless Chromium) against its targets;
        --vs-playwright: side by side with Playwright MCP (build/playwright-mcp)
        and "waymark mcp" (--bin, else built from the repository)
  waymark-bench window [--book PATH] [--runs N] [--bin PATH] [--ref-bin OLD] [--repo PATH]
        cold-start the desktop window under Xvfb on the sample and on a book;
        first paint (≤ 0.3 s), book open (≤ 0.45 s) and memory (≤ 200 MB PSS)
        against their targets (--bin: a desktop build such as bin/waymark, else
        built from the repository; --ref-bin: an older build run in turn with
        it, run by run, each figure then given as new/old)
  waymark-bench cli [--book PATH] [--runs N] [--bin PATH] [--repo PATH]
        a warm "waymark call Find" on the book as a whole process against
        grep -c -i -F on the same file (≤ 1.5×), the binary's start alone,
        and the index cache after 100 outside edits of the book (a row a
        book, no stale answer) (--bin: a waymark binary, else built)
  waymark-bench pdf [--book PATH] [--runs N] [--repo PATH]
        the whole book to an A5 PDF through the Export tool (≤ 60 s), with
        its progress lines (give --runs 1: a run takes a minute or more)
  waymark-bench tasks [--repo PATH]
        the ten real-site tasks of TestRealSiteTasksBothDoors (Debian's
        documentation on loopback) with Playwright MCP driven as a model
        would: per task done, tool calls and characters read

--repo is the Waymark repository (default: found from the working folder or
this command's source); the default book is its ../shared/corpus/books/war-and-peace.ru.md.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// usageError is a command-line mistake: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// options are the flags of every bench.
type options struct {
	book, repo, bin string
	refBin          string // window: an old build run in turn with the new one
	runs            int
	vsPlaywright    bool
}

// run is main without the process: it returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	err := dispatch(ctx, args, stdout)
	var ue usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(stdout, usage)
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "waymark-bench: %s\n\n%s", err, usage)
		return 2
	default:
		fmt.Fprintf(stderr, "waymark-bench: %s\n", err)
		return 1
	}
}

func dispatch(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("waymark-bench", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var o options
	fs.StringVar(&o.book, "book", "", "")
	fs.StringVar(&o.repo, "repo", "", "")
	fs.StringVar(&o.bin, "bin", "", "")
	fs.StringVar(&o.refBin, "ref-bin", "", "")
	fs.IntVar(&o.runs, "runs", 5, "")
	fs.BoolVar(&o.vsPlaywright, "vs-playwright", false, "")
	// Flags and the bench's name in any order (waymark-bench --runs 3 browser).
	var names []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return err
			}
			return usageError{err.Error()}
		}
		if fs.NArg() == 0 {
			break
		}
		names, args = append(names, fs.Arg(0)), fs.Args()[1:]
	}
	if len(names) > 1 {
		return usageError{fmt.Sprintf("one bench at a time, not %q", strings.Join(names, " "))}
	}
	which := ""
	if len(names) == 1 {
		which = names[0]
	}
	if o.runs < 1 || o.runs > 1000 {
		return usageError{fmt.Sprintf("--runs %d: give a whole number from 1 to 1000", o.runs)}
	}
	if o.refBin != "" && which != "window" {
		return usageError{"--ref-bin goes with window (waymark-bench window --bin NEW --ref-bin OLD)"}
	}
	if o.vsPlaywright && which != "browser" {
		return usageError{"--vs-playwright goes with browser (waymark-bench browser --vs-playwright)"}
	}
	switch which {
	case "":
		return runBench(ctx, o, stdout)
	case "browser":
		if o.vsPlaywright {
			return runBenchVsPlaywright(ctx, o, stdout)
		}
		return runBenchBrowser(ctx, o.runs, stdout)
	case "window":
		return runBenchWindow(ctx, o, stdout)
	case "cli":
		return runBenchCLI(ctx, o, stdout)
	case "pdf":
		return runBenchPDF(ctx, o, stdout)
	case "tasks":
		return runBenchTasks(ctx, o, stdout)
	case "help":
		return flag.ErrHelp
	}
	return usageError{fmt.Sprintf("unknown bench %q: the benches are waymark-bench, waymark-bench browser, waymark-bench window, waymark-bench cli, waymark-bench pdf and waymark-bench tasks", which)}
}

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

// verdict is a measure's result against its target.
func verdict(ok bool) string {
	if ok {
		return "ok"
	}
	return "OVER TARGET"
}

func ms(d time.Duration) string { return fmt.Sprintf("%.3f ms", float64(d.Microseconds())/1000) }

// runBench measures the manuscript engine on a book against the targets of the
// manuscript-engine issue and prints medians and ratios measured in this run.
func runBench(ctx context.Context, o options, stdout io.Writer) error {
	book, err := findBook(o)
	if err != nil {
		return err
	}
	src, err := document.ReadFile(book, 0)
	if err != nil {
		return fmt.Errorf("read the book (--book PATH): %w", err)
	}
	n := o.runs
	tw := tabwriter.NewWriter(stdout, 2, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "Waymark bench: %s (%d bytes), median of %d runs\n", filepath.Base(book), len(src), n)
	fmt.Fprintln(tw, "measure\tmedian\treference / ratio\ttarget\tresult")

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
	document.Parser().Parse(text.NewReader(src))
	document.ParseOwned(src, 1)
	var refs, opens []time.Duration
	for i := 0; i < n; i++ {
		refs = append(refs, median(1, func() { document.Parser().Parse(text.NewReader(src)) }))
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

	// Issue 19's storage target: 100 keystroke saves grow the database by
	// less than 1 MB (they stored the book twice at a paragraph's end: 316 MB).
	grew, err := keystrokeGrowth(ctx, dir, src, 100)
	if err != nil {
		return fmt.Errorf("bench keystroke saves: %w", err)
	}
	fmt.Fprintf(tw, "database growth, 100 keystroke saves (TypeText)\t%.3f MB\tbook %.1f MB\t< 1 MB\t%s\n", float64(grew)/1e6, float64(len(src))/1e6, verdict(grew < 1<<20))

	// The agents issue's call: open the book and run FirstMatch on the built-in
	// engine, as one `waymark call RunCursorAgent --doc` does (in this process).
	db := filepath.Join(dir, "bench.db")
	callArgs := []string{"RunCursorAgent", "--doc", target, "--db", db,
		`{"forward":true,"maxElements":20,"maxBytes":8192,"includeContent":true,"mode":"FirstMatch","taskDescription":"Find the first mention of \"Бородино\""}`}
	var sink strings.Builder
	if code := cli.Run(ctx, "call", callArgs, nil, &sink, &sink); code != 0 { // first open records the snapshot
		return fmt.Errorf("bench RunCursorAgent: %s", sink.String())
	}
	agentRun := median(n, func() {
		sink.Reset()
		if code := cli.Run(ctx, "call", callArgs, nil, &sink, &sink); code != 0 {
			failed = fmt.Errorf("bench RunCursorAgent: %s", sink.String())
		}
	})
	if failed != nil {
		return failed
	}
	fmt.Fprintf(tw, "call RunCursorAgent FirstMatch (open + run)\t%s\tbuilt-in engine, in-process\t≤ 150 ms\t%s\n", ms(agentRun), verdict(agentRun <= 150*time.Millisecond))
	return tw.Flush()
}
