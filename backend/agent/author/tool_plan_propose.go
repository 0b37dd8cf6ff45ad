package author

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

// PlanProposeArgs are PlanPropose's arguments.
type PlanProposeArgs struct {
	Command string `json:"command" jsonschema:"the command to plan, e.g. collect all mentions of \"Natasha\" into \"Natasha\", then summarise part 2"`
}

// Refine: a command is not empty.
func (PlanProposeArgs) Refine(s *jsonschema.Schema) {
	one := 1
	tools.Prop(s, "command").MinLength = &one
}

// PlanProposeRef is the typed handle on the PlanPropose tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var PlanProposeRef = tools.RefTo[PlanProposeArgs, PlanProposal]("PlanPropose")

// planProposeTool is PlanPropose: a lazy plan of a command, kept for approval;
// nothing runs.
func planProposeTool(r *tools.Registry, rt *Runtime) tools.Tool {
	return PlanProposeRef.Func("Plan a command of several steps (\"X, then Y\") without running anything: returns {planId, steps:[{id, tool, arguments, say}], message}. Show the steps to the user; run them with PlanRun (possibly edited) or drop them with PlanDiscard. Plans wait 24 hours.",
		func(ctx context.Context, a PlanProposeArgs) (PlanProposal, error) {
			return (&CommandAgent{Reg: r, Runtime: rt}).Propose(ctx, a.Command)
		})
}
