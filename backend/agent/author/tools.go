package author

import (
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

// Register adds the agent's own tools to the registry: RunCursorAgent, the
// command agent (RunCommand) and its lazy plans (PlanPropose, PlanRun,
// PlanDiscard). Each tool is in a file named for it.
func Register(r *tools.Registry, rt *Runtime) {
	rt.mu.Lock()
	rt.reg = r // the cursor agent writes sets through r's tools
	rt.mu.Unlock()
	r.MustRegister(
		runCursorAgentTool(rt),
		runCommandTool(r, rt),
		planProposeTool(r, rt),
		planRunTool(r, rt),
		planDiscardTool(r, rt),
	)
}

// nonEmpty makes the named string properties of a generated schema required
// to hold at least one character.
func nonEmpty(s *jsonschema.Schema, names ...string) {
	one := 1
	for _, n := range names {
		tools.Prop(s, n).MinLength = &one
	}
}
