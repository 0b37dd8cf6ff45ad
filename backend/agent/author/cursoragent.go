package author

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/waymark/waymark/backend/agent"
	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/store"
	"github.com/waymark/waymark/backend/tools"
)

// Fixed texts of the protocol the built-in engine recognises.
const (
	notesHeader       = "Notes so far:\n"
	cursorCompleteMsg = "The cursor is complete"
)

// Step limits of RunCursorAgent (seed 001).
const (
	DefaultMaxSteps = 128
	MaxMaxSteps     = 512
	// maxRetries is how many times in a row the runtime asks again for one JSON
	// action before it gives up with a clear reason.
	maxRetries = 3
	// cursorReplyTokens is the room a cursor agent's request leaves for the
	// model's one JSON action.
	cursorReplyTokens = agent.JSONReplyTokens
	// exchangeTokens is the room a portion's request keeps for the
	// exchanges that may follow it in the same turn (a reminder, a
	// target_set_add and its reply).
	exchangeTokens = 400
	// maxBadItems is how many times the model is told that an item it named
	// is not in the book before the run stops.
	maxBadItems = 3
)

// ErrBadOptions marks invalid RunCursorAgent arguments.
var ErrBadOptions = errors.New("invalid RunCursorAgent arguments")

// CursorAgentOptions are RunCursorAgent's arguments (camelCase JSON).
type CursorAgentOptions struct {
	Forward         bool            `json:"forward" jsonschema:"read from the start (true) or from the end (false)"`
	MaxElements     int             `json:"maxElements" jsonschema:"items per portion, 1..200"`
	MaxBytes        int             `json:"maxBytes" jsonschema:"bytes per portion, 1..65536"`
	IncludeContent  bool            `json:"includeContent" jsonschema:"portions carry markdown/text (false: pointers and metadata only)"`
	Mode            string          `json:"mode" jsonschema:"FirstMatch, CollectToTargetSet or AggregateSummary"`
	TaskDescription string          `json:"taskDescription" jsonschema:"what to find, collect or summarise, e.g. Find the first mention of \"Natasha\""`
	TargetSetID     string          `json:"targetSetId,omitempty" jsonschema:"required for CollectToTargetSet"`
	MaxSteps        *int            `json:"maxSteps,omitempty" jsonschema:"model turns allowed, 1..512 (default 128)"`
	TaskID          string          `json:"taskId,omitempty" jsonschema:"continue an earlier task (e.g. the next mention)"`
	State           json.RawMessage `json:"state,omitempty" jsonschema:"the state an earlier call returned (optional with taskId)"`
	// Prefilter can switch the prefilter off (for measurements); default on.
	Prefilter *bool `json:"prefilter,omitempty" jsonschema:"show the model only portions that can hold the phrase, or the names of a task that needs understanding (default true)"`
	// FromIndex and ToIndex limit the reading to the items [fromIndex,
	// toIndex): a chapter, the selection, from the cursor on.
	FromIndex *int `json:"fromIndex,omitempty" jsonschema:"read from this item on (default: the start)"`
	ToIndex   *int `json:"toIndex,omitempty" jsonschema:"read up to this item, not including it (default: the end)"`
}

// CursorAgentResult is RunCursorAgent's result (camelCase JSON).
type CursorAgentResult struct {
	Success         bool              `json:"success"`
	Reason          string            `json:"reason,omitempty"`
	Summary         string            `json:"summary"`
	TargetSetID     string            `json:"targetSetId,omitempty"`
	SemanticPointer *document.Pointer `json:"semanticPointer,omitempty"`
	Markdown        string            `json:"markdown,omitempty"`
	FirstItemIndex  *int              `json:"firstItemIndex,omitempty"`
	Confidence      *float64          `json:"confidence,omitempty"`
	Reasons         []string          `json:"reasons,omitempty"`
	TaskID          string            `json:"taskId"`
	State           json.RawMessage   `json:"state,omitempty"`
	Steps           int               `json:"steps"`
	Portions        int               `json:"portions"`
	Prefiltered     bool              `json:"prefiltered"`
	Model           string            `json:"model"`
	Tokens          llm.Usage         `json:"tokens"`
	// StepLimit: the run stopped at its step limit, not at the end of what it
	// reads; StoppedAt is where (the headings of the last portion read).
	// Continuing the task (taskId) goes on from there.
	StepLimit bool   `json:"stepLimit,omitempty"`
	StoppedAt string `json:"stoppedAt,omitempty"`
}

// taskState is what a later call needs to continue a task ("the next mention").
type taskState struct {
	Rev     int64  `json:"rev"`
	Byte    int    `json:"byte"` // first byte of the next item to read; -1 = the cursor is done
	Mode    string `json:"mode"`
	Forward bool   `json:"forward"`
}

func newTaskID() string { return newID("task_") }

// newID is prefix and 12 random hex digits: short, and not guessable.
func newID(prefix string) string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

var (
	// Double quotes, guillemets and curly quotes; not the apostrophe, which is
	// part of words ("Pierre's").
	quoted = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`["«“„]([^"«»“”„]+)["»”“]`) })
)

// wantsCodeOrQuotes tells whether a task is explicitly about code or quotes.
func wantsCodeOrQuotes(task string) bool {
	t := strings.ToLower(quoted().ReplaceAllString(task, " "))
	for _, w := range []string{"code", "quote", "quotation", "код", "цитат"} {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

// Runtime runs cursor agents on the workspace's current manuscript.
type Runtime struct {
	WS    *manuscript.Workspace
	Store *store.Store
	// Model is set when the Runtime is made; afterwards it changes only through
	// SetModel and is read through LLM (the window's settings change it while a
	// command may be running).
	Model llm.Model

	mu  sync.Mutex
	reg *tools.Registry // the registry Register put the agent's tools in
}

// addToSet adds items to a target set through the TargetSetAdd tool, as
// every other writer of sets does (issue 24, point 5).
func (rt *Runtime) addToSet(ctx context.Context, id string, idx []int) (int, error) {
	rt.mu.Lock()
	reg := rt.reg
	rt.mu.Unlock()
	if reg == nil {
		return 0, errors.New("the cursor agent collects through the TargetSetAdd tool: register the agent's tools first (author.Register)")
	}
	args, err := json.Marshal(map[string]any{"targetSetId": id, "itemIndices": idx})
	if err != nil {
		return 0, err
	}
	v, err := reg.Call(ctx, tools.Call{Name: "TargetSetAdd", Args: args}, tools.Context{})
	if err != nil {
		return 0, err
	}
	return v.(manuscript.TargetSetCount).Count, nil
}

// LLM returns the model in use now.
func (rt *Runtime) LLM() llm.Model {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.Model
}

// SetModel makes the next runs use m; a run already going keeps its model.
func (rt *Runtime) SetModel(m llm.Model) {
	rt.mu.Lock()
	rt.Model = m
	rt.mu.Unlock()
}

// validate checks the options and fills defaults.
func (o *CursorAgentOptions) validate() (int, error) {
	known := false
	for _, m := range Modes {
		if o.Mode == m {
			known = true
		}
	}
	if !known {
		return 0, fmt.Errorf("%w: unknown mode %q; use one of %s", ErrBadOptions, o.Mode, strings.Join(Modes, ", "))
	}
	if o.Mode == ModeCollect && o.TargetSetID == "" {
		return 0, fmt.Errorf("%w: mode %s requires targetSetId (create one with TargetSetCreate)", ErrBadOptions, ModeCollect)
	}
	steps := DefaultMaxSteps
	if o.MaxSteps != nil {
		steps = *o.MaxSteps
		if steps < 1 || steps > MaxMaxSteps {
			return 0, fmt.Errorf("%w: maxSteps %d is out of range; allowed 1..%d (default %d)", ErrBadOptions, steps, MaxMaxSteps, DefaultMaxSteps)
		}
	}
	spec := document.CursorSpec{Name: "local", MaxElements: o.MaxElements, MaxBytes: o.MaxBytes}
	if err := spec.Validate(); err != nil {
		return 0, fmt.Errorf("%w: %v", ErrBadOptions, err)
	}
	if strings.TrimSpace(o.TaskDescription) == "" {
		return 0, fmt.Errorf("%w: taskDescription is empty; say what to find, collect or summarise", ErrBadOptions)
	}
	return steps, nil
}

// Run executes one RunCursorAgent call. The cursor is local to the call; taskId
// and state continue an earlier task from where it stopped.
func (rt *Runtime) Run(ctx context.Context, o CursorAgentOptions) (CursorAgentResult, error) {
	steps, err := o.validate()
	if err != nil {
		return CursorAgentResult{}, err
	}
	m, err := rt.WS.Current()
	if err != nil {
		return CursorAgentResult{}, err
	}
	if o.Mode == ModeCollect {
		if _, err := rt.Store.TargetSet(ctx, o.TargetSetID); err != nil {
			return CursorAgentResult{}, err
		}
	}
	model := rt.LLM()
	res := CursorAgentResult{TaskID: o.TaskID, TargetSetID: o.TargetSetID, Model: model.Name()}
	var st *taskState
	if o.TaskID != "" {
		raw := o.State
		if len(raw) == 0 {
			as, err := rt.Store.AgentState(ctx, o.TaskID)
			if err != nil {
				return CursorAgentResult{}, fmt.Errorf("%w: taskId: %v", ErrBadOptions, err)
			}
			raw = as.Data
		}
		st = &taskState{}
		if err := json.Unmarshal(raw, st); err != nil {
			return CursorAgentResult{}, fmt.Errorf("%w: state of task %s is not valid: %v", ErrBadOptions, o.TaskID, err)
		}
	} else {
		res.TaskID = newTaskID()
	}

	// Snapshot what the run reads: the items of the current revision.
	var view *bookView
	err = m.Do(func(d *document.Document) error {
		var err error
		view, err = newBookView(d, o, st)
		return err
	})
	if err != nil {
		return CursorAgentResult{}, err
	}
	res.Prefiltered = view.prefilter

	// The request is rebuilt for every turn: the protocol, the task, the notes a
	// summary has gathered, and only the current portion with its exchanges, so a
	// whole book never accumulates in the model's context.
	base := []llm.Message{
		{Role: "system", Content: systemPrompt},
		{Role: "user", Content: fmt.Sprintf("Mode: %s\nTask: %s\nThe book is read %s in portions of at most %d items / %d bytes.",
			o.Mode, o.TaskDescription, map[bool]string{true: "forward", false: "backward"}[o.Forward], o.MaxElements, o.MaxBytes)},
	}
	if o.Mode == ModeSummary {
		base[1].Content += "\nWrite each note in the language of the book's text, one or two sentences for the chapter the portion belongs to."
	}
	// AggregateSummary is a map-reduce: each portion holds one chapter (or
	// part of one), its note (map) is kept by the runtime under that chapter,
	// and the result joins them (reduce), so every chapter is in it. A request
	// carries only the latest notes that fit its share of the budget.
	notes := &summaryNotes{}
	place := ""
	var turn []llm.Message
	// The context budget: every request, the reply left room for, fits it.
	budget, _ := model.(llm.Budgeted)
	schema := &llm.JSONSchema{Name: "cursor_action", Schema: ActionSchema}

	limit := 0
	if budget != nil {
		limit = budget.ContextTokens() - cursorReplyTokens
		fixed := llm.EstimateRequest(llm.Request{Messages: base, JSONSchema: schema})
		// The portion gets what the protocol, a summary's notes (a quarter)
		// and a few exchanges (reminders, a target_set_add reply) leave.
		notesShare := 0
		if o.Mode == ModeSummary {
			notesShare = limit / 4
		}
		view.maxTokens = max(256, limit-fixed-notesShare-exchangeTokens)
	}
	request := func() []llm.Message {
		msgs := append([]llm.Message{}, base...)
		if len(notes.groups) > 0 {
			share := 1 << 30
			if limit > 0 {
				share = limit / 4 * 2 // bytes: a quarter of the budget, at two bytes a token or more
			}
			msgs = append(msgs, llm.Message{Role: "user", Content: notesHeader + notes.tail(share)})
		}
		return append(msgs, turn...)
	}
	// show puts a portion in the turn, fewer of its items if the server's
	// count says it does not fit (the rest come in the next portion).
	show := func(portion []int, more bool) ([]int, error) {
		view.textLimit = 0
		for {
			turn = []llm.Message{{Role: "user", Content: view.render(portion, more)}}
			if budget == nil {
				return portion, nil
			}
			n := budget.CountTokens(ctx, llm.Request{Messages: request(), JSONSchema: schema})
			if n <= limit-exchangeTokens {
				return portion, nil
			}
			if len(portion) == 1 {
				// One item larger than the budget: shown cut.
				size := len(view.d.Text(portion[0])) + len(view.d.Markdown(portion[0]))
				if view.textLimit > 0 {
					size = view.textLimit
				}
				if size < 64 {
					return nil, fmt.Errorf("the task and the protocol alone are %d tokens, over the context budget of %d; raise the budget in Settings or %s", n, limit+cursorReplyTokens, llm.EnvContextTokens)
				}
				view.textLimit = size * (limit - exchangeTokens) / n * 9 / 10
				continue
			}
			keep := max(1, len(portion)*limit/n-1)
			if keep >= len(portion) {
				keep = len(portion) - 1
			}
			view.putBack(portion[keep:])
			portion, more = portion[:keep], true
		}
	}
	var collected []int
	finish := func(r CursorAgentResult) (CursorAgentResult, error) {
		r.State = view.stateJSON(o)
		_ = rt.Store.SaveAgentState(ctx, r.TaskID, "cursor_agent", json.RawMessage(r.State))
		return r, nil
	}
	portion, more := view.next()
	if len(portion) == 0 {
		_ = rt.Store.LogEvent(ctx, "cursor_batch_complete", m.DocID, map[string]any{"taskId": res.TaskID, "items": 0})
		res.Reason = "nothing to read: the cursor is at the end of the book"
		if view.prefilter {
			res.Reason = fmt.Sprintf("no mention of %q in the rest of the book", view.phrase)
		}
		_ = rt.Store.LogEvent(ctx, ActFinishNotFnd, m.DocID, map[string]any{"taskId": res.TaskID, "reason": res.Reason})
		return finish(res)
	}
	if portion, err = show(portion, more); err != nil {
		res.Reason = err.Error()
		return finish(res)
	}
	place = view.d.Place(portion[0])
	res.Portions = 1
	_ = rt.Store.LogEvent(ctx, "cursor_batch", m.DocID, map[string]any{"taskId": res.TaskID, "items": len(portion), "hasMore": more})
	retries := 0
	badItems := 0 // item indices or pointers the model gave that are not in the book
	// The one model turn of every agent, here asking for one JSON action.
	turner := &agent.Stepper{Model: model, MaxTurns: steps}

	for {
		t, err := turner.Step(ctx, request(), schema)
		res.Steps, res.Tokens = turner.Turns, turner.Usage
		var lerr *agent.LimitError
		if errors.As(err, &lerr) {
			break
		}
		if err != nil {
			res.Reason = err.Error()
			if !errors.Is(err, agent.ErrNeedsModel) {
				res.Reason = "the model failed: " + err.Error()
			}
			return finish(res)
		}
		act, perr := ParseAction(t.Raw)
		if perr != nil {
			retries++
			if retries > maxRetries {
				res.Reason = fmt.Sprintf("the model did not return one JSON action after %d reminders (last reply: %q)", maxRetries, document.Snippet(t.Raw, 120))
				return finish(res)
			}
			turn = append(turn, llm.Message{Role: "assistant", Content: t.Raw}, llm.Message{Role: "user", Content: perr.Error()})
			continue
		}
		retries = 0
		reply := llm.Message{Role: "assistant", Content: t.Raw}
		switch act.Action {
		case ActCursorNext:
			if o.Mode == ModeSummary && act.Summary != "" {
				notes.add(place, act.Summary)
			}
			portion, more = view.next()
			if len(portion) == 0 {
				_ = rt.Store.LogEvent(ctx, "cursor_batch_complete", m.DocID, map[string]any{"taskId": res.TaskID})
				turn = append(turn, reply, llm.Message{Role: "user", Content: cursorCompleteMsg + ": there are no more portions. Finish with agent_finish_success or agent_finish_not_found."})
				continue
			}
			res.Portions++
			if portion, err = show(portion, more); err != nil {
				res.Reason = err.Error()
				return finish(res)
			}
			_ = rt.Store.LogEvent(ctx, "cursor_batch", m.DocID, map[string]any{"taskId": res.TaskID, "items": len(portion), "hasMore": more})
			place = view.d.Place(portion[0])
		case ActTargetSetAdd:
			if o.Mode != ModeCollect {
				turn = append(turn, reply, llm.Message{Role: "user", Content: "target_set_add is only for CollectToTargetSet mode. " + OneActionReply})
				continue
			}
			idx, err := view.resolve(act)
			if err != nil {
				if badItems++; badItems > maxBadItems {
					res.Reason = fmt.Sprintf("the model named items that are not in the book %d times (last: %v); stopped", badItems, err)
					return finish(res)
				}
				turn = append(turn, reply, llm.Message{Role: "user", Content: err.Error() + " " + OneActionReply})
				continue
			}
			n, err := rt.addToSet(ctx, o.TargetSetID, idx)
			if err != nil {
				turn = append(turn, reply, llm.Message{Role: "user", Content: err.Error()})
				continue
			}
			collected = append(collected, idx...)
			turn = append(turn, reply, llm.Message{Role: "user", Content: fmt.Sprintf(`{"success":true,"count":%d}`, n)})
		case ActFinishNotFnd:
			res.Success = false
			res.Reason = "not found"
			res.Summary = act.Summary
			if view.checkable() {
				if first, ok := view.matcherFirst(); ok {
					// The matcher knows better: a mention exists.
					res.Reasons = append(res.Reasons, fmt.Sprintf("the model reported not found, but the matcher finds %q in %s", view.phrase, view.d.Label(first)))
					return finish(rt.success(ctx, m, view, res, first, act))
				}
			}
			_ = rt.Store.LogEvent(ctx, ActFinishNotFnd, m.DocID, map[string]any{"taskId": res.TaskID, "summary": act.Summary})
			return finish(res)
		case ActFinishSuccess:
			switch o.Mode {
			case ModeFirstMatch:
				claim := -1
				if act.FirstItemIndex != nil {
					claim = *act.FirstItemIndex
				} else if len(act.Indices) > 0 {
					claim = act.Indices[0]
				} else if len(act.Pointers) > 0 {
					if idx, err := view.resolve(Action{Pointers: act.Pointers[:1]}); err == nil {
						claim = idx[0]
					}
				}
				if !view.checkable() && claim >= 0 && claim < view.d.Len() && (!view.inRange(claim) || !view.task.admissible(view.d, claim)) {
					turn = append(turn, reply, llm.Message{Role: "user", Content: fmt.Sprintf("Item %d cannot be the answer: %s. Read on with cursor_next or give another item. %s", claim, view.task.rules(view.d, claim, view.inRange(claim)), OneActionReply)})
					continue
				}
				if view.checkable() {
					first, ok := view.matcherFirst()
					if !ok {
						res.Reason = fmt.Sprintf("the model claimed item %d, but the matcher finds no mention of %q", claim, view.phrase)
						return finish(res)
					}
					if claim != first {
						res.Reasons = append(res.Reasons, fmt.Sprintf("the model claimed item %d; corrected to the first mention the matcher finds, %s", claim, view.d.Label(first)))
						claim = first
					}
				}
				if claim < 0 || claim >= view.d.Len() {
					if badItems++; badItems > maxBadItems {
						res.Reason = fmt.Sprintf("the model named an item that is not in the book %d times (last: %d, the book has items 0..%d); stopped", badItems, claim, view.d.Len()-1)
						return finish(res)
					}
					turn = append(turn, reply, llm.Message{Role: "user", Content: fmt.Sprintf("agent_finish_success in FirstMatch mode needs firstItemIndex (an item index shown in the portions, 0..%d). %s", view.d.Len()-1, OneActionReply)})
					continue
				}
				return finish(rt.success(ctx, m, view, res, claim, act))
			case ModeCollect:
				res.Success = true
				res.Summary = act.Summary
				if res.Summary == "" {
					res.Summary = fmt.Sprintf("collected %d item(s) into %s", len(collected), o.TargetSetID)
				}
				_ = rt.Store.LogEvent(ctx, ActFinishSuccess, m.DocID, map[string]any{"taskId": res.TaskID, "targetSetId": o.TargetSetID, "added": len(collected)})
				return finish(res)
			default:
				res.Success = true
				if act.Summary != "" && o.Mode == ModeSummary {
					notes.add(place, act.Summary)
				}
				// The result is every chapter's note (the reduce is the
				// runtime's), not what one last request could hold.
				res.Summary = notes.render()
				_ = rt.Store.LogEvent(ctx, ActFinishSuccess, m.DocID, map[string]any{"taskId": res.TaskID, "mode": o.Mode})
				return finish(res)
			}
		}
	}
	res.Reason = fmt.Sprintf("step limit reached (%d steps) before the task finished; raise maxSteps (at most %d) or narrow the task", steps, MaxMaxSteps)
	res.StoppedAt = place
	res.StepLimit = true
	if o.Mode == ModeSummary && len(notes.groups) > 0 {
		// What was read is not thrown away: the notes so far, and where they stop.
		res.Summary = notes.render()
		res.Reason = fmt.Sprintf("cut: the summary covers the book up to %s; %s", place, res.Reason)
	}
	return finish(res)
}

// success fills a FirstMatch result for item i and moves the task's position
// after it, so that continuing the task finds the next mention.
func (rt *Runtime) success(ctx context.Context, m *manuscript.Manuscript, v *bookView, res CursorAgentResult, i int, act Action) CursorAgentResult {
	d := v.d
	p := d.PointerTo(i)
	res.Success, res.Reason = true, ""
	res.SemanticPointer = &p
	res.Markdown = d.Markdown(i)
	res.FirstItemIndex = &i
	res.Confidence = act.Confidence
	res.Reasons = append(res.Reasons, act.Reasons...)
	res.Summary = act.Summary
	if !strings.Contains(res.Summary, p.Label) {
		res.Summary = strings.TrimSpace(p.Label + " " + res.Summary)
	}
	v.moveAfter(i)
	_ = rt.Store.LogEvent(ctx, ActFinishSuccess, m.DocID, map[string]any{"taskId": res.TaskID, "firstItemIndex": i, "label": p.Label})
	return res
}
