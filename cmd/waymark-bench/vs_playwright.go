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
	type row struct {
		what   string
		w, p   time.Duration
		target string
		ok     bool
	}
	var rows []row
	// Plain navigation of a small static page, alternating the two systems
	// run by run, so that a moment of load on the machine falls on both.
	var navWs, navPs []time.Duration
	for i := 0; i < runs; i++ {
		for _, m := range []struct {
			c  *mcpClient
			ds *[]time.Duration
		}{{wm, &navWs}, {pm, &navPs}} {
			t0 := time.Now()
			_, err := m.c.call(ctx, "browser_navigate", map[string]any{"url": static})
			check(err)
			*m.ds = append(*m.ds, time.Since(t0))
		}
	}
	navW, navP := mid(navWs), mid(navPs)
	rows = append(rows, row{"plain navigation, static page", navW, navP, "≤ 1×", navW <= navP})

	formW, formP := formList(ctx, wm, pm, srv.URL+"/form", runs, check)
	rows = append(rows, row{"whole list of a small form page (fresh page) / snapshot", formW, formP, "≤ 0.5×", formW*2 <= formP})
	lr, err := linkLists(ctx, wm, pm, links, runs, check)
	if err != nil {
		return err
	}
	if failed != nil {
		return failed
	}
	rows = append(rows,
		row{"whole list of 5,000 links (10 pages of 500, fresh page) / snapshot", lr.allW, lr.snapP, "≤ 0.5×", lr.allW*2 <= lr.snapP},
		row{"first 50 of 5,000 links (numbering taken) / snapshot", lr.firstW, lr.snapP, "≤ 50 ms", lr.firstW <= 50*time.Millisecond},
		row{"first 50 of 5,000 links (page not numbered yet) / snapshot", lr.firstFresh, lr.snapP, "≤ 50 ms", lr.firstFresh <= 50*time.Millisecond},
	)

	tw := tabwriter.NewWriter(stdout, 2, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "Waymark vs Playwright MCP (%s), both over MCP stdio, headless %s, loopback pages, median of %d runs\n", playwrightVersion(pw), browser.DefaultBin, runs)
	fmt.Fprintln(tw, "measure\tWaymark\tPlaywright MCP\tratio\ttarget\tresult")
	for _, r := range rows {
		v := "ok"
		if !r.ok {
			v = "OVER TARGET"
		}
		if r.target == "" {
			v = ""
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.2f×\t%s\t%s\n", r.what, ms(r.w), ms(r.p), float64(r.w)/float64(r.p), r.target, v)
	}
	return tw.Flush()
}

// formList times Waymark's whole list of a small form page against
// Playwright's snapshot of it, each on a page fresh each run (navigated,
// not yet numbered or snapshotted; the navigation is not timed),
// alternating run by run.
func formList(ctx context.Context, wm, pm *mcpClient, form string, runs int, check func(error)) (w, p time.Duration) {
	var formWs, formPs []time.Duration
	for i := 0; i < runs; i++ {
		for _, m := range []struct {
			c    *mcpClient
			tool string
			ds   *[]time.Duration
		}{{wm, "browser_list_interactives", &formWs}, {pm, "browser_snapshot", &formPs}} {
			_, err := m.c.call(ctx, "browser_navigate", map[string]any{"url": form})
			check(err)
			t0 := time.Now()
			out, err := m.c.call(ctx, m.tool, map[string]any{})
			*m.ds = append(*m.ds, time.Since(t0))
			check(err)
			if err == nil && !strings.Contains(out, "Send me the newsletter") {
				check(fmt.Errorf("%s's %s of the form page does not hold its last field", m.c.name, m.tool))
			}
		}
	}
	return mid(formWs), mid(formPs)
}

// linkRows are the 5,000-link page's figures.
type linkRows struct{ snapP, allW, firstW, firstFresh time.Duration }

// linkLists times the 5,000-link page: Playwright's whole snapshot against
// Waymark's whole list in pages of 500 (limit/offset) from a page not
// numbered yet, and the first 50 (numbering taken, and not yet).
func linkLists(ctx context.Context, wm, pm *mcpClient, links string, runs int, check func(error)) (linkRows, error) {
	var r linkRows
	for _, c := range []*mcpClient{wm, pm} {
		if _, err := c.call(ctx, "browser_navigate", map[string]any{"url": links}); err != nil {
			return r, err
		}
	}
	r.snapP = median(runs, func() {
		out, err := pm.call(ctx, "browser_snapshot", map[string]any{})
		check(err)
		if err == nil && !strings.Contains(out, "Article number 5000") {
			check(errors.New("Playwright MCP's snapshot does not hold the 5,000th link"))
		}
	})
	listAll := func() {
		for off := 0; off < 5000; off += 500 {
			out, err := wm.call(ctx, "browser_list_interactives", map[string]any{"limit": 500, "offset": off})
			check(err)
			if err == nil && off == 4500 && !strings.Contains(out, "Article number 5000") {
				check(errors.New("Waymark's last page of 500 does not hold the 5,000th link"))
			}
		}
	}
	// Each run from a page not numbered yet: the first window walks it.
	var alls []time.Duration
	for i := 0; i < runs; i++ {
		_, err := wm.call(ctx, "browser_navigate", map[string]any{"url": links})
		check(err)
		t0 := time.Now()
		listAll()
		alls = append(alls, time.Since(t0))
	}
	r.allW = mid(alls)
	r.firstW = median(runs, func() {
		_, err := wm.call(ctx, "browser_list_interactives", map[string]any{"limit": 50})
		check(err)
	})
	// The first 50 on a page not numbered yet: navigate, then time the list.
	var fresh []time.Duration
	for i := 0; i < runs; i++ {
		_, err := wm.call(ctx, "browser_navigate", map[string]any{"url": links})
		check(err)
		t0 := time.Now()
		_, err = wm.call(ctx, "browser_list_interactives", map[string]any{"limit": 50})
		check(err)
		fresh = append(fresh, time.Since(t0))
	}
	r.firstFresh = mid(fresh)
	return r, nil
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
