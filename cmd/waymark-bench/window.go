package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"
)

// The window's timing hook (app/service_bench.go): with paintEnv=1 it prints
// its first paint on standard error, "waymark: first paint after N ms: NAME,
// CHARS characters, editable"; with benchOpenEnv it then opens that file as
// its Open dialog does and prints "opened in the window after N ms".
const (
	paintEnv     = "WAYMARK_REPORT_PAINT"
	benchOpenEnv = "WAYMARK_BENCH_OPEN"
)

// WindowBench is the window's cold start on one manuscript, medians over runs.
type WindowBench struct {
	Book string
	// FirstPaint is from exec to the manuscript drawn and editable, as the
	// window reports it.
	FirstPaint time.Duration
	// Opened is, for runs that open Book in the running window (started on
	// the sample), from the ask to the book drawn and editable.
	Opened time.Duration
	// RSS is the resident memory of the app and its WebKit processes a second
	// after the last paint, in bytes (AppRSS: the Go process alone). RSS
	// counts shared libraries once per process; PSS shares them out, so the
	// sum over the processes is the memory the window really holds.
	RSS, AppRSS, PSS int64
	// CPU is the processor time the app and its WebKit processes had used
	// by the first paint (user + system): on a machine others load, wall
	// times stretch with the load, this much less, so it compares two builds
	// fairly where the wall times cannot.
	CPU  time.Duration
	Runs int
}

var (
	paintLine  = regexp.MustCompile(`first paint after (\d+) ms`)
	openedLine = regexp.MustCompile(`opened in the window after (\d+) ms`)
)

// benchWindow starts the production binary bin on book (empty: the sample
// manuscript) under a private Xvfb display runs times, each with a fresh
// database, and returns the medians of its first paint and resident memory.
// With inWindow it starts on the sample and then opens book in the running
// window, as the Open dialog does (Opened). It needs Xvfb; bin is a desktop
// build (bash build/build.sh: bin/waymark, or productBinary).
func benchWindow(ctx context.Context, bin, book string, inWindow bool, runs int) (WindowBench, error) {
	r, err := benchWindows(ctx, []string{bin}, book, inWindow, runs)
	if err != nil {
		return WindowBench{}, err
	}
	return r[0], nil
}

// benchWindows is benchWindow for several binaries at once, run by run in
// turn (one of each, then the next round), so that a machine whose load
// changes during the bench weighs on all of them alike: an old and a new
// build compared in one run.
func benchWindows(ctx context.Context, bins []string, book string, inWindow bool, runs int) ([]WindowBench, error) {
	res := make([]WindowBench, len(bins))
	name := book
	if book == "" {
		name = "sample manuscript"
	}
	start, open := book, ""
	if inWindow {
		start, open = "", book
	}
	if _, err := exec.LookPath("Xvfb"); err != nil {
		return res, errors.New("the window benchmark needs Xvfb (bash build/setup.sh installs it)")
	}
	display, stopX, err := startXvfb(ctx)
	if err != nil {
		return res, err
	}
	defer stopX()
	type samples struct {
		paints, opens, cpus []time.Duration
		rss, app, pss       []int64
	}
	all := make([]samples, len(bins))
	for i := 0; i < runs; i++ {
		for k, bin := range bins {
			p, o, m, c, err := oneColdStart(ctx, bin, start, open, display)
			if err != nil {
				return res, fmt.Errorf("%s, run %d: %w", filepath.Base(bin), i+1, err)
			}
			a := &all[k]
			a.paints, a.opens, a.cpus, a.rss, a.app, a.pss = append(a.paints, p), append(a.opens, o), append(a.cpus, c), append(a.rss, m.rss), append(a.app, m.own), append(a.pss, m.pss)
		}
	}
	for k := range bins {
		a := all[k]
		res[k] = WindowBench{Book: name, Runs: runs, FirstPaint: mid(a.paints), Opened: mid(a.opens), CPU: mid(a.cpus),
			RSS: midInt(a.rss), AppRSS: midInt(a.app), PSS: midInt(a.pss)}
	}
	return res, nil
}

func startXvfb(ctx context.Context) (string, func(), error) {
	n := 120
	for ; n < 400; n++ {
		if _, err := os.Stat(fmt.Sprintf("/tmp/.X%d-lock", n)); os.IsNotExist(err) {
			break
		}
	}
	display := fmt.Sprintf(":%d", n)
	cmd := exec.CommandContext(ctx, "Xvfb", display, "-screen", "0", "1280x860x24", "-nolisten", "tcp")
	if err := cmd.Start(); err != nil {
		return "", nil, fmt.Errorf("start Xvfb: %w", err)
	}
	for i := 0; i < 50; i++ {
		if _, err := os.Stat(fmt.Sprintf("/tmp/.X11-unix/X%d", n)); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	return display, func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }, nil
}

func midInt(v []int64) int64 {
	sort.Slice(v, func(i, j int) bool { return v[i] < v[j] })
	return v[len(v)/2]
}

// memory is a process tree's resident memory.
type memory struct{ rss, own, pss int64 }

// oneColdStart runs the window once on book (empty: the sample) and returns
// its first paint, memory and the processor time used by the first paint;
// with open, it then has the window open that file and returns how long that
// took too.
func oneColdStart(ctx context.Context, bin, book, open, display string) (time.Duration, time.Duration, memory, time.Duration, error) {
	var none memory
	dir, err := os.MkdirTemp("", "waymark-bench-window-")
	if err != nil {
		return 0, 0, none, 0, err
	}
	defer os.RemoveAll(dir)
	args := []string{}
	if book != "" {
		args = append(args, book)
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), "DISPLAY="+display, "WAYLAND_DISPLAY=", paintEnv+"=1", "GTK_OVERLAY_SCROLLING=0",
		benchOpenEnv+"="+open,
		"WAYMARK_DB="+filepath.Join(dir, "bench.db"), "XDG_DATA_HOME="+filepath.Join(dir, "data"), "HOME="+dir)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return 0, 0, none, 0, err
	}
	cmd.Stdout = io.Discard
	if err := cmd.Start(); err != nil {
		return 0, 0, none, 0, fmt.Errorf("start %s: %w", bin, err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	painted, opened := make(chan time.Duration, 1), make(chan time.Duration, 1)
	var cpu time.Duration         // read when the paint is reported, before anything else runs
	exited := make(chan struct{}) // standard error closed: the window is gone
	var mu sync.Mutex
	var tail []string
	go func() {
		defer close(exited)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			mu.Lock()
			if len(tail) < 20 {
				tail = append(tail, line)
			}
			mu.Unlock()
			for re, ch := range map[*regexp.Regexp]chan time.Duration{paintLine: painted, openedLine: opened} {
				if m := re.FindStringSubmatch(line); m != nil {
					n, _ := strconv.Atoi(m[1])
					if re == paintLine && cpu == 0 {
						cpu = treeCPU(cmd.Process.Pid)
					}
					select {
					case ch <- time.Duration(n) * time.Millisecond:
					default:
					}
				}
			}
		}
	}()
	wait := func(ch chan time.Duration, what string) (time.Duration, error) {
		select {
		case d := <-ch:
			return d, nil
		case <-exited:
			select { // the report may be the last line before the exit
			case d := <-ch:
				return d, nil
			default:
			}
			mu.Lock()
			defer mu.Unlock()
			return 0, fmt.Errorf("%s exited before its %s (is it a desktop build? bash build/build.sh makes bin/waymark): %s", filepath.Base(bin), what, strings.Join(tail, " | "))
		case <-time.After(60 * time.Second):
			mu.Lock()
			defer mu.Unlock()
			return 0, fmt.Errorf("the window reported no %s within 60 s: %s", what, strings.Join(tail, " | "))
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
	paint, err := wait(painted, "first paint")
	if err != nil {
		return 0, 0, none, 0, err
	}
	var took time.Duration
	if open != "" {
		if took, err = wait(opened, "open of "+filepath.Base(open)); err != nil {
			return 0, 0, none, 0, err
		}
	}
	time.Sleep(time.Second)
	return paint, took, treeMemory(cmd.Process.Pid), cpu, nil
}

// loadAverage is the machine's 1-minute load average ("?" where unknown).
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "?"
}

// clockTick is the unit of /proc/PID/stat's times (USER_HZ, 100 on Linux).
const clockTick = 10 * time.Millisecond

// treeCPU sums the user and system time of a process and its descendants.
func treeCPU(pid int) time.Duration {
	var sum time.Duration
	for _, p := range procTree(pid) {
		f := statFields(p)
		// After "pid (comm)": state is field 3, utime 14, stime 15.
		if len(f) > 12 {
			u, _ := strconv.ParseInt(f[11], 10, 64)
			s, _ := strconv.ParseInt(f[12], 10, 64)
			sum += time.Duration(u+s) * clockTick
		}
	}
	return sum
}

// statFields are the fields of /proc/PID/stat after the command's name.
func statFields(pid int) []string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil
	}
	// pid (comm) state ppid ...: comm may hold spaces, so read after ")".
	s := string(b)
	return strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
}

// procTree is pid and its descendants.
func procTree(pid int) []int {
	children := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if f := statFields(p); len(f) > 1 {
			pp, _ := strconv.Atoi(f[1])
			children[pp] = append(children[pp], p)
		}
	}
	var out []int
	var walk func(p int)
	walk = func(p int) {
		out = append(out, p)
		for _, c := range children[p] {
			walk(c)
		}
	}
	walk(pid)
	return out
}

// treeMemory sums VmRSS and Pss over a process and its descendants (WebKit
// runs the page in child processes), and gives the process's own RSS too.
func treeMemory(pid int) (m memory) {
	for _, p := range procTree(pid) {
		r := procKB(fmt.Sprintf("/proc/%d/status", p), "VmRSS:")
		if p == pid {
			m.own = r
		}
		m.rss += r
		m.pss += procKB(fmt.Sprintf("/proc/%d/smaps_rollup", p), "Pss:")
	}
	return m
}

// procKB reads a "Name:  123 kB" line of a /proc file, in bytes.
func procKB(path, name string) int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, name) {
			f := strings.Fields(l)
			if len(f) >= 2 {
				kb, _ := strconv.ParseInt(f[1], 10, 64)
				return kb * 1024
			}
		}
	}
	return 0
}

// The window's targets (issue 25, measured on 2 cores): first paint of the
// sample, the 6 MB book cold to an editable view (and opened in the running
// window), and the memory with it open.
const (
	targetFirstPaint = 300 * time.Millisecond
	targetBookOpen   = 450 * time.Millisecond
	targetPSS        = 200 << 20
)

// runBenchWindow is `waymark-bench window`: the product's window (--bin, else
// a desktop build made from the repository), cold started runs times on the
// sample manuscript (the reference) and on a book, against the targets: first
// paint ≤ 0.3 s, the book open to an editable view ≤ 0.45 s, its memory
// ≤ 200 MB. With --ref-bin OLD, that build runs too, in turn with this one
// run by run, and each figure is given as new against old.
func runBenchWindow(ctx context.Context, o options, stdout io.Writer) error {
	book, err := findBook(o)
	if err != nil {
		return fmt.Errorf("bench window: %w", err)
	}
	if _, err := os.Stat(book); err != nil {
		return fmt.Errorf("bench window needs a book (--book PATH): %w", err)
	}
	dir, err := os.MkdirTemp("", "waymark-bench-bin-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	bin, err := productBinary(o, "desktop,production,webkit2_41,sqlite_fts5", dir)
	if err != nil {
		return fmt.Errorf("bench window: %w", err)
	}
	bins := []string{bin}
	if o.refBin != "" {
		ref, err := filepath.Abs(o.refBin)
		if err == nil {
			_, err = os.Stat(ref)
		}
		if err != nil {
			return fmt.Errorf("bench window: --ref-bin: %w", err)
		}
		bins = append(bins, ref)
	}
	runs := o.runs
	if runs < 3 {
		runs = 3
	}
	// The floor: a bare WebKitGTK window run in turn with the sample's starts,
	// so the bench says how much of the start is WebKitGTK's own here.
	floor, floorErr := floorBinary(o, dir)
	sampleBins := bins
	if floorErr == nil {
		sampleBins = append(append([]string{}, bins...), floor)
	}
	loadBefore := loadAverage()
	sample, err := benchWindows(ctx, sampleBins, "", false, runs)
	if err != nil {
		return fmt.Errorf("bench window, sample manuscript: %w", err)
	}
	big, err := benchWindows(ctx, bins, book, false, runs)
	if err != nil {
		return fmt.Errorf("bench window, %s: %w", filepath.Base(book), err)
	}
	inWin, err := benchWindows(ctx, bins, book, true, runs)
	if err != nil {
		return fmt.Errorf("bench window, %s opened in the window: %w", filepath.Base(book), err)
	}
	mb := func(b int64) string { return fmt.Sprintf("%.0f MB", float64(b)/(1<<20)) }
	secs := func(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }
	old := func(k int, f func(k int) string, ratio func(k int) float64) string {
		if len(bins) < 2 {
			return ""
		}
		return fmt.Sprintf("%s → %.2f×", f(1), ratio(k))
	}
	dur := func(v []WindowBench, get func(WindowBench) time.Duration) (func(int) string, func(int) float64) {
		return func(k int) string { return secs(get(v[k])) }, func(int) float64 { return float64(get(v[0])) / float64(max(get(v[1]), 1)) }
	}
	tw := tabwriter.NewWriter(stdout, 2, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "Waymark bench window: cold starts under Xvfb, fresh database each, median of %d runs\n", runs)
	fmt.Fprintf(tw, "(load average %s before, %s after: on a loaded machine the wall times stretch; the processor times and the ratios to --ref-bin compare builds)\n", loadBefore, loadAverage())
	if len(bins) > 1 {
		fmt.Fprintf(tw, "(--ref-bin %s ran in turn with this build, run by run: \"old\" is its median, the ratio new/old)\n", o.refBin)
	}
	fmt.Fprintln(tw, "measure\tmedian\told → new/old\ttarget\tresult")
	f, r := dur(sample, func(w WindowBench) time.Duration { return w.FirstPaint })
	fmt.Fprintf(tw, "first paint, sample manuscript\t%s\t%s\t≤ %s\t%s\n", secs(sample[0].FirstPaint), old(0, f, r), secs(targetFirstPaint), verdict(sample[0].FirstPaint <= targetFirstPaint))
	f, r = dur(big, func(w WindowBench) time.Duration { return w.FirstPaint })
	fmt.Fprintf(tw, "open %s to an editable view (cold)\t%s\t%s\t≤ %s\t%s\n", filepath.Base(book), secs(big[0].FirstPaint), old(0, f, r), secs(targetBookOpen), verdict(big[0].FirstPaint <= targetBookOpen))
	f, r = dur(inWin, func(w WindowBench) time.Duration { return w.Opened })
	fmt.Fprintf(tw, "open %s in the running window (Open dialog)\t%s\t%s\t≤ %s\t%s\n", filepath.Base(book), secs(inWin[0].Opened), old(0, f, r), secs(targetBookOpen), verdict(inWin[0].Opened <= targetBookOpen))
	f, r = dur(sample, func(w WindowBench) time.Duration { return w.CPU })
	fmt.Fprintf(tw, "  processor time by the first paint, sample (app + WebKit)\t%s\t%s\t\t\n", secs(sample[0].CPU), old(0, f, r))
	f, r = dur(big, func(w WindowBench) time.Duration { return w.CPU })
	fmt.Fprintf(tw, "  processor time by the first paint, %s\t%s\t%s\t\t\n", filepath.Base(book), secs(big[0].CPU), old(0, f, r))
	pssOld := old(0, func(int) string { return mb(big[1].PSS) }, func(int) float64 { return float64(big[0].PSS) / float64(max(big[1].PSS, 1)) })
	fmt.Fprintf(tw, "memory with it open (PSS, app + WebKit)\t%s\t%s\t≤ %s\t%s\n", mb(big[0].PSS), pssOld, mb(targetPSS), verdict(big[0].PSS <= targetPSS))
	fmt.Fprintf(tw, "  resident (RSS summed; of it the app)\t%s (%s)\tsample %s (%s)\t\t\n", mb(big[0].RSS), mb(big[0].AppRSS), mb(sample[0].RSS), mb(sample[0].AppRSS))
	if floorErr != nil {
		fmt.Fprintf(tw, "(no floor: %v)\n", floorErr)
		return tw.Flush()
	}
	fl := sample[len(sample)-1]
	fmt.Fprintf(tw, "floor: a bare WebKitGTK window, one paragraph (this machine)\t%s\t\t\t%s\n", secs(fl.FirstPaint), floorVerdict(fl.FirstPaint, targetFirstPaint))
	fmt.Fprintf(tw, "  its processor time by the first paint; its memory (PSS)\t%s; %s\t\t\t%s\n", secs(fl.CPU), mb(fl.PSS), floorVerdict(time.Duration(fl.PSS), time.Duration(targetPSS)))
	fmt.Fprintf(tw, "Waymark over the floor: first paint, sample\t+%s\t\t\t\n", secs(sample[0].FirstPaint-fl.FirstPaint))
	fmt.Fprintf(tw, "  processor time by the first paint, sample\t+%s\t\t\t\n", secs(sample[0].CPU-fl.CPU))
	fmt.Fprintf(tw, "  memory with %s open (PSS)\t+%s\t\t\t\n", filepath.Base(book), mb(big[0].PSS-fl.PSS))
	return tw.Flush()
}

// floorVerdict says whether the floor alone leaves room under a target.
func floorVerdict(floor, target time.Duration) string {
	if floor > target {
		return "the floor alone is over its target"
	}
	return ""
}

// floorBinary builds the bench's floor, cmd/waymark-bench/webkitfloor, from
// the repository (it needs WebKitGTK's headers, as the window's build does).
func floorBinary(o options, dir string) (string, error) {
	repo, err := findRepo(o.repo)
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "webkitfloor")
	cmd := exec.Command("go", "build", "-tags", "webkit2_41", "-o", bin, "./cmd/waymark-bench/webkitfloor")
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build the WebKitGTK floor: %v\n%s", err, out)
	}
	return bin, nil
}
