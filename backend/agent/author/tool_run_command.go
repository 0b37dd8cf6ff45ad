package author

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/tools"
)

// RunCommandArgs are RunCommand's arguments.
type RunCommandArgs struct {
	Command string `json:"command" jsonschema:"the author's command, e.g. find the first mention of \"Natasha\""`
}

// Refine: a command is not empty.
func (RunCommandArgs) Refine(s *jsonschema.Schema) {
	one := 1
	tools.Prop(s, "command").MinLength = &one
}

// RunCommandResult is what a command said and did, the one result every door
// shows (the window, `waymark call` and `waymark agent`, MCP, a plan's step):
// the answer, the edits to review, where a find landed, and the transcript
// of its progress (also reported live through the tool's progress and saved
// with the book's session).
type RunCommandResult struct {
	Command string `json:"command"`
	Answer  string `json:"answer"`
	// Result is the last tool's result (the find, the edit, the set).
	Result any `json:"result,omitempty"`
	// Plan is set when the command had several steps: it was planned, not run.
	Plan *PlanProposal `json:"plan,omitempty"`
	Outcome
	Events []tools.Progress `json:"events"`
}

// runCommandTool is RunCommand: one command through the command agent.
func runCommandTool(r *tools.Registry, rt *Runtime) tools.Tool {
	return tools.FuncCall("RunCommand", "Run one author's command through the command agent (find, collect, replace, insert, delete, summarise; anything else with a model server): returns the answer, the edits to review and where a find landed; its steps are reported as progress. A command of several steps (\"X, then Y\") is not run: its plan is returned for approval (see PlanRun).",
		func(ctx context.Context, a RunCommandArgs, _ tools.Call, tc tools.Context) (RunCommandResult, error) {
			return RunCommand(ctx, r, rt, a.Command, tc)
		})
}

// ErrStopped is a command or plan stopped by its caller (the window's Stop).
var ErrStopped = errors.New("the command was stopped")

// RunCommand runs one command on the open book: every event of it is
// reported through tc and kept in the book's session transcript, and the
// result carries what the book looks like afterwards.
func RunCommand(ctx context.Context, r *tools.Registry, rt *Runtime, command string, tc tools.Context) (RunCommandResult, error) {
	command = strings.TrimSpace(command)
	m, err := rt.WS.Current()
	if err != nil {
		return RunCommandResult{}, err
	}
	var head int64
	_ = m.Do(func(d *document.Document) error { head = d.Rev(); return nil })
	sid := m.SessionID()
	if rt.Store != nil {
		_ = rt.Store.EnsureSession(ctx, sid, "document", m.DocID)
	}
	out := RunCommandResult{Command: command, Events: []tools.Progress{}}
	w := &watch{contexts: map[int64]string{}}
	ca := &CommandAgent{Reg: r, Runtime: rt, Emit: func(e Event) {
		if e.Event == "result" {
			return // the tool's result says it
		}
		if e.Event == "answer" {
			out.Answer = e.Text
		}
		if e.Event == "tool_result" {
			w.see(e.Tool, e.Result)
		}
		p := e.Progress()
		out.Events = append(out.Events, p)
		tc.Report(p)
		if rt.Store != nil {
			if b, err := json.Marshal(p); err == nil {
				_ = rt.Store.AppendTranscript(context.WithoutCancel(ctx), sid, "event", string(b))
			}
		}
	}}
	res, err := ca.Run(ctx, command)
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, context.Canceled) {
			return RunCommandResult{}, ErrStopped
		}
		return RunCommandResult{}, err
	}
	if p, ok := res.(PlanProposal); ok {
		out.Plan = &p
	} else {
		out.Result = res
	}
	out.Outcome = outcome(ctx, r, m, head, w)
	return out, nil
}

// Progress is the event as every door reports it: a tool call's arguments
// or a tool's result as the event's data.
func (e Event) Progress() tools.Progress {
	p := tools.Progress{Event: e.Event, Text: e.Text, Tool: e.Tool}
	switch {
	case len(e.Arguments) > 0:
		p.Data = e.Arguments
	case e.Result != nil:
		p.Data, _ = json.Marshal(e.Result)
	}
	return p
}
