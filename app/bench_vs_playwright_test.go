package main

import (
	"bytes"
	"context"
	"github.com/waymark/waymark/backend/testenv"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// --vs-playwright belongs to bench browser only.
func TestBenchVsPlaywrightFlag(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"bench", "--vs-playwright"}, strings.NewReader(""), &out, &errb); code != 2 || !strings.Contains(errb.String(), "--vs-playwright goes with bench browser") {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
}

// TestBenchVsPlaywright runs the side-by-side bench once: Playwright MCP
// (installed by build/setup.sh into build/playwright-mcp) and `waymark mcp`,
// both driven over stdio; every row has both systems' figures and a ratio.
func TestBenchVsPlaywright(t *testing.T) {
	testenv.SkipSweepInShortMode(t)
	cli, _ := filepath.Abs(filepath.Join("..", playwrightMCP))
	if _, err := os.Stat(cli); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("Playwright MCP is not installed (%v); build/setup.sh installs it", err)
		}
		t.Skipf("PLAYWRIGHT MCP BENCH TEST SKIPPED: %s is absent; run bash build/setup.sh", cli)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "waymark")
	if out, err := exec.Command("go", "build", "-tags", "sqlite_fts5", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "bench", "browser", "--vs-playwright", "--runs", "1")
	cmd.Env = append(os.Environ(), "WAYMARK_PLAYWRIGHT_MCP="+cli)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bench: %v\n%s", err, out)
	}
	text := string(out)
	for _, want := range []string{"@playwright/mcp 0.0.83", "plain navigation, static page", "whole list of 5,000 links", "first 50 of 5,000 links (numbering taken)"} {
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
	if rows != 4 {
		t.Errorf("%d rows with both figures and a ratio:\n%s", rows, text)
	}
	if _, err := os.Stat(filepath.Join(dir, ".playwright-mcp")); err == nil {
		t.Errorf("Playwright MCP wrote its output into the working directory")
	}
	t.Logf("\n%s", text)
}
