package agent

import (
	"context"
	"encoding/json"

	"github.com/waymark/waymark/backend/tools"
)

// runCursorAgentSchema is RunCursorAgent's input (seed 001, camelCase).
const runCursorAgentSchema = `{"type": "object", "properties": {
	"forward": {"type": "boolean", "description": "read from the start (true) or from the end (false)"},
	"maxElements": {"type": "integer", "description": "items per portion, 1..200"},
	"maxBytes": {"type": "integer", "description": "bytes per portion, 1..65536"},
	"includeContent": {"type": "boolean", "description": "portions carry markdown/text (false: pointers and metadata only)"},
	"mode": {"type": "string", "description": "FirstMatch, CollectToTargetSet or AggregateSummary"},
	"taskDescription": {"type": "string", "description": "what to find, collect or summarise, e.g. Find the first mention of \"Natasha\""},
	"targetSetId": {"type": "string", "description": "required for CollectToTargetSet"},
	"maxSteps": {"type": "integer", "description": "model turns allowed, 1..512 (default 128)"},
	"taskId": {"type": "string", "description": "continue an earlier task (e.g. the next mention)"},
	"state": {"description": "the state an earlier call returned (optional with taskId)"},
	"prefilter": {"type": "boolean", "description": "show the model only portions that can hold the phrase (default true)"}},
	"required": ["forward", "maxElements", "maxBytes", "includeContent", "mode", "taskDescription"], "additionalProperties": false}`

// Register adds RunCursorAgent to the registry.
func Register(r *tools.Registry, rt *Runtime) {
	r.MustRegister(tools.Tool{
		Name:        "RunCursorAgent",
		Description: "Run the streaming navigation sub-agent over the manuscript with a cursor local to the call: FirstMatch (the first mention: pointer, index, markdown), CollectToTargetSet (add every match to targetSetId) or AggregateSummary. Lexical tasks show the model only portions that can hold the phrase, and a claimed first match is checked against the deterministic matcher.",
		InputSchema: json.RawMessage(runCursorAgentSchema),
		Handler: func(ctx context.Context, call tools.Call, _ *tools.Tool, _ tools.Context) (any, error) {
			o, err := tools.Decode[CursorAgentOptions](call)
			if err != nil {
				return nil, err
			}
			return rt.Run(ctx, o)
		},
	})
}
