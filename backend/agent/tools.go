package agent

import (
	"github.com/waymark/waymark/backend/tools"
)

// Register adds the agent's own tools to the registry: RunCursorAgent, the
// command agent (RunCommand) and its lazy plans (PlanPropose, PlanRun,
// PlanDiscard). Each tool is in a file named for it.
func Register(r *tools.Registry, rt *Runtime) {
	r.MustRegister(
		runCursorAgentTool(rt),
		runCommandTool(r, rt),
		planProposeTool(r, rt),
		planRunTool(r, rt),
		planDiscardTool(r, rt),
	)
}
