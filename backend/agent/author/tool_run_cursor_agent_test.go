package author

import (
	"encoding/json"
	"reflect"
	"testing"
)

// The schema written by hand before RunCursorAgent's was generated from its Go
// type (with the range fromIndex/toIndex added since): the generated one says
// the same (types, descriptions, required fields, no others).
const handWrittenRunCursorAgentSchema = `{"type": "object", "properties": {
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
	"prefilter": {"type": "boolean", "description": "show the model only portions that can hold the phrase, or the names of a task that needs understanding (default true)"},
	"fromIndex": {"type": "integer", "description": "read from this item on (default: the start)"},
	"toIndex": {"type": "integer", "description": "read up to this item, not including it (default: the end)"}},
	"required": ["forward", "maxElements", "maxBytes", "includeContent", "mode", "taskDescription"], "additionalProperties": false}`

func TestRunCursorAgentSchemaAsBefore(t *testing.T) {
	e := newEnv(t, book, nil)
	tool := e.reg.MustGet("RunCursorAgent")
	var got, want any
	if err := json.Unmarshal(tool.InputSchema, &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(handWrittenRunCursorAgentSchema), &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("generated schema\n%s\ndiffers from the hand-written one\n%s", tool.InputSchema, handWrittenRunCursorAgentSchema)
	}
}
