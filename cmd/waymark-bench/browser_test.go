package main

import (
	"context"
	"net/http/httptest"
	"testing"

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
