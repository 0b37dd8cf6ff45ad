package author

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/waymark/waymark/backend/agent"
	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/textmatch"
	"github.com/waymark/waymark/backend/wordforms"
)

// Builtin is the deterministic engine that plays the model's part when no model
// server is configured. It reads the same messages a model would and answers with
// the same one-JSON-action protocol, so runs, logs and checks are identical. It
// understands lexical tasks (a quoted phrase, "the first mention of X",
// "упоминание X"), collecting mentions, and extractive summaries.
type Builtin struct{}

// Name identifies the engine in results and logs.
func (Builtin) Name() string { return "builtin" }

// Offline marks the engine as one that understands no language
// (llm.Understands is false for it).
func (Builtin) Offline() {}

// Complete answers one turn of the cursor sub-agent.
func (b Builtin) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	if err := ctx.Err(); err != nil {
		return llm.Response{}, err
	}
	act, err := b.decide(req.Messages)
	if err != nil {
		return llm.Response{}, err
	}
	out, _ := json.Marshal(act)
	prompt := 0
	for _, m := range req.Messages {
		prompt += llm.EstimateTokens(m.Content)
	}
	completion := llm.EstimateTokens(string(out))
	return llm.Response{Content: string(out), FinishReason: "stop",
		Usage: llm.Usage{PromptTokens: prompt, CompletionTokens: completion, TotalTokens: prompt + completion, Estimated: true}}, nil
}

func (b Builtin) decide(msgs []llm.Message) (Action, error) {
	mode, task, portionAt := taskOf(msgs)
	if mode == "" {
		return Action{}, fmt.Errorf("built-in engine: no task in the conversation")
	}
	last := msgs[len(msgs)-1]
	complete := last.Role == "user" && strings.HasPrefix(last.Content, cursorCompleteMsg)
	var pm portionMessage
	if portionAt >= 0 {
		if err := json.Unmarshal([]byte(msgs[portionAt].Content), &pm); err != nil {
			return Action{}, fmt.Errorf("built-in engine: portion is not valid JSON: %v", err)
		}
	}
	// After a target_set_add was confirmed, move on.
	added := false
	for _, m := range msgs[portionAt+1:] {
		if m.Role == "assistant" && strings.Contains(m.Content, `"action":"target_set_add"`) {
			added = true
		}
	}
	more := pm.HasMore && !complete
	if complete || portionAt < 0 {
		return moveOn(mode, more, ""), nil
	}
	if mode == ModeSummary {
		return moveOn(mode, more, extract(pm)), nil
	}
	t := ParseTask(task)
	phrase := t.Phrase
	if phrase == "" {
		return Action{}, NeedsModelError(t)
	}
	q, err := textmatch.CompileWith(phrase, wordforms.Options(!t.Exact))
	if err != nil {
		return Action{}, err
	}
	hits, first, err := findInPortion(q, t, pm.Items)
	if err != nil {
		return Action{}, err
	}
	switch mode {
	case ModeFirstMatch:
		if len(hits) > 0 {
			i := hits[0]
			return Action{Action: ActFinishSuccess, FirstItemIndex: &i, Summary: first.Label + " " + document.Snippet(first.Text, 80)}, nil
		}
		return moveOn(mode, more, ""), nil
	case ModeCollect:
		if len(hits) > 0 && !added {
			return Action{Action: ActTargetSetAdd, Indices: hits, Summary: fmt.Sprintf("%s and %d more mention %q", first.Label, len(hits)-1, phrase)}, nil
		}
		return moveOn(mode, more, ""), nil
	}
	return Action{}, fmt.Errorf("built-in engine: unknown mode %q", mode)
}

// taskOf reads the cursor task's mode and task from the first user message
// that gives them, and where the last portion is (-1: none yet).
func taskOf(msgs []llm.Message) (mode, task string, portionAt int) {
	portionAt = -1
	for i, m := range msgs {
		if m.Role != "user" {
			continue
		}
		if strings.HasPrefix(m.Content, "Mode: ") && mode == "" {
			for _, line := range strings.Split(m.Content, "\n") {
				if v, ok := strings.CutPrefix(line, "Mode: "); ok {
					mode = v
				}
				if v, ok := strings.CutPrefix(line, "Task: "); ok {
					task = v
				}
			}
		}
		if strings.HasPrefix(m.Content, `{"portion"`) {
			portionAt = i
		}
	}
	return mode, task, portionAt
}

// moveOn is the built-in engine's move when a portion holds nothing more to
// do: the next portion while there is more, else the mode's finish.
func moveOn(mode string, more bool, summary string) Action {
	if more {
		return Action{Action: ActCursorNext, Summary: summary}
	}
	switch mode {
	case ModeFirstMatch:
		return Action{Action: ActFinishNotFnd, Summary: "no mention found"}
	case ModeSummary:
		// The runtime keeps every chapter's note and makes the result.
		return Action{Action: ActFinishSuccess, Summary: summary}
	}
	return Action{Action: ActFinishSuccess, Summary: "collected every mention"}
}

// findInPortion is the indices of the portion's items the task reads that
// match q, and the first of them (its label, and its text).
func findInPortion(q *textmatch.Query, t Task, items []portionItem) ([]int, portionItem, error) {
	var hits []int
	var first portionItem
	for _, it := range items {
		if !readsItem(t, it.Type) {
			continue
		}
		text := it.Text
		if text == "" && it.Markdown == "" {
			return nil, first, fmt.Errorf("%w: the portions carry no text (includeContent is false), so the built-in engine cannot read them", agent.ErrNeedsModel)
		}
		if text == "" {
			text = it.Markdown
		}
		if _, _, ok := q.FindIn([]byte(text), []textmatch.Segment{{Start: 0, End: len(text)}}); ok {
			if len(hits) == 0 {
				first = portionItem{Label: it.Label, Text: text}
			}
			hits = append(hits, it.Index)
		}
	}
	return hits, first, nil
}

// readsItem: the task reads items of this type (only code or quotes when it
// says so; headings unless it leaves them out; code and quotes when it
// includes them).
func readsItem(t Task, typ string) bool {
	switch {
	case t.Only == "code":
		return typ == "CodeBlock"
	case t.Only == "quote":
		return typ == "Quote"
	case typ == "Heading" && t.ExcludeHeadings:
		return false
	case typ == "Heading", typ == "Paragraph", typ == "ListItem", typ == "TableCell", typ == "Image":
		return true
	case typ == "CodeBlock", typ == "Quote":
		return t.CodeAndQuotes
	}
	return false
}

// extract is the built-in engine's note on a portion (one chapter, or the
// start or a later part of one): for a portion that starts a chapter, the
// first sentence of its first paragraph of some length (of its first
// paragraph at all when none is that long); nothing for a later part.
func extract(pm portionMessage) string {
	if len(pm.Items) == 0 || pm.Items[0].Type != "Heading" {
		return ""
	}
	short := ""
	for _, it := range pm.Items {
		switch it.Type {
		case "Paragraph", "ListItem", "Quote":
			if len(strings.Fields(it.Text)) >= 6 {
				return firstSentence(it.Text)
			}
			if short == "" && strings.TrimSpace(it.Text) != "" {
				short = firstSentence(it.Text)
			}
		}
	}
	return short
}

func firstSentence(s string) string {
	for i, r := range s {
		if (r == '.' || r == '!' || r == '?' || r == '…') && i > 20 {
			return strings.TrimSpace(s[:i+len(string(r))])
		}
	}
	return document.Snippet(s, 160)
}

// noteCap bounds one chapter's notes in a summary (about five sentences).
const noteCap = 900

// summaryNotes are the map step's notes, grouped by the chapter (place) they
// came from, in reading order. All of them make the result; a request to the
// model carries only the latest that fit its share (tail).
type summaryNotes struct {
	groups []noteGroup
}

type noteGroup struct{ place, text string }

func (n *summaryNotes) add(place, text string) {
	text = strings.TrimSpace(strings.ReplaceAll(text, "\n", " "))
	if text == "" {
		return
	}
	if k := len(n.groups) - 1; k >= 0 && n.groups[k].place == place {
		if !strings.Contains(n.groups[k].text, text) {
			n.groups[k].text = cutAtSentence(n.groups[k].text+" "+text, noteCap)
		}
		return
	}
	n.groups = append(n.groups, noteGroup{place: place, text: cutAtSentence(text, noteCap)})
}

// render is the summary: each chapter's note under its chapter, the outer
// headings written once where they change ("BOOK ONE: 1805" then "CHAPTER I:
// …", "CHAPTER II: …").
func (n *summaryNotes) render() string {
	var sb strings.Builder
	outer := "\x00"
	for _, g := range n.groups {
		o, inner := splitPlace(g.place)
		if o != outer && o != "" {
			if sb.Len() > 0 {
				sb.WriteByte('\n')
			}
			sb.WriteString(o + "\n")
		}
		outer = o
		if inner != "" {
			sb.WriteString(inner + ": ")
		}
		sb.WriteString(g.text + "\n")
	}
	return strings.TrimSpace(sb.String())
}

// tail is the latest notes that fit in max bytes, for a request.
func (n *summaryNotes) tail(max int) string {
	var lines []string
	size := 0
	for k := len(n.groups) - 1; k >= 0; k-- {
		l := n.groups[k].place + ": " + n.groups[k].text
		if size+len(l)+1 > max {
			break
		}
		size += len(l) + 1
		lines = append(lines, l)
	}
	for a, b := 0, len(lines)-1; a < b; a, b = a+1, b-1 {
		lines[a], lines[b] = lines[b], lines[a]
	}
	return strings.Join(lines, "\n")
}

// splitPlace splits a place into its outer headings and its innermost one
// ("BOOK ONE: 1805, CHAPTER IX" → "BOOK ONE: 1805", "CHAPTER IX").
func splitPlace(p string) (outer, inner string) {
	if k := strings.LastIndex(p, ", "); k >= 0 {
		return p[:k], p[k+2:]
	}
	return "", p
}

// cutAtSentence shortens s to at most n bytes, at a sentence end when there is
// one, marking the cut with "…".
func cutAtSentence(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if n < 1 {
		return "…"
	}
	cut := s[:n]
	for len(cut) > 0 && !utf8.ValidString(cut) {
		cut = cut[:len(cut)-1]
	}
	if k := strings.LastIndexAny(cut, ".!?…"); k > n/3 {
		cut = cut[:k+1]
	}
	return strings.TrimSpace(cut) + " …"
}
