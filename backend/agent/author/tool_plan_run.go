package author

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

// PlanRunArgs are PlanRun's arguments.
type PlanRunArgs struct {
	PlanID string         `json:"planId" jsonschema:"the plan PlanPropose returned"`
	Steps  []PlanStepView `json:"steps,omitempty" jsonschema:"the steps as the user edited them (optional: the proposed steps)"`
}

// Refine: a plan id is not empty, and a step's arguments are a JSON object.
func (PlanRunArgs) Refine(s *jsonschema.Schema) {
	nonEmpty(s, "planId")
	steps := tools.Prop(s, "steps")
	steps.Types, steps.Type = nil, "array"
	one := 1
	steps.MinItems = &one
	arg := tools.Prop(steps.Items, "arguments")
	steps.Items.Properties["arguments"] = &jsonschema.Schema{Type: "object", Description: arg.Description}
}

// PlanRunRef is the typed handle on the PlanRun tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var PlanRunRef = tools.RefTo[PlanRunArgs, PlanRunResult]("PlanRun")

// planRunTool is PlanRun: the user approved the plan (possibly edited); its
// steps are validated like every call and run in dependency order.
func planRunTool(r *tools.Registry, rt *Runtime) tools.Tool {
	return PlanRunRef.FuncCall("Run a plan the user approved (PlanPropose's planId), with the steps as the user edited them if given; the steps are validated again before anything runs. A plan runs once; the result lists each step's outcome and the edits to review, and each step's command reports its progress.",
		func(ctx context.Context, a PlanRunArgs, _ tools.Call, tc tools.Context) (PlanRunResult, error) {
			return (&CommandAgent{Reg: r, Runtime: rt, Progress: tc.Progress}).RunPlan(ctx, a.PlanID, a.Steps)
		})
}
