package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/waymark/waymark/backend/document"
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
}

// modelTools are the tools a model may call for an author's command.
var modelTools = []string{"Find", "Read", "Outline", "RunCursorAgent", "ReplaceText", "InsertAfter", "InsertBefore", "Delete", "Undo", "TargetSetCreate", "TargetSetAdd", "TargetSetGet"}

// editTools change the manuscript; a failed model run undoes what they did.
var editTools = map[string]bool{"ReplaceText": true, "InsertAfter": true, "InsertBefore": true, "Delete": true}

const commandPrompt = `You are Waymark's command agent. An author edits a long Markdown manuscript by commands.
You never see the whole book: locate text with Find (exact phrases) or RunCursorAgent (reads the book in portions; modes FirstMatch, CollectToTargetSet, AggregateSummary), read an item with Read, and change exactly one item at a time with ReplaceText, InsertAfter, InsertBefore or Delete, addressing it by the pointer a tool returned.
Edits never change the outline: a paragraph cannot become a heading. Every edit result carries a cursor context; check it.
Call one tool per turn. When the command is done, answer the author in one or two short sentences without calling a tool.`

// Understood lists the commands the built-in engine understands, for its refusal.
const Understood = `find the first / next / last mention of "X"; collect all mentions of "X" into "SET"; replace "A" with "B"; delete the paragraph with "X"; insert "TEXT" after / before "X"; summarise part / chapter N (in Russian: найди первое / следующее упоминание «X»; собери все упоминания «X» в «НАБОР»; замени «A» на «B»; удали абзац с «X»; вставь «ТЕКСТ» после / перед «X»; перескажи часть / главу N)`

var (
	q         = `["«“„]([^"»”“]+)["»”“]`
	reFind    = regexp.MustCompile(`(?i)^(?:please\s+|пожалуйста,?\s+)?(?:find|show(?:\s+me)?|locate|where\s+is|where's|search\s+for|look\s+for|найди|найти|покажи|где|ищи)\s+(?:the\s+)?(?:very\s+)?(first|next|last|earliest|первое|первую|первый|следующее|следующую|следующий|последнее|последнюю|последний)?\s*(?:one\b|mention|occurrence|appearance|упоминание|вхождение)?\s*(?:of\s+)?(.*)$`)
	reCollect = regexp.MustCompile(`(?i)^(?:please\s+|пожалуйста,?\s+)?(?:collect|gather|put|save|add|собери|сложи|помести|сохрани|добавь)\s+(?:all\s+|every\s+|все\s+|всё\s+|каждое\s+|каждый\s+)?(?:the\s+)?(?:paragraphs?|scenes?|mentions?|occurrences?|places?|passages?|items?|абзацы|абзац|сцены|сцену|упоминания|упоминание|места|фрагменты|отрывки)?\s*(?:of|with|about|mentioning|that\s+mentions?|which\s+mentions?|containing|where|с\s+упоминанием|с|про|о|об|где\s+упоминается|где\s+есть|где|в\s+которых\s+есть|со\s+словом|со)?\s*` + q + `\s+(?:into|in|to|в|во)\s+(?:the\s+|a\s+)?(?:new\s+)?(?:target\s*set\s+|set\s+|collection\s+|набор\s+|новый\s+набор\s+|коллекцию\s+)?(?:` + q + `|(\S+))`)
	reReplace = regexp.MustCompile(`(?i)^(?:replace|замени)\s+` + q + `\s+(?:with|by|на)\s+` + q)
	reDelete  = regexp.MustCompile(`(?i)^(?:delete|remove|удали)\s+(?:the\s+)?(?:first\s+)?(?:paragraph|item|абзац|пункт)?\s*(?:with|containing|that mentions|mentioning|с|где|про)?\s*` + q)
	reInsert  = regexp.MustCompile(`(?i)^(?:insert|add|вставь|добавь)\s+` + q + `\s+(after|before|после|перед)\s+(?:the\s+)?(?:first\s+)?(?:mention\s+of\s+|paragraph\s+with\s+|упоминания\s+)?` + q)
	sumVerb   = `(?i)^(?:please\s+|пожалуйста,?\s+)?(?:summari[sz]e|sum\s+up|give\s+(?:me\s+)?(?:a\s+)?summary\s+of|retell|перескажи|кратко\s+изложи|изложи|суммируй|резюмируй|кратко\s+перескажи|сделай\s+(?:краткое\s+)?(?:содержание|резюме)|краткое\s+содержание)\s+(?:the\s+)?`
	sumKind   = `(part|chapter|book|volume|часть|части|главу|глава|главы|том|тома|книгу|книги)`
	reSummary = regexp.MustCompile(sumVerb + sumKind + `\s+(?:no\.?\s*|number\s+|номер\s+|№\s*)?([\p{L}\p{N}]+)`)
	reSumRev  = regexp.MustCompile(sumVerb + `([\p{L}\p{N}]+)\s+` + sumKind + `(?:\s|[.!?]|$)`)
	reSumBook = regexp.MustCompile(sumVerb + `(?:whole\s+|entire\s+|всю\s+|целую\s+|весь\s+)?(?:book|novel|manuscript|text|книгу|роман|рукопись|текст)(?:\s+(?:целиком|полностью))?[.!?]*$`)
)

// Run executes one command. Its result is the last tool result (or the answer).
func (c *CommandAgent) Run(ctx context.Context, command string) (any, error) {
	command = strings.TrimSpace(command)
	c.emit(Event{Event: "command", Text: command})
	var out any
	var err error
	if len(splitSteps(command)) > 1 {
		// A command of several steps is a lazy plan: shown, not run, until
		// the author approves it (PlanRun).
		var p PlanProposal
		if p, err = c.Propose(ctx, command); err == nil {
			out = p
			c.emit(Event{Event: "answer", Text: p.Message})
		}
	} else if _, builtin := c.Runtime.LLM().(Builtin); builtin || readsBook(command) {
		// Find, collect and summarise go straight to RunCursorAgent, which asks
		// the model (when there is one) through the one-JSON-action protocol.
		out, err = c.builtin(ctx, command)
	} else {
		out, err = c.withModel(ctx, command)
	}
	ok := err == nil
	if err != nil {
		c.emit(Event{Event: "answer", Text: err.Error()})
	}
	c.emit(Event{Event: "result", Success: &ok, Result: out})
	return out, err
}

func (c *CommandAgent) emit(e Event) {
	if c.Emit != nil {
		c.Emit(e)
	}
}

// call runs a tool and records it in the transcript.
func (c *CommandAgent) call(ctx context.Context, name string, args any) (any, error) {
	b, _ := json.Marshal(args)
	c.emit(Event{Event: "tool_call", Tool: name, Arguments: b})
	res, err := c.Reg.Call(ctx, tools.Call{Name: name, Args: b}, tools.Context{})
	if err != nil {
		c.emit(Event{Event: "tool_error", Tool: name, Text: err.Error()})
		return nil, err
	}
	c.emit(Event{Event: "tool_result", Tool: name, Result: res})
	return res, nil
}

func firstMatchArgs(task string) map[string]any {
	return map[string]any{"forward": true, "maxElements": 20, "maxBytes": 8192, "includeContent": true, "mode": ModeFirstMatch, "taskDescription": task}
}

// readsBook tells whether a command is one the runtime carries out by reading the
// book (find, collect, summarise), with the model's help when there is one.
func readsBook(cmd string) bool {
	if reCollect.MatchString(cmd) || reSummary.MatchString(cmd) || reSumRev.MatchString(cmd) || reSumBook.MatchString(cmd) {
		return true
	}
	// A find command that speaks of a first / next / last mention or a scene;
	// "show the outline" and the like are left to the model.
	m := reFind.FindStringSubmatch(cmd)
	return m != nil && (m[1] != "" || reMentionWord.MatchString(cmd))
}

var reMentionWord = regexp.MustCompile(`(?i)\b(?:mentions?|occurrences?|appearances?|scenes?|passages?)\b|упоминани|вхождени|сцен|эпизод`)

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

// builtin understands the fixed command set.
func (c *CommandAgent) builtin(ctx context.Context, cmd string) (any, error) {
	_, isBuiltin := c.Runtime.LLM().(Builtin)
	if m := reCollect.FindStringSubmatch(cmd); m != nil {
		phrase, set := m[1], m[2]
		if set == "" {
			set = m[3]
		}
		set = strings.TrimRight(set, ".!?")
		t := ParseTask(cmd)
		ts, err := c.call(ctx, "TargetSetCreate", map[string]any{"name": set})
		if err != nil {
			return nil, err
		}
		id := ts.(map[string]any)["targetSetId"].(string)
		task := fmt.Sprintf("Collect every mention of %q", phrase)
		if t.Russian {
			task = fmt.Sprintf("Собери все упоминания «%s»", phrase)
		}
		if t.Exact {
			task += " (exactly)"
		}
		res, err := c.call(ctx, "RunCursorAgent", map[string]any{"forward": true, "maxElements": 50, "maxBytes": 16384, "includeContent": true,
			"mode": ModeCollect, "targetSetId": id, "taskDescription": task, "maxSteps": MaxMaxSteps})
		if err != nil {
			return nil, err
		}
		got, err := c.call(ctx, "TargetSetGet", map[string]any{"targetSetId": id})
		if err != nil {
			return nil, err
		}
		c.emit(Event{Event: "answer", Text: c.collectAnswer(got.(map[string]any), phrase, set, t.Russian, res.(CursorAgentResult))})
		return got, nil
	}
	if m := reReplace.FindStringSubmatch(cmd); m != nil {
		return c.replacePhrase(ctx, m[1], m[2])
	}
	if m := reInsert.FindStringSubmatch(cmd); m != nil {
		text, where, anchor := m[1], strings.ToLower(m[2]), m[3]
		r, err := c.findFirst(ctx, anchor)
		if err != nil {
			return nil, err
		}
		tool := "InsertAfter"
		if where == "before" || where == "перед" {
			tool = "InsertBefore"
		}
		res, err := c.call(ctx, tool, map[string]any{"pointer": r.SemanticPointer.Serialize(), "markdown": text})
		if err != nil {
			return nil, err
		}
		c.emit(Event{Event: "answer", Text: fmt.Sprintf("Inserted %s %s.", strings.ToLower(strings.TrimPrefix(tool, "Insert")), c.place(*r.FirstItemIndex))})
		return res, nil
	}
	if m := reDelete.FindStringSubmatch(cmd); m != nil {
		r, err := c.findFirst(ctx, m[1])
		if err != nil {
			return nil, err
		}
		where := c.place(*r.FirstItemIndex)
		res, err := c.call(ctx, "Delete", map[string]any{"pointer": r.SemanticPointer.Serialize()})
		if err != nil {
			return nil, err
		}
		c.emit(Event{Event: "answer", Text: fmt.Sprintf("Deleted the paragraph in %s that mentioned %q.", where, m[1])})
		return res, nil
	}
	if reSumBook.MatchString(cmd) {
		return c.summariseBook(ctx, ParseTask(cmd).Russian || hasCyrillic(cmd))
	}
	if m := reSummary.FindStringSubmatch(cmd); m != nil {
		return c.summarise(ctx, strings.ToLower(m[1]), strings.Trim(m[2], ".!?"), hasCyrillic(cmd))
	}
	if m := reSumRev.FindStringSubmatch(cmd); m != nil {
		return c.summarise(ctx, strings.ToLower(m[2]), strings.Trim(m[1], ".!?"), hasCyrillic(cmd))
	}
	if m := reFind.FindStringSubmatch(cmd); m != nil {
		which := strings.ToLower(m[1])
		next := which == "next" || strings.HasPrefix(which, "следующ")
		last := which == "last" || strings.HasPrefix(which, "последн")
		t := ParseTask(cmd)
		noSubject := !quoted.MatchString(cmd) && isPronoun(t.Subject)
		key, lf := c.loadFinds(ctx)
		task := cmd
		var taskID string
		if next {
			if noSubject {
				st, ok := lf.Tasks[lf.Last]
				if !ok {
					if t.Russian {
						return nil, fmt.Errorf("продолжать нечего: в этой книге ещё не было поиска; скажите сначала, например, «найди первое упоминание «Наташа»»")
					}
					return nil, fmt.Errorf(`there is no earlier search in this book to continue; say first: find the first mention of "X"`)
				}
				task, taskID, t, noSubject = st.Task, st.TaskID, ParseTask(st.Task), false
			} else if st, ok := lf.Tasks[searchKey(t, cmd)]; ok {
				task, taskID = st.Task, st.TaskID
			}
		}
		if noSubject {
			if t.Russian {
				return nil, fmt.Errorf("скажите, что найти, например: найди первое упоминание «Наташа»")
			}
			return nil, fmt.Errorf("say what to find, e.g. find the first mention of \"Natasha\"")
		}
		if t.Phrase == "" && isBuiltin {
			return nil, NeedsModelError(t)
		}
		args := firstMatchArgs(task)
		if last {
			args["forward"] = false
		}
		if taskID != "" {
			args["taskId"] = taskID
		}
		res, err := c.call(ctx, "RunCursorAgent", args)
		if err != nil {
			return nil, err
		}
		r := res.(CursorAgentResult)
		sk := searchKey(t, task)
		lf.Last = sk
		lf.Tasks[sk] = findState{TaskID: r.TaskID, Task: task, Phrase: t.Phrase}
		if b, err := json.Marshal(lf); err == nil && key != "" {
			_ = c.Runtime.Store.SetSetting(ctx, key, string(b))
		}
		c.answerFind(r, t, next && taskID != "")
		return r, nil
	}
	return nil, fmt.Errorf("%w: the built-in engine does not understand %q. It understands: %s. For anything else configure a model server (WAYMARK_MODEL_URL)", ErrNeedsModel, cmd, Understood)
}

// isPronoun: "the next one", «следующее» — no subject of its own.
func isPronoun(s string) bool {
	switch strings.ToLower(strings.Trim(s, ".!? ")) {
	case "", "one", "it", "mention", "occurrence", "упоминание", "его", "её", "ее", "их", "вхождение":
		return true
	}
	return false
}

func (c *CommandAgent) answerFind(r CursorAgentResult, t Task, next bool) {
	what := t.Subject
	if !r.Success {
		reason := r.Reason
		if strings.HasPrefix(reason, "no mention of") || reason == "not found" {
			if t.Russian {
				reason = "книга прочитана до конца"
			} else {
				reason = "read to the end of the book"
			}
		}
		switch {
		case t.Russian && next:
			c.emit(Event{Event: "answer", Text: fmt.Sprintf("Больше упоминаний «%s» нет (%s).", what, reason)})
		case t.Russian:
			c.emit(Event{Event: "answer", Text: fmt.Sprintf("Упоминаний «%s» не найдено (%s).", what, reason)})
		default:
			c.emit(Event{Event: "answer", Text: fmt.Sprintf("No %smention of %q found (%s).", map[bool]string{true: "further ", false: ""}[next], what, reason)})
		}
		return
	}
	c.emit(Event{Event: "answer", Text: c.quoteAt(*r.FirstItemIndex, t)})
}

// place names where item i is ("BOOK ONE: 1805, CHAPTER IX").
func (c *CommandAgent) place(i int) string {
	var out string
	if m, err := c.Runtime.WS.Current(); err == nil {
		_ = m.Do(func(d *document.Document) error {
			if i >= 0 && i < d.Len() {
				out = Place(d, i)
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
			where = Place(d, i)
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
			} else if t.Russian {
				quote = "«" + quote + "»"
			} else {
				quote = "“" + quote + "”"
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
		return "…" + strings.TrimSpace(text[lo:hi]) + "…"
	}
	return pre + out + post
}

// collectAnswer reports a collection in the author's terms: how many items, the
// set's name, where the first and last are.
func (c *CommandAgent) collectAnswer(got map[string]any, phrase, set string, ru bool, r CursorAgentResult) string {
	n, _ := got["count"].(int)
	idx, _ := got["itemIndices"].([]int)
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
		return fmt.Sprintf("В набор «%s» собрано %d мест с упоминанием «%s»%s.%s", set, n, phrase, span, cut)
	}
	return fmt.Sprintf("Collected %d passage(s) mentioning %q into the set %q%s.%s", n, phrase, set, span, cut)
}

// withModel lets the model drive the tools on the SPEC §4 loop (one tool per
// step, tool calls or the text fallback). A run that fails undoes the edits it
// applied, so the manuscript is left as it was.
func (c *CommandAgent) withModel(ctx context.Context, command string) (any, error) {
	turns := c.MaxTurns
	if turns <= 0 {
		turns = 12
	}
	edits := 0
	var last any
	l := &Loop{Reg: c.Reg, Model: c.Runtime.LLM(), Activities: modelTools, Prompt: commandPrompt,
		Conversation: true, OnePerStep: true, Limits: Limits{Turns: turns, Steps: turns, Wall: noWallLimit},
		Guard: func(ctx context.Context, g *Guarded) error {
			c.emit(Event{Event: "tool_call", Tool: g.Call.Name, Arguments: g.Call.Args})
			return nil
		},
		After: func(ctx context.Context, g *Guarded, out any, err error) error {
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
	res, err := l.Run(ctx, "", []LoopMessage{{Kind: KindUser, Text: command}})
	if err == nil && res.Stopped != "" {
		err = fmt.Errorf("the command did not finish: %s", res.Stopped)
	}
	if err != nil {
		for k := 0; k < edits; k++ {
			if _, uerr := c.call(context.WithoutCancel(ctx), "Undo", map[string]any{}); uerr != nil {
				return nil, fmt.Errorf("%w; undoing the run's edits also failed: %v", err, uerr)
			}
		}
		if edits > 0 {
			err = fmt.Errorf("%w; the %d edit(s) of this run were undone", err, edits)
		}
		return nil, err
	}
	c.emit(Event{Event: "answer", Text: res.Solution})
	if last == nil {
		last = map[string]any{"answer": res.Solution}
	}
	return last, nil
}

// findFirst runs FirstMatch for a phrase and fails clearly when it is absent.
// Edits address the words exactly as written, never another word form.
func (c *CommandAgent) findFirst(ctx context.Context, phrase string) (CursorAgentResult, error) {
	res, err := c.call(ctx, "RunCursorAgent", firstMatchArgs(fmt.Sprintf("Find the first mention of %q (exactly)", phrase)))
	if err != nil {
		return CursorAgentResult{}, err
	}
	r := res.(CursorAgentResult)
	if !r.Success {
		return r, fmt.Errorf("no mention of %q in the manuscript; nothing was changed", phrase)
	}
	return r, nil
}

// replacePhrase replaces the phrase's first occurrence, inside the item that holds
// it, by rewriting that item only.
func (c *CommandAgent) replacePhrase(ctx context.Context, from, to string) (any, error) {
	r, err := c.findFirst(ctx, from)
	if err != nil {
		return nil, err
	}
	q, _ := textmatch.Compile(from)
	md := r.Markdown
	s, e, ok := q.FindIn([]byte(md), []textmatch.Segment{{Start: 0, End: len(md)}})
	if !ok {
		return nil, fmt.Errorf("the mention of %q in %s is inside markup the built-in engine cannot rewrite safely; nothing was changed", from, r.SemanticPointer.Label)
	}
	res, err := c.call(ctx, "ReplaceText", map[string]any{"pointer": r.SemanticPointer.Serialize(), "newMarkdown": md[:s] + to + md[e:]})
	if err != nil {
		return nil, err
	}
	c.emit(Event{Event: "answer", Text: fmt.Sprintf("Replaced %q with %q in %s.", md[s:e], to, c.place(*r.FirstItemIndex))})
	return res, nil
}

// summarise gives an extractive summary of a part or chapter: the heading found by
// its name or number (6, VI, six, «шестую»; a Russian chapter heading may be the
// numeral alone), then the first sentences of its paragraphs.
func (c *CommandAgent) summarise(ctx context.Context, kind, which string, ru bool) (any, error) {
	ref, ok := sectionRef(kind, which)
	if !ok {
		if ru {
			return nil, fmt.Errorf("какую %s? Назовите номер: 6, VI, шестую", kind)
		}
		return nil, fmt.Errorf("which %s? say a number (6, VI, six, sixth)", kind)
	}
	m, err := c.Runtime.WS.Current()
	if err != nil {
		return nil, err
	}
	start, level, heads := -1, 0, 0
	_ = m.Do(func(d *document.Document) error {
		start, level = FindSection(d, ref)
		for i := 0; i < d.Len(); i++ {
			if d.Item(i).Type == document.Heading {
				heads++
			}
		}
		return nil
	})
	if start < 0 {
		if ru {
			return nil, fmt.Errorf("ни один заголовок не называет %s %s (в оглавлении %d заголовков; см. Outline)", kind, which, heads)
		}
		return nil, fmt.Errorf("no heading names %s %s; the outline has %d headings (see Outline)", kind, which, heads)
	}
	var sb strings.Builder
	var title string
	sentences, total := 0, 0
	err = c.Runtime.readSection(start, level, func(label, typ, text string, headingLevel int) bool {
		if typ == "Heading" {
			if title == "" {
				title = text
			} else {
				fmt.Fprintf(&sb, "\n%s:", text)
			}
			return true
		}
		if typ == "Paragraph" && len(strings.Fields(text)) >= 8 {
			total++
			if sentences < 40 {
				fmt.Fprintf(&sb, " %s", firstSentence(text))
				sentences++
			}
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	summary := strings.TrimSpace(sb.String())
	where := c.place(start)
	note := ""
	if total > sentences {
		if ru {
			note = fmt.Sprintf("\n(Сокращено: первые предложения %d абзацев из %d.)", sentences, total)
		} else {
			note = fmt.Sprintf("\n(Cut: the first sentences of %d paragraphs of %d.)", sentences, total)
		}
	}
	if ru {
		c.emit(Event{Event: "answer", Text: fmt.Sprintf("Кратко (первые предложения абзацев), %s:\n%s%s", where, summary, note)})
	} else {
		c.emit(Event{Event: "answer", Text: fmt.Sprintf("Summary of %s (extractive, first sentences):\n%s%s", where, summary, note)})
	}
	return map[string]any{"heading": title, "place": where, "summary": summary, "extractive": true, "sentences": sentences, "paragraphs": total, "cut": total > sentences}, nil
}

// summariseBook summarises the whole book with AggregateSummary (map-reduce by
// chapter, see Runtime.Run).
func (c *CommandAgent) summariseBook(ctx context.Context, ru bool) (any, error) {
	task := "Summarise the whole book, chapter by chapter"
	if ru {
		task = "Перескажи всю книгу по главам"
	}
	res, err := c.call(ctx, "RunCursorAgent", map[string]any{"forward": true, "maxElements": 200, "maxBytes": 65536, "includeContent": true,
		"mode": ModeSummary, "taskDescription": task, "maxSteps": MaxMaxSteps})
	if err != nil {
		return nil, err
	}
	r := res.(CursorAgentResult)
	if !r.Success && r.Summary == "" {
		return nil, fmt.Errorf("%s", r.Reason)
	}
	text := r.Summary
	for _, why := range append(r.Reasons, r.Reason) {
		if why != "" {
			text += "\n(" + why + ")"
		}
	}
	c.emit(Event{Event: "answer", Text: text})
	return r, nil
}

// readSection walks the items from heading start until the next heading of the
// same or a higher level.
func (rt *Runtime) readSection(start, level int, fn func(label, typ, text string, headingLevel int) bool) error {
	m, err := rt.WS.Current()
	if err != nil {
		return err
	}
	return m.Do(func(d *document.Document) error {
		for i := start; i < d.Len(); i++ {
			it := d.Item(i)
			if i > start && it.Type == document.Heading && it.Level <= level {
				break
			}
			if !fn(d.Label(i), it.Type.String(), d.Text(i), it.Level) {
				break
			}
		}
		return nil
	})
}
