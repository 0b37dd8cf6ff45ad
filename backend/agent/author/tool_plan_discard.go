package author

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

// PlanDiscardArgs are PlanDiscard's arguments.
type PlanDiscardArgs struct {
	PlanID string `json:"planId" jsonschema:"the plan to drop"`
}

// Refine: a plan id is not empty.
func (PlanDiscardArgs) Refine(s *jsonschema.Schema) {
	one := 1
	tools.Prop(s, "planId").MinLength = &one
}

// PlanDiscardResult says the plan was dropped.
type PlanDiscardResult struct {
	PlanID    string `json:"planId"`
	Discarded bool   `json:"discarded"`
}

// PlanDiscardRef is the typed handle on the PlanDiscard tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var PlanDiscardRef = tools.RefTo[PlanDiscardArgs, PlanDiscardResult]("PlanDiscard")

// planDiscardTool is PlanDiscard: the user rejected the plan; it never runs.
func planDiscardTool(r *tools.Registry, rt *Runtime) tools.Tool {
	return PlanDiscardRef.Func("Drop a proposed plan (the user rejected it): it will not run.",
		func(ctx context.Context, a PlanDiscardArgs) (PlanDiscardResult, error) {
			if err := (&CommandAgent{Reg: r, Runtime: rt}).DiscardPlan(ctx, a.PlanID); err != nil {
				return PlanDiscardResult{}, err
			}
			return PlanDiscardResult{PlanID: a.PlanID, Discarded: true}, nil
		})
}
