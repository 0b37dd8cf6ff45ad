// Package agent is the engine under Waymark's agents (the author's, in
// package author, and the web ones, in package web): the execution loop of
// SPEC §4 and the one model turn every agent takes (Stepper).
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
	// Say is the step in the user's words, for the approval list.
	Say string `json:"say,omitempty"`
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

	// What the command agent and the browser assistant set (SPEC §3, §5):
	// Prompt replaces the loop's own system prompt.
	Prompt string
	// Conversation keeps each step's calls and their answers in the context,
	// as a conversation, and awaits every call: its result (or error) answers
	// it. A call with _outputPath still stores its result in State.
	Conversation bool
	// OnePerStep runs only the first call of a turn (SPEC §5).
	OnePerStep bool
	// NeedCall: a turn without a call is not a solution; the model is told
	// this and asked again (the assistant finishes with assistant_done).
	NeedCall string
	// Extra are tools offered to the model that the Guard answers itself
	// (the assistant's assistant_ask and assistant_done).
	Extra []llm.ToolSpec
	// OnText receives the model's words of each turn without a text-fallback
	// call: the progress line a user hears.
	OnText func(text string)
	// Guard is asked before each call runs (the agents' safety rules): it may
	// refuse it, answer it, stop the run or give it its own context. An error
	// ends the run.
	Guard func(ctx context.Context, g *Guarded) error
	// After sees each call's result or error (also of a tool not offered).
	After func(ctx context.Context, g *Guarded, out any, err error) error
	// Pause waits between turns.
	Pause time.Duration

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

// StatePrefix starts a reference to a value in State ("†state.name").
const StatePrefix = "†state."

// NoWallLimit is the wall-time limit of the command agent and the browser
// assistant: none of their own (a slow local model may read a whole book, a
// user may take minutes to answer); the caller's context (Stop) ends them.
const NoWallLimit = 1 << 62

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

// Guarded is one call of the model as the loop's hooks see it: Guard before
// it runs, After once it has run.
type Guarded struct {
	Turn int
	Call tools.Call // the arguments with references resolved, without meta
	// Args are the arguments decoded, for the agents' rules.
	Args map[string]any

	// Set by Guard:
	// Ctx runs the call in this context (a file grant, …) instead of the loop's.
	Ctx context.Context
	// Refuse answers the call with this value instead of running it (the
	// model reads why); Answer answers it as the guard's own result (tools
	// the caller performs itself, such as assistant_ask).
	Refuse, Answer any
	// Stop ends the run after this call with Solution.
	Stop     bool
	Solution string

	// Set by After: Reply replaces the call's answer in the context, Notes
	// follow it (as user messages).
	Reply any
	Notes []string
}

// Run runs the loop on msgs. With a Plan message and a session id, Plan and State
// are loaded from and saved to SQLite, so a later call continues the session.
// Cancelling ctx stops the run at once with ctx's error.
func (l *Loop) Run(ctx context.Context, session string, msgs []LoopMessage) (LoopResult, error) {
	lim := l.limits()
	parent := ctx
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
		if m.Kind == KindData && strings.HasPrefix(m.Path, StatePrefix) {
			res.State[strings.TrimPrefix(m.Path, StatePrefix)] = m.Data
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
	st := l.stepper(lim)
	var errs, thoughts []string
	var convo []llm.Message // the conversation of a Conversation loop
	for {
		if err := parent.Err(); err != nil {
			return res, err
		}
		if ctx.Err() != nil {
			res.Stopped = "time limit reached"
			return res, nil
		}
		req := l.request(msgs, plan, res.State, errs, thoughts, res.Turns == 0)
		if l.Conversation {
			fitConversation(ctx, l.Model, st.Tools, req, convo)
		}
		t, err := st.Step(ctx, append(req, convo...), nil)
		res.Turns, res.Tokens = st.Turns, st.Usage.TotalTokens
		var lerr *LimitError
		switch {
		case errors.As(err, &lerr):
			res.Stopped = lerr.msg
			return res, nil
		case err != nil && parent.Err() != nil:
			return res, parent.Err()
		case err != nil && ctx.Err() != nil:
			res.Stopped = "time limit reached"
			return res, nil
		case err != nil:
			return res, fmt.Errorf("turn %d: the model failed: %w", res.Turns, err)
		}
		if l.OnText != nil && t.Text != "" {
			l.OnText(t.Text)
		}
		if len(t.Calls) == 0 {
			if l.NeedCall == "" {
				res.Solution = strings.TrimSpace(t.Raw)
				return res, nil
			}
			convo = append(convo, llm.Message{Role: llm.RoleAssistant, Content: t.Raw}, llm.Message{Role: llm.RoleUser, Content: l.NeedCall})
			if err := l.pause(parent); err != nil {
				return res, err
			}
			continue
		}
		errs, thoughts = nil, nil
		if l.Conversation {
			convo = append(convo, llm.Message{Role: llm.RoleAssistant, Content: t.Raw, ToolCalls: t.calls()})
		}
		replies := make([][]llm.Message, len(t.Calls))
		answer := func(i int, v any, notes []string) {
			b := mustJSON(v)
			replies[i] = append(replies[i], llm.Message{Role: llm.RoleTool, ToolCallID: t.Calls[i].ID, Content: string(b)})
			for _, n := range notes {
				replies[i] = append(replies[i], llm.Message{Role: llm.RoleUser, Content: n})
			}
		}
		fail := func(i int, msg string) {
			if l.Conversation {
				answer(i, map[string]string{"error": msg}, nil)
			} else {
				errs = append(errs, msg)
			}
		}
		stop := false
		pending := make([]int, len(t.Calls))
		for i := range pending {
			pending[i] = i
		}
		// Run every call whose references resolve; a call that waits on a value
		// produced in this turn gets another pass; what still waits is an error.
		for pass := 0; len(pending) > 0 && pass < len(t.Calls)+1; pass++ {
			var waiting []int
			for _, i := range pending {
				c := t.Calls[i]
				if res.Steps >= lim.Steps {
					res.Stopped = fmt.Sprintf("step limit reached (%d)", lim.Steps)
					return res, nil
				}
				args, meta, err := SplitMeta(c.Arguments)
				if err != nil {
					fail(i, fmt.Sprintf("%s: %v", c.Name, err))
					continue
				}
				resolved, missing := resolveRefs(args, res.State)
				if missing != "" {
					waiting = append(waiting, i)
					continue
				}
				res.Steps++
				out := metaString(meta, "_outputPath")
				if lt := l.latent(c.Name); lt != nil {
					val, ok := resolved["_output"]
					switch {
					case !ok:
						fail(i, fmt.Sprintf("latent call %s has no _output: a latent call carries its own result", c.Name))
					case out == "":
						thoughts = append(thoughts, fmt.Sprintf("%s: %s", c.Name, val)) // ephemeral reasoning
						if l.Conversation {
							answer(i, map[string]string{"status": "noted"}, nil)
						}
					default:
						if _, err := writePath(res.State, out, val, ""); err != nil {
							fail(i, err.Error())
						} else if l.Conversation {
							answer(i, map[string]string{"status": "stored", "path": out}, nil)
						}
					}
					continue
				}
				g := &Guarded{Turn: res.Turns, Call: tools.Call{ID: c.ID, Name: c.Name, Args: mustJSON(resolved), Meta: meta}}
				_ = json.Unmarshal(g.Call.Args, &g.Args)
				if g.Args == nil {
					g.Args = map[string]any{}
				}
				_, inReg := l.Reg.Get(c.Name)
				if !c.Offered || (!inReg && !l.extra(c.Name)) {
					err := fmt.Errorf("%w %q; available: %s", tools.ErrUnknownTool, c.Name, st.offered())
					if l.After != nil {
						if ferr := l.After(ctx, g, nil, err); ferr != nil {
							return res, ferr
						}
					}
					if g.Reply != nil {
						answer(i, g.Reply, g.Notes)
					} else {
						fail(i, err.Error())
					}
					continue
				}
				if l.Guard != nil {
					if err := l.Guard(ctx, g); err != nil {
						return res, err
					}
				}
				switch {
				case g.Refuse != nil:
					answer(i, g.Refuse, g.Notes)
					continue
				case g.Answer != nil:
					answer(i, g.Answer, g.Notes)
					if g.Stop {
						res.Solution, stop = g.Solution, true
					}
					continue
				case !inReg:
					fail(i, fmt.Sprintf("%s: nothing answered this call", c.Name))
					continue
				}
				cctx := ctx
				if g.Ctx != nil {
					cctx = g.Ctx
				}
				call := g.Call
				tc := tools.Context{Messages: scoped(meta, res.State)}
				if out == "" && !l.Conversation {
					// Fire-and-forget: started, not awaited, not stored; failures logged.
					l.wg.Add(1)
					go func() {
						defer l.wg.Done()
						if _, err := l.Reg.Call(context.WithoutCancel(cctx), call, tc); err != nil && l.Log != nil {
							l.Log.Warn("fire-and-forget activity failed", "tool", call.Name, "err", err)
						}
					}()
					continue
				}
				v, err := l.Reg.Call(cctx, call, tc)
				if err == nil && out != "" {
					if _, werr := writePath(res.State, out, mustJSON(v), branchOf(v)); werr != nil {
						err = werr
					}
				}
				if l.After != nil {
					if ferr := l.After(ctx, g, v, err); ferr != nil {
						return res, ferr
					}
				}
				switch {
				case g.Reply != nil:
					answer(i, g.Reply, g.Notes)
				case err != nil:
					fail(i, fmt.Sprintf("%s: %v", c.Name, err))
				case l.Conversation:
					answer(i, v, g.Notes)
				}
			}
			if len(waiting) == len(pending) {
				for _, i := range waiting {
					args, _, _ := SplitMeta(t.Calls[i].Arguments)
					_, missing := resolveRefs(args, res.State)
					fail(i, fmt.Sprintf("%s waits for %s, which nothing produced", t.Calls[i].Name, missing))
				}
				break
			}
			pending = waiting
		}
		for _, r := range replies {
			convo = append(convo, r...)
		}
		if t.Dropped > 0 && l.Conversation {
			convo = append(convo, llm.Message{Role: llm.RoleUser, Content: "Only the first tool call was run: one tool per step."})
		}
		res.Errors = append(res.Errors, errs...)
		persist()
		if stop {
			return res, nil
		}
		if err := l.pause(parent); err != nil {
			return res, err
		}
	}
}

// stepper is the model turn of this loop: the offered tools and the limits.
func (l *Loop) stepper(lim Limits) *Stepper {
	var specs []llm.ToolSpec
	for _, t := range l.Reg.Tools() {
		if l.offered(t.Name) {
			params := t.InputSchema
			if !l.Conversation {
				params = withMeta(params)
			}
			specs = append(specs, llm.ToolSpec{Name: t.Name, Description: t.Description, Parameters: params})
		}
	}
	specs = append(specs, l.Extra...)
	for _, lt := range l.Latent {
		specs = append(specs, llm.ToolSpec{Name: lt.Name, Description: lt.Description + " (latent: put the result in _output)",
			Parameters: json.RawMessage(`{"type":"object","properties":{"_output":` + string(orAny(lt.Output)) + `,"_outputPath":{"type":"string"}},"required":["_output"]}`)})
	}
	return &Stepper{Model: l.Model, Tools: specs, One: l.OnePerStep, MaxTurns: lim.Turns, MaxTokens: lim.Tokens}
}

func (l *Loop) pause(ctx context.Context) error {
	if l.Pause <= 0 {
		return nil
	}
	select {
	case <-time.After(l.Pause):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (l *Loop) extra(name string) bool {
	for _, e := range l.Extra {
		if e.Name == name {
			return true
		}
	}
	return false
}

// request rebuilds the model's context: system, user input, plan, State as data
// messages, this turn's errors and thoughts.
func (l *Loop) request(msgs []LoopMessage, plan *Plan, state map[string]json.RawMessage, errs, thoughts []string, first bool) []llm.Message {
	var out []llm.Message
	sys := l.Prompt
	if sys == "" {
		sys = "You solve the user's request by calling tools. Each call may carry meta properties: _outputPath (\"†state.name\" stores the result in State; \"†state.a || †state.b\" lets the tool choose the branch), _scopes (State paths the tool may see). Arguments may reference stored values as \"†state.name\". A call without _outputPath to a code tool is fire-and-forget; to a latent tool it is a thought. Answer without calls when the request is solved."
	}
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
		out = append(out, llm.Message{Role: "user", Content: fmt.Sprintf("Data %s%s = %s", StatePrefix, k, state[k])})
	}
	for _, t := range thoughts {
		out = append(out, llm.Message{Role: "assistant", Content: "Thought: " + t})
	}
	for _, e := range errs {
		out = append(out, llm.Message{Role: "user", Content: "Error: " + e})
	}
	return out
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
		steps, turns, tokens, err := l.DraftPlan(ctx, msgs, plan, res.State)
		res.Turns, res.Tokens = turns, tokens
		if err != nil {
			return res, err
		}
		plan.Steps = steps
	}
	order, err := l.ValidatePlan(plan.Steps, res.State)
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
		if order, err = l.ValidatePlan(plan.Steps, res.State); err != nil {
			return res, fmt.Errorf("edited plan: %w", err)
		}
	case Approve:
	default:
		return res, fmt.Errorf("unknown plan decision %q: use approve, edit or reject", dec)
	}
	res, err = l.RunSteps(ctx, plan.Steps, order, res)
	if err != nil || res.Stopped != "" {
		return res, err
	}
	res.Solution = fmt.Sprintf("ran %d step(s) of the approved plan", len(order))
	return res, nil
}

// RunSteps runs a validated plan's steps in order; the first failure stops it.
func (l *Loop) RunSteps(ctx context.Context, steps []PlanStep, order []int, res LoopResult) (LoopResult, error) {
	for _, i := range order {
		st := steps[i]
		args, meta, err := SplitMeta(st.Args)
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
	return res, nil
}

// planSchema is the JSON a model's lazy plan must be.
const planSchema = `{"type":"object","properties":{"steps":{"type":"array","items":{"type":"object","properties":{"id":{"type":"string"},"tool":{"type":"string"},"args":{"type":"object"},"outputPath":{"type":"string"},"say":{"type":"string"}},"required":["id","tool","args"]}}},"required":["steps"]}`

// DraftPlan asks the model, through the loop's model turn, for a lazy plan: a
// declarative dataflow graph, nothing executed (no tools are offered).
func (l *Loop) DraftPlan(ctx context.Context, msgs []LoopMessage, plan *Plan, state map[string]json.RawMessage) ([]PlanStep, int, int, error) {
	st := l.stepper(l.limits())
	req := l.request(msgs, plan, state, nil, nil, true)
	var names []string
	for _, t := range st.Tools {
		if l.latent(t.Name) == nil && !l.extra(t.Name) {
			names = append(names, t.Name)
		}
	}
	req = append(req, llm.Message{Role: "user", Content: `Lazy mode: do not execute anything. Reply with only the plan as JSON: {"steps":[{"id":"s1","tool":"Find","args":{...},"outputPath":"†state.x","say":"what the step does, in the user's words"}, ...]}; arguments may reference other steps' outputs as "†state.x". Tools: ` + strings.Join(names, ", ") + "."})
	t, err := st.Step(ctx, req, &llm.JSONSchema{Name: "plan", Schema: json.RawMessage(planSchema)})
	if err != nil {
		return nil, st.Turns, st.Usage.TotalTokens, fmt.Errorf("lazy plan: the model failed: %w", err)
	}
	var p Plan
	if err := json.Unmarshal([]byte(stripFence(t.Raw)), &p); err != nil {
		return nil, st.Turns, st.Usage.TotalTokens, fmt.Errorf("lazy plan: the model's plan is not JSON {\"steps\":[…]}: %v", err)
	}
	return p.Steps, st.Turns, st.Usage.TotalTokens, nil
}

// stripFence takes a JSON answer out of a ``` fence, which small models add.
func stripFence(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "```") {
		s = strings.TrimPrefix(s, "```")
		s = strings.TrimPrefix(s, "json")
		s = strings.TrimSuffix(strings.TrimSpace(s), "```")
	}
	return strings.TrimSpace(s)
}

// ValidatePlan checks tools, ids, output paths and references, and returns a
// dependency order; a cycle or a dangling reference is an error naming the steps.
func (l *Loop) ValidatePlan(steps []PlanStep, state map[string]json.RawMessage) ([]int, error) {
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
		args, _, err := SplitMeta(s.Args)
		if err != nil {
			return nil, fmt.Errorf("plan step %s: %w", s.ID, err)
		}
		for _, ref := range RefsIn(args) {
			if j, ok := producer[ref]; ok {
				deps[i] = append(deps[i], j)
			} else if _, ok := state[ref]; !ok {
				return nil, fmt.Errorf("plan step %s references %s%s, which no step produces", s.ID, StatePrefix, ref)
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

// SplitMeta separates underscore meta properties from arguments.
func SplitMeta(raw json.RawMessage) (map[string]json.RawMessage, map[string]json.RawMessage, error) {
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
		if strings.HasPrefix(p, StatePrefix) {
			ps = append(ps, strings.TrimPrefix(p, StatePrefix))
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
		b := strings.TrimPrefix(branch, StatePrefix)
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
		if json.Unmarshal(v, &s) == nil && strings.HasPrefix(s, StatePrefix) {
			path := strings.TrimPrefix(s, StatePrefix)
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

// RefsIn lists the State values the arguments reference (their first path
// segment).
func RefsIn(args map[string]json.RawMessage) []string {
	var refs []string
	for _, v := range args {
		var s string
		if json.Unmarshal(v, &s) == nil && strings.HasPrefix(s, StatePrefix) {
			p := strings.TrimPrefix(s, StatePrefix)
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
		p := strings.TrimPrefix(s, StatePrefix)
		if v, ok := lookup(state, p); ok {
			out = append(out, tools.Message{Kind: KindData, Path: StatePrefix + p, Data: v})
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
