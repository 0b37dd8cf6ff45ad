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

// planDiscardTool is PlanDiscard: the user rejected the plan; it never runs.
func planDiscardTool(r *tools.Registry, rt *Runtime) tools.Tool {
	return tools.Func("PlanDiscard", "Drop a proposed plan (the user rejected it): it will not run.",
		func(ctx context.Context, a PlanDiscardArgs) (any, error) {
			if err := (&CommandAgent{Reg: r, Runtime: rt}).DiscardPlan(ctx, a.PlanID); err != nil {
				return nil, err
			}
			return map[string]any{"planId": a.PlanID, "discarded": true}, nil
		})
}
