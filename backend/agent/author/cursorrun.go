package author

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/waymark/waymark/backend/agent"
	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/tools"
)

// cursorRun is one RunCursorAgent call, run by the agent loop (agent.Loop):
// it is the loop's context policy, its Protocol reads the model's one JSON
// action a turn as a call, and the actions are the loop's tools. The request
// is rebuilt for every turn: the protocol, the task, the notes a summary has
// gathered, and only the current portion with its exchanges, so a whole book
// never accumulates in the model's context.
type cursorRun struct {
	rt    *Runtime
	o     CursorAgentOptions
	m     *manuscript.Manuscript
	model llm.Model
	view  *bookView
	res   CursorAgentResult
	// done: res is the run's result; the loop stops after the action.
	done bool

	base []llm.Message // the protocol and the task
	// AggregateSummary is a map-reduce: each portion holds one chapter (or
	// part of one), its note (map) is kept under that chapter (place), and
	// the result joins them (reduce), so every chapter is in it. A request
	// carries only the latest notes that fit its share of the budget.
	notes summaryNotes
	// from is where this run started reading (a continued task's notes
	// cover only what it read).
	from  int
	place string        // the headings of the portion shown
	turn  []llm.Message // the portion shown and its exchanges
	// fresh: a portion was just shown; the step that asked for it is not kept.
	fresh bool
	// budget is the model's context budget: every request, with the room
	// left for the reply, fits limit (0: no budget).
	budget llm.Budgeted
	limit  int

	collected []int
	badItems  int // item indices or pointers the model gave that are not in the book
}

// start makes the run of o: the task's state read, the items of the current
// revision snapshot, the request's fixed part and the portions' budget.
func (rt *Runtime) start(ctx context.Context, o CursorAgentOptions) (*cursorRun, error) {
	m, err := rt.WS.Current()
	if err != nil {
		return nil, err
	}
	if o.Mode == ModeCollect {
		if _, err := rt.Store.TargetSet(ctx, o.TargetSetID); err != nil {
			return nil, err
		}
	}
	st, err := rt.taskState(ctx, o)
	if err != nil {
		return nil, err
	}
	r := &cursorRun{rt: rt, o: o, m: m, model: rt.LLM()}
	r.res = CursorAgentResult{TaskID: o.TaskID, TargetSetID: o.TargetSetID, Model: r.model.Name()}
	if st == nil {
		r.res.TaskID = newTaskID()
	}
	err = m.Do(func(d *document.Document) error {
		var err error
		r.view, err = newBookView(d, o, st)
		return err
	})
	if err != nil {
		return nil, err
	}
	r.res.Prefiltered = r.view.prefilter
	r.base = []llm.Message{
		{Role: "system", Content: systemPrompt},
		{Role: "user", Content: fmt.Sprintf("Mode: %s\nTask: %s\nThe book is read %s in portions of at most %d items / %d bytes.",
			o.Mode, o.TaskDescription, map[bool]string{true: "forward", false: "backward"}[o.Forward], o.MaxElements, o.MaxBytes)},
	}
	if o.Mode == ModeSummary {
		r.base[1].Content += "\nWrite each note in the language of the book's text, one or two sentences for the chapter the portion belongs to."
	}
	r.budget, _ = r.model.(llm.Budgeted)
	if r.budget != nil {
		r.limit = r.budget.ContextTokens() - cursorReplyTokens
		fixed := llm.EstimateRequest(llm.Request{Messages: r.base, JSONSchema: actions{}.Schema()})
		// The portion gets what the protocol, a summary's notes (a quarter)
		// and a few exchanges (reminders, a target_set_add reply) leave.
		notesShare := 0
		if o.Mode == ModeSummary {
			notesShare = r.limit / 4
		}
		r.view.maxTokens = max(256, r.limit-fixed-notesShare-exchangeTokens)
	}
	return r, nil
}

// open shows the first portion; false: the run ended there (nothing to
// read, or the budget too small for one item).
func (r *cursorRun) open(ctx context.Context) bool {
	portion, more := r.view.next()
	if len(portion) == 0 {
		r.log(ctx, "cursor_batch_complete", map[string]any{"taskId": r.res.TaskID, "items": 0})
		r.res.Reason, r.res.ReadToEnd = "nothing to read: the cursor is at the end of the book", true
		if r.view.prefilter {
			r.res.Reason = fmt.Sprintf("no mention of %q in the rest of the book", r.view.phrase)
		}
		r.log(ctx, ActFinishNotFnd, map[string]any{"taskId": r.res.TaskID, "reason": r.res.Reason})
		return false
	}
	if err := r.show(ctx, portion, more); err != nil {
		r.res.Reason = err.Error()
		return false
	}
	r.res.Portions = 1
	return true
}

// read runs the agent loop over the portions until an action finishes the
// task, the model fails or the step limit is reached.
func (r *cursorRun) read(ctx context.Context, steps int) {
	r.from = r.view.pos // a continued task reads on from here
	l := &agent.Loop{Reg: r.tools(), Model: r.model, Context: r, Protocol: actions{}, Retries: maxRetries,
		Limits: agent.Limits{Turns: steps, Steps: steps, Wall: agent.NoWallLimit},
		After: func(_ context.Context, g *agent.Guarded, _ any, _ error) error {
			g.Stop = r.done
			return nil
		}}
	lr, err := l.Run(ctx, nil)
	r.res.Steps, r.res.Tokens = lr.Turns, lr.Usage
	var noCall *agent.NoCallError
	var failed *agent.ModelError
	switch {
	case r.done:
	case errors.As(err, &noCall):
		r.res.Reason = fmt.Sprintf("the model did not return one JSON action after %d reminders (last reply: %q)", noCall.Retries, document.Snippet(noCall.Last, 120))
	case errors.Is(err, llm.ErrOverBudget) && lr.Turns > 1:
		// The model went on and on (past the end of the text, where no
		// new portion replaces the exchanges) until its conversation no
		// longer fit: it did not finish; nothing is "not found".
		r.res.Reason = "the model did not finish: it went on without finishing the task until its conversation no longer fit the context window"
		if r.o.Mode == ModeSummary {
			if len(r.notes.groups) > 0 {
				r.res.Summary = r.notes.render()
				if all, missing := r.coverage(); len(missing) > 0 {
					r.res.Chapters, r.res.Missing = all, missing
				}
			}
		} else {
			r.res.ModelFailure = "unfinished"
		}
	case errors.As(err, &failed) && errors.Is(failed.Err, agent.ErrNeedsModel):
		r.res.Reason = failed.Err.Error()
	case errors.As(err, &failed):
		r.res.Reason = "the model failed: " + failed.Err.Error()
		r.res.ModelFailure = modelFailure(failed.Err)
	case err != nil:
		r.res.Reason = "the model failed: " + err.Error()
		r.res.ModelFailure = modelFailure(err)
	default:
		r.stepLimit(steps)
	}
}

// stepLimit is the result of a run stopped at its step limit: where it
// stopped, and a summary's notes so far.
func (r *cursorRun) stepLimit(steps int) {
	r.res.Reason = fmt.Sprintf("step limit reached (%d steps) before the task finished; raise maxSteps (at most %d) or narrow the task", steps, MaxMaxSteps)
	r.res.StoppedAt = r.place
	r.res.StepLimit = true
	if r.o.Mode == ModeSummary && len(r.notes.groups) > 0 {
		// What was read is not thrown away: the notes so far, and where they stop.
		r.res.Summary = r.notes.render()
		r.res.Reason = fmt.Sprintf("cut: the summary covers the book up to %s; %s", r.place, r.res.Reason)
	}
}

// finish saves the task's state for a later call and returns the result.
func (r *cursorRun) finish(ctx context.Context) CursorAgentResult {
	r.res.State = r.view.stateJSON(r.o)
	_ = r.rt.Store.SaveAgentState(ctx, r.res.TaskID, "cursor_agent", json.RawMessage(r.res.State))
	return r.res
}

func (r *cursorRun) log(ctx context.Context, event string, data map[string]any) {
	_ = r.rt.Store.LogEvent(ctx, event, r.m.DocID, data)
}

// stop ends the run with reason.
func (r *cursorRun) stop(reason string) string {
	r.res.Reason, r.done = reason, true
	return ""
}

// Request is the turn's request: the protocol and the task, a summary's
// latest notes, the portion and its exchanges (agent.ContextPolicy).
func (r *cursorRun) Request(context.Context) []llm.Message {
	msgs := append([]llm.Message{}, r.base...)
	if len(r.notes.groups) > 0 {
		share := 1 << 30
		if r.limit > 0 {
			share = r.limit / 4 * 2 // bytes: a quarter of the budget, at two bytes a token or more
		}
		msgs = append(msgs, llm.Message{Role: "user", Content: notesHeader + r.notes.tail(share)})
	}
	return append(msgs, r.turn...)
}

// Record keeps a step's exchange with the portion, unless the step showed
// the next portion, which replaces the last one and its exchanges.
func (r *cursorRun) Record(exchange ...llm.Message) {
	if r.fresh {
		r.fresh = false
		return
	}
	r.turn = append(r.turn, exchange...)
}

// show puts a portion in the turn, fewer of its items if the server's count
// says it does not fit (the rest come in the next portion).
func (r *cursorRun) show(ctx context.Context, portion []int, more bool) error {
	v := r.view
	v.textLimit = 0
	for {
		r.turn = []llm.Message{{Role: "user", Content: v.render(portion, more)}}
		if r.budget == nil {
			break
		}
		n := r.budget.CountTokens(ctx, llm.Request{Messages: r.Request(ctx), JSONSchema: actions{}.Schema()})
		if n <= r.limit-exchangeTokens {
			break
		}
		if len(portion) == 1 {
			// One item larger than the budget: shown cut.
			size := len(v.d.Text(portion[0])) + len(v.d.Markdown(portion[0]))
			if v.textLimit > 0 {
				size = v.textLimit
			}
			if size < 64 {
				return fmt.Errorf("the task and the protocol alone are %d tokens, over the context budget of %d; raise the budget in Settings or %s", n, r.limit+cursorReplyTokens, llm.EnvContextTokens)
			}
			v.textLimit = size * (r.limit - exchangeTokens) / n * 9 / 10
			continue
		}
		keep := min(max(1, len(portion)*r.limit/n-1), len(portion)-1)
		v.putBack(portion[keep:])
		portion, more = portion[:keep], true
	}
	r.place = v.d.Place(portion[0])
	r.log(ctx, "cursor_batch", map[string]any{"taskId": r.res.TaskID, "items": len(portion), "hasMore": more})
	return nil
}

// actions is the cursor's protocol on the loop: one JSON action a turn,
// read as a call of the action's tool.
type actions struct{}

func (actions) Schema() *llm.JSONSchema {
	return &llm.JSONSchema{Name: "cursor_action", Schema: ActionSchema}
}

func (actions) Read(raw string) (llm.ToolCall, error) {
	a, err := ParseAction(raw)
	if err != nil {
		return llm.ToolCall{}, err
	}
	return llm.ToolCall{Name: a.Action, Arguments: json.RawMessage(strings.TrimSpace(raw))}, nil
}

// tools are the actions as the loop's tools. Each answers the model with
// the text it reads next, or ends the run (done).
func (r *cursorRun) tools() *tools.Registry {
	reg := tools.New()
	for _, a := range []struct {
		name, say string
		fn        func(context.Context, Action) string
	}{
		{ActCursorNext, "show the next portion", r.next},
		{ActTargetSetAdd, "add items to the target set", r.add},
		{ActFinishSuccess, "finish: the task is done", r.success},
		{ActFinishNotFnd, "finish: nothing matches", r.notFound},
	} {
		reg.MustRegister(tools.Tool{Name: a.name, Description: a.say, InputSchema: ActionSchema,
			Handler: func(ctx context.Context, call tools.Call, _ *tools.Tool, _ tools.Context) (any, error) {
				act, err := tools.Decode[Action](call)
				if err != nil {
					return nil, err
				}
				return a.fn(ctx, act), nil
			}})
	}
	return reg
}

// next is cursor_next: the next portion, or the news that the cursor is
// complete.
func (r *cursorRun) next(ctx context.Context, a Action) string {
	if r.o.Mode == ModeSummary && a.Summary != "" {
		r.notes.add(r.place, a.Summary)
	}
	portion, more := r.view.next()
	if len(portion) == 0 {
		r.log(ctx, "cursor_batch_complete", map[string]any{"taskId": r.res.TaskID})
		return cursorCompleteMsg + ": there are no more portions. Finish with agent_finish_success or agent_finish_not_found."
	}
	r.res.Portions++
	if err := r.show(ctx, portion, more); err != nil {
		return r.stop(err.Error())
	}
	r.fresh = true
	return ""
}

// add is target_set_add: the items go into the target set through the
// TargetSetAdd tool.
func (r *cursorRun) add(ctx context.Context, a Action) string {
	if r.o.Mode != ModeCollect {
		return "target_set_add is only for CollectToTargetSet mode. " + OneActionReply
	}
	idx, err := r.view.resolve(a)
	if err != nil {
		if r.badItems++; r.badItems > maxBadItems {
			return r.stop(fmt.Sprintf("the model named items that are not in the book %d times (last: %v); stopped", r.badItems, err))
		}
		return err.Error() + " " + OneActionReply
	}
	n, err := r.rt.addToSet(ctx, r.o.TargetSetID, idx)
	if err != nil {
		return err.Error()
	}
	r.collected = append(r.collected, idx...)
	return fmt.Sprintf(`{"success":true,"count":%d}`, n)
}

// notFound is agent_finish_not_found, unless the matcher finds a mention.
func (r *cursorRun) notFound(ctx context.Context, a Action) string {
	r.res.Success, r.res.Reason, r.res.Summary = false, "not found", a.Summary
	r.res.ReadToEnd = true
	if r.view.checkable() {
		if first, ok := r.view.matcherFirst(); ok {
			// The matcher knows better: a mention exists.
			r.res.Reasons = append(r.res.Reasons, fmt.Sprintf("the model reported not found, but the matcher finds %q in %s", r.view.phrase, r.view.d.Label(first)))
			return r.found(ctx, first, a)
		}
	}
	r.log(ctx, ActFinishNotFnd, map[string]any{"taskId": r.res.TaskID, "summary": a.Summary})
	r.done = true
	return ""
}

// success is agent_finish_success in the run's mode.
func (r *cursorRun) success(ctx context.Context, a Action) string {
	switch r.o.Mode {
	case ModeFirstMatch:
		return r.firstMatch(ctx, a)
	case ModeCollect:
		r.res.Success = true
		r.res.Summary = a.Summary
		if r.res.Summary == "" {
			r.res.Summary = fmt.Sprintf("collected %d item(s) into %s", len(r.collected), r.o.TargetSetID)
		}
		r.log(ctx, ActFinishSuccess, map[string]any{"taskId": r.res.TaskID, "targetSetId": r.o.TargetSetID, "added": len(r.collected)})
	default:
		r.res.Success = true
		if a.Summary != "" && r.o.Mode == ModeSummary {
			r.notes.add(r.place, a.Summary)
		}
		// The result is every chapter's note (the reduce is the runtime's),
		// not what one last request could hold.
		r.res.Summary = r.notes.render()
		if r.o.Mode == ModeSummary && llm.Understands(r.model) {
			// A model that declares success early has not summarised
			// the chapters it did not read: say which.
			if all, missing := r.coverage(); len(missing) > 0 {
				r.res.Success, r.res.Chapters, r.res.Missing = false, all, missing
				r.res.Reason = fmt.Sprintf("the model finished after %d of %d chapters; missing: %s", all-len(missing), all, strings.Join(missing, "; "))
			}
		}
		r.log(ctx, ActFinishSuccess, map[string]any{"taskId": r.res.TaskID, "mode": r.o.Mode})
	}
	r.done = true
	return ""
}

// firstMatch checks a FirstMatch claim: an item the task's rules refuse is
// sent back, the matcher corrects a lexical task's claim, and an item that
// is not in the book is asked again (at most maxBadItems times).
func (r *cursorRun) firstMatch(ctx context.Context, a Action) string {
	v := r.view
	claim := v.claim(a)
	if !v.checkable() && claim >= 0 && claim < v.d.Len() && (!v.inRange(claim) || !v.task.admissible(v.d, claim)) {
		return fmt.Sprintf("Item %d cannot be the answer: %s. Read on with cursor_next or give another item. %s", claim, v.task.rules(v.d, claim, v.inRange(claim)), OneActionReply)
	}
	if v.checkable() {
		first, ok := v.matcherFirst()
		if !ok {
			return r.stop(fmt.Sprintf("the model claimed item %d, but the matcher finds no mention of %q", claim, v.phrase))
		}
		if claim != first {
			r.res.Reasons = append(r.res.Reasons, fmt.Sprintf("the model claimed item %d; corrected to the first mention the matcher finds, %s", claim, v.d.Label(first)))
			claim = first
		}
	}
	if claim < 0 || claim >= v.d.Len() {
		if r.badItems++; r.badItems > maxBadItems {
			return r.stop(fmt.Sprintf("the model named an item that is not in the book %d times (last: %d, the book has items 0..%d); stopped", r.badItems, claim, v.d.Len()-1))
		}
		return fmt.Sprintf("agent_finish_success in FirstMatch mode needs firstItemIndex (an item index shown in the portions, 0..%d). %s", v.d.Len()-1, OneActionReply)
	}
	return r.found(ctx, claim, a)
}

// found ends a FirstMatch run at item i and moves the task's position after
// it, so that continuing the task finds the next mention.
func (r *cursorRun) found(ctx context.Context, i int, a Action) string {
	d := r.view.d
	p := d.PointerTo(i)
	r.res.Success, r.res.Reason, r.res.ReadToEnd = true, "", false
	r.res.SemanticPointer = &p
	r.res.Markdown = d.Markdown(i)
	r.res.FirstItemIndex = &i
	r.res.Confidence = a.Confidence
	r.res.Reasons = append(r.res.Reasons, a.Reasons...)
	r.res.Summary = a.Summary
	if !strings.Contains(r.res.Summary, p.Label) {
		r.res.Summary = strings.TrimSpace(p.Label + " " + r.res.Summary)
	}
	r.view.moveAfter(i)
	r.log(ctx, ActFinishSuccess, map[string]any{"taskId": r.res.TaskID, "firstItemIndex": i, "label": p.Label})
	r.done = true
	return ""
}

// coverage counts the chapters of the run's range that hold text and lists
// those the summary's notes do not cover, in reading order.
func (r *cursorRun) coverage() (all int, missing []string) {
	v := r.view
	covered := map[string]bool{}
	for _, g := range r.notes.groups {
		covered[g.place] = true
	}
	seen := map[string]bool{}
	fresh := true // a heading came since the last place was taken
	for i := max(v.lo, r.from); i < v.hi; i++ {
		it := v.d.Item(i)
		if it.Type == document.Heading {
			fresh = true
			continue
		}
		if !fresh || it.Type != document.Paragraph || strings.TrimSpace(v.d.Text(i)) == "" {
			continue
		}
		fresh = false
		p := v.d.Place(i)
		if p == "" || seen[p] {
			continue
		}
		seen[p] = true
		all++
		if !covered[p] {
			missing = append(missing, p)
		}
	}
	return all, missing
}
