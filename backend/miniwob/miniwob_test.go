package miniwob

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/waymark/waymark/backend/agent"
	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/tools"
)

// corpus is the MiniWoB++ html folder beside a checkout of the repository.
var corpus = filepath.Join("..", "..", "..", "shared", "corpus", "miniwob")

func setup(t *testing.T) (*Server, *browser.BrowserProcess) {
	t.Helper()
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("the MiniWoB++ corpus is not at %s: %v", corpus, err)
	}
	srv, err := Serve(corpus)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	proc, err := browser.StartBrowser(ctx, browser.Options{Headless: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = proc.Close() })
	return srv, proc
}

func seeds() int {
	if n, err := strconv.Atoi(os.Getenv("WAYMARK_MINIWOB_SEEDS")); err == nil && n > 0 {
		return n
	}
	return 3
}

func TestPlanUtterances(t *testing.T) {
	cases := []struct {
		task, utterance string
		want            []Step
	}{
		{"click-button", `Click on the "Okay" button.`, []Step{{Action: "click", Role: "button", Name: "Okay"}}},
		{"click-link", `Click on the link "amet".`, []Step{{Action: "click", Role: "link", Name: "amet"}}},
		{"focus-text-2", `Focus into the 3rd input textbox.`, []Step{{Action: "click", Role: "textbox", Nth: 3}}},
		{"click-checkboxes", `Select nothing and click Submit.`, []Step{{Action: "click", Role: "button", Name: "Submit"}}},
		{"click-checkboxes", `Select ab, cd and click Submit.`, []Step{{Action: "click", Role: "checkbox", Name: "ab"}, {Action: "click", Role: "checkbox", Name: "cd"}, {Action: "click", Role: "button", Name: "Submit"}}},
		{"login-user", `Enter the username "kiera" and the password "x1" into the text fields and press login.`,
			[]Step{{Action: "type", Role: "textbox", Nth: 1, Text: "kiera"}, {Action: "type", Role: "textbox", Nth: 2, Text: "x1"}, {Action: "click", Role: "button", Name: "Login"}}},
	}
	for _, c := range cases {
		got, err := Plan(c.task, c.utterance)
		if err != nil || fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("Plan(%s, %q) = %v, %v; want %v", c.task, c.utterance, got, err, c.want)
		}
	}
	if _, err := Plan("book-flight", "Book the shortest one-way flight"); !errors.Is(err, ErrNotSolvable) {
		t.Errorf("an unclaimed task: %v, want ErrNotSolvable", err)
	}
	if _, err := Plan("click-button", "Press the red thing"); err == nil || errors.Is(err, ErrNotSolvable) {
		t.Errorf("an unexpected utterance: %v", err)
	}
}

// TestBuiltinSolverTable runs every task the built-in solver claims with
// several seeds, prints the success table and holds each task to a minimum.
func TestBuiltinSolverTable(t *testing.T) {
	srv, proc := setup(t)
	n := seeds()
	var table strings.Builder
	fmt.Fprintf(&table, "%-18s %8s %9s %11s %9s\n", "task", "episodes", "successes", "mean reward", "by number")
	allBy, allOther := 0, 0
	for _, task := range Solvable {
		ok, sum := 0, 0.0
		tl := &Tools{}
		for i := 0; i < n; i++ {
			seed := fmt.Sprintf("waymark-%d", i)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			ss := browser.NewSessions(browser.Options{Headless: true, ControlURL: proc.ControlURL(), ScreenshotDir: t.TempDir(), DownloadDir: t.TempDir()})
			reg := tools.New()
			browser.Register(reg, ss)
			tl.Reg = reg
			s, err := ss.Get(ctx)
			if err != nil {
				t.Fatal(err)
			}
			ep, err := srv.Start(ctx, s, task, seed, 30*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			steps, err := Plan(task, ep.Utterance)
			if err == nil {
				err = Solve(ctx, tl, steps)
			}
			res, rerr := ep.Wait(ctx, 3*time.Second)
			if err != nil || rerr != nil || !res.Done || res.RawReward <= 0 {
				t.Logf("%s seed %s %q: err=%v %v result=%+v", task, seed, ep.Utterance, err, rerr, res)
			} else {
				ok++
			}
			sum += res.Reward
			_ = ss.Close()
			cancel()
		}
		allBy, allOther = allBy+tl.ByNumber, allOther+tl.Other
		fmt.Fprintf(&table, "%-18s %8d %9d %11.2f %9d\n", task, n, ok, sum/float64(n), tl.ByNumber)
		if ok*10 < n*8 {
			t.Errorf("%s: %d of %d episodes solved, want at least 80%%", task, ok, n)
		}
	}
	t.Logf("MiniWoB++ with the built-in engine (by numbers only: %d element actions, %d otherwise):\n%s", allBy, allOther, table.String())
	if allOther != 0 {
		t.Errorf("%d element actions were not by number", allOther)
	}
}

// TestModelOnAllTasks runs every task through the assistant with a real model
// server when one is configured (WAYMARK_MODEL_URL).
func TestModelOnAllTasks(t *testing.T) {
	cfg, ok := llm.ConfigFromEnv()
	if !ok {
		t.Skip("no model server configured (WAYMARK_MODEL_URL): the MiniWoB++ tasks with a model are skipped")
	}
	model, err := llm.NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv, proc := setup(t)
	all, err := Tasks(corpus)
	if err != nil {
		t.Fatal(err)
	}
	var table strings.Builder
	solved := 0
	for _, task := range all {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		ss := browser.NewSessions(browser.Options{Headless: true, ControlURL: proc.ControlURL(), ScreenshotDir: t.TempDir(), DownloadDir: t.TempDir()})
		reg := tools.New()
		browser.Register(reg, ss)
		s, err := ss.Get(ctx)
		if err != nil {
			t.Fatal(err)
		}
		ep, err := srv.Start(ctx, s, task, "waymark-model", 120*time.Second)
		if err != nil {
			t.Logf("%s: %v", task, err)
			cancel()
			continue
		}
		a := &agent.Assistant{Reg: reg, Model: model, MaxSteps: 15}
		_, rerr := a.Run(ctx, ep.Utterance)
		res, _ := ep.Wait(ctx, time.Second)
		if res.RawReward > 0 {
			solved++
		}
		fmt.Fprintf(&table, "%-28s reward %.2f %v\n", task, res.Reward, rerr)
		_ = ss.Close()
		cancel()
	}
	t.Logf("MiniWoB++ with the model %s: %d of %d tasks\n%s", cfg.Model, solved, len(all), table.String())
}
