package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark/waymark/backend/browser"
	mcpserver "github.com/waymark/waymark/backend/mcp"
	"github.com/waymark/waymark/backend/tools"
	"github.com/waymark/waymark/backend/waymark"
)

// phaseList is one list measured phase by phase: a page, fresh each run
// (navigated, not timed), then windows of the list, as the side-by-side
// measure calls them.
type phaseList struct {
	name    string
	url     string
	windows []map[string]any
	mcp     time.Duration // Waymark's median over MCP in the side-by-side measure
}

// phaseRows are the breakdown's rows: a label, and what it adds up from a
// run's phases (ms of its own where the product records none).
var phaseRows = []struct {
	label string
	of    func(p *browser.Phases, r phaseRun) time.Duration
}{
	{"wait for a loading page", get(browser.PhaseWait)},
	{"banner pass (first list on a host)", get(browser.PhaseBanners)},
	{"CDP: round trips and transfer (calls into the page less the page's own time)", func(p *browser.Phases, _ phaseRun) time.Duration {
		return max(0, p.D[browser.PhaseLook]-p.D[browser.PhaseJSTotal])
	}},
	{"in the page: tree walk and candidate tests", get(browser.PhaseJSWalk)},
	{"in the page: geometry, visibility, cover", get(browser.PhaseJSGeom)},
	{"in the page: labels, role, value, href, row", get(browser.PhaseJSLabels)},
	{"in the page: joining the rows into one string", get(browser.PhaseJSJoin)},
	{"Go: decoding the page's answers", get(browser.PhaseDecode)},
	{"Go: numbering the items", get(browser.PhaseItems)},
	{"frames: finding and entering them", get(browser.PhaseFrames)},
	{"drawing the overlay", get(browser.PhaseOverlay)},
	{"the rest of the tool (registry, the session's liveness check, locks, the answer's struct)", func(p *browser.Phases, r phaseRun) time.Duration {
		known := p.D[browser.PhaseLook] + p.D[browser.PhaseWait] + p.D[browser.PhaseBanners] + p.D[browser.PhaseDecode] +
			p.D[browser.PhaseItems] + p.D[browser.PhaseFrames] + p.D[browser.PhaseOverlay]
		return max(0, r.tool-known)
	}},
	{"the MCP door's replies (the answers' JSON and readable text: mcp.Reply)", func(_ *browser.Phases, r phaseRun) time.Duration { return r.marshal }},
	{"MCP: the go-sdk's encoding of the answers and the client's decoding (in memory)", func(_ *browser.Phases, r phaseRun) time.Duration { return r.sdk }},
}

func get(name string) func(*browser.Phases, phaseRun) time.Duration {
	return func(p *browser.Phases, _ phaseRun) time.Duration { return p.D[name] }
}

// phaseRun is one run of a phaseList: the phases the product recorded, the
// tool's time and the door's encoding of its answers.
type phaseRun struct {
	p                  *browser.Phases
	tool, marshal, sdk time.Duration
}

// measurePhases runs l runs times through a registry in this process, the
// calls as the MCP door makes them (tools.Registry.Call, then mcp.Reply of
// the answer), with browser.Phases in their context.
func measurePhases(ctx context.Context, reg *tools.Registry, l phaseList, runs int) ([]phaseRun, error) {
	var out []phaseRun
	for i := 0; i < runs; i++ {
		nav, err := browser.NavigateRef.Call(ctx, reg, browser.NavigateArgs{URL: l.url})
		if err != nil {
			return nil, err
		}
		if msg, failed := nav.Failed(); failed {
			return nil, fmt.Errorf("%s: browser_navigate: %s", l.name, msg)
		}
		r := phaseRun{p: new(browser.Phases)}
		pctx := context.WithValue(ctx, browser.PhasesKey{}, r.p)
		var replies []*sdk.CallToolResult
		for _, w := range l.windows {
			args, _ := json.Marshal(w)
			t0 := time.Now()
			res, err := reg.Call(pctx, tools.Call{Name: "browser_list_interactives", Args: args}, tools.Context{})
			r.tool += time.Since(t0)
			if err != nil {
				return nil, err
			}
			t1 := time.Now()
			rep, err := mcpserver.Reply(res)
			if err != nil {
				return nil, err
			}
			r.marshal += time.Since(t1)
			replies = append(replies, rep)
			if msg, failed := tools.Failed(res, nil); failed {
				return nil, fmt.Errorf("%s: %s", l.name, msg)
			}
		}
		if r.sdk, err = sdkCost(ctx, replies); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// sdkCost times what MCP itself adds to these replies (the MCP door's, of
// each answer: its readable text and its JSON as structured content): the
// go-sdk server's encoding of each and the go-sdk client's decoding of it,
// over an in-memory transport (no pipe, no other process).
func sdkCost(ctx context.Context, replies []*sdk.CallToolResult) (time.Duration, error) {
	s := sdk.NewServer(&sdk.Implementation{Name: "answers", Version: "1"}, nil)
	i := 0
	s.AddTool(&sdk.Tool{Name: "answer", InputSchema: map[string]any{"type": "object"}}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		r := replies[i]
		i++
		return r, nil
	})
	st, ct := sdk.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		return 0, err
	}
	defer ss.Close()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "waymark-bench", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		return 0, err
	}
	defer cs.Close()
	t0 := time.Now()
	for range replies {
		if _, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "answer"}); err != nil {
			return 0, err
		}
	}
	return time.Since(t0), nil
}

// printPhases prints where each list's time goes: the median of each phase
// over the runs (ms), the in-process total, and what MCP adds (Waymark's
// median over MCP less the in-process total: the SDK's framing and
// encoding, the pipe, the client's decoding).
func printPhases(stdout io.Writer, lists []phaseList, runs [][]phaseRun) error {
	tw := tabwriter.NewWriter(stdout, 2, 8, 2, ' ', tabwriter.AlignRight)
	head := "where Waymark's list time goes (ms, median of each phase; in this process, the MCP door's calls)\t"
	for _, l := range lists {
		head += l.name + "\t"
	}
	fmt.Fprintln(tw, head)
	row := func(label string, f func(phaseRun) time.Duration) {
		line := label + "\t"
		for _, rs := range runs {
			var ds []time.Duration
			for _, r := range rs {
				ds = append(ds, f(r))
			}
			line += fmt.Sprintf("%.1f\t", float64(mid(ds).Microseconds())/1000)
		}
		fmt.Fprintln(tw, line)
	}
	for _, pr := range phaseRows {
		row("  "+pr.label, func(r phaseRun) time.Duration { return pr.of(r.p, r) })
	}
	row("in-process total", func(r phaseRun) time.Duration { return r.tool + r.marshal + r.sdk })
	line := "MCP: the pipes and the rest (Waymark's MCP median less the in-process total; measured at another moment)\t"
	for i, rs := range runs {
		var ds []time.Duration
		for _, r := range rs {
			ds = append(ds, r.tool+r.marshal+r.sdk)
		}
		line += fmt.Sprintf("%.1f\t", float64(max(0, lists[i].mcp-mid(ds)).Microseconds())/1000)
	}
	fmt.Fprintln(tw, line)
	return tw.Flush()
}

// runPhases measures lists phase by phase in a browser of this process
// (headless, its own Chromium) after the side-by-side measure, and prints
// the breakdown.
func runPhases(ctx context.Context, stdout io.Writer, lists []phaseList, runs int) error {
	ss := browser.NewSessions(browser.Options{Headless: true})
	defer ss.Close()
	reg := waymark.New(waymark.Config{Browser: ss}).Registry
	// Warm up as the side-by-side measure does (browser start, first pages,
	// the banner pass of the first list on the host).
	for _, l := range lists {
		if _, err := measurePhases(ctx, reg, l, 1); err != nil {
			return err
		}
	}
	var all [][]phaseRun
	for _, l := range lists {
		rs, err := measurePhases(ctx, reg, l, runs)
		if err != nil {
			return err
		}
		all = append(all, rs)
	}
	return printPhases(stdout, lists, all)
}
