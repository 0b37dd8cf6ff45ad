package miniwob

import (
	"context"
	"errors"
	"fmt"
	"github.com/waymark/waymark/backend/testenv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/llm"
)

// corpus is the MiniWoB++ html folder beside a checkout of the repository.
var corpus = filepath.Join("..", "..", "..", "..", "shared", "corpus", "miniwob")

// One headless Chromium serves every test of the package; each Run opens a
// browser context of its own in it.
var (
	chromeOnce sync.Once
	chrome     *browser.BrowserProcess
	chromeErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if chrome != nil {
		_ = chrome.Close()
	}
	os.Exit(code)
}

// setup skips loudly without the corpus and returns the shared Chromium's
// control URL.
func setup(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat(filepath.Join(corpus, "miniwob")); err != nil {
		t.Skipf("SKIPPED: the MiniWoB++ corpus is not at %s (%v); the MiniWoB++ tier did not run", corpus, err)
	}
	chromeOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		chrome, chromeErr = browser.StartBrowser(ctx, browser.Options{Headless: true})
	})
	if chromeErr != nil {
		t.Fatalf("start Chromium: %v", chromeErr)
	}
	return chrome.ControlURL()
}

func seeds(def int) int {
	if n, err := strconv.Atoi(os.Getenv("WAYMARK_MINIWOB_SEEDS")); err == nil && n > 0 {
		return n
	}
	return def
}

// minSuccess is the share of episodes each claimed task must solve. Tasks
// below 1 lose episodes the page makes impossible by numbers: a button laid
// fully over another hides it from every pointer (and from the numbering).
var minSuccess = map[string]float64{
	"click-test-2":          0.6,
	"click-test-transfer":   0.6,
	"click-button-sequence": 0.6,
}

// TestBuiltinSolverTable runs every task the built-in solver claims with
// several seeds, prints the success table and holds each task to a minimum.
func TestBuiltinSolverTable(t *testing.T) {
	testenv.SkipSweepInShortMode(t)
	control := setup(t)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	start := time.Now()
	table, err := Run(ctx, Options{Dir: corpus, Seeds: seeds(5), ControlURL: control, Parallel: 2, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s(%d tasks in %.1fs)", table, len(table.Rows), time.Since(start).Seconds())
	if len(table.Rows) != len(Solvable()) {
		t.Fatalf("%d rows for %d claimed tasks", len(table.Rows), len(Solvable()))
	}
	for _, r := range table.Rows {
		if r.Status != "" {
			t.Errorf("%s: %s", r.Task, r.Status)
			continue
		}
		min, ok := minSuccess[r.Task]
		if !ok {
			min = 0.8
		}
		if float64(r.Successes) < min*float64(r.Episodes) {
			t.Errorf("%s: %d of %d episodes solved, want at least %.0f%%: %s", r.Task, r.Successes, r.Episodes, 100*min, strings.Join(r.Failures, "; "))
		}
		if r.Other != 0 || r.ByNumber < r.Episodes {
			t.Errorf("%s: %d element actions by number, %d otherwise, for %d episodes", r.Task, r.ByNumber, r.Other, r.Episodes)
		}
	}
}

// TestUnclaimedTaskIsReported: a task the solver does not claim shows up in
// the table as not solvable without a model, with no episode counted as
// solved.
func TestUnclaimedTaskIsReported(t *testing.T) {
	control := setup(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	table, err := Run(ctx, Options{Dir: corpus, Tasks: []string{"book-flight", "click-button"}, Seeds: 1, ControlURL: control})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", table)
	bf, ok := table.Row("book-flight")
	if !ok || bf.Status != StatusNotSolvable || bf.Successes != 0 || bf.Episodes != 0 {
		t.Errorf("book-flight row %+v, want status %q and nothing solved", bf, StatusNotSolvable)
	}
	if !strings.Contains(table.String(), "book-flight") || !strings.Contains(table.String(), StatusNotSolvable) {
		t.Errorf("the table does not say book-flight needs a model:\n%s", table)
	}
	if cb, _ := table.Row("click-button"); cb.Successes != 1 {
		t.Errorf("click-button beside it: %+v", cb)
	}
}

// wrongButton clicks, by number, a button other than the one the utterance
// names: the page must score it as a failure.
type wrongButton struct{}

func (wrongButton) Name() string { return "wrong-button agent" }

func (wrongButton) Solve(ctx context.Context, ep *Episode, t *Tools) error {
	p, err := PlanFor(ep.Task, ep.Utterance)
	if err != nil {
		return err
	}
	items, err := t.list(ctx)
	if err != nil {
		return err
	}
	for _, it := range items {
		if it.Role == "button" && it.Name != p.Steps[0].Target.Name {
			return t.act(ctx, it.Number, "click", "")
		}
	}
	return errors.New("no other button")
}

// idle does nothing: the episode must run out of time.
type idle struct{}

func (idle) Name() string                                          { return "idle agent" }
func (idle) Solve(ctx context.Context, _ *Episode, _ *Tools) error { return nil }

// TestRewardsAreThePages: a wrong click and doing nothing are scored by the
// page's own core.js (reward -1; "timed out" after the time limit), and the
// same seed gives the same utterance again.
func TestRewardsAreThePages(t *testing.T) {
	testenv.SkipSweepInShortMode(t)
	control := setup(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	table, err := Run(ctx, Options{Dir: corpus, Tasks: []string{"click-dialog-2"}, Seeds: 2, ControlURL: control, Agent: wrongButton{}})
	if err != nil {
		t.Fatal(err)
	}
	if r := table.Rows[0]; r.Successes != 0 || r.Episodes != 2 || r.MeanReward != -1 || r.ByNumber != 2 {
		t.Errorf("wrong clicks: %+v", r)
	}
	table, err = Run(ctx, Options{Dir: corpus, Tasks: []string{"click-button"}, Seeds: 1, ControlURL: control, Agent: idle{}, Limit: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if r := table.Rows[0]; r.Successes != 0 || r.MeanReward != -1 || len(r.Failures) != 1 || !strings.Contains(r.Failures[0], "timed out") {
		t.Errorf("an idle episode: %+v", r)
	}
}

// TestSeedsAreDeterministic: the same seed gives the same episode, whether
// the page was just opened or ran other episodes before.
func TestSeedsAreDeterministic(t *testing.T) {
	testenv.SkipSweepInShortMode(t)
	control := setup(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv, err := Serve(corpus)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ss := browser.NewSessions(browser.Options{Headless: true, ControlURL: control, ScreenshotDir: t.TempDir(), DownloadDir: t.TempDir()})
	defer ss.Close()
	s, err := ss.Get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, seed := range []string{"a", "b", "a"} {
		ep, err := srv.Start(ctx, s, "click-checkboxes", seed, 0)
		if err != nil {
			t.Fatal(err)
		}
		if ep.Limit != 10*time.Second {
			t.Errorf("limit %v, want the page's 10s", ep.Limit)
		}
		got = append(got, ep.Utterance)
	}
	if got[0] != got[2] || got[0] == got[1] {
		t.Errorf("utterances for seeds a, b, a: %q", got)
	}
}

// TestModelOnAllTasks runs every task through the assistant with a real model
// server when one is configured (WAYMARK_MODEL_URL).
func TestModelOnAllTasks(t *testing.T) {
	cfg, ok := llm.ConfigFromEnv()
	if !ok {
		t.Skip("SKIPPED: no model server configured (WAYMARK_MODEL_URL): the MiniWoB++ tasks through the assistant did not run")
	}
	model, err := llm.NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	control := setup(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Hour)
	defer cancel()
	table, err := Run(ctx, Options{Dir: corpus, Seeds: seeds(1), ControlURL: control, Limit: 3 * time.Minute,
		Agent: Assistant{Model: model, Label: cfg.Model}, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", table)
	fmt.Fprintln(os.Stderr, table)
}
