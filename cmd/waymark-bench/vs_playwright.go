package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/waymark/waymark/backend/browser"
)

// playwrightMCP is where build/setup.sh installs Playwright MCP (pinned by
// build/playwright-mcp/package-lock.json).
const playwrightMCP = "build/playwright-mcp/node_modules/@playwright/mcp/cli.js"

// findPlaywrightMCP looks for the installed Playwright MCP at
// $WAYMARK_PLAYWRIGHT_MCP, else in the repository (--repo or found), the
// working directory or beside the product binary (bin/waymark-cli sits one
// folder below the root).
func findPlaywrightMCP(o options) (string, error) {
	if p := os.Getenv("WAYMARK_PLAYWRIGHT_MCP"); p != "" {
		return p, nil
	}
	var roots []string
	if repo, err := findRepo(o.repo); err == nil {
		roots = append(roots, repo)
	}
	if o.bin != "" {
		if abs, err := filepath.Abs(o.bin); err == nil {
			roots = append(roots, filepath.Dir(filepath.Dir(abs)))
		}
	}
	if wd, err := os.Getwd(); err == nil {
		roots = append(roots, wd, filepath.Dir(wd))
	}
	for _, r := range roots {
		p := filepath.Join(r, playwrightMCP)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("Playwright MCP is not installed (looked for %s from %s): run bash build/setup.sh, or set WAYMARK_PLAYWRIGHT_MCP to its cli.js", playwrightMCP, strings.Join(roots, ", "))
}

// mcpClient is one MCP server driven over stdio by the go-sdk client.
type mcpClient struct {
	name string
	cs   *sdk.ClientSession
}

// startPlaywrightMCP starts Playwright MCP on Debian's Chromium (headless,
// isolated, nothing downloaded), its output in a folder of its own; stop
// ends it and removes the folder.
func startPlaywrightMCP(ctx context.Context, pw string) (*mcpClient, func(), error) {
	out, err := os.MkdirTemp("", "waymark-bench-playwright-")
	if err != nil {
		return nil, nil, err
	}
	pcmd := exec.CommandContext(ctx, "node", pw, "--headless", "--isolated", "--no-sandbox", "--executable-path", browser.DefaultBin, "--output-dir", out)
	pcmd.Dir = out
	pcmd.Env = append(os.Environ(), "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1", "PLAYWRIGHT_BROWSERS_PATH=0")
	pm, err := startMCP(ctx, "Playwright MCP", pcmd)
	if err != nil {
		os.RemoveAll(out)
		return nil, nil, err
	}
	return pm, func() {
		pm.cs.Close()
		os.RemoveAll(out)
	}, nil
}

func startMCP(ctx context.Context, name string, cmd *exec.Cmd) (*mcpClient, error) {
	cmd.Stderr = io.Discard
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "waymark-bench", Version: "1"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: could not start its MCP server (%s): %w", name, strings.Join(cmd.Args, " "), err)
	}
	return &mcpClient{name: name, cs: cs}, nil
}

// call calls a tool and returns its text; a tool error is an error.
func (c *mcpClient) call(ctx context.Context, tool string, args map[string]any) (string, error) {
	res, err := c.cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return "", fmt.Errorf("%s %s: %w", c.name, tool, err)
	}
	var b strings.Builder
	for _, ct := range res.Content {
		if t, ok := ct.(*sdk.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	if res.IsError {
		return "", fmt.Errorf("%s %s: %s", c.name, tool, clip(b.String(), 300))
	}
	return b.String(), nil
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// runBenchVsPlaywright measures Waymark and Playwright MCP side by side in
// one run: both are MCP servers (waymark mcp: --bin, else built from the
// repository) started over stdio and driven by the same
// client, on the same loopback pages, with the same Debian Chromium
// (headless). It prints both medians and Waymark's time as a ratio of
// Playwright's.
func runBenchVsPlaywright(ctx context.Context, o options, stdout io.Writer) error {
	runs := o.runs
	pw, err := findPlaywrightMCP(o)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "waymark-bench-bin-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	exe, err := productBinary(o, "sqlite_fts5", dir)
	if err != nil {
		return fmt.Errorf("bench browser --vs-playwright runs waymark mcp: %w", err)
	}
	srv := httptest.NewServer(benchPages())
	defer srv.Close()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()

	wcmd := exec.CommandContext(ctx, exe, "mcp", "--headless")
	wcmd.Env = append(os.Environ(), "WAYMARK_BROWSER_URL=")
	wm, err := startMCP(ctx, "Waymark", wcmd)
	if err != nil {
		return err
	}
	defer wm.cs.Close()
	pm, stop, err := startPlaywrightMCP(ctx, pw)
	if err != nil {
		return err
	}
	defer stop()

	static := srv.URL + "/article?t=kazan"
	links := srv.URL + "/links"
	var failed error
	check := func(err error) {
		if err != nil && failed == nil {
			failed = err
		}
	}
	// Warm both up (browser start, the first pages: each browser compiles
	// its injected scripts and the page's code in its first navigations).
	for i := 0; i < 3; i++ {
		for _, c := range []*mcpClient{wm, pm} {
			if _, err := c.call(ctx, "browser_navigate", map[string]any{"url": static}); err != nil {
				return err
			}
		}
	}
	var rows []vsRow
	// Plain navigation of a small static page, the two systems in turn run
	// by run, so that a moment of load on the machine falls on both.
	nav := interleaved(runs, func() time.Duration {
		return timed(func() error { _, err := wm.call(ctx, "browser_navigate", map[string]any{"url": static}); return err }, check)
	}, func() time.Duration {
		return timed(func() error { _, err := pm.call(ctx, "browser_navigate", map[string]any{"url": static}); return err }, check)
	})
	rows = append(rows, vsRow{what: "plain navigation, static page", m: nav, target: "≤ 1×", limit: 1})
	form := formList(ctx, wm, pm, srv.URL+"/form", runs, check)
	rows = append(rows, vsRow{what: "whole list of a small form page (fresh page) / snapshot", m: form, target: "≤ 0.5×", limit: 0.5})
	lr := linkLists(ctx, wm, pm, links, runs, check)
	if failed != nil {
		return failed
	}
	snapP := lr.all.p
	rows = append(rows,
		vsRow{what: "whole list of 5,000 links (10 pages of 500, fresh page) / snapshot (fresh page)", m: lr.all, target: "≤ 0.5×", limit: 0.5},
		vsRow{what: "first 50 of 5,000 links (numbering taken) / snapshot", m: pairs{w: lr.firstW, p: snapP}, target: "≤ 50 ms", within: 50 * time.Millisecond},
		vsRow{what: "first 50 of 5,000 links (page not numbered yet) / snapshot", m: pairs{w: lr.firstFresh, p: snapP}, target: "≤ 50 ms", within: 50 * time.Millisecond},
	)
	fmt.Fprintf(stdout, "Waymark vs Playwright MCP (%s), both over MCP stdio, headless %s, loopback pages, %d runs each, the two in turn run by run\n", playwrightVersion(pw), browser.DefaultBin, runs)
	if err := printVsRows(stdout, rows); err != nil {
		return err
	}
	// Where the time of the two whole lists goes, phase by phase, measured
	// after the side by side (two browsers of Waymark's never run at once).
	wm.cs.Close()
	stop()
	var pages []map[string]any
	for off := 0; off < 5000; off += 500 {
		pages = append(pages, map[string]any{"limit": 500, "offset": off})
	}
	fmt.Fprintln(stdout)
	return runPhases(ctx, stdout, []phaseList{
		{name: "5,000 links, 10 × 500", url: links, windows: pages, mcp: mid(append([]time.Duration(nil), lr.all.w...))},
		{name: "small form page", url: srv.URL + "/form", windows: []map[string]any{{}}, mcp: mid(append([]time.Duration(nil), form.w...))},
	}, runs)
}

// pairs are one measure's durations, Waymark's and Playwright's, taken in
// turn run by run in one process.
type pairs struct{ w, p []time.Duration }

// interleaved runs the two systems' measures runs times in turn, the one
// that goes first changing run by run (the second one runs on a machine
// the first just warmed or loaded: neither always is).
func interleaved(runs int, w, p func() time.Duration) pairs {
	var m pairs
	for i := 0; i < runs; i++ {
		if i%2 == 0 {
			m.w = append(m.w, w())
			m.p = append(m.p, p())
		} else {
			m.p = append(m.p, p())
			m.w = append(m.w, w())
		}
	}
	return m
}

// timed times fn, its error to check.
func timed(fn func() error, check func(error)) time.Duration {
	t0 := time.Now()
	err := fn()
	d := time.Since(t0)
	check(err)
	return d
}

// vsRow is one row of the side-by-side table: a ratio target (limit: at
// most that many times Playwright's median) or a time target (within).
type vsRow struct {
	what   string
	m      pairs
	target string
	limit  float64
	within time.Duration
}

// spread is a sample's median and range: "12.3 ms (10.1–15.0)".
func spread(ds []time.Duration) string {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	f := func(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d.Microseconds())/1000) }
	return fmt.Sprintf("%s ms (%s–%s)", f(s[len(s)/2]), f(s[0]), f(s[len(s)-1]))
}

// printVsRows prints the table: each system's median and range, the ratio
// of the medians, the range of the run-by-run ratios (a row of a ratio
// target) and whether the median meets the target.
func printVsRows(stdout io.Writer, rows []vsRow) error {
	tw := tabwriter.NewWriter(stdout, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "measure\tWaymark: median (min–max)\tPlaywright MCP: median (min–max)\tratio of medians\trun by run\ttarget\tresult")
	for _, r := range rows {
		w, p := mid(append([]time.Duration(nil), r.m.w...)), mid(append([]time.Duration(nil), r.m.p...))
		ratio := float64(w) / float64(p)
		ok, byRun := w <= r.within, ""
		if r.limit > 0 {
			ok = ratio <= r.limit
			lo, hi, under := 0.0, 0.0, 0
			for i := range r.m.w {
				q := float64(r.m.w[i]) / float64(r.m.p[i])
				if i == 0 || q < lo {
					lo = q
				}
				hi = max(hi, q)
				if q <= r.limit {
					under++
				}
			}
			byRun = fmt.Sprintf("%.2f–%.2f×, %d of %d ≤ %g×", lo, hi, under, len(r.m.w), r.limit)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.2f×\t%s\t%s\t%s\n", r.what, spread(r.m.w), spread(r.m.p), ratio, byRun, r.target, verdict(ok))
	}
	return tw.Flush()
}

// formList times Waymark's whole list of a small form page against
// Playwright's snapshot of it, each on a page fresh each run (navigated,
// not yet numbered or snapshotted; the navigation is not timed), in turn
// run by run.
func formList(ctx context.Context, wm, pm *mcpClient, form string, runs int, check func(error)) pairs {
	fresh := func(c *mcpClient, tool string) time.Duration {
		_, err := c.call(ctx, "browser_navigate", map[string]any{"url": form})
		check(err)
		t0 := time.Now()
		out, err := c.call(ctx, tool, map[string]any{})
		d := time.Since(t0)
		check(err)
		if err == nil && !strings.Contains(out, "Send me the newsletter") {
			check(fmt.Errorf("%s's %s of the form page does not hold its last field", c.name, tool))
		}
		return d
	}
	return interleaved(runs, func() time.Duration { return fresh(wm, "browser_list_interactives") },
		func() time.Duration { return fresh(pm, "browser_snapshot") })
}

// linkRows are the 5,000-link page's figures.
type linkRows struct {
	all                pairs
	firstW, firstFresh []time.Duration
}

// linkLists times the 5,000-link page: Waymark's whole list in pages of
// 500 (limit/offset) against Playwright's whole snapshot, each from a page
// fresh each run (navigated, not yet numbered or snapshotted; the
// navigation is not timed), in turn run by run; and Waymark's first 50
// (numbering taken, and not yet).
func linkLists(ctx context.Context, wm, pm *mcpClient, links string, runs int, check func(error)) linkRows {
	var r linkRows
	navigate := func(c *mcpClient) {
		_, err := c.call(ctx, "browser_navigate", map[string]any{"url": links})
		check(err)
	}
	r.all = interleaved(runs, func() time.Duration {
		navigate(wm)
		t0 := time.Now()
		for off := 0; off < 5000; off += 500 {
			out, err := wm.call(ctx, "browser_list_interactives", map[string]any{"limit": 500, "offset": off})
			check(err)
			if err == nil && off == 4500 && !strings.Contains(out, "Article number 5000") {
				check(errors.New("Waymark's last page of 500 does not hold the 5,000th link"))
			}
		}
		return time.Since(t0)
	}, func() time.Duration {
		navigate(pm)
		t0 := time.Now()
		out, err := pm.call(ctx, "browser_snapshot", map[string]any{})
		d := time.Since(t0)
		check(err)
		if err == nil && !strings.Contains(out, "Article number 5000") {
			check(errors.New("Playwright MCP's snapshot does not hold the 5,000th link"))
		}
		return d
	})
	for i := 0; i < runs; i++ {
		t0 := time.Now()
		_, err := wm.call(ctx, "browser_list_interactives", map[string]any{"limit": 50})
		r.firstW = append(r.firstW, time.Since(t0))
		check(err)
	}
	// The first 50 on a page not numbered yet: navigate, then time the list.
	for i := 0; i < runs; i++ {
		navigate(wm)
		t0 := time.Now()
		_, err := wm.call(ctx, "browser_list_interactives", map[string]any{"limit": 50})
		r.firstFresh = append(r.firstFresh, time.Since(t0))
		check(err)
	}
	return r
}

// playwrightVersion reads the version of the installed @playwright/mcp.
func playwrightVersion(cli string) string {
	b, err := os.ReadFile(filepath.Join(filepath.Dir(cli), "package.json"))
	if err != nil {
		return "@playwright/mcp"
	}
	s := string(b)
	if i := strings.Index(s, `"version"`); i >= 0 {
		rest := s[i+len(`"version"`):]
		if j := strings.Index(rest, `"`); j >= 0 {
			rest = rest[j+1:]
			if k := strings.Index(rest, `"`); k >= 0 {
				return "@playwright/mcp " + rest[:k]
			}
		}
	}
	return "@playwright/mcp"
}
