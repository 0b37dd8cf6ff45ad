// Package agent is the engine under Waymark's agents (the author's, in
// package author, and the web ones, in package web): the execution loop of
// SPEC §4 and the one model turn every agent takes (Stepper).
package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/tools"
)

// The execution loop of SPEC §4 (the "acts" protocol) as the agents use it: a
// request's context is rebuilt for every turn from typed messages; the model
// calls one Activity (a registry tool) a step and reads its result, or its
// error, as the call's answer; a result lands in State at the call's
// _outputPath (a branching path lets the tool choose), references
// "†state.path" resolve before a call runs, and _scopes give a tool the State
// values it may see. The agents' rules are the loop's Guard and After hooks;
// small policies replace modes: a ContextPolicy decides what each turn's
// request holds, a Protocol reads a call from one JSON document (the cursor
// sub-agent, which reads a book in portions, is such a loop: its actions are
// tools, its portion the context).
// Lazy plans are drafted (DraftPlan), validated (ValidatePlan) and, once
// approved, run (RunSteps) by the author's agents.

// Message kinds of the loop's context.
const (
	KindSystem = "system"
	KindUser   = "user"
	KindData   = "data" // a value in State, at Path
)

// LoopMessage is one typed message of the loop's context.
type LoopMessage struct {
	Kind string          `json:"kind"`
	Path string          `json:"path,omitempty"`
	Text string          `json:"text,omitempty"`
	Data json.RawMessage `json:"data,omitempty"`
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

// Limits bound a loop run.
type Limits struct {
	Turns, Steps int
	Wall         time.Duration
	Tokens       int
}

// Loop runs the protocol: one tool per step (SPEC §5), each call answered in
// the conversation.
type Loop struct {
	Reg   *tools.Registry
	Model llm.Model
	// Activities lists the registry tools offered to the model (all when empty).
	Activities []string
	Limits     Limits
	// Prompt replaces the loop's own system prompt.
	Prompt string
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
	// Progress receives what the tools the loop runs report while they work
	// (a plan's commands), for the door that runs the loop.
	Progress func(tools.Progress)
	// Context decides what each turn's request holds (nil: the loop's own,
	// see conversation).
	Context ContextPolicy
	// Protocol reads a turn's call from one JSON document instead of a
	// native tool call (nil: native tool calls).
	Protocol Protocol
	// Retries is how many replies in a row that are not a call (NeedCall, a
	// document Protocol refuses) the model is told about and asked again
	// before the run stops with a NoCallError; 0: no limit but the turns.
	Retries int
}

// ContextPolicy decides what each turn's request holds: the loop records
// every step's exchange in it and asks it for the next turn's request.
type ContextPolicy interface {
	// Request is the next turn's request.
	Request(ctx context.Context) []llm.Message
	// Record adds a step's exchange: the model's message and what answered it.
	Record(exchange ...llm.Message)
}

// Protocol is how the model makes its call when it answers each turn with
// one JSON document (the cursor sub-agent's actions) instead of a native
// tool call. The loop asks for Schema, Read makes the document the turn's
// call, and the call's answer comes back in a user message (a string
// result as it is). A document Read refuses is answered with Read's error.
type Protocol interface {
	Schema() *llm.JSONSchema
	Read(raw string) (llm.ToolCall, error)
}

// ModelError is a turn the model did not complete: its server failed, or
// the built-in engine needs a model server (ErrNeedsModel).
type ModelError struct {
	Turn int
	Err  error
}

func (e *ModelError) Error() string {
	return fmt.Sprintf("turn %d: the model failed: %v", e.Turn, e.Err)
}
func (e *ModelError) Unwrap() error { return e.Err }

// NoCallError stops a run whose model did not make a call after Retries
// reminders in a row; Last is its last reply.
type NoCallError struct {
	Retries int
	Last    string
}

func (e *NoCallError) Error() string {
	return fmt.Sprintf("the model did not make a call after %d reminders (last reply: %q)", e.Retries, e.Last)
}

// LoopResult is the outcome of Run.
type LoopResult struct {
	Solution string                     `json:"solution"`
	State    map[string]json.RawMessage `json:"state"`
	Turns    int                        `json:"turns"`
	Steps    int                        `json:"steps"`
	Tokens   int                        `json:"tokens"`
	// Usage is what the turns took, in detail.
	Usage   llm.Usage `json:"-"`
	Stopped string    `json:"stopped,omitempty"` // why the loop stopped without a solution
	Errors  []string  `json:"errors,omitempty"`
}

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
	// Stop ends the run after this call with Solution (Guard or After may
	// set it: a tool that finished the task).
	Stop     bool
	Solution string

	// Set by After: Reply replaces the call's answer in the context, Notes
	// follow it (as user messages).
	Reply any
	Notes []string
}

// Run runs the loop on msgs until the model answers without a call, a hook
// stops it, or a limit is reached. Cancelling ctx stops the run at once with
// ctx's error.
func (l *Loop) Run(ctx context.Context, msgs []LoopMessage) (LoopResult, error) {
	lim := l.limits()
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, lim.Wall)
	defer cancel()
	res := LoopResult{State: stateOf(msgs)}
	st, err := l.stepper(lim)
	if err != nil {
		return res, err
	}
	cx := l.Context
	if cx == nil {
		cx = &conversation{l: l, tools: st.Tools, msgs: msgs, state: res.State}
	}
	unread := 0 // replies in a row that were not a call
	for {
		if err := parent.Err(); err != nil {
			return res, err
		}
		if ctx.Err() != nil {
			res.Stopped = "time limit reached"
			return res, nil
		}
		t, err := l.turn(ctx, st, cx.Request(ctx))
		res.Turns, res.Tokens, res.Usage = st.Turns, st.Usage.TotalTokens, st.Usage
		if err != nil {
			return res, l.failed(parent, ctx, err, &res)
		}
		if l.OnText != nil && t.Text != "" {
			l.OnText(t.Text)
		}
		switch {
		case len(t.Calls) == 0 && t.unread == "":
			res.Solution = strings.TrimSpace(t.Raw)
			return res, nil
		case len(t.Calls) == 0:
			if unread++; l.Retries > 0 && unread > l.Retries {
				return res, &NoCallError{Retries: l.Retries, Last: t.Raw}
			}
			cx.Record(llm.Message{Role: llm.RoleAssistant, Content: t.Raw}, llm.Message{Role: llm.RoleUser, Content: t.unread})
		case res.Steps >= lim.Steps:
			res.Stopped = fmt.Sprintf("step limit reached (%d)", lim.Steps)
			return res, nil
		default:
			unread = 0
			res.Steps++
			g, reply, err := l.call(ctx, st, t.Calls[0], &res)
			if err != nil {
				return res, err
			}
			cx.Record(l.exchange(t, reply)...)
			if g.Stop {
				res.Solution = g.Solution
				return res, nil
			}
		}
		if err := l.pause(parent); err != nil {
			return res, err
		}
	}
}

// stateOf is the State the data messages of msgs start a run with.
func stateOf(msgs []LoopMessage) map[string]json.RawMessage {
	state := map[string]json.RawMessage{}
	for _, m := range msgs {
		if m.Kind == KindData && strings.HasPrefix(m.Path, StatePrefix) {
			state[strings.TrimPrefix(m.Path, StatePrefix)] = m.Data
		}
	}
	return state
}

// turn asks the model for the step's call, as a native tool call or in the
// loop's Protocol. A reply without a call that is not a solution says in
// unread what the model is told before it is asked again.
func (l *Loop) turn(ctx context.Context, st *Stepper, req []llm.Message) (Turn, error) {
	if l.Protocol == nil {
		t, err := st.Step(ctx, req, nil)
		if len(t.Calls) == 0 {
			t.unread = l.NeedCall
		}
		return t, err
	}
	t, err := st.Step(ctx, req, l.Protocol.Schema())
	if err != nil {
		return t, err
	}
	c, rerr := l.Protocol.Read(t.Raw)
	if rerr != nil {
		t.unread = rerr.Error()
		return t, nil
	}
	t.Calls = []StepCall{{ToolCall: c, Offered: st.offers(c.Name)}}
	return t, nil
}

// exchange is a step as the context records it: the model's message (with
// its call when it was a native one), the call's answer, and a note when
// calls beyond the first were dropped.
func (l *Loop) exchange(t Turn, reply []llm.Message) []llm.Message {
	said := llm.Message{Role: llm.RoleAssistant, Content: t.Raw}
	if l.Protocol == nil {
		said.ToolCalls = t.calls()
	}
	out := append([]llm.Message{said}, reply...)
	if t.Dropped > 0 {
		out = append(out, llm.Message{Role: llm.RoleUser, Content: "Only the first tool call was run: one tool per step."})
	}
	return out
}

// conversation is the loop's own context policy: the system prompt, the
// user's messages and State as data messages, rebuilt for every turn, then
// the steps so far, shortened to fit the model's budget (fitConversation).
type conversation struct {
	l     *Loop
	tools []llm.ToolSpec
	msgs  []LoopMessage
	state map[string]json.RawMessage
	convo []llm.Message // the steps so far: each call and its answer
}

func (c *conversation) Request(ctx context.Context) []llm.Message {
	req := c.l.request(c.msgs, c.state)
	fitConversation(ctx, c.l.Model, c.tools, req, c.convo)
	return append(req, c.convo...)
}

func (c *conversation) Record(exchange ...llm.Message) { c.convo = append(c.convo, exchange...) }

// failed says why a turn the model did not complete ends the run: a limit
// or the time limit (Stopped, no error), the caller's cancellation, or the
// model's failure.
func (l *Loop) failed(parent, ctx context.Context, err error, res *LoopResult) error {
	var lerr *LimitError
	switch {
	case errors.As(err, &lerr):
		res.Stopped = lerr.msg
		return nil
	case parent.Err() != nil:
		return parent.Err()
	case ctx.Err() != nil:
		res.Stopped = "time limit reached"
		return nil
	}
	return &ModelError{Turn: res.Turns, Err: err}
}

// call runs the model's call of this step: references resolved, the guard
// asked, the tool run (its result stored at the call's _outputPath), the
// outcome shown to After. It returns the messages that answer the call.
func (l *Loop) call(ctx context.Context, st *Stepper, c StepCall, res *LoopResult) (*Guarded, []llm.Message, error) {
	g := &Guarded{Turn: res.Turns, Call: tools.Call{ID: c.ID, Name: c.Name}, Args: map[string]any{}}
	answer := func(v any, notes []string) []llm.Message { return l.answer(c.ID, v, notes) }
	fail := func(msg string) []llm.Message { return answer(map[string]string{"error": msg}, nil) }
	args, meta, err := SplitMeta(c.Arguments)
	if err != nil {
		return g, fail(fmt.Sprintf("%s: %v", c.Name, err)), nil
	}
	resolved, missing := resolveRefs(args, res.State)
	if missing != "" {
		return g, fail(fmt.Sprintf("%s waits for %s, which nothing produced", c.Name, missing)), nil
	}
	g.Call.Args, g.Call.Meta = mustJSON(resolved), meta
	_ = json.Unmarshal(g.Call.Args, &g.Args)
	inReg := l.Reg.Has(c.Name)
	unknown := !c.Offered || (!inReg && !l.extra(c.Name))
	var out any
	switch {
	case unknown:
		err = fmt.Errorf("%w %q; available: %s", tools.ErrUnknownTool, c.Name, st.offered())
	default:
		if l.Guard != nil {
			if err := l.Guard(ctx, g); err != nil {
				return g, nil, err
			}
		}
		switch {
		case g.Refuse != nil:
			return g, answer(g.Refuse, g.Notes), nil
		case g.Answer != nil:
			return g, answer(g.Answer, g.Notes), nil
		case !inReg:
			return g, fail(c.Name + ": nothing answered this call"), nil
		}
		out, err = l.run(ctx, g, res.State)
	}
	if l.After != nil {
		if ferr := l.After(ctx, g, out, err); ferr != nil {
			return g, nil, ferr
		}
	}
	switch {
	case g.Reply != nil:
		return g, answer(g.Reply, g.Notes), nil
	case unknown:
		return g, fail(err.Error()), nil
	case err != nil:
		return g, fail(fmt.Sprintf("%s: %v", c.Name, err)), nil
	}
	return g, answer(out, g.Notes), nil
}

// answer is the messages that answer call id with v: a tool message, or in
// the loop's Protocol a user message (a string as it is); notes follow it.
func (l *Loop) answer(id string, v any, notes []string) []llm.Message {
	text := string(mustJSON(v))
	out := []llm.Message{{Role: llm.RoleTool, ToolCallID: id, Content: text}}
	if l.Protocol != nil {
		if s, ok := v.(string); ok {
			text = s
		}
		out[0] = llm.Message{Role: llm.RoleUser, Content: text}
	}
	for _, n := range notes {
		out = append(out, llm.Message{Role: llm.RoleUser, Content: n})
	}
	return out
}

// run runs a guarded call's tool in the guard's context (or the loop's) and
// stores its result at the call's _outputPath.
func (l *Loop) run(ctx context.Context, g *Guarded, state map[string]json.RawMessage) (any, error) {
	if g.Ctx != nil {
		ctx = g.Ctx
	}
	v, err := l.Reg.Call(ctx, g.Call, tools.Context{Messages: scoped(g.Call.Meta, state), Progress: l.Progress})
	if out := metaString(g.Call.Meta, "_outputPath"); err == nil && out != "" {
		_, err = writePath(state, out, mustJSON(v), branchOf(v))
	}
	return v, err
}

// stepper is the model turn of this loop: the offered tools and the limits.
func (l *Loop) stepper(lim Limits) (*Stepper, error) {
	var specs []llm.ToolSpec
	ts, err := l.Reg.Tools()
	if err != nil {
		return nil, err
	}
	for _, t := range ts {
		if l.offered(t.Name) {
			specs = append(specs, llm.ToolSpec{Name: t.Name, Description: t.Description, Parameters: t.InputSchema})
		}
	}
	specs = append(specs, l.Extra...)
	return &Stepper{Model: l.Model, Tools: specs, One: true, MaxTurns: lim.Turns, MaxTokens: lim.Tokens}, nil
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

// request rebuilds the model's context: the system prompt, the user's
// messages, and State as data messages.
func (l *Loop) request(msgs []LoopMessage, state map[string]json.RawMessage) []llm.Message {
	sys := l.Prompt
	if sys == "" {
		sys = "You solve the user's request by calling tools, one per step. A call may carry meta properties: _outputPath (\"†state.name\" stores the result in State; \"†state.a || †state.b\" lets the tool choose the branch), _scopes (State paths the tool may see). Arguments may reference stored values as \"†state.name\". Answer without a call when the request is solved."
	}
	out := []llm.Message{{Role: "system", Content: sys}}
	for _, m := range msgs {
		switch m.Kind {
		case KindSystem:
			out = append(out, llm.Message{Role: "system", Content: m.Text})
		case KindUser:
			out = append(out, llm.Message{Role: "user", Content: m.Text})
		}
	}
	keys := make([]string, 0, len(state))
	for k := range state {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, llm.Message{Role: "user", Content: fmt.Sprintf("Data %s%s = %s", StatePrefix, k, state[k])})
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
		v, err := l.Reg.Call(ctx, tools.Call{ID: st.ID, Name: st.Tool, Args: mustJSON(resolved), Meta: meta}, tools.Context{Messages: scoped(meta, res.State), Progress: l.Progress})
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

// DraftPlan asks the model, through the loop's model turn, for a lazy plan
// (SPEC §4 "mode: lazy"): a declarative dataflow graph, nothing executed (no
// tools are offered). The author's plans are drafted here, then shown for
// approval and run by RunSteps.
func (l *Loop) DraftPlan(ctx context.Context, msgs []LoopMessage) ([]PlanStep, int, int, error) {
	st, err := l.stepper(l.limits())
	if err != nil {
		return nil, 0, 0, err
	}
	req := l.request(msgs, nil)
	var names []string
	for _, t := range st.Tools {
		if !l.extra(t.Name) {
			names = append(names, t.Name)
		}
	}
	req = append(req, llm.Message{Role: "user", Content: `Lazy mode: do not execute anything. Reply with only the plan as JSON: {"steps":[{"id":"s1","tool":"Find","args":{...},"outputPath":"†state.x","say":"what the step does, in the user's words"}, ...]}; arguments may reference other steps' outputs as "†state.x". Tools: ` + strings.Join(names, ", ") + "."})
	t, err := st.Step(ctx, req, &llm.JSONSchema{Name: "plan", Schema: json.RawMessage(planSchema)})
	if err != nil {
		return nil, st.Turns, st.Usage.TotalTokens, fmt.Errorf("lazy plan: the model failed: %w", err)
	}
	var p struct {
		Steps []PlanStep `json:"steps"`
	}
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
		if !l.Reg.Has(s.Tool) || !l.offered(s.Tool) {
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
