package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/store"
	"github.com/waymark/waymark/backend/tools"
)

// The execution loop of SPEC §4 (the "acts" protocol): a request's context is an
// array of typed messages rebuilt for every request; Activities are code-backed
// tools from the registry, latent calls are performed by the model itself; results
// land in State at a call's _outputPath; references †state.path resolve before a
// call runs; a Plan message makes the loop stateful and chooses eager or lazy
// execution.

// Message kinds of the loop's context.
const (
	KindSystem   = "system"
	KindUser     = "user"
	KindPlan     = "plan"
	KindData     = "data"  // a value in State, at Path
	KindError    = "error" // an error the model sees next turn
	KindThought  = "thought"
	KindSolution = "solution"
)

// LoopMessage is one typed message of the loop's context.
type LoopMessage struct {
	Kind string          `json:"kind"`
	Path string          `json:"path,omitempty"`
	Text string          `json:"text,omitempty"`
	Data json.RawMessage `json:"data,omitempty"`
	Plan *Plan           `json:"plan,omitempty"`
}

// Plan is the Plan message: its presence makes the loop keep Plan and State
// between turns (in SQLite); Mode is "eager" (default) or "lazy".
type Plan struct {
	Mode  string     `json:"mode"`
	Steps []PlanStep `json:"steps,omitempty"`
}

// PlanStep is one node of a lazy plan's dataflow graph: a tool call whose
// arguments may reference other steps' outputs (†state.path).
type PlanStep struct {
	ID         string          `json:"id"`
	Tool       string          `json:"tool"`
	Args       json.RawMessage `json:"args"`
	OutputPath string          `json:"outputPath"`
}

// Decision is a person's answer to a lazy plan.
type Decision string

// The three answers of the approval step.
const (
	Approve Decision = "approve"
	Edit    Decision = "edit"
	Reject  Decision = "reject"
)

// LatentTool is a tool the model performs itself: its result is the call's
// "_output" argument.
type LatentTool struct {
	Name, Description string
	Output            json.RawMessage // JSON Schema of _output
}

// Limits bound a loop run.
type Limits struct {
	Turns, Steps int
	Wall         time.Duration
	Tokens       int
}

// Loop runs the protocol.
type Loop struct {
	Reg    *tools.Registry
	Model  llm.Model
	Store  *store.Store
	Latent []LatentTool
	// Activities lists the registry tools offered to the model (all when empty).
	Activities []string
	// ApprovePlan is asked before a lazy plan runs; nil rejects every lazy plan.
	ApprovePlan func(ctx context.Context, p Plan) (Decision, Plan, error)
	Limits      Limits
	Log         *slog.Logger

	wg sync.WaitGroup
}

// LoopResult is the outcome of Run.
type LoopResult struct {
	Solution string                     `json:"solution"`
	State    map[string]json.RawMessage `json:"state"`
	Turns    int                        `json:"turns"`
	Steps    int                        `json:"steps"`
	Tokens   int                        `json:"tokens"`
	Stopped  string                     `json:"stopped,omitempty"` // why the loop stopped without a solution
	Errors   []string                   `json:"errors,omitempty"`
}

type saved struct {
	Plan  *Plan                      `json:"plan"`
	State map[string]json.RawMessage `json:"state"`
}

const statePrefix = "†state."

// Wait blocks until fire-and-forget activities have finished (tests, shutdown).
func (l *Loop) Wait() { l.wg.Wait() }

func (l *Loop) limits() Limits {
	lim := l.Limits
	if lim.Turns <= 0 {
		lim.Turns = 12
	}
	if lim.Steps <= 0 {
		lim.Steps = 64
	}
	if lim.Wall <= 0 {
		lim.Wall = 10 * time.Minute
	}
	if lim.Tokens <= 0 {
		lim.Tokens = 1 << 30
	}
	return lim
}

// Run runs the loop on msgs. With a Plan message and a session id, Plan and State
// are loaded from and saved to SQLite, so a later call continues the session.
func (l *Loop) Run(ctx context.Context, session string, msgs []LoopMessage) (LoopResult, error) {
	lim := l.limits()
	ctx, cancel := context.WithTimeout(ctx, lim.Wall)
	defer cancel()
	res := LoopResult{State: map[string]json.RawMessage{}}
	var plan *Plan
	for _, m := range msgs {
		if m.Kind == KindPlan {
			p := Plan{Mode: "eager"}
			if m.Plan != nil {
				p = *m.Plan
			}
			if p.Mode == "" {
				p.Mode = "eager"
			}
			if p.Mode != "eager" && p.Mode != "lazy" {
				return res, fmt.Errorf("plan mode %q: use eager or lazy", p.Mode)
			}
			plan = &p
		}
		if m.Kind == KindData && strings.HasPrefix(m.Path, statePrefix) {
			res.State[strings.TrimPrefix(m.Path, statePrefix)] = m.Data
		}
	}
	key := "loop:" + session
	if plan != nil && session != "" && l.Store != nil {
		if st, err := l.Store.AgentState(ctx, key); err == nil {
			var sv saved
			if json.Unmarshal(st.Data, &sv) == nil {
				for k, v := range sv.State {
					if _, ok := res.State[k]; !ok {
						res.State[k] = v
					}
				}
				if len(plan.Steps) == 0 && sv.Plan != nil {
					plan.Steps = sv.Plan.Steps
				}
			}
		}
	}
	persist := func() {
		if plan != nil && session != "" && l.Store != nil {
			_ = l.Store.SaveAgentState(context.WithoutCancel(ctx), key, "loop", saved{Plan: plan, State: res.State})
		}
	}
	defer persist()
	if plan != nil && plan.Mode == "lazy" {
		return l.runLazy(ctx, plan, msgs, res)
	}
	var errs []string
	var thoughts []string
	for res.Turns < lim.Turns {
		if err := ctx.Err(); err != nil {
			res.Stopped = "time limit reached"
			return res, nil
		}
		res.Turns++
		req := l.request(msgs, plan, res.State, errs, thoughts, res.Turns == 1)
		resp, err := l.Model.Complete(ctx, req)
		res.Tokens += resp.Usage.TotalTokens
		if err != nil {
			return res, fmt.Errorf("turn %d: the model failed: %w", res.Turns, err)
		}
		if res.Tokens > lim.Tokens {
			res.Stopped = fmt.Sprintf("token limit reached (%d > %d)", res.Tokens, lim.Tokens)
			return res, nil
		}
		calls := resp.ToolCalls
		if len(calls) == 0 {
			if tc, ok := llm.ParseTextToolCall(resp.Content); ok {
				calls = []llm.ToolCall{tc}
			}
		}
		if len(calls) == 0 {
			res.Solution = strings.TrimSpace(resp.Content)
			return res, nil
		}
		errs, thoughts = nil, nil
		pending := calls
		// Run every call whose references resolve; a call that waits on a value
		// produced in this turn gets another pass; what still waits is an error.
		for pass := 0; len(pending) > 0 && pass < len(calls)+1; pass++ {
			var waiting []llm.ToolCall
			for _, c := range pending {
				if res.Steps >= lim.Steps {
					res.Stopped = fmt.Sprintf("step limit reached (%d)", lim.Steps)
					return res, nil
				}
				args, meta, err := splitMeta(c.Arguments)
				if err != nil {
					errs = append(errs, fmt.Sprintf("%s: %v", c.Name, err))
					continue
				}
				resolved, missing := resolveRefs(args, res.State)
				if missing != "" {
					waiting = append(waiting, c)
					continue
				}
				res.Steps++
				out := metaString(meta, "_outputPath")
				if lt := l.latent(c.Name); lt != nil {
					val, ok := resolved["_output"]
					if !ok {
						errs = append(errs, fmt.Sprintf("latent call %s has no _output: a latent call carries its own result", c.Name))
						continue
					}
					if out == "" {
						thoughts = append(thoughts, fmt.Sprintf("%s: %s", c.Name, val)) // ephemeral reasoning
						continue
					}
					if _, err := writePath(res.State, out, val, ""); err != nil {
						errs = append(errs, err.Error())
					}
					continue
				}
				if _, ok := l.Reg.Get(c.Name); !ok || !l.offered(c.Name) {
					errs = append(errs, fmt.Sprintf("unknown tool %q", c.Name))
					continue
				}
				call := tools.Call{ID: c.ID, Name: c.Name, Args: mustJSON(resolved), Meta: meta}
				tc := tools.Context{Messages: scoped(meta, res.State)}
				if out == "" {
					// Fire-and-forget: started, not awaited, not stored; failures logged.
					l.wg.Add(1)
					go func() {
						defer l.wg.Done()
						if _, err := l.Reg.Call(context.WithoutCancel(ctx), call, tc); err != nil && l.Log != nil {
							l.Log.Warn("fire-and-forget activity failed", "tool", call.Name, "err", err)
						}
					}()
					continue
				}
				v, err := l.Reg.Call(ctx, call, tc)
				if err != nil {
					errs = append(errs, fmt.Sprintf("%s: %v", c.Name, err))
					continue
				}
				b := mustJSON(v)
				if _, err := writePath(res.State, out, b, branchOf(v)); err != nil {
					errs = append(errs, err.Error())
				}
			}
			if len(waiting) == len(pending) {
				for _, c := range waiting {
					args, _, _ := splitMeta(c.Arguments)
					_, missing := resolveRefs(args, res.State)
					errs = append(errs, fmt.Sprintf("%s waits for %s, which nothing produced", c.Name, missing))
				}
				break
			}
			pending = waiting
		}
		res.Errors = append(res.Errors, errs...)
		persist()
	}
	res.Stopped = fmt.Sprintf("turn limit reached (%d)", lim.Turns)
	return res, nil
}

// request rebuilds the model's context: system, user input, plan, State as data
// messages, this turn's errors and thoughts.
func (l *Loop) request(msgs []LoopMessage, plan *Plan, state map[string]json.RawMessage, errs, thoughts []string, first bool) llm.Request {
	var out []llm.Message
	sys := "You solve the user's request by calling tools. Each call may carry meta properties: _outputPath (\"†state.name\" stores the result in State; \"†state.a || †state.b\" lets the tool choose the branch), _scopes (State paths the tool may see). Arguments may reference stored values as \"†state.name\". A call without _outputPath to a code tool is fire-and-forget; to a latent tool it is a thought. Answer without calls when the request is solved."
	if plan != nil && plan.Mode == "eager" && first {
		sys += " Plan and execute in one stream: on this first turn a latent call must not branch on its own output."
	}
	out = append(out, llm.Message{Role: "system", Content: sys})
	for _, m := range msgs {
		switch m.Kind {
		case KindSystem:
			out = append(out, llm.Message{Role: "system", Content: m.Text})
		case KindUser:
			out = append(out, llm.Message{Role: "user", Content: m.Text})
		}
	}
	if plan != nil {
		out = append(out, llm.Message{Role: "user", Content: "Plan: " + string(mustJSON(plan))})
	}
	keys := make([]string, 0, len(state))
	for k := range state {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, llm.Message{Role: "user", Content: fmt.Sprintf("Data %s%s = %s", statePrefix, k, state[k])})
	}
	for _, t := range thoughts {
		out = append(out, llm.Message{Role: "assistant", Content: "Thought: " + t})
	}
	for _, e := range errs {
		out = append(out, llm.Message{Role: "user", Content: "Error: " + e})
	}
	var specs []llm.ToolSpec
	for _, t := range l.Reg.Tools() {
		if l.offered(t.Name) {
			specs = append(specs, llm.ToolSpec{Name: t.Name, Description: t.Description, Parameters: withMeta(t.InputSchema)})
		}
	}
	for _, lt := range l.Latent {
		specs = append(specs, llm.ToolSpec{Name: lt.Name, Description: lt.Description + " (latent: put the result in _output)",
			Parameters: json.RawMessage(`{"type":"object","properties":{"_output":` + string(orAny(lt.Output)) + `,"_outputPath":{"type":"string"}},"required":["_output"]}`)})
	}
	return llm.Request{Messages: out, Tools: specs}
}

func (l *Loop) offered(name string) bool {
	if len(l.Activities) == 0 {
		return true
	}
	for _, a := range l.Activities {
		if a == name {
			return true
		}
	}
	return false
}

func (l *Loop) latent(name string) *LatentTool {
	for i := range l.Latent {
		if l.Latent[i].Name == name {
			return &l.Latent[i]
		}
	}
	return nil
}

// runLazy asks the model for a declarative plan, validates it as an acyclic
// dataflow graph of Activities, asks for approval, then runs it in dependency order.
func (l *Loop) runLazy(ctx context.Context, plan *Plan, msgs []LoopMessage, res LoopResult) (LoopResult, error) {
	if len(plan.Steps) == 0 {
		req := l.request(msgs, plan, res.State, nil, nil, true)
		req.Messages = append(req.Messages, llm.Message{Role: "user", Content: `Lazy mode: do not execute anything. Reply with only the plan as JSON: {"steps":[{"id":"s1","tool":"Find","args":{...},"outputPath":"†state.x"}, ...]}; arguments may reference other steps' outputs as "†state.x".`})
		req.Tools = nil
		resp, err := l.Model.Complete(ctx, req)
		res.Turns, res.Tokens = 1, resp.Usage.TotalTokens
		if err != nil {
			return res, fmt.Errorf("lazy plan: the model failed: %w", err)
		}
		var p Plan
		if err := json.Unmarshal([]byte(strings.TrimSpace(resp.Content)), &p); err != nil {
			return res, fmt.Errorf("lazy plan: the model's plan is not JSON {\"steps\":[…]}: %v", err)
		}
		plan.Steps = p.Steps
	}
	order, err := l.validatePlan(plan.Steps, res.State)
	if err != nil {
		return res, err
	}
	if l.ApprovePlan == nil {
		res.Stopped = "plan rejected: no one to approve it"
		return res, nil
	}
	dec, edited, err := l.ApprovePlan(ctx, *plan)
	if err != nil {
		return res, err
	}
	switch dec {
	case Reject:
		res.Stopped = "plan rejected"
		return res, nil
	case Edit:
		plan.Steps = edited.Steps
		if order, err = l.validatePlan(plan.Steps, res.State); err != nil {
			return res, fmt.Errorf("edited plan: %w", err)
		}
	case Approve:
	default:
		return res, fmt.Errorf("unknown plan decision %q: use approve, edit or reject", dec)
	}
	for _, i := range order {
		st := plan.Steps[i]
		args, meta, err := splitMeta(st.Args)
		if err != nil {
			return res, fmt.Errorf("step %s: %w", st.ID, err)
		}
		resolved, missing := resolveRefs(args, res.State)
		if missing != "" {
			return res, fmt.Errorf("step %s: %s was not produced", st.ID, missing)
		}
		res.Steps++
		v, err := l.Reg.Call(ctx, tools.Call{ID: st.ID, Name: st.Tool, Args: mustJSON(resolved), Meta: meta}, tools.Context{Messages: scoped(meta, res.State)})
		if err != nil {
			res.Errors = append(res.Errors, fmt.Sprintf("step %s (%s): %v", st.ID, st.Tool, err))
			res.Stopped = "a step failed"
			return res, nil
		}
		if st.OutputPath != "" {
			if _, err := writePath(res.State, st.OutputPath, mustJSON(v), branchOf(v)); err != nil {
				return res, err
			}
		}
	}
	res.Solution = fmt.Sprintf("ran %d step(s) of the approved plan", len(order))
	return res, nil
}

// validatePlan checks tools, ids, output paths and references, and returns a
// dependency order; a cycle or a dangling reference is an error naming the steps.
func (l *Loop) validatePlan(steps []PlanStep, state map[string]json.RawMessage) ([]int, error) {
	if len(steps) == 0 {
		return nil, errors.New("the plan has no steps")
	}
	producer := map[string]int{}
	ids := map[string]bool{}
	for i, s := range steps {
		if s.ID == "" || ids[s.ID] {
			return nil, fmt.Errorf("plan step %d: missing or repeated id %q", i, s.ID)
		}
		ids[s.ID] = true
		if _, ok := l.Reg.Get(s.Tool); !ok || !l.offered(s.Tool) {
			return nil, fmt.Errorf("plan step %s: unknown tool %q (lazy plans run Activities only)", s.ID, s.Tool)
		}
		for _, p := range paths(s.OutputPath) {
			producer[p] = i
		}
	}
	deps := make([][]int, len(steps))
	for i, s := range steps {
		args, _, err := splitMeta(s.Args)
		if err != nil {
			return nil, fmt.Errorf("plan step %s: %w", s.ID, err)
		}
		for _, ref := range refsIn(args) {
			if j, ok := producer[ref]; ok {
				deps[i] = append(deps[i], j)
			} else if _, ok := state[ref]; !ok {
				return nil, fmt.Errorf("plan step %s references %s%s, which no step produces", s.ID, statePrefix, ref)
			}
		}
	}
	// Kahn's algorithm, stable by step order.
	indeg := make([]int, len(steps))
	users := make([][]int, len(steps))
	for i, ds := range deps {
		indeg[i] = len(ds)
		for _, j := range ds {
			users[j] = append(users[j], i)
		}
	}
	var order, ready []int
	for i := range steps {
		if indeg[i] == 0 {
			ready = append(ready, i)
		}
	}
	for len(ready) > 0 {
		i := ready[0]
		ready = ready[1:]
		order = append(order, i)
		for _, u := range users[i] {
			if indeg[u]--; indeg[u] == 0 {
				ready = append(ready, u)
			}
		}
	}
	if len(order) != len(steps) {
		var cyc []string
		for i := range steps {
			if indeg[i] > 0 {
				cyc = append(cyc, steps[i].ID)
			}
		}
		return nil, fmt.Errorf("the plan is not acyclic: steps %s depend on each other", strings.Join(cyc, ", "))
	}
	return order, nil
}

// splitMeta separates underscore meta properties from arguments.
func splitMeta(raw json.RawMessage) (map[string]json.RawMessage, map[string]json.RawMessage, error) {
	args := map[string]json.RawMessage{}
	meta := map[string]json.RawMessage{}
	if len(raw) == 0 {
		return args, meta, nil
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(raw, &all); err != nil {
		return nil, nil, fmt.Errorf("arguments must be a JSON object: %v", err)
	}
	for k, v := range all {
		if strings.HasPrefix(k, "_") && k != "_output" {
			meta[k] = v
		} else {
			args[k] = v
		}
	}
	return args, meta, nil
}

func metaString(meta map[string]json.RawMessage, k string) string {
	var s string
	_ = json.Unmarshal(meta[k], &s)
	return s
}

// paths lists the State paths of an output path, "†state.a || †state.b" giving two.
func paths(out string) []string {
	var ps []string
	for _, p := range strings.Split(out, "||") {
		p = strings.TrimSpace(p)
		if strings.HasPrefix(p, statePrefix) {
			ps = append(ps, strings.TrimPrefix(p, statePrefix))
		}
	}
	return ps
}

// writePath stores v in State. For a branching path the activity's choice (branch)
// picks the alternative; without one the first is taken.
func writePath(state map[string]json.RawMessage, out string, v json.RawMessage, branch string) (string, error) {
	ps := paths(out)
	if len(ps) == 0 {
		return "", fmt.Errorf("_outputPath %q is not of the form †state.name (or †state.a || †state.b)", out)
	}
	chosen := ps[0]
	if branch != "" {
		b := strings.TrimPrefix(branch, statePrefix)
		found := false
		for _, p := range ps {
			if p == b {
				chosen, found = p, true
			}
		}
		if !found {
			return "", fmt.Errorf("the activity chose branch %q, which is not one of %s", branch, out)
		}
	}
	state[chosen] = v
	return chosen, nil
}

// branchOf reads an activity's branch choice: a result object's "_branch".
func branchOf(v any) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(mustJSON(v), &m) != nil {
		return ""
	}
	return metaString(m, "_branch")
}

// resolveRefs replaces string arguments of the form "†state.path" by the stored
// value; it reports the first reference that does not resolve yet.
func resolveRefs(args map[string]json.RawMessage, state map[string]json.RawMessage) (map[string]json.RawMessage, string) {
	out := map[string]json.RawMessage{}
	for k, v := range args {
		var s string
		if json.Unmarshal(v, &s) == nil && strings.HasPrefix(s, statePrefix) {
			path := strings.TrimPrefix(s, statePrefix)
			val, ok := lookup(state, path)
			if !ok {
				return nil, s
			}
			out[k] = val
			continue
		}
		out[k] = v
	}
	return out, ""
}

// lookup finds "a" or "a.b.c" (a field inside a stored object).
func lookup(state map[string]json.RawMessage, path string) (json.RawMessage, bool) {
	parts := strings.Split(path, ".")
	for n := len(parts); n >= 1; n-- {
		v, ok := state[strings.Join(parts[:n], ".")]
		if !ok {
			continue
		}
		for _, f := range parts[n:] {
			var m map[string]json.RawMessage
			if json.Unmarshal(v, &m) != nil {
				return nil, false
			}
			if v, ok = m[f]; !ok {
				return nil, false
			}
		}
		return v, true
	}
	return nil, false
}

func refsIn(args map[string]json.RawMessage) []string {
	var refs []string
	for _, v := range args {
		var s string
		if json.Unmarshal(v, &s) == nil && strings.HasPrefix(s, statePrefix) {
			p := strings.TrimPrefix(s, statePrefix)
			refs = append(refs, strings.SplitN(p, ".", 2)[0])
		}
	}
	return refs
}

// scoped gives an activity only the State values its _scopes import.
func scoped(meta map[string]json.RawMessage, state map[string]json.RawMessage) []tools.Message {
	var scopes []string
	_ = json.Unmarshal(meta["_scopes"], &scopes)
	var out []tools.Message
	for _, s := range scopes {
		p := strings.TrimPrefix(s, statePrefix)
		if v, ok := lookup(state, p); ok {
			out = append(out, tools.Message{Kind: KindData, Path: statePrefix + p, Data: v})
		}
	}
	return out
}

func withMeta(schema json.RawMessage) json.RawMessage {
	var s map[string]any
	if json.Unmarshal(schema, &s) != nil {
		return schema
	}
	props, _ := s["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
	}
	props["_outputPath"] = map[string]any{"type": "string"}
	props["_scopes"] = map[string]any{"type": "array", "items": map[string]any{"type": "string"}}
	s["properties"] = props
	return mustJSON(s)
}

func orAny(s json.RawMessage) json.RawMessage {
	if len(s) == 0 {
		return json.RawMessage(`{}`)
	}
	return s
}

func mustJSON(v any) json.RawMessage {
	if r, ok := v.(json.RawMessage); ok {
		return r
	}
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(map[string]string{"error": err.Error()})
	}
	return b
}
