package author

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/tools"
)

// RunCommandArgs are RunCommand's arguments.
type RunCommandArgs struct {
	Command string `json:"command" jsonschema:"the author's command, e.g. find the first mention of \"Natasha\""`
	// Where the author is in the window's text, for "this chapter", "from
	// here" and "the selection": positions in UTF-16 code units, as the
	// editor counts them.
	CursorUtf16        *int `json:"cursorUtf16,omitempty" jsonschema:"the caret, in UTF-16 code units from the start of the text (for this chapter, from here)"`
	SelectionFromUtf16 *int `json:"selectionFromUtf16,omitempty" jsonschema:"the selection's start, in UTF-16 code units (for the selection)"`
	SelectionToUtf16   *int `json:"selectionToUtf16,omitempty" jsonschema:"the selection's end, in UTF-16 code units"`
}

// Refine: a command is not empty; positions are not negative.
func (RunCommandArgs) Refine(s *jsonschema.Schema) {
	one := 1
	tools.Prop(s, "command").MinLength = &one
	for _, p := range []string{"cursorUtf16", "selectionFromUtf16", "selectionToUtf16"} {
		tools.Min(tools.Prop(s, p), 0)
	}
}

// place sets the agent's cursor and selection from the arguments, in bytes
// of the current text.
func (a RunCommandArgs) place(rt *Runtime, ca *CommandAgent) error {
	if a.CursorUtf16 == nil && a.SelectionFromUtf16 == nil && a.SelectionToUtf16 == nil {
		return nil
	}
	if (a.SelectionFromUtf16 == nil) != (a.SelectionToUtf16 == nil) {
		return fmt.Errorf("%w: give both selectionFromUtf16 and selectionToUtf16, or neither", tools.ErrInvalidArgs)
	}
	m, err := rt.WS.Current()
	if err != nil {
		return err
	}
	return m.Do(func(d *document.Document) error {
		idx := document.NewUTF16Index(d.Source())
		at := func(u int) (int, error) {
			b, err := idx.ByteAt(u)
			if err != nil {
				return 0, fmt.Errorf("%w: %v", tools.ErrInvalidArgs, err)
			}
			return b, nil
		}
		if a.CursorUtf16 != nil {
			b, err := at(*a.CursorUtf16)
			if err != nil {
				return err
			}
			ca.Cursor = &b
		}
		if a.SelectionFromUtf16 != nil {
			from, err := at(*a.SelectionFromUtf16)
			if err != nil {
				return err
			}
			to, err := at(*a.SelectionToUtf16)
			if err != nil {
				return err
			}
			if to < from {
				from, to = to, from
			}
			ca.Selection = &[2]int{from, to}
			if ca.Cursor == nil {
				ca.Cursor = &from
			}
		}
		return nil
	})
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
	// Russian: the command is Russian, and so is what a door says about its
	// result (the edits' descriptions are in it already).
	Russian bool `json:"russian"`
	Outcome
	Events []tools.Progress `json:"events"`
}

// RunCommandRef is the typed handle on the RunCommand tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var RunCommandRef = tools.RefTo[RunCommandArgs, RunCommandResult]("RunCommand")

// runCommandTool is RunCommand: one command through the command agent.
func runCommandTool(r *tools.Registry, rt *Runtime) tools.Tool {
	return RunCommandRef.FuncCall("Run one author's command through the command agent (find, collect, replace, insert, delete, summarise; anything else with a model server): returns the answer, the edits to review and where a find landed; its steps are reported as progress. A command of several steps (\"X, then Y\") is not run: its plan is returned for approval (see PlanRun).",
		func(ctx context.Context, a RunCommandArgs, _ tools.Call, tc tools.Context) (RunCommandResult, error) {
			return RunCommand(ctx, r, rt, a, tc)
		})
}

// ErrStopped is a command or plan stopped by its caller (the window's Stop).
var ErrStopped = errors.New("the command was stopped")

// stopped is ErrStopped said in the command's language, with the edits of
// the run that were undone because of it; it unwraps to its cause (the
// context's cancellation).
type stopped struct {
	russian bool
	undone  int
	cause   error
}

func (s stopped) Error() string {
	if s.russian {
		if s.undone > 0 {
			return fmt.Sprintf("Команда остановлена, не закончив работу. Сделанные ею правки (%d) отменены.", s.undone)
		}
		return "Команда остановлена, не закончив работу."
	}
	if s.undone > 0 {
		return fmt.Sprintf("The command was stopped before it finished. The %d edit(s) of this run were undone.", s.undone)
	}
	return "The command was stopped before it finished."
}

func (stopped) Is(target error) bool { return target == ErrStopped }
func (s stopped) Unwrap() error      { return s.cause }

// RunCommand runs one command on the open book: every event of it is
// reported through tc and kept in the book's session transcript, and the
// result carries what the book looks like afterwards.
func RunCommand(ctx context.Context, r *tools.Registry, rt *Runtime, a RunCommandArgs, tc tools.Context) (RunCommandResult, error) {
	command := strings.TrimSpace(a.Command)
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
	russian := ParseCommand(command).Russian
	out := RunCommandResult{Command: command, Russian: russian, Events: []tools.Progress{}}
	hb := newHeartbeat(tc.Report, rt.LLM(), russian)
	defer hb.close()
	limit := rt.timeLimit()
	ctx, cancel := withTimeLimit(ctx, limit)
	defer cancel()
	w := &watch{contexts: map[int64]string{}, language: map[bool]string{false: "en", true: "ru"}[russian]}
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
		hb.send(p)
		if rt.Store != nil {
			if b, err := json.Marshal(p); err == nil {
				_ = rt.Store.AppendTranscript(context.WithoutCancel(ctx), sid, "event", string(b))
			}
		}
	}}
	if err := a.place(rt, ca); err != nil {
		return RunCommandResult{}, err
	}
	res, err := ca.Run(ctx, command)
	if err != nil {
		if errors.Is(context.Cause(ctx), errTimeLimit) {
			return RunCommandResult{}, overTime{limit, russian}
		}
		var st stopped
		if errors.As(err, &st) {
			return RunCommandResult{}, st
		}
		if ctx.Err() != nil && errors.Is(err, context.Canceled) {
			return RunCommandResult{}, stopped{russian: russian, cause: err}
		}
		return RunCommandResult{}, err
	}
	if g, ok := res.(GoToResult); ok {
		w.found = &g.Pointer // the window moves there
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
