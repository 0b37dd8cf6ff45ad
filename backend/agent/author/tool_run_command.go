package author

import (
	"context"
	"fmt"

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

// RunCommandResult is what a command said and did.
type RunCommandResult struct {
	Answer string `json:"answer"`
	Result any    `json:"result,omitempty"`
	// Plan is set when the command had several steps: it was planned, not run.
	Plan *PlanProposal `json:"plan,omitempty"`
}

// runCommandTool is RunCommand: one command through the command agent (a
// plan's step, or the CLI and MCP's door to what the window's command box does).
func runCommandTool(r *tools.Registry, rt *Runtime) tools.Tool {
	return tools.Func("RunCommand", "Run one author's command through the command agent (find, collect, replace, insert, delete, summarise; anything else with a model server). A command of several steps (\"X, then Y\") is not run: its plan is returned for approval (see PlanRun).",
		func(ctx context.Context, a RunCommandArgs) (any, error) {
			var out RunCommandResult
			ca := &CommandAgent{Reg: r, Runtime: rt, Emit: func(e Event) {
				if e.Event == "answer" {
					out.Answer = e.Text
				}
			}}
			if err := a.place(rt, ca); err != nil {
				return nil, err
			}
			res, err := ca.Run(ctx, a.Command)
			if err != nil {
				return nil, err
			}
			if p, ok := res.(PlanProposal); ok {
				out.Plan = &p
			} else {
				out.Result = res
			}
			return out, nil
		})
}
