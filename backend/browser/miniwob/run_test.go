package miniwob

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/waymark/waymark/backend/agent/web"
	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/tools"
)

// Agent solves a started episode through the browser tools.
type Agent interface {
	// Name is how tables and logs call the agent.
	Name() string
	// Solve acts on the episode's page; it returns ErrNotSolvable for a task
	// it does not attempt.
	Solve(ctx context.Context, ep *Episode, t *Tools) error
}

// Builtin is the built-in engine: the utterance becomes number commands
// (PlanFor), run by Solve. It needs no model server.
type Builtin struct{}

// Name implements Agent.
func (Builtin) Name() string { return "built-in engine" }

// Solve implements Agent.
func (Builtin) Solve(ctx context.Context, ep *Episode, t *Tools) error {
	p, err := PlanFor(ep.Task, ep.Utterance)
	if err != nil {
		return err
	}
	return Solve(ctx, t, p)
}

// Assistant runs Waymark's assistant loop (web.Assistant) with a model
// server on the utterance, as a user's goal.
type Assistant struct {
	Model    llm.Model
	Label    string // the model's name for the table
	MaxSteps int    // default 15
}

// Name implements Agent.
func (m Assistant) Name() string { return "assistant with " + m.Label }

// Solve implements Agent.
func (m Assistant) Solve(ctx context.Context, ep *Episode, t *Tools) error {
	steps := m.MaxSteps
	if steps <= 0 {
		steps = 15
	}
	// The task's utterance is the user's own request: the user says yes to
	// the assistant's questions (a send, a text the utterance implies).
	a := &web.Assistant{Reg: t.Reg, Model: m.Model, MaxSteps: steps,
		Ask: func(context.Context, string) (string, error) { return "yes", nil }}
	res, err := a.Run(ctx, ep.Utterance+" (The task is on the page that is open.)")
	t.ByNumber += res.ActionsByIndex
	t.Other += res.OtherActions
	return err
}

// Options configure Run.
type Options struct {
	// Dir is the MiniWoB++ html folder (miniwob/, core/, common/).
	Dir string
	// Tasks to run; default: the built-in solver's tasks (Solvable) for the
	// built-in agent, every task of Dir for any other agent.
	Tasks []string
	// Seeds is the number of episodes per task (seeds "waymark-0", …); default 5.
	Seeds int
	// Limit overrides every task's time limit when positive (a model needs
	// longer than the benchmark's 10 s).
	Limit time.Duration
	// Agent defaults to Builtin.
	Agent Agent
	// ControlURL is a running Chromium to use; empty: a headless one is
	// started and stopped.
	ControlURL string
	// Parallel is how many tasks run at once, each in a browser context of
	// its own (default 1). Rewards are discounted by time, so a busy machine
	// lowers them a little.
	Parallel int
	// Logf receives a line per failed episode; nil: none.
	Logf func(format string, args ...any)
}

// Row is one task's line of the table.
type Row struct {
	Task       string
	Episodes   int
	Successes  int
	MeanReward float64
	ByNumber   int // element actions by number
	Other      int // element actions not by number
	// Status is empty when the task ran, else why not ("not solvable without a model").
	Status string
	// Failures are short reasons of failed episodes.
	Failures []string
	Duration time.Duration
}

// Table is the result of Run.
type Table struct {
	Agent string
	Rows  []Row
}

// StatusNotSolvable is the status of a task the built-in engine does not
// claim.
const StatusNotSolvable = "not solvable without a model"

// Row returns the row of a task.
func (t Table) Row(task string) (Row, bool) {
	for _, r := range t.Rows {
		if r.Task == task {
			return r, true
		}
	}
	return Row{}, false
}

// String prints the success table.
func (t Table) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "MiniWoB++ with the %s\n", t.Agent)
	fmt.Fprintf(&b, "%-28s %8s %9s %11s %10s %7s\n", "task", "episodes", "successes", "mean reward", "by number", "time")
	var eps, ok, by, other int
	var sum float64
	for _, r := range t.Rows {
		if r.Status != "" {
			fmt.Fprintf(&b, "%-28s %s\n", r.Task, r.Status)
			continue
		}
		fmt.Fprintf(&b, "%-28s %8d %9d %11.2f %10s %6.1fs\n", r.Task, r.Episodes, r.Successes, r.MeanReward, share(r.ByNumber, r.Other), r.Duration.Seconds())
		eps, ok, by, other = eps+r.Episodes, ok+r.Successes, by+r.ByNumber, other+r.Other
		sum += r.MeanReward * float64(r.Episodes)
	}
	mean := 0.0
	if eps > 0 {
		mean = sum / float64(eps)
	}
	fmt.Fprintf(&b, "%-28s %8d %9d %11.2f %10s\n", "all", eps, ok, mean, share(by, other))
	return b.String()
}

func share(by, other int) string {
	if by+other == 0 {
		return "-"
	}
	return fmt.Sprintf("%d/%d", by, by+other)
}

// Run runs every task with Seeds seeded episodes through the agent and
// returns the table. A task's page is opened once; its episodes follow each
// other in it, as in the benchmark's own driver.
func Run(ctx context.Context, o Options) (Table, error) {
	if o.Agent == nil {
		o.Agent = Builtin{}
	}
	if o.Seeds <= 0 {
		o.Seeds = 5
	}
	if o.Tasks == nil {
		if _, builtin := o.Agent.(Builtin); builtin {
			o.Tasks = Solvable()
		} else {
			all, err := Tasks(o.Dir)
			if err != nil {
				return Table{}, err
			}
			o.Tasks = all
		}
	}
	logf := o.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	srv, err := Serve(o.Dir)
	if err != nil {
		return Table{}, err
	}
	defer srv.Close()
	tmp, err := os.MkdirTemp("", "waymark-miniwob-")
	if err != nil {
		return Table{}, err
	}
	defer os.RemoveAll(tmp)
	control := o.ControlURL
	if control == "" {
		proc, err := browser.StartBrowser(ctx, browser.Options{Headless: true})
		if err != nil {
			return Table{}, fmt.Errorf("start Chromium: %w", err)
		}
		defer proc.Close()
		control = proc.ControlURL()
	}
	workers := max(1, min(o.Parallel, len(o.Tasks)))
	type worker struct {
		s   *browser.Session
		reg *tools.Registry
	}
	var ws []worker
	for range workers {
		ss := browser.NewSessions(browser.Options{Headless: true, ControlURL: control, ScreenshotDir: tmp, DownloadDir: tmp})
		defer ss.Close()
		s, err := ss.Get(ctx)
		if err != nil {
			return Table{}, fmt.Errorf("open a browser session: %w", err)
		}
		reg := tools.New()
		browser.Register(reg, ss)
		ws = append(ws, worker{s, reg})
	}
	rows := make([]Row, len(o.Tasks))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for _, w := range ws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				rows[i] = runTask(ctx, srv, w.s, w.reg, o, o.Tasks[i], logf)
			}
		}()
	}
	for i := range o.Tasks {
		if ctx.Err() != nil {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return Table{Agent: o.Agent.Name(), Rows: rows}, ctx.Err()
}

// runTask runs a task's seeded episodes, one after the other in the page.
func runTask(ctx context.Context, srv *Server, s *browser.Session, reg *tools.Registry, o Options, task string, logf func(string, ...any)) Row {
	row := Row{Task: task}
	t := &Tools{Reg: reg}
	start := time.Now()
	sum := 0.0
	for i := 0; i < o.Seeds && ctx.Err() == nil; i++ {
		seed := fmt.Sprintf("waymark-%d", i)
		res, err := runEpisode(ctx, srv, s, o, t, task, seed)
		if errors.Is(err, ErrNotSolvable) {
			row.Status = StatusNotSolvable
			break
		}
		row.Episodes++
		sum += res.Reward
		if res.Success() {
			row.Successes++
			continue
		}
		why := fmt.Sprintf("seed %s: reward %.2f", seed, res.RawReward)
		if res.Reason != "" {
			why += " (" + res.Reason + ")"
		}
		if err != nil {
			why += ": " + err.Error()
		}
		row.Failures = append(row.Failures, why)
		logf("%s %s", task, why)
	}
	if row.Episodes > 0 {
		row.MeanReward = sum / float64(row.Episodes)
	}
	row.ByNumber, row.Other, row.Duration = t.ByNumber, t.Other, time.Since(start)
	return row
}

// runEpisode starts one episode, lets the agent act within the episode's
// time limit and reads the result.
func runEpisode(ctx context.Context, srv *Server, s *browser.Session, o Options, t *Tools, task, seed string) (Result, error) {
	started := time.Now()
	ep, err := srv.Start(ctx, s, task, seed, o.Limit)
	if err != nil {
		return Result{}, err
	}
	ectx, cancel := context.WithTimeout(ctx, ep.Limit+2*time.Second)
	defer cancel()
	serr := o.Agent.Solve(ectx, ep, t)
	if errors.Is(serr, ErrNotSolvable) {
		return Result{}, serr
	}
	// An agent that stopped without an error leaves the episode to end on
	// its own: by its reward, or by the page's time limit, which a busy
	// machine fires late (over a second late for a 1 s limit when the
	// machine's two cores had other tests and a window to run). Wait returns
	// as soon as the episode has ended, so the margin costs only episodes
	// that never end.
	wait := max(time.Second, time.Until(started.Add(ep.Limit))+3*time.Second)
	if serr != nil {
		wait = 200 * time.Millisecond
	}
	res, rerr := ep.Wait(ctx, wait)
	if serr == nil {
		serr = rerr
	}
	if serr == nil && !res.Done {
		serr = errors.New("the episode did not end")
	}
	return res, serr
}
