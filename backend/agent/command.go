package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/textmatch"
	"github.com/waymark/waymark/backend/tools"
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
	q                 = `["«“„]([^"»”“]+)["»”“]`
	reFind            = regexp.MustCompile(`(?i)^(?:find|show|where is|найди|покажи|где)\s+(?:the\s+)?(first|next|last|первое|следующее|последнее)?\s*(?:mention|occurrence|упоминание|вхождение)?\s*(?:of\s+)?(.*)$`)
	reCollect         = regexp.MustCompile(`(?i)^(?:collect|gather|собери)\s+(?:all\s+|все\s+)?(?:the\s+)?(?:mentions?|scenes?|occurrences?|упоминания|сцены)?\s*(?:of|with|about|с|про|о)?\s*` + q + `\s+(?:into|in|to|в)\s+(?:the\s+)?(?:set\s+|набор\s+)?(?:` + q + `|(\S+))`)
	reReplace         = regexp.MustCompile(`(?i)^(?:replace|замени)\s+` + q + `\s+(?:with|by|на)\s+` + q)
	reDelete          = regexp.MustCompile(`(?i)^(?:delete|remove|удали)\s+(?:the\s+)?(?:first\s+)?(?:paragraph|item|абзац|пункт)?\s*(?:with|containing|that mentions|mentioning|с|где|про)?\s*` + q)
	reInsert          = regexp.MustCompile(`(?i)^(?:insert|add|вставь|добавь)\s+` + q + `\s+(after|before|после|перед)\s+(?:the\s+)?(?:first\s+)?(?:mention\s+of\s+|paragraph\s+with\s+|упоминания\s+)?` + q)
	reSummary         = regexp.MustCompile(`(?i)^(?:summari[sz]e|sum up|перескажи|кратко изложи|суммируй|резюмируй)\s+(?:the\s+)?(part|chapter|book|volume|часть|главу|глава|том|книгу)\s+(\S+)`)
	ordinalsEN        = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5}
	ordinalsRU        = map[string]int{"первую": 1, "первая": 1, "вторую": 2, "вторая": 2, "третью": 3, "третья": 3, "четвертую": 4, "четвертая": 4, "пятую": 5, "пятая": 5, "один": 1, "два": 2, "три": 3}
	ordinalsRUHeading = []string{"", "первая", "вторая", "третья", "четвертая", "пятая"}
	romans            = []string{"", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"}
)

// Run executes one command. Its result is the last tool result (or the answer).
func (c *CommandAgent) Run(ctx context.Context, command string) (any, error) {
	command = strings.TrimSpace(command)
	c.emit(Event{Event: "command", Text: command})
	var out any
	var err error
	if _, builtin := c.Runtime.LLM().(Builtin); builtin {
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

// builtin understands the fixed command set.
func (c *CommandAgent) builtin(ctx context.Context, cmd string) (any, error) {
	if m := reCollect.FindStringSubmatch(cmd); m != nil {
		phrase, set := m[1], m[2]
		if set == "" {
			set = m[3]
		}
		ts, err := c.call(ctx, "TargetSetCreate", map[string]any{"name": set})
		if err != nil {
			return nil, err
		}
		id := ts.(map[string]any)["targetSetId"].(string)
		res, err := c.call(ctx, "RunCursorAgent", map[string]any{"forward": true, "maxElements": 50, "maxBytes": 16384, "includeContent": true,
			"mode": ModeCollect, "targetSetId": id, "taskDescription": fmt.Sprintf("Collect every mention of %q", phrase), "maxSteps": MaxMaxSteps})
		if err != nil {
			return nil, err
		}
		got, err := c.call(ctx, "TargetSetGet", map[string]any{"targetSetId": id})
		if err != nil {
			return nil, err
		}
		n := got.(map[string]any)["count"]
		c.emit(Event{Event: "answer", Text: fmt.Sprintf("Collected %v mention(s) of %q into the set %q (%s).", n, phrase, set, id)})
		_ = res
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
		c.emit(Event{Event: "answer", Text: fmt.Sprintf("Inserted %s %s.", strings.ToLower(strings.TrimPrefix(tool, "Insert")), r.SemanticPointer.Label)})
		return res, nil
	}
	if m := reDelete.FindStringSubmatch(cmd); m != nil {
		r, err := c.findFirst(ctx, m[1])
		if err != nil {
			return nil, err
		}
		res, err := c.call(ctx, "Delete", map[string]any{"pointer": r.SemanticPointer.Serialize()})
		if err != nil {
			return nil, err
		}
		c.emit(Event{Event: "answer", Text: fmt.Sprintf("Deleted %s (it mentioned %q).", r.SemanticPointer.Label, m[1])})
		return res, nil
	}
	if m := reSummary.FindStringSubmatch(cmd); m != nil {
		return c.summarise(ctx, strings.ToLower(m[1]), strings.Trim(m[2], ".!?"))
	}
	if m := reFind.FindStringSubmatch(cmd); m != nil {
		which := strings.ToLower(m[1])
		phrase := LexicalPhrase(m[2])
		if phrase == "" {
			phrase = strings.Trim(strings.TrimSpace(m[2]), ".!?\"«»")
		}
		key := "agent.lastFind"
		if which == "next" || which == "следующее" {
			raw, ok, _ := c.Runtime.Store.Setting(ctx, key)
			var last struct{ TaskID, Phrase string }
			if !ok || json.Unmarshal([]byte(raw), &last) != nil {
				return nil, fmt.Errorf("there is no earlier search to continue; say \"find the first mention of \\\"X\\\"\" first")
			}
			if phrase == "" || strings.EqualFold(phrase, "mention") {
				phrase = last.Phrase
			}
			args := firstMatchArgs(fmt.Sprintf("Find the first mention of %q", last.Phrase))
			args["taskId"] = last.TaskID
			res, err := c.call(ctx, "RunCursorAgent", args)
			if err != nil {
				return nil, err
			}
			c.answerFind(res.(CursorAgentResult), last.Phrase, "next")
			return res, nil
		}
		if _, err := textmatch.Compile(phrase); err != nil || phrase == "" {
			return nil, fmt.Errorf("say what to find, e.g. find the first mention of \"Natasha\"")
		}
		args := firstMatchArgs(fmt.Sprintf("Find the first mention of %q", phrase))
		if which == "last" || which == "последнее" {
			args["forward"] = false
		}
		res, err := c.call(ctx, "RunCursorAgent", args)
		if err != nil {
			return nil, err
		}
		r := res.(CursorAgentResult)
		b, _ := json.Marshal(map[string]string{"TaskID": r.TaskID, "Phrase": phrase})
		_ = c.Runtime.Store.SetSetting(ctx, key, string(b))
		c.answerFind(r, phrase, which)
		return r, nil
	}
	return nil, fmt.Errorf("%w: the built-in engine does not understand %q. It understands: %s. For anything else configure a model server (WAYMARK_MODEL_URL)", ErrNeedsModel, cmd, Understood)
}

func (c *CommandAgent) answerFind(r CursorAgentResult, phrase, which string) {
	if !r.Success {
		c.emit(Event{Event: "answer", Text: fmt.Sprintf("No %smention of %q found (%s).", map[bool]string{true: "further ", false: ""}[which == "next" || which == "следующее"], phrase, r.Reason)})
		return
	}
	c.emit(Event{Event: "answer", Text: fmt.Sprintf("%s: %s", r.SemanticPointer.Label, document.Snippet(r.Markdown, 160))})
}

// withModel lets the model drive the tools: tool calling, with the text fallback
// "function_call: name=… args={…}" for servers without it. A run that fails
// undoes the edits it applied, so the manuscript is left as it was.
func (c *CommandAgent) withModel(ctx context.Context, command string) (any, error) {
	var specs []llm.ToolSpec
	for _, name := range modelTools {
		if t, ok := c.Reg.Get(name); ok {
			specs = append(specs, llm.ToolSpec{Name: t.Name, Description: t.Description, Parameters: t.InputSchema})
		}
	}
	msgs := []llm.Message{{Role: "system", Content: commandPrompt}, {Role: "user", Content: command}}
	turns := c.MaxTurns
	if turns <= 0 {
		turns = 12
	}
	edits := 0
	var last any
	fail := func(err error) (any, error) {
		for k := 0; k < edits; k++ {
			if _, uerr := c.call(ctx, "Undo", map[string]any{}); uerr != nil {
				return nil, fmt.Errorf("%w; undoing the run's edits also failed: %v", err, uerr)
			}
		}
		if edits > 0 {
			err = fmt.Errorf("%w; the %d edit(s) of this run were undone", err, edits)
		}
		return nil, err
	}
	for turn := 0; turn < turns; turn++ {
		resp, err := c.Runtime.LLM().Complete(ctx, llm.Request{Messages: msgs, Tools: specs})
		if err != nil {
			return fail(fmt.Errorf("the model failed: %w", err))
		}
		calls := resp.ToolCalls
		if len(calls) == 0 {
			if tc, ok := llm.ParseTextToolCall(resp.Content); ok {
				calls = []llm.ToolCall{tc}
			}
		}
		if len(calls) == 0 {
			c.emit(Event{Event: "answer", Text: strings.TrimSpace(resp.Content)})
			if last == nil {
				last = map[string]any{"answer": strings.TrimSpace(resp.Content)}
			}
			return last, nil
		}
		msgs = append(msgs, llm.Message{Role: "assistant", Content: resp.Content, ToolCalls: calls[:1]})
		tc := calls[0] // one tool per step
		allowed := false
		for _, n := range modelTools {
			allowed = allowed || n == tc.Name
		}
		var content string
		if !allowed {
			content = fmt.Sprintf(`{"error":"unknown tool %q; available: %s"}`, tc.Name, strings.Join(modelTools, ", "))
			c.emit(Event{Event: "tool_error", Tool: tc.Name, Text: content})
		} else {
			var args any = json.RawMessage(tc.Arguments)
			if len(tc.Arguments) == 0 {
				args = map[string]any{}
			}
			res, err := c.call(ctx, tc.Name, args)
			if err != nil {
				b, _ := json.Marshal(map[string]string{"error": err.Error()})
				content = string(b)
			} else {
				if editTools[tc.Name] {
					edits++
				}
				last = res
				b, _ := json.Marshal(res)
				content = string(b)
			}
		}
		msgs = append(msgs, llm.Message{Role: "tool", ToolCallID: tc.ID, Content: content})
	}
	return fail(fmt.Errorf("the command did not finish within %d model turns", turns))
}

// findFirst runs FirstMatch for a phrase and fails clearly when it is absent.
func (c *CommandAgent) findFirst(ctx context.Context, phrase string) (CursorAgentResult, error) {
	res, err := c.call(ctx, "RunCursorAgent", firstMatchArgs(fmt.Sprintf("Find the first mention of %q", phrase)))
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
	c.emit(Event{Event: "answer", Text: fmt.Sprintf("Replaced %q with %q in %s.", md[s:e], to, r.SemanticPointer.Label)})
	return res, nil
}

// summarise gives an extractive summary of a part or chapter: the heading found by
// its name or number, then the first sentences of its paragraphs.
func (c *CommandAgent) summarise(ctx context.Context, kind, which string) (any, error) {
	n, err := strconv.Atoi(which)
	if err != nil {
		n = ordinalsEN[strings.ToLower(which)]
		if n == 0 {
			n = ordinalsRU[strings.ToLower(strings.ReplaceAll(which, "ё", "е"))]
		}
		for k, r := range romans {
			if k > 0 && strings.EqualFold(which, r) {
				n = k
			}
		}
	}
	if n <= 0 {
		return nil, fmt.Errorf("which %s? say a number (2, II, two, вторую)", kind)
	}
	outline, err := c.call(ctx, "Outline", map[string]any{})
	if err != nil {
		return nil, err
	}
	b, _ := json.Marshal(outline)
	var o struct {
		Headings []struct {
			Index int    `json:"index"`
			Level int    `json:"level"`
			Text  string `json:"text"`
		} `json:"headings"`
	}
	_ = json.Unmarshal(b, &o)
	words := map[string][]string{
		"part": {"part", "часть"}, "часть": {"part", "часть"}, "chapter": {"chapter", "глава"}, "главу": {"chapter", "глава"}, "глава": {"chapter", "глава"},
		"book": {"book", "том", "книга"}, "volume": {"volume", "том", "book"}, "том": {"том", "volume", "book"}, "книгу": {"книга", "book", "том"},
	}[kind]
	names := []string{strconv.Itoa(n), romans[min(n, len(romans)-1)]}
	for w, k := range ordinalsEN {
		if k == n {
			names = append(names, w)
		}
	}
	if n < len(ordinalsRUHeading) {
		names = append(names, ordinalsRUHeading[n])
	}
	start, level := -1, 0
	for _, h := range o.Headings {
		t := " " + textmatch.Normalize(h.Text) + " "
		for _, w := range words {
			for _, name := range names {
				if strings.Contains(t, " "+w+" "+textmatch.Normalize(name)+" ") || strings.Contains(t, " "+textmatch.Normalize(name)+" "+w+" ") {
					if start < 0 {
						start, level = h.Index, h.Level
					}
				}
			}
		}
	}
	if start < 0 {
		return nil, fmt.Errorf("no heading names %s %s; the outline has %d headings (see Outline)", kind, which, len(o.Headings))
	}
	var sb strings.Builder
	var title string
	sentences := 0
	err = c.Runtime.readSection(start, level, func(label, typ, text string, headingLevel int) bool {
		if typ == "Heading" {
			if title == "" {
				title = text
			} else {
				fmt.Fprintf(&sb, "\n%s:", text)
			}
			return true
		}
		if typ == "Paragraph" && len(strings.Fields(text)) >= 8 && sentences < 40 {
			fmt.Fprintf(&sb, " %s", firstSentence(text))
			sentences++
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	summary := strings.TrimSpace(sb.String())
	c.emit(Event{Event: "answer", Text: fmt.Sprintf("Summary of %s (extractive, first sentences):\n%s", title, summary)})
	return map[string]any{"heading": title, "summary": summary, "extractive": true, "sentences": sentences}, nil
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
