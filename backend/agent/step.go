package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/waymark/waymark/backend/llm"
)

// ErrNeedsModel is the built-in engine saying plainly that a task needs
// understanding it does not have.
var ErrNeedsModel = errors.New("needs a model server")

// Stepper is the one model turn of every agent in this package (the SPEC §4
// loop, which the command agent, the browser assistant and the cursor
// sub-agent, with its one-JSON-action Protocol, run on): it builds the request, calls
// the model, accepts native tool calls or the text fallback
// ("function_call: name=… args={…}"), marks the calls of tools that were not
// offered, keeps only the first call when the seed asks for one tool per
// step, and enforces the turn and token limits and cancellation.
type Stepper struct {
	Model llm.Model
	// Tools are the tools offered; a call of any other is marked not offered.
	Tools []llm.ToolSpec
	// One keeps only the first call of a turn (SPEC §5: one tool per step).
	One bool
	// MaxTurns and MaxTokens bound the run (0: no bound).
	MaxTurns, MaxTokens int

	// Turns and Usage count what the turns so far took.
	Turns int
	Usage llm.Usage
}

// StepCall is one call the model made in a turn.
type StepCall struct {
	llm.ToolCall
	// Offered is false for a tool the model was not offered: it must not run.
	Offered bool
}

// Turn is what one model turn produced.
type Turn struct {
	// Raw is the model's whole text; Text is it without a text-fallback call
	// (the progress line a user hears).
	Raw, Text string
	Calls     []StepCall
	// Dropped counts the calls beyond the first, with one tool per step.
	Dropped int
	// unread is what the loop tells a model whose reply is not a call and
	// not a solution (Loop.NeedCall, a Protocol's refusal).
	unread string
}

// LimitError says which limit stopped a run; it is not a failure of the model.
type LimitError struct{ msg string }

func (e *LimitError) Error() string { return e.msg }

// JSONReplyTokens is the answer a turn asking for one JSON document (the
// cursor sub-agent's action) may take, and the room its request leaves for
// it in the model's context budget.
const JSONReplyTokens = 512

// Step runs one model turn on msgs; schema asks for one JSON document instead
// of tool calls (the cursor sub-agent).
func (s *Stepper) Step(ctx context.Context, msgs []llm.Message, schema *llm.JSONSchema) (Turn, error) {
	if err := ctx.Err(); err != nil {
		return Turn{}, err
	}
	if s.MaxTurns > 0 && s.Turns >= s.MaxTurns {
		return Turn{}, &LimitError{fmt.Sprintf("turn limit reached (%d)", s.MaxTurns)}
	}
	s.Turns++
	req := llm.Request{Messages: msgs, JSONSchema: schema}
	if schema != nil {
		req.MaxTokens = JSONReplyTokens // one JSON document
	}
	if schema == nil {
		req.Tools = s.Tools
	}
	resp, err := s.Model.Complete(ctx, req)
	s.Usage.PromptTokens += resp.Usage.PromptTokens
	s.Usage.CompletionTokens += resp.Usage.CompletionTokens
	s.Usage.TotalTokens += resp.Usage.TotalTokens
	s.Usage.Estimated = s.Usage.Estimated || resp.Usage.Estimated
	if err != nil {
		return Turn{Raw: resp.Content}, err
	}
	t := Turn{Raw: resp.Content, Text: resp.Content}
	calls := resp.ToolCalls
	if len(calls) == 0 && len(req.Tools) > 0 {
		if tc, ok := llm.ParseTextToolCall(resp.Content); ok {
			calls = []llm.ToolCall{tc}
			if i := strings.Index(t.Text, "function_call:"); i >= 0 {
				t.Text = t.Text[:i]
			}
		}
	}
	if s.One && len(calls) > 1 {
		t.Dropped = len(calls) - 1
		calls = calls[:1]
	}
	for _, c := range calls {
		t.Calls = append(t.Calls, StepCall{ToolCall: c, Offered: s.offers(c.Name)})
	}
	t.Text = strings.TrimSpace(t.Text)
	if s.MaxTokens > 0 && s.Usage.TotalTokens > s.MaxTokens {
		return t, &LimitError{fmt.Sprintf("token limit reached (%d > %d)", s.Usage.TotalTokens, s.MaxTokens)}
	}
	return t, nil
}

func (s *Stepper) offers(name string) bool {
	for _, t := range s.Tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

// offered lists the names of the offered tools, for an error the model reads.
func (s *Stepper) offered() string {
	names := make([]string, len(s.Tools))
	for i, t := range s.Tools {
		names[i] = t.Name
	}
	return strings.Join(names, ", ")
}

// calls returns the turn's calls as the model made them.
func (t Turn) calls() []llm.ToolCall {
	out := make([]llm.ToolCall, len(t.Calls))
	for i, c := range t.Calls {
		out[i] = c.ToolCall
	}
	return out
}
