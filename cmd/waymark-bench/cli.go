package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"text/tabwriter"
	"time"
)

// cliRun is one whole process: its wall time and the CPU it used.
type cliRun struct{ wall, cpu time.Duration }

// runOnce runs a command to its end, its output discarded.
func runOnce(ctx context.Context, dir string, name string, args ...string) (cliRun, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	if name == "grep" {
		// The reference does Find's job: case-insensitive over Cyrillic. In
		// the C or POSIX locale (or a UTF-8 one that is not installed, which
		// falls back to C) grep -i compares bytes, does not fold «Н» to «н»,
		// and is about 4× faster here: the ratio would measure another job.
		cmd.Env = append(os.Environ(), "LC_ALL=C.UTF-8")
	}
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
// alternately (issue 25, point 5: at most 1.5× grep), with `waymark
// --version` beside them: the part no call can save. The first call caches
// the book's parsed index; the measured ones read and hash the book, find
// the index made for those bytes, and neither parse nor write. Then
// cacheAfterEdits checks the cache over 100 outside edits.
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
	var wCall, wGrep, wStart, cCall, cGrep, cStart []time.Duration
	for i := 0; i < runs+2; i++ {
		a, err := runOnce(ctx, dir, bin, call...)
		if err != nil {
			return fmt.Errorf("bench cli: %w", err)
		}
		g, err := runOnce(ctx, dir, "grep", grep...)
		if err != nil {
			return fmt.Errorf("bench cli: %w", err)
		}
		v, err := runOnce(ctx, dir, bin, "--version")
		if err != nil {
			return fmt.Errorf("bench cli: %w", err)
		}
		if i < 2 {
			continue // warm-up
		}
		wCall, wGrep, wStart = append(wCall, a.wall), append(wGrep, g.wall), append(wStart, v.wall)
		cCall, cGrep, cStart = append(cCall, a.cpu), append(cGrep, g.cpu), append(cStart, v.cpu)
	}
	mc, mg, mv := mid(wCall), mid(wGrep), mid(wStart)
	cc, cg, cv := mid(cCall), mid(cGrep), mid(cStart)
	ratio := float64(mc) / float64(mg)
	cpuRatio := func(d time.Duration) float64 { return float64(d) / float64(max(cg, time.Microsecond)) }
	rows, books, stale, err := cacheAfterEdits(ctx, dir, bin, src, phrase, cacheEdits)
	if err != nil {
		return fmt.Errorf("bench cli: %w", err)
	}
	tw := tabwriter.NewWriter(stdout, 2, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "Waymark bench cli: %s (%d bytes), whole processes run alternately, median of %d runs\n", filepath.Base(book), len(src), runs)
	fmt.Fprintln(tw, "measure\tmedian\treference / ratio\ttarget\tresult")
	fmt.Fprintf(tw, "warm `waymark call Find` (wall)\t%s\tgrep -c -i -F %s → %.2f×\t≤ 1.5×\t%s\n", ms(mc), ms(mg), ratio, verdict(ratio <= 1.5))
	fmt.Fprintf(tw, "  the same, CPU (user + system)\t%s\tgrep %s → %.2f×\t\t\n", ms(cc), ms(cg), cpuRatio(cc))
	fmt.Fprintf(tw, "  of which the binary's start (`waymark --version`)\t%s\tgrep %s → %.2f× (CPU %.2f×)\t\t\n", ms(mv), ms(mg), float64(mv)/float64(mg), cpuRatio(cv))
	fmt.Fprintf(tw, "index cache rows after %d same-size edits, mtime put back\t%d\t%d books\t≤ 1 a book\t%s\n", cacheEdits, rows, books, verdict(rows <= books))
	fmt.Fprintf(tw, "  Find answers from a stale index in those edits\t%d\t\t0\t%s\n", stale, verdict(stale == 0))
	return tw.Flush()
}

// cacheEdits is how many outside edits cacheAfterEdits makes.
const cacheEdits = 100

// cacheAfterEdits changes the book as another program would, edits times:
// each time the first occurrence of phrase (or of a word, if the book does
// not have it byte for byte) becomes a number of the same
// length in bytes (the edit's), and the file gets its old modification time
// back. After each, a `waymark call Find` of the number must find it once
// (a stale index would not). It returns the rows of the index cache after
// (the measured book's and the edited one's: one per book, however many
// versions), the books in the database, and how many Finds missed their
// edit.
func cacheAfterEdits(ctx context.Context, dir, bin string, src []byte, phrase string, edits int) (rows, books, stale int, err error) {
	doc := filepath.Join(dir, "edited.md")
	at := bytes.Index(src, []byte(phrase))
	if at < 0 { // the English book spells it Natásha: any word will do
		loc := regexp.MustCompile(`[A-Za-z]{5,}`).FindIndex(src)
		if loc == nil {
			return 0, 0, 0, fmt.Errorf("the book has neither %q nor a word of five Latin letters to edit", phrase)
		}
		at, phrase = loc[0], string(src[loc[0]:loc[1]])
	}
	text := bytes.Clone(src)
	if err := os.WriteFile(doc, text, 0o644); err != nil {
		return 0, 0, 0, err
	}
	fi, err := os.Stat(doc)
	if err != nil {
		return 0, 0, 0, err
	}
	for k := 1; k <= edits; k++ {
		mark := fmt.Sprintf("%0*d", len(phrase), k)
		copy(text[at:], mark)
		if err := os.WriteFile(doc, text, 0o644); err != nil {
			return 0, 0, 0, err
		}
		if err := os.Chtimes(doc, fi.ModTime(), fi.ModTime()); err != nil {
			return 0, 0, 0, err
		}
		cmd := exec.CommandContext(ctx, bin, "call", "--doc", doc, "--db", "bench.db", "Find",
			fmt.Sprintf(`{"query":%q,"exact":true,"all":true}`, mark))
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			return 0, 0, 0, fmt.Errorf("Find after edit %d: %v\n%s", k, err, out)
		}
		var res struct{ Count int }
		if err := json.Unmarshal(out, &res); err != nil {
			return 0, 0, 0, fmt.Errorf("Find after edit %d: %v\n%s", k, err, out)
		}
		if res.Count != 1 {
			stale++
		}
	}
	db, err := sql.Open("sqlite3", filepath.Join(dir, "bench.db"))
	if err != nil {
		return 0, 0, 0, err
	}
	defer db.Close()
	err = db.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM document_cache), (SELECT COUNT(*) FROM documents)`).Scan(&rows, &books)
	return rows, books, stale, err
}

func containsCyrillic(b []byte) bool {
	for _, r := range string(b) {
		if r >= 'А' && r <= 'я' {
			return true
		}
	}
	return false
}
