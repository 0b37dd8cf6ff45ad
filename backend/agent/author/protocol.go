// Package author is the author's side of Waymark's agents: the cursor sub-agent that
// reads a manuscript in portions to find, collect or summarise, and the command
// agent that turns an author's command into tool calls. The built-in engine plays
// the model's part through the same protocol when no model server is configured.
package author

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// The sub-agent's actions (seed 001).
const (
	ActCursorNext    = "cursor_next"
	ActTargetSetAdd  = "target_set_add"
	ActFinishSuccess = "agent_finish_success"
	ActFinishNotFnd  = "agent_finish_not_found"
)

// The modes of RunCursorAgent.
const (
	ModeFirstMatch = "FirstMatch"
	ModeCollect    = "CollectToTargetSet"
	ModeSummary    = "AggregateSummary"
)

// Modes lists the modes in the order error messages name them.
var Modes = []string{ModeFirstMatch, ModeCollect, ModeSummary}

// Action is the one JSON object the sub-agent speaks per turn.
type Action struct {
	Action         string   `json:"action"`
	Pointers       []string `json:"pointers,omitempty"`
	Indices        []int    `json:"indices,omitempty"`
	FirstItemIndex *int     `json:"firstItemIndex,omitempty"`
	Summary        string   `json:"summary,omitempty"`
	Confidence     *float64 `json:"confidence,omitempty"`
	Reasons        []string `json:"reasons,omitempty"`
}

// ActionSchema is the JSON Schema given to model servers as response_format so
// that they produce exactly one action.
var ActionSchema = json.RawMessage(`{"type":"object","properties":{
"action":{"type":"string","enum":["cursor_next","target_set_add","agent_finish_success","agent_finish_not_found"]},
"pointers":{"type":"array","items":{"type":"string"}},
"indices":{"type":"array","items":{"type":"integer"}},
"firstItemIndex":{"type":"integer"},
"summary":{"type":"string"},
"confidence":{"type":"number"},
"reasons":{"type":"array","items":{"type":"string"}}},
"required":["action"],"additionalProperties":false}`)

// OneActionReply is what the runtime answers to anything but one JSON action.
const OneActionReply = "Return only one JSON action."

var errNotOneAction = errors.New(OneActionReply)

// ParseAction reads exactly one JSON action: no code fences, no second object,
// no text around it, a known action and the fields it needs.
func ParseAction(s string) (Action, error) {
	t := strings.TrimSpace(s)
	if t == "" || strings.HasPrefix(t, "```") || !strings.HasPrefix(t, "{") {
		return Action{}, errNotOneAction
	}
	dec := json.NewDecoder(strings.NewReader(t))
	dec.DisallowUnknownFields()
	var a Action
	if err := dec.Decode(&a); err != nil {
		return Action{}, fmt.Errorf("%w (%v)", errNotOneAction, err)
	}
	rest := t[dec.InputOffset():]
	if len(bytes.TrimSpace([]byte(rest))) != 0 {
		return Action{}, errNotOneAction
	}
	switch a.Action {
	case ActCursorNext, ActFinishSuccess, ActFinishNotFnd:
	case ActTargetSetAdd:
		if len(a.Pointers) == 0 && len(a.Indices) == 0 {
			return Action{}, fmt.Errorf("%s needs \"pointers\" or \"indices\" (at least one item). %s", ActTargetSetAdd, OneActionReply)
		}
	default:
		return Action{}, fmt.Errorf("unknown action %q; use one of %s, %s, %s, %s. %s", a.Action, ActCursorNext, ActTargetSetAdd, ActFinishSuccess, ActFinishNotFnd, OneActionReply)
	}
	return a, nil
}

// systemPrompt states the protocol and the first-mention rules (SPEC §2) so that
// a model makes no assumptions of its own.
const systemPrompt = `You are the streaming navigation sub-agent of Waymark, a manuscript editor.
You read a long Markdown book in portions and answer with exactly ONE JSON object per turn, no code fences, no other text:
{"action":"cursor_next"|"target_set_add"|"agent_finish_success"|"agent_finish_not_found","pointers":[...],"indices":[...],"firstItemIndex":42,"summary":"H2.p42 ..."}
- cursor_next: you need the next portion.
- target_set_add: add the items given in "indices" (item index numbers) or "pointers" to the target set; required in CollectToTargetSet mode for every matching item.
- agent_finish_success: the task is done. In FirstMatch mode give "firstItemIndex".
- agent_finish_not_found: the whole cursor was read and nothing matches.
"summary" is a short explanation written in the book's language that starts with the item's pointerLabel (e.g. "H2.p42 Ada Lovelace: biography").
First-mention rules:
1. Candidates are headings, paragraphs, list items, table cells and image captions. Code blocks and quotes count only if the task is explicitly about them.
2. Compare case-insensitively; ё equals е; accents and stress marks are ignored (Natásha = Natasha); й is not и; runs of spaces are one space; punctuation separates words; whole words only.
3. If an item holds several matches, the item counts once; every list item is its own candidate (a match in a sub-item gives the sub-item's index).
4. A matching heading comes before the paragraphs after it.
5. Always include the pointerLabel in the summary.`
