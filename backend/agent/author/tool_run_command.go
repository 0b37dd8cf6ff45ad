package author

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

// RunCommandArgs are RunCommand's arguments.
type RunCommandArgs struct {
	Command string `json:"command" jsonschema:"the author's command, e.g. find the first mention of \"Natasha\""`
}

// Refine: a command is not empty.
func (RunCommandArgs) Refine(s *jsonschema.Schema) {
	one := 1
	tools.Prop(s, "command").MinLength = &one
}

// RunCommandResult is what a command said and did.
type RunCommandResult struct {
	Answer string `json:"answer"`
	Result any    `json:"result,omitempty"`
	// Plan is set when the command had several steps: it was planned, not run.
	Plan *PlanProposal `json:"plan,omitempty"`
}

// runCommandTool is RunCommand: one command through the command agent (a
// plan's step, or the CLI and MCP's door to what the window's command box does).
func runCommandTool(r *tools.Registry, rt *Runtime) tools.Tool {
	return tools.Func("RunCommand", "Run one author's command through the command agent (find, collect, replace, insert, delete, summarise; anything else with a model server). A command of several steps (\"X, then Y\") is not run: its plan is returned for approval (see PlanRun).",
		func(ctx context.Context, a RunCommandArgs) (any, error) {
			var out RunCommandResult
			ca := &CommandAgent{Reg: r, Runtime: rt, Emit: func(e Event) {
				if e.Event == "answer" {
					out.Answer = e.Text
				}
			}}
			res, err := ca.Run(ctx, a.Command)
			if err != nil {
				return nil, err
			}
			if p, ok := res.(PlanProposal); ok {
				out.Plan = &p
			} else {
				out.Result = res
			}
			return out, nil
		})
}
