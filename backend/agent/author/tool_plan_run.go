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

// planRunTool is PlanRun: the user approved the plan (possibly edited); its
// steps are validated like every call and run in dependency order.
func planRunTool(r *tools.Registry, rt *Runtime) tools.Tool {
	return tools.Func("PlanRun", "Run a plan the user approved (PlanPropose's planId), with the steps as the user edited them if given; the steps are validated again before anything runs. A plan runs once.",
		func(ctx context.Context, a PlanRunArgs) (any, error) {
			return (&CommandAgent{Reg: r, Runtime: rt}).RunPlan(ctx, a.PlanID, a.Steps)
		})
}
