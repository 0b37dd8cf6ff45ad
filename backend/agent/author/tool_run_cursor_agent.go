package author

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

// Refine keeps RunCursorAgent's schema as the seed gives it: maxSteps and
// prefilter are a plain integer and boolean, state any JSON value. The ranges
// are checked by validate, whose errors name the allowed values.
func (CursorAgentOptions) Refine(s *jsonschema.Schema) {
	for name, typ := range map[string]string{"maxSteps": "integer", "prefilter": "boolean"} {
		p := tools.Prop(s, name)
		p.Types, p.Type = nil, typ
	}
	st := tools.Prop(s, "state")
	s.Properties["state"] = &jsonschema.Schema{Description: st.Description}
}

// RunCursorAgentRef is the typed handle on the RunCursorAgent tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var RunCursorAgentRef = tools.RefTo[CursorAgentOptions, CursorAgentResult]("RunCursorAgent")

// runCursorAgentTool is RunCursorAgent (SPEC §3): the streaming navigation
// sub-agent as an Activity.
func runCursorAgentTool(rt *Runtime) tools.Tool {
	return RunCursorAgentRef.Func("Run the streaming navigation sub-agent over the manuscript with a cursor local to the call: FirstMatch (the first mention: pointer, index, markdown), CollectToTargetSet (add every match to targetSetId) or AggregateSummary. Lexical tasks show the model only portions that can hold the phrase, and a claimed first match is checked against the deterministic matcher.",
		func(ctx context.Context, o CursorAgentOptions) (CursorAgentResult, error) {
			return rt.Run(ctx, o)
		})
}
