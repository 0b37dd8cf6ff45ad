// Package miniwob is the MiniWoB++ tier: it serves the benchmark's pages on
// loopback, starts seeded episodes, lets an agent act through Waymark's
// browser tools (by number), and reads the rewards the pages compute.
//
// The harness talks to the page's own core.js (seeding Math.random, starting
// an episode, reading WOB_REWARD_GLOBAL) in the main world: that is the
// benchmark's control interface, never the agent's way of acting. Agents act
// only through the tools of a tools.Registry.
package miniwob

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/tools"
)

// Server serves a MiniWoB++ html folder (miniwob/, core/, common/) on
// loopback.
type Server struct {
	srv *httptest.Server
}

// Serve serves dir, which must hold miniwob/ and core/.
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

// Tasks lists the tasks of an html folder, sorted.
func Tasks(dir string) ([]string, error) {
	m, err := filepath.Glob(filepath.Join(dir, "miniwob", "*.html"))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range m {
		out = append(out, strings.TrimSuffix(filepath.Base(p), ".html"))
	}
	sort.Strings(out)
	return out, nil
}

// Episode is one seeded run of a task.
type Episode struct {
	Task      string
	Seed      string
	Utterance string
	// Limit is the episode's time limit; the page ends the episode with
	// reward -1 when it runs out, and discounts rewards by the time taken.
	Limit time.Duration
	s     *browser.Session
}

// Start opens the task's page unless the session already shows it, seeds
// Math.random and starts an episode the way the benchmark's own driver does
// (Math.seedrandom, core.startEpisodeReal). limit overrides the task's time
// limit (core.EPISODE_MAX_TIME) when positive.
func (srv *Server) Start(ctx context.Context, s *browser.Session, task, seed string, limit time.Duration) (*Episode, error) {
	want := srv.TaskURL(task)
	if cur, err := s.Page().Context(ctx).Info(); err != nil || !samePage(cur.URL, want) {
		if _, err := s.Navigate(ctx, want); err != nil {
			return nil, fmt.Errorf("open %s: %w", task, err)
		}
	}
	const js = `(seed, limit) => {
		if (typeof core === 'undefined' || !core.cover_div || typeof genProblem !== 'function') return null;
		if (limit > 0) core.EPISODE_MAX_TIME = limit;
		Math.seedrandom(seed);
		core.startEpisodeReal();
		let u = core.getUtterance();
		if (u && typeof u === 'object') u = u.utterance; // tasks that also give the utterance's fields
		return {utterance: String(u), limit: core.EPISODE_MAX_TIME};
	}`
	deadline := time.Now().Add(5 * time.Second)
	for {
		res, err := s.Page().Context(ctx).Eval(js, seed, limit.Milliseconds())
		if err != nil {
			return nil, fmt.Errorf("start an episode of %s: %w", task, err)
		}
		if !res.Value.Nil() {
			return &Episode{Task: task, Seed: seed, s: s,
				Utterance: res.Value.Get("utterance").Str(),
				Limit:     time.Duration(res.Value.Get("limit").Int()) * time.Millisecond}, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("start an episode of %s: the page's core.js never got ready", task)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// samePage compares two URLs without their fragments.
func samePage(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	if err1 != nil || err2 != nil {
		return false
	}
	ua.Fragment, ub.Fragment = "", ""
	return ua.String() == ub.String()
}

// Result is how an episode ended.
type Result struct {
	Done bool
	// Reward is what the benchmark reports: the raw reward, discounted by the
	// share of the time limit used when positive.
	Reward    float64
	RawReward float64
	Reason    string // the page's reason when it gave one ("timed out")
}

// Success is the benchmark's notion of a solved episode.
func (r Result) Success() bool { return r.Done && r.RawReward > 0 }

// Result reads the reward; Done is false while the episode runs.
func (e *Episode) Result(ctx context.Context) (Result, error) {
	res, err := e.s.Page().Context(ctx).Eval(`() => ({done: WOB_DONE_GLOBAL, reward: WOB_REWARD_GLOBAL, raw: WOB_RAW_REWARD_GLOBAL, reason: WOB_REWARD_REASON == null ? '' : String(WOB_REWARD_REASON)})`)
	if err != nil {
		return Result{}, fmt.Errorf("read the reward of %s: %w", e.Task, err)
	}
	v := res.Value
	return Result{Done: v.Get("done").Bool(), Reward: v.Get("reward").Num(), RawReward: v.Get("raw").Num(), Reason: v.Get("reason").Str()}, nil
}

// Wait waits up to d for the episode to end and returns its result.
func (e *Episode) Wait(ctx context.Context, d time.Duration) (Result, error) {
	deadline := time.Now().Add(d)
	for {
		r, err := e.Result(ctx)
		if err != nil || r.Done || !time.Now().Before(deadline) {
			return r, err
		}
		sleep(ctx, 30*time.Millisecond)
	}
}

// Tools runs browser tools through a registry (the same tools the assistant
// and MCP clients get) and counts element actions: by number
// (browser_overlay_act) and otherwise (browser_act_by_index).
type Tools struct {
	Reg      *tools.Registry
	ByNumber int
	Other    int
}

// elementTools are the tools that act on a page element, and whether they go
// by number.
var elementTools = map[string]bool{
	"browser_overlay_act":             true,
	"browser_act_by_index":            false,
	"browser_click_and_wait_download": true,
	"browser_upload":                  true,
	"browser_open_in_new_tab":         true,
}

// Call runs a tool and returns its data; a tool error is returned as err.
func (t *Tools) Call(ctx context.Context, name string, args map[string]any) (map[string]any, error) {
	var d map[string]any
	err := t.CallInto(ctx, name, args, &d)
	return d, err
}

// CallInto runs a tool and decodes its data into out (nil: dropped).
func (t *Tools) CallInto(ctx context.Context, name string, args map[string]any, out any) error {
	if byNumber, ok := elementTools[name]; ok {
		if byNumber {
			t.ByNumber++
		} else {
			t.Other++
		}
	}
	b, err := json.Marshal(args)
	if err != nil {
		return err
	}
	res, err := t.Reg.Call(ctx, tools.Call{Name: name, Args: b}, tools.Context{})
	if err != nil {
		return err
	}
	r, ok := res.(browser.Outcome)
	if !ok {
		return fmt.Errorf("%s: unexpected result %T", name, res)
	}
	if msg, failed := r.Failed(); failed {
		return fmt.Errorf("%s: %s", name, msg)
	}
	if out == nil {
		return nil
	}
	db, err := json.Marshal(r.Payload())
	if err != nil {
		return err
	}
	return json.Unmarshal(db, out)
}
