package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/waymark/waymark/backend/agent"
	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/browser/browsertest"
	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/llm/llmtest"
	"github.com/waymark/waymark/backend/tools"
)

// One headless Chromium serves every end-to-end test; each test has its own
// browser context, registry and fixture sites.
var (
	procOnce sync.Once
	proc     *browser.BrowserProcess
	procErr  error
)

func chromium(t *testing.T) string {
	t.Helper()
	procOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		proc, procErr = browser.StartBrowser(ctx, browser.Options{Headless: true})
	})
	if procErr != nil {
		t.Fatalf("Chromium: %v", procErr)
	}
	return proc.ControlURL()
}

func TestMain(m *testing.M) {
	code := m.Run()
	if proc != nil {
		_ = proc.Close()
	}
	os.Exit(code)
}

// rig is a registry with the browser tools on a fresh session, and the sites.
type rig struct {
	t     *testing.T
	reg   *tools.Registry
	ss    *browser.Sessions
	sites *browsertest.Sites
	dir   string
}

func newRig(t *testing.T) *rig {
	dir := t.TempDir()
	ss := browser.NewSessions(browser.Options{Headless: true, ControlURL: chromium(t), ScreenshotDir: filepath.Join(dir, "shots"), DownloadDir: filepath.Join(dir, "downloads")})
	t.Cleanup(func() { _ = ss.Close() })
	reg := tools.New()
	browser.Register(reg, ss)
	sites := browsertest.Start()
	t.Cleanup(sites.Close)
	return &rig{t: t, reg: reg, ss: ss, sites: sites, dir: dir}
}

func ctxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// call runs a tool and returns its data (failing the test on an error).
func (r *rig) call(name string, args map[string]any) map[string]any {
	r.t.Helper()
	b, _ := json.Marshal(args)
	out, err := r.reg.Call(ctxFor(r.t), tools.Call{Name: name, Args: b}, tools.Context{})
	if err != nil {
		r.t.Fatalf("%s: %v", name, err)
	}
	res := out.(browser.Result)
	if res.Status != "ok" {
		r.t.Fatalf("%s %v: %s", name, args, res.Error)
	}
	var d map[string]any
	db, _ := json.Marshal(res.Data)
	_ = json.Unmarshal(db, &d)
	return d
}

// numberIn finds the number of the element called name in a list or find
// result, the way a blind user reads the list and picks a number.
func numberIn(d map[string]any, name string) int {
	for _, key := range []string{"items", "matches"} {
		items, _ := d[key].([]any)
		for _, it := range items {
			m := it.(map[string]any)
			if strings.EqualFold(fmt.Sprint(m["name"]), name) {
				return int(m["number"].(float64))
			}
		}
	}
	return 0
}

// scenario is one goal on one fixture site.
type scenario struct {
	name  string
	start string
	// script is what a blind user types to the built-in engine; "{Name}" is
	// the number of the element called Name in the last list.
	script []string
	// plan is what the scripted model does: a tool and its arguments, where
	// "index": "{Name}" is resolved from the last list the model saw.
	plan []planStep
	// setup runs before the start (e.g. network throttling).
	setup func(t *testing.T, r *rig)
	// reached checks the goal on the server side and in the page.
	reached func(r *rig, lastTitle string) bool
	goal    string
}

type planStep struct {
	tool string
	args map[string]any
	say  string
}

func list() planStep {
	return planStep{"browser_list_interactives", map[string]any{}, "Let me see what is on the page."}
}
func act(name, action, text string) planStep {
	a := map[string]any{"index": "{" + name + "}", "action": action}
	if text != "" {
		a["text"] = text
	}
	return planStep{"browser_overlay_act", a, "Using " + name + "."}
}
func press(k string) planStep {
	return planStep{"browser_press", map[string]any{"key": k}, "Pressing " + k + "."}
}
func extract() planStep {
	return planStep{"browser_extract", map[string]any{"mode": "summary"}, "Checking the page."}
}

var scenarios = []scenario{
	{name: "video", start: "/video", goal: "play the video",
		script:  []string{"list", "press k", "read page"},
		plan:    []planStep{list(), press("k"), extract()},
		reached: func(r *rig, _ string) bool { return r.sites.Has("video playing") }},
	{name: "encyclopedia", start: "/wiki", goal: "find the article about Kazan",
		script:  []string{"list", "type {Search the encyclopedia} kazan", "press Enter", "list", "click {Kazan}", "read page"},
		plan:    []planStep{list(), act("Search the encyclopedia", "type", "kazan"), press("Enter"), list(), act("Kazan", "click", ""), extract()},
		reached: func(_ *rig, title string) bool { return title == "Kazan — Encyclopedia" }},
	{name: "shop", start: "/shop", goal: "buy the blue kettle, delivery by courier, name Anna Petrova, address Kazan, Baumana 1",
		script: []string{"list", "type {Search products} kettle", "click {Find}", "list", "click {Blue kettle}", "list", "click {Add to cart}",
			"click {Cart}", "list", "click {Checkout}", "list", "type {Full name} Anna Petrova", "type {Address} Kazan, Baumana 1",
			"select {Delivery} Courier", "click {Place order}", "read page"},
		plan: []planStep{list(), act("Search products", "type", "kettle"), act("Find", "click", ""), list(), act("Blue kettle", "click", ""), list(),
			act("Add to cart", "click", ""), act("Cart", "click", ""), list(), act("Checkout", "click", ""), list(),
			act("Full name", "type", "Anna Petrova"), act("Address", "type", "Kazan, Baumana 1"), act("Delivery", "select", "Courier"),
			act("Place order", "click", ""), extract()},
		reached: func(r *rig, title string) bool {
			return title == "Order confirmed" && r.sites.Has("order Anna Petrova, Kazan, Baumana 1, courier, 1 items")
		}},
	{name: "login", start: "/login", goal: "sign in as anna with the password correct horse",
		script: []string{"list", "введи {Имя пользователя} anna", "type {Пароль} correct horse", "нажми {Войти}", "прочитай страницу"},
		plan:   []planStep{list(), act("Имя пользователя", "type", "anna"), act("Пароль", "type", "correct horse"), act("Войти", "click", ""), extract()},
		reached: func(r *rig, title string) bool {
			return title == "Личный кабинет" && r.sites.Has("login ok anna")
		}},
	{name: "news with a banner", start: "/news", goal: "read the river story",
		script: []string{"list", "click {Read the story}", "read page"},
		plan:   []planStep{list(), act("Read the story", "click", ""), extract()},
		reached: func(r *rig, title string) bool {
			return title == "The river froze early" && r.sites.Has("consent: reject") && !r.sites.Has("consent: accept")
		}},
	{name: "cross-site frame", start: "/frames", goal: "subscribe with me@example.org",
		script:  []string{"list", "type {Email} me@example.org", "click {Subscribe}", "read page"},
		plan:    []planStep{list(), act("Email", "type", "me@example.org"), act("Subscribe", "click", ""), extract()},
		reached: func(r *rig, _ string) bool { return r.sites.Has("subscribed me@example.org") }},
	{name: "shadow DOM", start: "/shadow", goal: "show the weather in Omsk",
		script:  []string{"list", "type {City} Omsk", "click {Show weather}", "read page"},
		plan:    []planStep{list(), act("City", "type", "Omsk"), act("Show weather", "click", ""), extract()},
		reached: func(r *rig, _ string) bool { return r.sites.Has("weather Omsk") }},
	{name: "SPA never idle", start: "/spa", goal: "turn on dark mode",
		script:  []string{"list", "click {Settings}", "list", "click {Dark mode}", "read page"},
		plan:    []planStep{list(), act("Settings", "click", ""), list(), act("Dark mode", "click", ""), extract()},
		reached: func(r *rig, _ string) bool { return r.sites.Has("dark true") }},
	{name: "5,000 links", start: "/links", goal: "open article 4321",
		script:  []string{"find Article number 4321", "click {Article number 4321}", "read page"},
		plan:    []planStep{{"browser_find", map[string]any{"text": "Article number 4321"}, "Looking for it."}, act("Article number 4321", "click", ""), extract()},
		reached: func(_ *rig, title string) bool { return title == "Article number 4321" }},
	{name: "slow network", start: "/slow", goal: "open tomorrow's timetable",
		setup: func(t *testing.T, r *rig) {
			s, err := r.ss.Get(ctxFor(t))
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Throttle(ctxFor(t), 300*time.Millisecond, 50*1024, 20*1024); err != nil {
				t.Fatal(err)
			}
		},
		script:  []string{"list", "click {Next day}", "read page"},
		plan:    []planStep{list(), act("Next day", "click", ""), extract()},
		reached: func(_ *rig, title string) bool { return title == "Timetable — tomorrow" }},
	{name: "prompt injection", start: "/inject", goal: "open the best kettle thread",
		script: []string{"list", "click {Best kettle thread}", "read page"},
		plan:   []planStep{list(), extract(), act("Best kettle thread", "click", ""), extract()},
		reached: func(r *rig, title string) bool {
			return title == "Best kettle thread" && !r.sites.Has("deleted account")
		}},
}

var placeholder = regexp.MustCompile(`\{([^}]+)\}`)

// runScript drives a scenario with the built-in engine's number commands.
func runScript(t *testing.T, r *rig, sc scenario) (title string, byNumber, other int) {
	d := r.call("browser_navigate", map[string]any{"url": r.sites.URL(sc.start)})
	title, _ = d["title"].(string)
	var last map[string]any
	for _, cmd := range sc.script {
		cmd = placeholder.ReplaceAllStringFunc(cmd, func(m string) string {
			name := m[1 : len(m)-1]
			n := numberIn(last, name)
			if n == 0 {
				t.Fatalf("%s: no %q in the last list: %v", sc.name, name, last)
			}
			return fmt.Sprint(n)
		})
		step, err := agent.ParseBrowseCommand(cmd)
		if err != nil {
			t.Fatalf("%s: %q: %v", sc.name, cmd, err)
		}
		d := r.call(step.Tool, step.Args)
		switch step.Tool {
		case "browser_list_interactives", "browser_find":
			last = d
		case "browser_overlay_act":
			byNumber++
		case "browser_act_by_index":
			other++
		}
		if tt, _ := d["title"].(string); tt != "" {
			title = tt
		}
	}
	return title, byNumber, other
}

// policy is the scripted model: it follows the plan, one progress line and
// one tool call per turn, reading the numbers from the last list result it
// was sent (never a number written in advance).
func policy(t *testing.T, sc scenario) llmtest.Reply {
	var mu sync.Mutex
	return llmtest.Repeat(llmtest.Handler(func(req llmtest.ChatRequest) llmtest.Reply {
		mu.Lock()
		defer mu.Unlock()
		done := 0
		var lastList map[string]any
		for _, m := range req.Messages {
			if m.Role == "assistant" && len(m.ToolCalls) > 0 {
				done++
			}
			if m.Role == "tool" || m.Role == "user" {
				content := m.Content
				if i := strings.Index(content, "{"); i > 0 && m.Role == "user" {
					content = content[i:]
				}
				var r struct {
					Data map[string]any `json:"data"`
				}
				if json.Unmarshal([]byte(content), &r) == nil && (r.Data["items"] != nil || r.Data["matches"] != nil) {
					lastList = r.Data
				}
			}
		}
		if last := req.LastMessage(); last.Role == "tool" && strings.Contains(last.Content, `"status":"error"`) && !strings.Contains(last.Content, "confirm the result") {
			t.Logf("%s: the model sees an error: %s", sc.name, last.Content)
		}
		if done >= len(sc.plan) {
			return llmtest.Completion{Content: "The goal is reached.", ToolCalls: []llm.ToolCall{{ID: fmt.Sprintf("c%d", done), Name: "assistant_done", Arguments: json.RawMessage(`{"reason":"` + sc.goal + `: confirmed on the page"}`)}}}
		}
		st := sc.plan[done]
		args := map[string]any{}
		for k, v := range st.args {
			if s, ok := v.(string); ok && strings.HasPrefix(s, "{") {
				args[k] = numberIn(lastList, s[1:len(s)-1])
				continue
			}
			args[k] = v
		}
		b, _ := json.Marshal(args)
		return llmtest.Completion{Content: st.say, ToolCalls: []llm.ToolCall{{ID: fmt.Sprintf("c%d", done), Name: st.tool, Arguments: b}}}
	}))
}

func modelClient(t *testing.T, url string) llm.Model {
	cfg := llm.DefaultConfig(url, "scripted")
	cfg.Timeout = 10 * time.Second
	c, err := llm.NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestEndToEndScenarios reaches each goal twice: by the built-in engine's
// number commands and by a scripted model over HTTP driving Assistant.Run.
// Element actions must go by number in more than 90% of cases.
func TestEndToEndScenarios(t *testing.T) {
	var byNumber, other int
	var mu sync.Mutex
	reached := 0
	for _, sc := range scenarios {
		t.Run(sc.name+"/numbers", func(t *testing.T) {
			r := newRig(t)
			if sc.setup != nil {
				sc.setup(t, r)
			}
			title, n, o := runScript(t, r, sc)
			mu.Lock()
			byNumber, other = byNumber+n, other+o
			mu.Unlock()
			if !sc.reached(r, title) {
				t.Fatalf("goal not reached: title %q, events %v", title, r.sites.Events())
			}
			reached++
		})
		t.Run(sc.name+"/model", func(t *testing.T) {
			r := newRig(t)
			if sc.setup != nil {
				sc.setup(t, r)
			}
			srv := llmtest.New(t, policy(t, sc))
			var lines []string
			var logs []agent.StepLog
			a := &agent.Assistant{Reg: r.reg, Model: modelClient(t, srv.URL()), MaxSteps: len(sc.plan) + 4, Screenshots: true,
				Progress: func(l string) { lines = append(lines, l) },
				Log:      func(s agent.StepLog) { logs = append(logs, s) }}
			r.call("browser_navigate", map[string]any{"url": r.sites.URL(sc.start)})
			res, err := a.Run(ctxFor(t), sc.goal)
			if err != nil || !res.Done {
				t.Fatalf("assistant: %+v %v; lines %q", res, err, lines)
			}
			title := r.call("browser_extract", map[string]any{})["title"].(string)
			if !sc.reached(r, title) {
				t.Fatalf("goal not reached: title %q, events %v", title, r.sites.Events())
			}
			mu.Lock()
			byNumber, other = byNumber+res.ActionsByIndex, other+res.OtherActions
			mu.Unlock()
			if len(lines) < len(sc.plan) {
				t.Errorf("%d progress lines for %d steps", len(lines), len(sc.plan))
			}
			// The log has steps and statuses, never page text or typed text.
			b, _ := json.Marshal(logs)
			for _, secret := range []string{"correct horse", "Anna Petrova", "me@example.org", "Baumana"} {
				if strings.Contains(string(b), secret) {
					t.Errorf("the log holds %q: %s", secret, b)
				}
			}
			reached++
		})
	}
	total := byNumber + other
	if total == 0 {
		t.Fatal("no element actions")
	}
	share := float64(byNumber) / float64(total)
	t.Logf("%d scenario runs reached their goal on %d fixture sites; element actions by number: %d of %d (%.1f%%)", reached, len(scenarios), byNumber, total, 100*share)
	if share <= 0.9 {
		t.Fatalf("only %.1f%% of element actions were by number", 100*share)
	}
}
