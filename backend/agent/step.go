package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/waymark/waymark/backend/llm"
)

// stepper is the one model turn of every agent in this package (the SPEC §4
// loop, which the command agent and the browser assistant run on, and the
// cursor sub-agent's one-JSON-action protocol): it builds the request, calls
// the model, accepts native tool calls or the text fallback
// ("function_call: name=… args={…}"), marks the calls of tools that were not
// offered, keeps only the first call when the seed asks for one tool per
// step, and enforces the turn and token limits and cancellation.
type stepper struct {
	model llm.Model
	// tools are the tools offered; a call of any other is marked not offered.
	tools []llm.ToolSpec
	// one keeps only the first call of a turn (SPEC §5: one tool per step).
	one bool
	// maxTurns and maxTokens bound the run (0: no bound).
	maxTurns, maxTokens int

	turns int
	usage llm.Usage
}

// stepCall is one call the model made in a turn.
type stepCall struct {
	llm.ToolCall
	// Offered is false for a tool the model was not offered: it must not run.
	Offered bool
}

// turn is what one model turn produced.
type turn struct {
	// Raw is the model's whole text; Text is it without a text-fallback call
	// (the progress line a user hears).
	Raw, Text string
	Calls     []stepCall
	// Dropped counts the calls beyond the first, with one tool per step.
	Dropped int
}

// limitError says which limit stopped a run; it is not a failure of the model.
type limitError struct{ msg string }

func (e *limitError) Error() string { return e.msg }

// step runs one model turn on msgs; schema asks for one JSON document instead
// of tool calls (the cursor sub-agent).
func (s *stepper) step(ctx context.Context, msgs []llm.Message, schema *llm.JSONSchema) (turn, error) {
	if err := ctx.Err(); err != nil {
		return turn{}, err
	}
	if s.maxTurns > 0 && s.turns >= s.maxTurns {
		return turn{}, &limitError{fmt.Sprintf("turn limit reached (%d)", s.maxTurns)}
	}
	s.turns++
	req := llm.Request{Messages: msgs, JSONSchema: schema}
	if schema != nil {
		req.MaxTokens = cursorReplyTokens // one JSON action
	}
	if schema == nil {
		req.Tools = s.tools
	}
	resp, err := s.model.Complete(ctx, req)
	s.usage.PromptTokens += resp.Usage.PromptTokens
	s.usage.CompletionTokens += resp.Usage.CompletionTokens
	s.usage.TotalTokens += resp.Usage.TotalTokens
	s.usage.Estimated = s.usage.Estimated || resp.Usage.Estimated
	if err != nil {
		return turn{Raw: resp.Content}, err
	}
	t := turn{Raw: resp.Content, Text: resp.Content}
	calls := resp.ToolCalls
	if len(calls) == 0 && len(req.Tools) > 0 {
		if tc, ok := llm.ParseTextToolCall(resp.Content); ok {
			calls = []llm.ToolCall{tc}
			if i := strings.Index(t.Text, "function_call:"); i >= 0 {
				t.Text = t.Text[:i]
			}
		}
	}
	if s.one && len(calls) > 1 {
		t.Dropped = len(calls) - 1
		calls = calls[:1]
	}
	for _, c := range calls {
		t.Calls = append(t.Calls, stepCall{ToolCall: c, Offered: s.offers(c.Name)})
	}
	t.Text = strings.TrimSpace(t.Text)
	if s.maxTokens > 0 && s.usage.TotalTokens > s.maxTokens {
		return t, &limitError{fmt.Sprintf("token limit reached (%d > %d)", s.usage.TotalTokens, s.maxTokens)}
	}
	return t, nil
}

func (s *stepper) offers(name string) bool {
	for _, t := range s.tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

// offered lists the names of the offered tools, for an error the model reads.
func (s *stepper) offered() string {
	names := make([]string, len(s.tools))
	for i, t := range s.tools {
		names[i] = t.Name
	}
	return strings.Join(names, ", ")
}

// calls returns the turn's calls as the model made them.
func (t turn) calls() []llm.ToolCall {
	out := make([]llm.ToolCall, len(t.Calls))
	for i, c := range t.Calls {
		out[i] = c.ToolCall
	}
	return out
}
