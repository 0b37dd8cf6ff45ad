package author

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/waymark/waymark/backend/agent"
	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/store"
)

// Lazy plans for the author (SPEC §4 "mode: lazy"): a command of several steps
// ("collect every scene with Natasha, then summarise each") becomes a list of
// steps that the author approves, edits or rejects before anything runs. The
// window, the CLI and MCP reach plans through the tools PlanPropose, PlanRun and
// PlanDiscard; plans are kept in SQLite (agent_state) until they run, are
// discarded or expire.

// PlanTTL is how long a proposed plan waits for its approval.
const PlanTTL = 24 * time.Hour

// planTools are what a plan's steps may call: the command agent's tools and
// RunCommand (one command the agent understands).
var planTools = append(append([]string{}, modelTools...), "RunCommand")

// PlanProposal is a lazy plan as the user sees it, before anything runs.
type PlanProposal struct {
	PlanID  string         `json:"planId"`
	Command string         `json:"command"`
	Steps   []PlanStepView `json:"steps"`
	// Message announces the plan ("Plan of 2 steps: 1. …; 2. …"), for a live region.
	Message string `json:"message"`
}

// PlanStepView is one step of a proposed plan: a tool call and what it does in
// the user's words.
type PlanStepView struct {
	ID         string          `json:"id" jsonschema:"the step's id (s1, s2, …); other steps refer to its result as †state.<outputPath>"`
	Tool       string          `json:"tool" jsonschema:"the tool the step calls"`
	Arguments  json.RawMessage `json:"arguments" jsonschema:"the tool's arguments (a JSON object); a string †state.x is another step's result"`
	OutputPath string          `json:"outputPath,omitempty" jsonschema:"where the step's result is kept, †state.name"`
	Say        string          `json:"say" jsonschema:"what the step does, in the user's words"`
}

// PlanRunResult is how an approved plan ran.
type PlanRunResult struct {
	PlanID  string           `json:"planId"`
	Success bool             `json:"success"`
	Ran     int              `json:"ran"`
	Steps   []PlanStepOutput `json:"steps"`
	// Answer joins the steps' answers, for the user.
	Answer string `json:"answer"`
	Error  string `json:"error,omitempty"`
	// Outcome is what the plan did to the book: the edits to review (none
	// when it stopped part-way, which sets the book back).
	Outcome
}

// PlanStepOutput is one step's outcome.
type PlanStepOutput struct {
	ID     string `json:"id"`
	Say    string `json:"say"`
	Result any    `json:"result,omitempty"`
	Error  string `json:"error,omitempty"`
}

// savedPlan is a plan in the store.
type savedPlan struct {
	Command string         `json:"command"`
	Steps   []PlanStepView `json:"steps"`
	Status  string         `json:"status"` // proposed, ran, discarded
	Created time.Time      `json:"created"`
}

const (
	planProposed  = "proposed"
	planRan       = "ran"
	planDiscarded = "discarded"
)

// reThen splits "X, then Y" / «X, затем Y» into its steps: a comma or a
// semicolon before the word, so that "where Pierre argues and then leaves" or
// «где Наташа потом поёт» stays one command.
var reThen = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\s*[,;]\s*(?:(?:and\s+)?then|(?:а\s+|и\s+)?(?:затем|потом|после\s+этого))\s+`)
})

// splitSteps returns the steps of a command of several ("X, then Y"); a
// command of one step gives one part. A "then" inside a quoted phrase
// (replace "then" with "than") does not split.
func splitSteps(cmd string) []string {
	cmd = strings.TrimSpace(cmd)
	inQuote := quoted().FindAllStringIndex(cmd, -1)
	var out []string
	start := 0
	add := func(p string) {
		if p = strings.Trim(strings.TrimSpace(p), ".;,"); p != "" {
			out = append(out, p)
		}
	}
	for _, m := range reThen().FindAllStringIndex(cmd, -1) {
		inside := false
		for _, q := range inQuote {
			inside = inside || m[0] >= q[0] && m[0] < q[1]
		}
		if inside || m[0] < start {
			continue
		}
		add(cmd[start:m[0]])
		start = m[1]
	}
	add(cmd[start:])
	return out
}

// builtinUnderstands tells whether the built-in engine carries out cmd.
func builtinUnderstands(cmd string) bool {
	in := ParseCommand(cmd)
	return in.Understood() && !in.Semantic
}

func newPlanID() string { return newID("plan_") }

// Propose makes a lazy plan of command and keeps it for approval; nothing
// runs. A command whose steps the built-in engine understands ("X, then Y",
// «X, затем Y») becomes one RunCommand step per part, with or without a
// model; anything else is planned by the model through the loop's lazy plan.
func (c *CommandAgent) Propose(ctx context.Context, command string) (PlanProposal, error) {
	command = strings.TrimSpace(command)
	if command == "" {
		return PlanProposal{}, errors.New(`say what to plan, e.g. collect all mentions of "Natasha" into "Natasha", then summarise part 2`)
	}
	parts := splitSteps(command)
	var steps []PlanStepView
	var unknown string
	for _, p := range parts {
		if !builtinUnderstands(p) {
			unknown = p
			break
		}
	}
	isBuiltin := !llm.Understands(c.Runtime.LLM())
	switch {
	case unknown == "":
		for i, p := range parts {
			args, _ := json.Marshal(map[string]string{"command": p})
			steps = append(steps, PlanStepView{ID: fmt.Sprintf("s%d", i+1), Tool: "RunCommand", Arguments: args, Say: p})
		}
	case isBuiltin:
		return PlanProposal{}, c.refusal(ParseCommand(unknown), unknown)
	default:
		l := c.planLoop()
		drafted, _, _, err := l.DraftPlan(ctx, []agent.LoopMessage{{Kind: agent.KindSystem, Text: commandPrompt}, {Kind: agent.KindUser, Text: command}})
		if err != nil {
			return PlanProposal{}, err
		}
		for _, s := range drafted {
			steps = append(steps, PlanStepView{ID: s.ID, Tool: s.Tool, Arguments: s.Args, OutputPath: s.OutputPath, Say: s.Say})
		}
	}
	if err := c.checkPlan(steps); err != nil {
		return PlanProposal{}, err
	}
	p := PlanProposal{PlanID: newPlanID(), Command: command, Steps: steps, Message: planMessage(steps)}
	if err := c.Runtime.Store.SaveAgentState(ctx, p.PlanID, "plan", savedPlan{Command: command, Steps: steps, Status: planProposed, Created: time.Now().UTC()}); err != nil {
		return PlanProposal{}, err
	}
	return p, nil
}

// planMessage announces a plan in one line.
func planMessage(steps []PlanStepView) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Plan of %d step(s): ", len(steps))
	for i, s := range steps {
		if i > 0 {
			b.WriteString("; ")
		}
		say := s.Say
		if say == "" {
			say = s.Tool + " " + string(s.Arguments)
		}
		fmt.Fprintf(&b, "%d. %s", i+1, say)
	}
	return b.String() + ". Nothing runs until you approve it."
}

func (c *CommandAgent) planLoop() *agent.Loop {
	return &agent.Loop{Reg: c.Reg, Model: c.Runtime.LLM(), Activities: planTools, Prompt: commandPrompt, Progress: c.Progress}
}

// loopSteps turns the user's view of the steps into the loop's, giving each
// step a place for its result.
func loopSteps(steps []PlanStepView) []agent.PlanStep {
	out := make([]agent.PlanStep, len(steps))
	for i, s := range steps {
		out[i] = agent.PlanStep{ID: s.ID, Tool: s.Tool, Args: s.Arguments, OutputPath: s.OutputPath, Say: s.Say}
		if out[i].OutputPath == "" {
			out[i].OutputPath = agent.StatePrefix + s.ID
		}
		if len(out[i].Args) == 0 {
			out[i].Args = json.RawMessage(`{}`)
		}
	}
	return out
}

// checkPlan validates steps like every call: known tools a plan may use, an
// acyclic graph whose references resolve, and the arguments of every step that
// references nothing valid under its tool's schema (a step that references
// another's result is checked again when it runs).
func (c *CommandAgent) checkPlan(steps []PlanStepView) error {
	ls := loopSteps(steps)
	if _, err := c.planLoop().ValidatePlan(ls, nil); err != nil {
		return err
	}
	for _, s := range ls {
		args, _, err := agent.SplitMeta(s.Args)
		if err != nil {
			return fmt.Errorf("plan step %s: %w", s.ID, err)
		}
		if len(agent.RefsIn(args)) > 0 {
			continue
		}
		if err := c.Reg.Check(s.Tool, s.Args); err != nil {
			return fmt.Errorf("plan step %s: %w", s.ID, err)
		}
	}
	return nil
}

// loadPlan reads a proposed plan, with a clear error when it cannot run.
func (c *CommandAgent) loadPlan(ctx context.Context, id string) (savedPlan, error) {
	st, err := c.Runtime.Store.AgentState(ctx, id)
	if errors.Is(err, store.ErrNotFound) || err == nil && st.Kind != "plan" {
		return savedPlan{}, fmt.Errorf("no plan %q: propose it again with PlanPropose", id)
	}
	if err != nil {
		return savedPlan{}, err
	}
	var p savedPlan
	if err := json.Unmarshal(st.Data, &p); err != nil {
		return savedPlan{}, fmt.Errorf("plan %q is damaged (%v): propose it again", id, err)
	}
	switch {
	case p.Status == planDiscarded:
		return p, fmt.Errorf("plan %q was discarded: propose it again", id)
	case p.Status == planRan:
		return p, fmt.Errorf("plan %q has already run: propose it again to run it once more", id)
	case time.Since(p.Created) > PlanTTL:
		return p, fmt.Errorf("plan %q expired (proposed %s ago, plans wait %s): propose it again", id, time.Since(p.Created).Round(time.Minute), PlanTTL)
	}
	return p, nil
}

// RunPlan runs an approved plan; steps, when given, are the user's edit of it
// and are validated again. Steps run in dependency order; a failed step stops
// the plan and says which steps ran.
func (c *CommandAgent) RunPlan(ctx context.Context, id string, edited []PlanStepView) (PlanRunResult, error) {
	p, err := c.loadPlan(ctx, id)
	if err != nil {
		return PlanRunResult{}, err
	}
	steps := p.Steps
	if edited != nil {
		if err := c.checkPlan(edited); err != nil {
			return PlanRunResult{}, fmt.Errorf("the edited plan: %w", err)
		}
		steps = edited
	}
	ls := loopSteps(steps)
	l := c.planLoop()
	order, err := l.ValidatePlan(ls, nil)
	if err != nil {
		return PlanRunResult{}, err
	}
	p.Steps, p.Status = steps, planRan
	if err := c.Runtime.Store.SaveAgentState(ctx, id, "plan", p); err != nil {
		return PlanRunResult{}, err
	}
	out := PlanRunResult{PlanID: id}
	// A plan that stops half-way sets the manuscript back to this revision.
	m, err := c.Runtime.WS.Current()
	if err != nil {
		return PlanRunResult{}, err
	}
	var head int64
	_ = m.Do(func(d *document.Document) error { head = d.Rev(); return nil })
	res, runErr := l.RunSteps(ctx, ls, order, agent.LoopResult{State: map[string]json.RawMessage{}})
	var answers []string
	for _, i := range order[:min(res.Steps, len(order))] {
		s := ls[i]
		so := PlanStepOutput{ID: s.ID, Say: s.Say}
		if v, ok := res.State[strings.TrimPrefix(s.OutputPath, agent.StatePrefix)]; ok {
			so.Result = v
			var r struct {
				Answer string `json:"answer"`
				Error  string `json:"error"`
			}
			if json.Unmarshal(v, &r) == nil {
				if r.Answer != "" {
					answers = append(answers, r.Answer)
				}
				so.Error = r.Error
			}
		}
		out.Steps = append(out.Steps, so)
	}
	out.Ran = res.Steps
	if len(res.Errors) > 0 {
		out.Ran-- // the step that failed
	}
	if len(res.Errors) > 0 && len(out.Steps) > 0 {
		out.Steps[len(out.Steps)-1].Error = res.Errors[0]
	}
	out.Answer = strings.Join(answers, "\n")
	if runErr == nil && res.Stopped == "" {
		out.Success = true
		for _, s := range out.Steps {
			out.Success = out.Success && s.Error == ""
		}
		// The edits are described in the language of the command that made
		// the plan (the book's before: a Russian book's plan, asked for in
		// English, was reviewed in Russian).
		lang := map[bool]string{false: "en", true: "ru"}[ParseCommand(p.Command).Russian]
		out.Outcome = outcome(ctx, c.Reg, m, head, &watch{contexts: map[int64]string{}, language: lang})
		return out, nil
	}
	why := res.Stopped
	if runErr != nil {
		why = runErr.Error()
	}
	if len(res.Errors) > 0 {
		why = strings.Join(res.Errors, "; ")
	}
	var cur int64
	_ = m.Do(func(d *document.Document) error { cur = d.Rev(); return nil })
	undo := "; nothing in the manuscript had changed"
	if cur != head {
		undo = fmt.Sprintf("; the manuscript was set back to revision %d, as it was before the plan", head)
		if _, err := m.Restore(context.WithoutCancel(ctx), head); err != nil {
			undo = fmt.Sprintf("; setting the manuscript back to revision %d failed (%v): see History", head, err)
		}
	}
	out.Error = fmt.Sprintf("the plan stopped: %s; %d of %d step(s) had run%s", why, out.Ran, len(ls), undo)
	out.Outcome = Outcome{Revision: cur, Edits: []ReviewEdit{}}
	_ = m.Do(func(d *document.Document) error { out.Revision = d.Rev(); return nil })
	return out, nil
}

// DiscardPlan drops a proposed plan: it will not run.
func (c *CommandAgent) DiscardPlan(ctx context.Context, id string) error {
	p, err := c.loadPlan(ctx, id)
	if err != nil {
		return err
	}
	p.Status = planDiscarded
	return c.Runtime.Store.SaveAgentState(ctx, id, "plan", p)
}
