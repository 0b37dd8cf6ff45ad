package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"text/tabwriter"
	"time"
)

// cliRun is one whole process: its wall time and the CPU it used.
type cliRun struct{ wall, cpu time.Duration }

// runOnce runs a command to its end, its output discarded.
func runOnce(ctx context.Context, dir string, name string, args ...string) (cliRun, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	var out limitedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	t := time.Now()
	err := cmd.Run()
	wall := time.Since(t)
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && name == "grep") { // grep -c exits 1 on no match
		return cliRun{}, fmt.Errorf("%s: %v\n%s", name, err, out.b)
	}
	return cliRun{wall: wall, cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}, nil
}

// limitedBuffer keeps the first 4 KB of a command's output, for its error.
type limitedBuffer struct{ b []byte }

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := 4096 - len(l.b); room > 0 {
		l.b = append(l.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

// runBenchCLI measures a warm `waymark call Find` on the book, as a whole
// process, against `grep -c -i -F` of the same phrase on the same file, run
// alternately (issue 25, point 5: at most 1.5× grep). The first call caches
// the book's parsed index; the measured ones find it valid by the file's size,
// modification time, inode and status-change time, so they neither parse nor
// hash the book nor write to the database.
func runBenchCLI(ctx context.Context, o options, stdout io.Writer) error {
	book, err := findBook(o)
	if err != nil {
		return fmt.Errorf("bench cli: %w", err)
	}
	if _, err := exec.LookPath("grep"); err != nil {
		return fmt.Errorf("bench cli: the reference is grep, which is not on PATH")
	}
	dir, err := os.MkdirTemp("", "waymark-bench-cli-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	bin, err := productBinary(o, "sqlite_fts5", dir)
	if err != nil {
		return fmt.Errorf("bench cli: %w", err)
	}
	src, err := os.ReadFile(book)
	if err != nil {
		return fmt.Errorf("bench cli: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "book.md"), src, 0o644); err != nil {
		return err
	}
	phrase := "Наташа"
	if filepath.Ext(book) == ".md" && !containsCyrillic(src[:min(len(src), 4096)]) {
		phrase = "Natasha"
	}
	call := []string{"call", "--doc", "book.md", "--db", "bench.db", "Find", fmt.Sprintf(`{"query":%q}`, phrase)}
	grep := []string{"-c", "-i", "-F", phrase, "book.md"}
	if _, err := runOnce(ctx, dir, bin, call...); err != nil { // cold: records the book, caches its index
		return fmt.Errorf("bench cli, first call: %w", err)
	}
	runs := max(o.runs, 10)
	var wCall, wGrep, cCall, cGrep []time.Duration
	for i := 0; i < runs+2; i++ {
		a, err := runOnce(ctx, dir, bin, call...)
		if err != nil {
			return fmt.Errorf("bench cli: %w", err)
		}
		g, err := runOnce(ctx, dir, "grep", grep...)
		if err != nil {
			return fmt.Errorf("bench cli: %w", err)
		}
		if i < 2 {
			continue // warm-up
		}
		wCall, wGrep, cCall, cGrep = append(wCall, a.wall), append(wGrep, g.wall), append(cCall, a.cpu), append(cGrep, g.cpu)
	}
	mc, mg := mid(wCall), mid(wGrep)
	cc, cg := mid(cCall), mid(cGrep)
	ratio := float64(mc) / float64(mg)
	tw := tabwriter.NewWriter(stdout, 2, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "Waymark bench cli: %s (%d bytes), whole processes run alternately, median of %d runs\n", filepath.Base(book), len(src), runs)
	fmt.Fprintln(tw, "measure\tmedian\treference / ratio\ttarget\tresult")
	fmt.Fprintf(tw, "warm `waymark call Find` (wall)\t%s\tgrep -c -i -F %s → %.2f×\t≤ 1.5×\t%s\n", ms(mc), ms(mg), ratio, verdict(ratio <= 1.5))
	fmt.Fprintf(tw, "  the same, CPU (user + system)\t%s\tgrep %s → %.2f×\t\t\n", ms(cc), ms(cg), float64(cc)/float64(max(cg, time.Microsecond)))
	return tw.Flush()
}

func containsCyrillic(b []byte) bool {
	for _, r := range string(b) {
		if r >= 'А' && r <= 'я' {
			return true
		}
	}
	return false
}
