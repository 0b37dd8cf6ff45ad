package desktop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/waymark/waymark/backend/agent/author"
	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/manuscript"
)

// EditDiff is one edit a command applied, for review: the item's Markdown before
// and after, the cursor context the edit reported, and where it is in the editor.
type EditDiff struct {
	Revision int64  `json:"revision"`
	Op       string `json:"op"`
	Summary  string `json:"summary"`
	// Description is the edit in words, with where it is: what the window
	// shows and says (Summary names the tool and the item).
	Description string `json:"description"`
	Before      string `json:"before"`
	After       string `json:"after"`
	Context     string `json:"context"`
	// Pos is the edit's place in the editor (UTF-16), at the newest revision.
	Pos int `json:"pos"`
}

// CommandResult is how a command ended: the transcript's events, the answer,
// and the edits to review.
type CommandResult struct {
	Command  string         `json:"command"`
	Success  bool           `json:"success"`
	Answer   string         `json:"answer"`
	Error    string         `json:"error,omitempty"`
	Events   []author.Event `json:"events"`
	Edits    []EditDiff     `json:"edits"`
	Revision int64          `json:"revision"`
	// Found is where a find command landed (UTF-16 range in the editor), or nil.
	Found *Range `json:"found,omitempty"`
	// Plan is the plan of a command of several steps: shown for approval
	// (PlanRun, PlanDiscard), not run.
	Plan *author.PlanProposal `json:"plan,omitempty"`
	// Russian: the command is Russian, and so is what the window says about
	// its result (the edits' descriptions here are in it already).
	Russian bool `json:"russian"`
}

// Range is a stretch of the editor's text (UTF-16 units).
type Range struct {
	From  int    `json:"from"`
	To    int    `json:"to"`
	Label string `json:"label"`
}

// begin registers a cancellable run (a command or a browser goal); only one
// runs at a time, and Stop cancels it.
func (a *App) begin(what string) (context.Context, func(), error) {
	a.runMu.Lock()
	defer a.runMu.Unlock()
	if a.cancel != nil {
		return nil, nil, fmt.Errorf("a %s is still running; wait for it or press Stop", a.running)
	}
	ctx, cancel := context.WithCancel(a.context())
	a.cancel, a.running = cancel, what
	return ctx, func() {
		cancel()
		a.runMu.Lock()
		a.cancel, a.running = nil, ""
		a.runMu.Unlock()
	}, nil
}

// Stop cancels the running command or browser goal (the global Stop).
func (a *App) Stop() (string, error) {
	a.runMu.Lock()
	cancel, what := a.cancel, a.running
	a.runMu.Unlock()
	a.askMu.Lock()
	if a.askCh != nil {
		close(a.askCh)
		a.askCh = nil
	}
	a.askMu.Unlock()
	if cancel == nil {
		return "Nothing is running.", nil
	}
	cancel()
	return fmt.Sprintf("Stopped the %s.", what), nil
}

// RunCommand runs an author's command through the command agent (the model
// server when one is configured, else the built-in engine). Each transcript
// event is also sent as a "command:event" event while it runs, and kept in the
// document's session.
func (a *App) RunCommand(command string) (CommandResult, error) {
	command = strings.TrimSpace(command)
	if command == "" {
		return CommandResult{}, errors.New(`type a command, e.g. find the first mention of "Zvezdochkin"`)
	}
	m, err := a.current()
	if err != nil {
		return CommandResult{}, err
	}
	ctx, done, err := a.begin("command")
	if err != nil {
		return CommandResult{}, err
	}
	defer done()
	var head int64
	_ = m.Do(func(d *document.Document) error { head = d.Rev(); return nil })
	sid := docSessionID(m)
	_ = a.st.EnsureSession(ctx, sid, "document", m.DocID)
	res := CommandResult{Command: command, Events: []author.Event{}, Edits: []EditDiff{}, Russian: author.ParseCommand(command).Russian}
	contexts := map[int64]string{}
	var found *document.PointerJSON
	ca := &author.CommandAgent{Reg: a.reg, Runtime: a.rt, Emit: func(e author.Event) {
		res.Events = append(res.Events, e)
		if e.Event == "answer" {
			res.Answer = e.Text
		}
		if e.Event == "tool_result" {
			b, _ := json.Marshal(e.Result)
			var ev manuscript.EditView
			if json.Unmarshal(b, &ev) == nil && ev.Revision > 0 && ev.Op != "" {
				contexts[ev.Revision] = ev.Context
			}
			if e.Tool == "RunCursorAgent" {
				var r struct {
					Success         bool                  `json:"success"`
					SemanticPointer *document.PointerJSON `json:"semanticPointer"`
				}
				if json.Unmarshal(b, &r) == nil && r.Success && r.SemanticPointer != nil {
					found = r.SemanticPointer
				}
			}
		}
		a.send("command:event", e)
		if b, err := json.Marshal(e); err == nil {
			_ = a.st.AppendTranscript(context.Background(), sid, "event", string(b))
		}
	}}
	a.runMu.Lock()
	ca.Runtime = a.rt
	a.runMu.Unlock()
	out, runErr := ca.Run(ctx, command)
	if p, ok := out.(author.PlanProposal); ok {
		res.Plan = &p
	}
	res.Success = runErr == nil
	if runErr != nil {
		res.Error = runErr.Error()
		if errors.Is(runErr, context.Canceled) {
			res.Error = map[bool]string{false: "Stopped.", true: "Остановлено."}[res.Russian]
		}
	}
	var cur int64
	_ = m.Do(func(d *document.Document) error { cur = d.Rev(); return nil })
	res.Revision = cur
	if cur > head {
		// The edits since the command began, placed in the newest text.
		var es manuscript.EditsSinceResult
		if err := a.call(context.Background(), "EditsSince", manuscript.EditsSinceArgs{SinceRevision: head, Language: map[bool]string{false: "en", true: "ru"}[res.Russian]}, &es); err == nil {
			for _, e := range es.Edits {
				d := EditDiff{Revision: e.Revision, Op: e.Op, Summary: e.Summary, Description: e.Description, Before: e.Before, After: e.After, Context: contexts[e.Revision], Pos: e.Utf16Offset}
				if es.Head != cur {
					d.Pos = -1 // the book changed again meanwhile
				}
				res.Edits = append(res.Edits, d)
			}
		}
	}
	if found != nil && len(res.Edits) == 0 {
		if idx := a.index(cur); idx != nil && found.Revision == cur {
			var end int
			_ = m.Do(func(d *document.Document) error {
				if i, ok := d.IndexAt(found.ByteOffset); ok {
					end = d.Item(i).End
				}
				return nil
			})
			res.Found = &Range{From: idx.Pos(found.ByteOffset), To: idx.Pos(max(end, found.ByteOffset)), Label: found.Label}
		}
	}
	return res, nil
}

// UndoEdit undoes the edit of revision rev — only if it is the newest edit
// not yet undone, so an undo never reverts something other than what the
// author is looking at (the UndoRevision tool).
func (a *App) UndoEdit(rev int64) (SyncResult, error) {
	var out manuscript.UndoRevisionResult
	if err := a.call(a.context(), "UndoRevision", manuscript.UndoRevisionArgs{Revision: rev}, &out); err != nil {
		return SyncResult{}, err
	}
	return SyncResult{Revision: out.Revision, Summary: out.Summary}, nil
}

// TranscriptEntry is one saved line of a transcript.
type TranscriptEntry struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
	At      string          `json:"at"`
}

// Transcript returns the saved transcript of the open document ("document") or
// of the last browser session ("browser"), the last 500 lines.
func (a *App) Transcript(kind string) ([]TranscriptEntry, error) {
	var sid string
	switch kind {
	case "document":
		m, err := a.current()
		if err != nil {
			return nil, err
		}
		sid = docSessionID(m)
	case "browser":
		sid = browserSessionID
	default:
		return nil, fmt.Errorf("transcript kind %q: document or browser", kind)
	}
	lines, err := a.st.Transcript(a.context(), sid, 500)
	if err != nil {
		return nil, err
	}
	out := make([]TranscriptEntry, 0, len(lines))
	for _, l := range lines {
		c := json.RawMessage(l.Content)
		if !json.Valid(c) {
			c, _ = json.Marshal(l.Content)
		}
		out = append(out, TranscriptEntry{Role: l.Role, Content: c, At: l.CreatedAt.Local().Format(time.TimeOnly)})
	}
	return out, nil
}
