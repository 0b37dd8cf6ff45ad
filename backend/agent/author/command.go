package author

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/waymark/waymark/backend/agent"
	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/textmatch"
	"github.com/waymark/waymark/backend/tools"
	"github.com/waymark/waymark/backend/wordforms"
)

// Event is one line of a command's transcript: what was asked, each tool call and
// result, and the answer. `waymark agent` prints them as JSON lines.
type Event struct {
	Event     string          `json:"event"` // "command", "tool_call", "tool_result", "tool_error", "answer", "result"
	Text      string          `json:"text,omitempty"`
	Tool      string          `json:"tool,omitempty"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Result    any             `json:"result,omitempty"`
	Success   *bool           `json:"success,omitempty"`
}

// CommandAgent turns an author's command into tool calls on the registry and
// answers or applies the edit. Without a model server it understands a fixed set
// of English and Russian commands and says plainly what it cannot do.
type CommandAgent struct {
	Reg     *tools.Registry
	Runtime *Runtime
	Emit    func(Event)
	// MaxTurns bounds a model-driven command (default 12).
	MaxTurns int
	// Progress receives what the tools of an approved plan report (each
	// step's command), for the door that runs the plan.
	Progress func(tools.Progress)
	// Cursor is the byte offset of the caret in the window (nil: unknown),
	// and Selection the selected bytes [from, to): "this chapter", "from
	// here" and "the selection" are read from them.
	Cursor    *int
	Selection *[2]int

	answered bool // an answer was emitted for the command running
	russian  bool // the command running is Russian
}

// modelTools are the tools a model may call for an author's command.
var modelTools = []string{"Find", "Read", "Outline", "RunCursorAgent", "ReplaceText", "InsertAfter", "InsertBefore", "Delete", "Undo", "TargetSetCreate", "TargetSetAdd", "TargetSetGet"}

// editTools change the manuscript; a failed model run undoes what they did.
var editTools = map[string]bool{"ReplaceText": true, "InsertAfter": true, "InsertBefore": true, "Delete": true}

const commandPrompt = `You are Waymark's command agent. An author edits a long Markdown manuscript by commands.
You never see the whole book: locate text with Find (exact phrases) or RunCursorAgent (reads the book in portions; modes FirstMatch, CollectToTargetSet, AggregateSummary), read an item with Read, and change exactly one item at a time with ReplaceText, InsertAfter, InsertBefore or Delete, addressing it by the pointer a tool returned.
Edits never change the outline: a paragraph cannot become a heading. Every edit result carries a cursor context; check it.
Call one tool per turn. When the command is done, answer the author in one or two short sentences without calling a tool.`

// Run executes one command. Its result is the last tool result (or the answer).
// A command that ran but found or changed nothing returns an error for which
// errors.Is(err, ErrNothingDone) holds, its message the answer.
func (c *CommandAgent) Run(ctx context.Context, command string) (any, error) {
	command = strings.TrimSpace(command)
	c.emit(Event{Event: "command", Text: command})
	var out any
	var err error
	in := ParseCommand(command)
	isBuiltin := !llm.Understands(c.Runtime.LLM())
	c.answered, c.russian = false, in.Russian
	switch {
	case len(splitSteps(command)) > 1:
		// A command of several steps is a lazy plan: shown, not run, until
		// the author approves it (PlanRun).
		var p PlanProposal
		if p, err = c.Propose(ctx, command); err == nil {
			out = p
			c.emit(Event{Event: "answer", Text: p.Message})
		}
	case in.Understood() && (!in.Semantic || readsBook(in)):
		// Understood: carried out by the tools; finding, collecting and
		// summarising go to RunCursorAgent, which asks the model (when there
		// is one) through the one-JSON-action protocol.
		out, err = c.carryOut(ctx, in, command)
	case !isBuiltin:
		out, err = c.withModel(ctx, command, in)
	default:
		err = c.refusal(in, command)
	}
	if err != nil {
		err = explainModelFailure(err, in.Russian)
	}
	var st stopped
	if err != nil && errors.Is(err, context.Canceled) && !errors.As(err, &st) {
		// The author (Ctrl+C, Stop, a closed window) ended it: say so in
		// the command's words, never Go's "context canceled".
		err = stopped{russian: in.Russian, cause: err}
	}
	ok := err == nil
	var nd nothing
	if err != nil && (!errors.As(err, &nd) || !c.answered) {
		c.emit(Event{Event: "answer", Text: err.Error()})
	}
	c.emit(Event{Event: "result", Success: &ok, Result: out})
	return out, err
}

func (c *CommandAgent) emit(e Event) {
	if e.Event == "answer" {
		c.answered = true
	}
	if c.Emit != nil {
		c.Emit(e)
	}
}

// call runs a tool through its typed handle and records it in the
// transcript.
func call[In, Out any](ctx context.Context, c *CommandAgent, ref tools.Ref[In, Out], args In) (Out, error) {
	return callShown(ctx, c, ref, args, nil)
}

// callShown is call with what the transcript shows of the result (shown),
// for a tool whose whole result is far longer than the command needs (the
// character index's every mention).
func callShown[In, Out any](ctx context.Context, c *CommandAgent, ref tools.Ref[In, Out], args In, shown func(Out) any) (Out, error) {
	b, _ := json.Marshal(args)
	c.emit(Event{Event: "tool_call", Tool: ref.Name(), Arguments: b})
	res, err := ref.Call(ctx, c.Reg, args)
	if err != nil {
		c.emit(Event{Event: "tool_error", Tool: ref.Name(), Text: err.Error()})
		return res, err
	}
	var show any = res
	if shown != nil {
		show = shown(res)
	}
	c.emit(Event{Event: "tool_result", Tool: ref.Name(), Result: show})
	return res, nil
}

// readBook runs RunCursorAgent (recorded in the transcript). A reading the
// model server's failure stopped is that failure, never "not found"; one
// the author stopped ends with what it had read so far, which is no answer
// ("not found", "no note"): the stop is.
func (c *CommandAgent) readBook(ctx context.Context, o CursorAgentOptions) (CursorAgentResult, error) {
	r, err := call(ctx, c, RunCursorAgentRef, o)
	switch {
	case err != nil:
		return CursorAgentResult{}, err
	case r.ModelFailure != "":
		return CursorAgentResult{}, modelFailed{kind: r.ModelFailure, russian: c.russian}
	case ctx.Err() != nil:
		return CursorAgentResult{}, ctx.Err()
	}
	return r, nil
}

func firstMatchArgs(task string) CursorAgentOptions {
	return CursorAgentOptions{Forward: true, MaxElements: 20, MaxBytes: 8192, IncludeContent: true, Mode: ModeFirstMatch, TaskDescription: task}
}

// readsBook tells whether an intent is one the runtime carries out by
// reading the book (find, collect, count, summarise), with the model's help
// when the object needs understanding.
func readsBook(in Intent) bool {
	switch in.Verb {
	case VerbFind, VerbCollect, VerbSummarise, VerbContinue:
		return true
	}
	return false
}

// lastFinds is what "the next one" continues, per document: the search of each
// phrase and which one was last.
type lastFinds struct {
	Last  string               `json:"last"`
	Tasks map[string]findState `json:"tasks"`
}

type findState struct {
	TaskID string `json:"taskId"`
	Task   string `json:"task"` // the task description, constraints included
	Phrase string `json:"phrase"`
	Span   span   `json:"span"` // the items it reads
	// Backward: the search reads towards the start ("the last mention"), so
	// its next one is the one before.
	Backward bool `json:"backward,omitempty"`
}

func (c *CommandAgent) findKey() (string, error) {
	m, err := c.Runtime.WS.Current()
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("agent.find.%d", m.DocID), nil
}

func (c *CommandAgent) loadFinds(ctx context.Context) (string, lastFinds) {
	lf := lastFinds{Tasks: map[string]findState{}}
	key, err := c.findKey()
	if err != nil {
		return "", lf
	}
	if raw, ok, _ := c.Runtime.Store.Setting(ctx, key); ok {
		_ = json.Unmarshal([]byte(raw), &lf)
		if lf.Tasks == nil {
			lf.Tasks = map[string]findState{}
		}
	}
	return key, lf
}

// sameName is the earlier search of the same name or phrase written in
// another word form (Наташи, Наташа): the phrase with its word forms matches
// that search's phrase whole. The book's last search is tried first, then
// the others in a fixed order; an exact search ("точно") is its own form.
func (lf lastFinds) sameName(t Task) (findState, bool) {
	if t.Phrase == "" || t.Exact {
		return findState{}, false
	}
	q, err := textmatch.CompileWith(t.Phrase, wordforms.Options(true))
	if err != nil {
		return findState{}, false
	}
	keys := make([]string, 0, len(lf.Tasks))
	for k := range lf.Tasks {
		if k != lf.Last {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	if _, ok := lf.Tasks[lf.Last]; ok {
		keys = append([]string{lf.Last}, keys...)
	}
	for _, k := range keys {
		s := lf.Tasks[k]
		if s.Phrase == "" || strings.HasSuffix(k, " /exact") {
			continue
		}
		if a, b, ok := q.FindIn([]byte(s.Phrase), []textmatch.Segment{{Start: 0, End: len(s.Phrase)}}); ok && a == 0 && b == len(s.Phrase) {
			return s, true
		}
	}
	return findState{}, false
}

// searchKey names a search: its phrase (normalised) or its whole task.
func searchKey(t Task, task string) string {
	if t.Phrase != "" {
		k := textmatch.Normalize(t.Phrase)
		if t.Exact {
			k += " /exact"
		}
		return k
	}
	return textmatch.Normalize(task)
}

// place names where item i is ("BOOK ONE: 1805, CHAPTER IX").
func (c *CommandAgent) place(i int) string {
	var out string
	if m, err := c.Runtime.WS.Current(); err == nil {
		_ = m.Do(func(d *document.Document) error {
			if i >= 0 && i < d.Len() {
				out = d.Place(i)
			}
			return nil
		})
	}
	if out == "" {
		out = "the beginning of the book"
	}
	return out
}

// quoteAt is how an author reads a found item: where it is and the sentence
// that holds the mention, «Том 1, Часть первая, VI: «— Я за Долохова! — кричал третий.»».
func (c *CommandAgent) quoteAt(i int, t Task) string {
	var where, quote string
	if m, err := c.Runtime.WS.Current(); err == nil {
		_ = m.Do(func(d *document.Document) error {
			if i < 0 || i >= d.Len() {
				return nil
			}
			where = d.Place(i)
			text := d.Text(i)
			quote = document.Snippet(text, 200)
			if t.Phrase != "" {
				if q, err := textmatch.CompileWith(t.Phrase, wordforms.Options(!t.Exact)); err == nil {
					if s, e, ok := q.FindIn([]byte(text), []textmatch.Segment{{Start: 0, End: len(text)}}); ok {
						quote = sentenceAround(text, s, e)
					}
				}
			}
			if d.Item(i).Type == document.Heading {
				if t.Russian {
					quote = "заголовок «" + quote + "»"
				} else {
					quote = "the heading “" + quote + "”"
				}
			} else {
				quote = quoteOnce(quote, t.Russian)
			}
			return nil
		})
	}
	if where == "" {
		return quote
	}
	return where + ": " + quote
}

// sentenceAround is the sentence of text that holds [s, e), at most about 200
// characters, with "…" where it was cut.
func sentenceAround(text string, s, e int) string {
	a := 0
	for k := s - 1; k > 0; k-- {
		if strings.ContainsRune(".!?…", rune(text[k-1])) && text[k] == ' ' {
			a = k + 1
			break
		}
	}
	b := len(text)
	for k := e; k < len(text); k++ {
		if strings.ContainsRune(".!?", rune(text[k])) && (k+1 == len(text) || text[k+1] == ' ') {
			b = k + 1
			break
		}
	}
	out := strings.TrimSpace(text[a:b])
	pre, post := "", ""
	if a > 0 {
		pre = "…"
	}
	if b < len(text) {
		post = ""
	}
	if len([]rune(out)) > 200 {
		// Too long: keep about 90 characters on each side of the mention.
		lo, hi := max(a, s-180), min(b, e+180)
		for lo > a && !utf8.RuneStart(text[lo]) {
			lo--
		}
		for hi < b && !utf8.RuneStart(text[hi]) {
			hi++
		}
		// Whole words at both ends.
		if k := strings.IndexByte(text[lo:s], ' '); lo > a && k >= 0 {
			lo += k + 1
		}
		if k := strings.LastIndexByte(text[e:hi], ' '); hi < b && k >= 0 {
			hi = e + k
		}
		return "…" + strings.TrimSpace(text[lo:hi]) + "…"
	}
	return pre + out + post
}

// collectAnswer reports a collection in the author's terms: how many items, the
// set's name, where the first and last are.
func (c *CommandAgent) collectAnswer(got manuscript.TargetSetGetResult, phrase, set string, ru bool, r CursorAgentResult) string {
	n, idx := got.Count, got.ItemIndices
	span := ""
	if len(idx) > 0 {
		first, last := c.place(idx[0]), c.place(idx[len(idx)-1])
		if ru {
			span = fmt.Sprintf(" — от «%s» до «%s»", first, last)
		} else {
			span = fmt.Sprintf(", from %s to %s", first, last)
		}
	}
	cut := ""
	if !r.Success && r.Reason != "" {
		cut = " " + r.Reason
	}
	if ru {
		return fmt.Sprintf("В набор «%s» собрано %d %s с упоминанием «%s»%s.%s", set, n, ruPlural(n, "место", "места", "мест"), phrase, span, cut)
	}
	return fmt.Sprintf("Collected %d passage(s) mentioning %q into the set %q%s.%s", n, phrase, set, span, cut)
}

// withModel lets the model drive the tools on the SPEC §4 loop (one tool per
// step, tool calls or the text fallback). A run that fails undoes the edits it
// applied, so the manuscript is left as it was.
func (c *CommandAgent) withModel(ctx context.Context, command string, in Intent) (any, error) {
	turns := c.MaxTurns
	if turns <= 0 {
		turns = 12
	}
	edits := 0
	var last any
	l := &agent.Loop{Reg: c.Reg, Model: c.Runtime.LLM(), Activities: modelTools, Prompt: commandPrompt,
		Limits: agent.Limits{Turns: turns, Steps: turns, Wall: agent.NoWallLimit},
		Guard: func(ctx context.Context, g *agent.Guarded) error {
			c.emit(Event{Event: "tool_call", Tool: g.Call.Name, Arguments: g.Call.Args})
			return nil
		},
		After: func(ctx context.Context, g *agent.Guarded, out any, err error) error {
			if err != nil {
				c.emit(Event{Event: "tool_error", Tool: g.Call.Name, Text: err.Error()})
				return nil
			}
			c.emit(Event{Event: "tool_result", Tool: g.Call.Name, Result: out})
			if editTools[g.Call.Name] {
				edits++
			}
			last = out
			return nil
		}}
	res, err := l.Run(ctx, []agent.LoopMessage{{Kind: agent.KindUser, Text: command}})
	var limit *agent.LimitError
	if err == nil && res.Stopped != "" || errors.As(err, &limit) ||
		res.Turns > 1 && errors.Is(err, llm.ErrOverBudget) {
		// Out of steps, or a conversation that grew past the window while
		// the model went on: the model did not finish (said so, not
		// "raise the context budget").
		err = notFinished(c.russian, res.Turns, 0)
	}
	if err != nil {
		for k := 0; k < edits; k++ {
			if _, uerr := call(context.WithoutCancel(ctx), c, manuscript.UndoRef, manuscript.UndoArgs{}); uerr != nil {
				return nil, fmt.Errorf("%w; undoing the run's edits also failed: %v", err, uerr)
			}
		}
		var mf modelFailed
		var nf unfinished
		if edits > 0 && errors.Is(err, context.Canceled) {
			err = stopped{russian: c.russian, undone: edits, cause: err}
		} else if edits > 0 && errors.As(err, &nf) {
			err = notFinished(c.russian, res.Turns, edits)
		} else if edits > 0 && errors.As(explainModelFailure(err, c.russian), &mf) {
			mf.undone = edits
			err = mf
		} else if edits > 0 {
			err = fmt.Errorf("%w; the %d edit(s) of this run were undone", err, edits)
		}
		return nil, err
	}
	if edits == 0 && (in.Verb == VerbReplace || in.Verb == VerbInsert || in.Verb == VerbDelete || claimsEdit(res.Solution)) {
		// The model said it changed the book, or was asked to, and called
		// no edit tool: say so, never pass its claim on as the answer.
		answer := say(in.Russian, fmt.Sprintf("No edit was made: the model answered %q without changing the book.", document.Snippet(res.Solution, 200)),
			fmt.Sprintf("Ничего не изменено: модель ответила «%s», но книгу не меняла.", document.Snippet(res.Solution, 200)))
		c.emit(Event{Event: "answer", Text: answer})
		return map[string]any{"answer": res.Solution, "edits": 0}, nothing{answer}
	}
	c.emit(Event{Event: "answer", Text: res.Solution})
	if last == nil {
		last = map[string]any{"answer": res.Solution}
	}
	return last, nil
}

// findFirst runs FirstMatch for a phrase and fails clearly when it is absent.
// Edits address the words exactly as written, never another word form.
func (c *CommandAgent) findFirst(ctx context.Context, phrase string, ru bool) (CursorAgentResult, error) {
	r, err := c.readBook(ctx, firstMatchArgs(fmt.Sprintf("Find the first mention of %q (exactly)", phrase)))
	if err != nil {
		return CursorAgentResult{}, err
	}
	if !r.Success {
		return r, nothing{say(ru, fmt.Sprintf("no mention of %q in the manuscript; nothing was changed", phrase),
			fmt.Sprintf("«%s» в рукописи не встречается; ничего не изменено", phrase))}
	}
	return r, nil
}

// claimsEdit tells whether a model's answer says it changed the book ("I have
// deleted …", «Я удалил …»).
func claimsEdit(s string) bool {
	l := strings.ToLower(s)
	for _, w := range []string{"i have deleted", "i've deleted", "i deleted", "i have replaced", "i've replaced", "i replaced", "i have inserted", "i've inserted",
		"i inserted", "i have removed", "i've removed", "i removed", "i have changed", "i've changed", "i changed", "i have added", "i've added", "i added",
		"has been deleted", "have been deleted", "has been replaced", "have been replaced", "were deleted", "were replaced", "was deleted", "was replaced",
		"удалил", "заменил", "вставил", "изменил", "добавил", "исправил", "удалены", "заменены", "удалено", "заменено"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}
