// Package miniwob is the MiniWoB++ tier: it serves the benchmark's pages on
// loopback, starts seeded episodes, lets an agent act through Waymark's
// browser tools (by number), and reads the rewards the pages compute.
//
// The harness talks to the page's own core.js (seeding, starting an episode,
// reading WOB_REWARD_GLOBAL) in the main world: that is the benchmark's
// control interface, never the agent's way of acting.
package miniwob

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/tools"
)

// Server serves a MiniWoB++ checkout (its html/ folder: miniwob/, core/,
// common/).
type Server struct {
	srv *httptest.Server
}

// Serve serves dir (which must hold miniwob/ and core/).
func Serve(dir string) (*Server, error) {
	for _, sub := range []string{"miniwob", "core"} {
		if fi, err := os.Stat(filepath.Join(dir, sub)); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("%s is not a MiniWoB++ html folder: %s/ is missing", dir, sub)
		}
	}
	return &Server{srv: httptest.NewServer(http.FileServer(http.Dir(dir)))}, nil
}

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// TaskURL is the page of a task.
func (s *Server) TaskURL(task string) string { return s.srv.URL + "/miniwob/" + task + ".html" }

// Tasks lists the tasks of the checkout.
func Tasks(dir string) ([]string, error) {
	m, err := filepath.Glob(filepath.Join(dir, "miniwob", "*.html"))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range m {
		out = append(out, strings.TrimSuffix(filepath.Base(p), ".html"))
	}
	return out, nil
}

// Episode is one seeded run of a task.
type Episode struct {
	Task      string
	Seed      string
	Utterance string
	s         *browser.Session
}

// Start opens the task and starts a seeded episode with a time limit.
func (srv *Server) Start(ctx context.Context, s *browser.Session, task, seed string, limit time.Duration) (*Episode, error) {
	if _, err := s.Navigate(ctx, srv.TaskURL(task)); err != nil {
		return nil, err
	}
	js := fmt.Sprintf(`() => { Math.seedrandom(%q); core.EPISODE_MAX_TIME = %d; core.startEpisodeReal(); return core.getUtterance(); }`, seed, limit.Milliseconds())
	res, err := s.Page().Context(ctx).Eval(js)
	if err != nil {
		return nil, fmt.Errorf("start episode of %s: %w", task, err)
	}
	return &Episode{Task: task, Seed: seed, Utterance: res.Value.Str(), s: s}, nil
}

// Result is how an episode ended.
type Result struct {
	Done      bool
	Reward    float64 // time-discounted, as the benchmark reports it
	RawReward float64
}

// Result reads the reward; Done is false while the episode runs.
func (e *Episode) Result(ctx context.Context) (Result, error) {
	res, err := e.s.Page().Context(ctx).Eval(`() => JSON.stringify({done: WOB_DONE_GLOBAL, reward: WOB_REWARD_GLOBAL, raw: WOB_RAW_REWARD_GLOBAL})`)
	if err != nil {
		return Result{}, err
	}
	var r struct {
		Done   bool    `json:"done"`
		Reward float64 `json:"reward"`
		Raw    float64 `json:"raw"`
	}
	if err := json.Unmarshal([]byte(res.Value.Str()), &r); err != nil {
		return Result{}, err
	}
	return Result{Done: r.Done, Reward: r.Reward, RawReward: r.Raw}, nil
}

// Wait waits up to d for the episode to end and returns its result.
func (e *Episode) Wait(ctx context.Context, d time.Duration) (Result, error) {
	deadline := time.Now().Add(d)
	for {
		r, err := e.Result(ctx)
		if err != nil || r.Done || time.Now().After(deadline) {
			return r, err
		}
		time.Sleep(30 * time.Millisecond)
	}
}

// Tools runs browser tools through a registry and counts element actions.
type Tools struct {
	Reg      *tools.Registry
	ByNumber int // browser_overlay_act calls
	Other    int // element actions not by number (none in the built-in solver)
}

// Call runs a tool and returns its data; a tool error is returned as err.
func (t *Tools) Call(ctx context.Context, name string, args map[string]any) (map[string]any, error) {
	b, _ := json.Marshal(args)
	out, err := t.Reg.Call(ctx, tools.Call{Name: name, Args: b}, tools.Context{})
	if err != nil {
		return nil, err
	}
	r, ok := out.(browser.Result)
	if !ok {
		return nil, fmt.Errorf("%s: unexpected result %T", name, out)
	}
	if name == "browser_overlay_act" {
		t.ByNumber++
	}
	if r.Status != "ok" {
		return nil, fmt.Errorf("%s: %s", name, r.Error)
	}
	var d map[string]any
	db, _ := json.Marshal(r.Data)
	_ = json.Unmarshal(db, &d)
	return d, nil
}
