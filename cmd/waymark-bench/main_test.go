package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/waymark/waymark/backend/testenv"
)

// A command-line mistake is exit status 2 with what was wrong and what is
// allowed; nothing runs.
func TestBenchCommandLine(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--vs-playwright"}, "--vs-playwright goes with browser"},
		{[]string{"window", "--vs-playwright"}, "--vs-playwright goes with browser"},
		{[]string{"browser", "--ref-bin", "/bin/true"}, "--ref-bin goes with window"},
		{[]string{"browser", "--runs", "0"}, "--runs 0: give a whole number from 1 to 1000"},
		{[]string{"--runs", "x"}, `invalid value "x" for flag -runs`},
		{[]string{"browsr"}, `unknown bench "browsr": the benches are waymark-bench, waymark-bench browser, waymark-bench window, waymark-bench cli, waymark-bench pdf and waymark-bench tasks`},
		{[]string{"browser", "window"}, `one bench at a time, not "browser window"`},
		{[]string{"--bok", "x.md"}, "flag provided but not defined: -bok"},
	} {
		var out, errb bytes.Buffer
		if code := run(context.Background(), c.args, &out, &errb); code != 2 || !strings.Contains(errb.String(), c.want) || !strings.Contains(errb.String(), "Usage:") {
			t.Errorf("%q: exit %d, want 2 with %q and the usage:\n%s", c.args, code, c.want, errb.String())
		}
	}
}

// The repository and the default book are found from another folder, by
// this command's own source; a wrong --repo, a missing --bin and a missing
// book are errors naming the flag that fixes them.
func TestBenchFindsRepoFromAnywhere(t *testing.T) {
	want, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	repo, err := findRepo("")
	if err != nil || repo != want {
		t.Fatalf("findRepo from %s: %q, %v; want %q", os.TempDir(), repo, err, want)
	}
	if _, err := findRepo(os.TempDir()); err == nil || !strings.Contains(err.Error(), "--repo "+os.TempDir()+" is not the Waymark repository") {
		t.Errorf("--repo elsewhere: %v", err)
	}
	book, err := findBook(options{})
	if _, statErr := os.Stat(filepath.Join(want, corpusBook)); statErr == nil {
		if err != nil || book != filepath.Clean(filepath.Join(want, corpusBook)) {
			t.Errorf("default book: %q, %v", book, err)
		}
	} else if err == nil || !strings.Contains(err.Error(), "give --book PATH") {
		t.Errorf("default book without the corpus: %v", err)
	}
	if _, err := productBinary(options{bin: "missing/waymark"}, "sqlite_fts5", t.TempDir()); err == nil || !strings.HasPrefix(err.Error(), "--bin: ") {
		t.Errorf("missing --bin: %v", err)
	}
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"--book", "missing.md", "--runs", "1"}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "read the book (--book PATH)") {
		t.Errorf("missing --book: exit %d: %s", code, errb.String())
	}
}

// The manuscript bench prints a row per measure, each with its target and a
// verdict, on a small book given with --book.
func TestBenchManuscript(t *testing.T) {
	dir := t.TempDir()
	book := filepath.Join(dir, "book.md")
	var b strings.Builder
	for i := 0; i < 200; i++ {
		b.WriteString("## Chapter\n\nNatasha came in. Бородино was far.\n\n")
	}
	if err := os.WriteFile(book, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"--book", book, "--runs", "1"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s%s", code, errb.String(), out.String())
	}
	for _, want := range []string{"Waymark bench: book.md", "open (parse + linearise)", "goldmark parse", "×", "ReplaceText mid-book", "atomic save", "database growth, 100 keystroke saves", "call RunCursorAgent FirstMatch (open + run)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in:\n%s", want, out.String())
		}
	}
}

// TestBenchVsPlaywright runs the side-by-side bench once, as a built
// waymark-bench from another folder: Playwright MCP (installed by
// build/setup.sh into build/playwright-mcp) and `waymark mcp` (built from the
// repository it finds), both driven over stdio; every row has both systems'
// figures and a ratio.
func TestBenchVsPlaywright(t *testing.T) {
	testenv.SkipSweepInShortMode(t)
	pw, _ := filepath.Abs(filepath.Join("..", "..", playwrightMCP))
	if _, err := os.Stat(pw); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("Playwright MCP is not installed (%v); build/setup.sh installs it", err)
		}
		t.Skipf("PLAYWRIGHT MCP BENCH TEST SKIPPED: %s is absent; run bash build/setup.sh", pw)
	}
	dir := t.TempDir()
	bench := filepath.Join(dir, "waymark-bench")
	if out, err := exec.Command("go", "build", "-tags", "sqlite_fts5", "-o", bench, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bench, "browser", "--vs-playwright", "--runs", "1")
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("bench: %v\n%s%s", err, stderr.String(), stdout.String())
	}
	text := stdout.String()
	for _, want := range []string{"@playwright/mcp 0.0.83", "plain navigation, static page", "whole list of a small form page", "whole list of 5,000 links", "first 50 of 5,000 links (numbering taken)"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
	rows := 0
	for _, l := range strings.Split(text, "\n") {
		if strings.Count(l, " ms") >= 2 && strings.Contains(l, "×") {
			rows++
		}
	}
	if rows != 5 {
		t.Errorf("%d rows with both figures and a ratio:\n%s", rows, text)
	}
	if _, err := os.Stat(filepath.Join(dir, ".playwright-mcp")); err == nil {
		t.Errorf("Playwright MCP wrote its output into the working directory")
	}
	t.Logf("\n%s", text)
}

// TestBenchCLI runs the CLI bench on a small book with a waymark built from
// the repository: a row for the warm call against grep, with a ratio.
func TestBenchCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds waymark")
	}
	dir := t.TempDir()
	book := filepath.Join(dir, "book.md")
	if err := os.WriteFile(book, []byte("# Book\n\nNatasha came in.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"cli", "--book", book, "--runs", "1"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s%s", code, errb.String(), out.String())
	}
	for _, want := range []string{"Waymark bench cli: book.md", "warm `waymark call Find` (wall)", "grep -c -i -F", "×", "`waymark --version`"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in:\n%s", want, out.String())
		}
	}
	// The index cache after 100 outside edits: a row a book, no stale answer.
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`index cache rows after 100 same-size edits, mtime put back +2 +2 books .* ok`),
		regexp.MustCompile(`Find answers from a stale index in those edits +0 .* ok`),
	} {
		if !want.MatchString(out.String()) {
			t.Errorf("no %s in:\n%s", want, out.String())
		}
	}
	t.Logf("\n%s", out.String())
}
