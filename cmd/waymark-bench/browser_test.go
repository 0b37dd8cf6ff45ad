package main

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/waymark"
)

// The bench's scenarios go as the terminal's commands do (parsed, then run
// by the conversation that heard the list): each reaches its goal page, acting
// by number.
func TestBenchScenariosReachTheirPages(t *testing.T) {
	if _, err := browser.FindBin(""); err != nil {
		t.Skip("SKIPPED: no Chromium")
	}
	srv := httptest.NewServer(benchPages())
	defer srv.Close()
	ss := browser.NewSessions(browser.Options{Headless: true})
	defer ss.Close()
	reg := waymark.New(waymark.Config{Browser: ss}).Registry
	for _, sc := range benchScenarios {
		t.Run(sc.name, func(t *testing.T) {
			n, ok, err := runScenario(context.Background(), reg, srv.URL, sc, 0)
			if err != nil || !ok {
				t.Fatalf("ok=%v, %v", ok, err)
			}
			if n < 1 {
				t.Errorf("%d actions by number", n)
			}
		})
	}
}

// The breakdown of a list's time (--vs-playwright) is measured through the
// registry as the MCP door calls it: the page's parts, the Go side's and
// MCP's are each recorded, and printed row by row.
func TestBenchListPhases(t *testing.T) {
	if _, err := browser.FindBin(""); err != nil {
		t.Skip("SKIPPED: no Chromium")
	}
	srv := httptest.NewServer(benchPages())
	defer srv.Close()
	ss := browser.NewSessions(browser.Options{Headless: true})
	defer ss.Close()
	reg := waymark.New(waymark.Config{Browser: ss}).Registry
	l := phaseList{name: "small form page", url: srv.URL + "/form", windows: []map[string]any{{}}, mcp: time.Second}
	rs, err := measurePhases(context.Background(), reg, l, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if r.p.D[browser.PhaseJSTotal] <= 0 || r.p.D[browser.PhaseLook] <= 0 || r.p.D[browser.PhaseItems] <= 0 || r.marshal <= 0 || r.sdk <= 0 {
			t.Errorf("a phase went unmeasured: %v, marshal %v, sdk %v", r.p.D, r.marshal, r.sdk)
		}
	}
	var b strings.Builder
	if err := printPhases(&b, []phaseList{l}, [][]phaseRun{rs}); err != nil {
		t.Fatal(err)
	}
	for _, pr := range phaseRows {
		if !strings.Contains(b.String(), pr.label) {
			t.Errorf("no row %q in\n%s", pr.label, b.String())
		}
	}
}
