package web

import (
	"context"
	"fmt"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/agent"
	"github.com/waymark/waymark/backend/agent/author"
	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/tools"
)

// BrowserGoalArgs are BrowserGoal's arguments.
type BrowserGoalArgs struct {
	Goal     string `json:"goal" jsonschema:"what the user wants done on the web, in plain words, e.g. find the weather in Kazan"`
	MaxSteps int    `json:"max_steps,omitempty" jsonschema:"at most this many steps (default 20)"`
}

// Refine: a goal is not empty; steps are bounded.
func (BrowserGoalArgs) Refine(s *jsonschema.Schema) {
	one := 1
	tools.Prop(s, "goal").MinLength = &one
	tools.Range(tools.Prop(s, "max_steps"), 1, 100)
}

// GoalOptions are what a door adds to a goal: how the assistant asks the
// user, how long it waits, the pause between steps, screenshots after
// errors, and a log of steps.
type GoalOptions struct {
	Ask         func(ctx context.Context, question string) (string, error)
	AskTimeout  time.Duration
	Pause       time.Duration
	Screenshots bool
	Log         func(StepLog)
}

type goalOptionsKey struct{}

// WithGoalOptions hands a door's GoalOptions to BrowserGoal calls under ctx.
func WithGoalOptions(ctx context.Context, o GoalOptions) context.Context {
	return context.WithValue(ctx, goalOptionsKey{}, o)
}

// ErrGoalNeedsModel is BrowserGoal with the built-in engine: a goal in plain
// words needs a model server.
var ErrGoalNeedsModel = fmt.Errorf("%w: goals in plain words need a model server", agent.ErrNeedsModel)

// BrowserGoalRef is the typed handle on the BrowserGoal tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var BrowserGoalRef = tools.RefTo[BrowserGoalArgs, AssistantResult]("BrowserGoal")

// browserGoalTool is BrowserGoal: the browser assistant as a tool. Each
// step's short progress line goes to the calling door as a "step" progress
// event (MCP progress notifications, the window's events, the CLI's lines);
// a question the assistant asks is a "question" event.

func browserGoalTool(r *tools.Registry, rt *author.Runtime) tools.Tool {
	return BrowserGoalRef.FuncCall("Pursue a goal in plain words on the web with the browser assistant (needs a model server): it lists, acts by number and reads, one step at a time, reporting a short progress line per step, until the goal is confirmed or the step limit is reached. Returns done, reason and the step counts.",
		func(ctx context.Context, a BrowserGoalArgs, _ tools.Call, tc tools.Context) (AssistantResult, error) {
			model := rt.LLM()
			if !llm.Understands(model) {
				return AssistantResult{}, ErrGoalNeedsModel
			}
			o, _ := ctx.Value(goalOptionsKey{}).(GoalOptions)
			as := &Assistant{Reg: r, Model: model, MaxSteps: a.MaxSteps, Pause: o.Pause, AskTimeout: o.AskTimeout, Screenshots: o.Screenshots,
				Log: o.Log,
				Progress: func(line string) {
					tc.Report(tools.Progress{Event: "step", Text: line})
				},
				Ask: func(ctx context.Context, q string) (string, error) {
					tc.Report(tools.Progress{Event: "question", Text: q})
					if o.Ask == nil {
						return "", nil
					}
					return o.Ask(ctx, q)
				},
			}
			tc.Report(tools.Progress{Event: "goal", Text: a.Goal})
			res, err := as.Run(ctx, a.Goal)
			if err != nil {
				return AssistantResult{}, err
			}
			line := "Goal not reached: " + res.Reason
			if res.Done {
				line = "Goal reached: " + res.Reason
			}
			tc.Report(tools.Progress{Event: "answer", Text: line})
			return res, nil
		})
}

// RegisterBrowsing adds the two browsing tools every door uses over the
// browser tools already in r: BrowseCommand (the number commands) and
// BrowserGoal (the assistant, on rt's model).
func RegisterBrowsing(r *tools.Registry, rt *author.Runtime) {
	r.MustRegister(browseCommandTool(r), browserGoalTool(r, rt))
}
