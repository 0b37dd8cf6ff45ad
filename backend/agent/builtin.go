package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/textmatch"
	"github.com/waymark/waymark/backend/wordforms"
)

// ErrNeedsModel is the built-in engine saying plainly that a task needs
// understanding it does not have.
var ErrNeedsModel = errors.New("needs a model server")

// Builtin is the deterministic engine that plays the model's part when no model
// server is configured. It reads the same messages a model would and answers with
// the same one-JSON-action protocol, so runs, logs and checks are identical. It
// understands lexical tasks (a quoted phrase, "the first mention of X",
// "упоминание X"), collecting mentions, and extractive summaries.
type Builtin struct{}

// Name identifies the engine in results and logs.
func (Builtin) Name() string { return "builtin" }

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
	mode, task := "", ""
	var notes []string
	portionAt := -1
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
		if v, ok := strings.CutPrefix(m.Content, notesHeader); ok {
			notes = append(notes, strings.Split(strings.TrimSpace(v), "\n")...)
		}
		if strings.HasPrefix(m.Content, `{"portion"`) {
			portionAt = i
		}
	}
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
	moveOn := func(summary string) Action {
		if pm.HasMore && !complete {
			return Action{Action: ActCursorNext, Summary: summary}
		}
		switch mode {
		case ModeFirstMatch:
			return Action{Action: ActFinishNotFnd, Summary: "no mention found"}
		case ModeSummary:
			all := append(append([]string{}, notes...), summary)
			return Action{Action: ActFinishSuccess, Summary: compose(all)}
		}
		return Action{Action: ActFinishSuccess, Summary: "collected every mention"}
	}
	if complete || portionAt < 0 {
		return moveOn(""), nil
	}
	switch mode {
	case ModeSummary:
		return moveOn(extract(pm)), nil
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
	var hits []int
	var firstLabel, firstText string
	for _, it := range pm.Items {
		switch {
		case t.Only == "code":
			if it.Type != "CodeBlock" {
				continue
			}
		case t.Only == "quote":
			if it.Type != "Quote" {
				continue
			}
		case it.Type == "Heading" && t.ExcludeHeadings:
			continue
		case it.Type == "Heading", it.Type == "Paragraph", it.Type == "ListItem", it.Type == "TableCell", it.Type == "Image":
		case it.Type == "CodeBlock", it.Type == "Quote":
			if !t.CodeAndQuotes {
				continue
			}
		default:
			continue
		}
		text := it.Text
		if text == "" && it.Markdown == "" {
			return Action{}, fmt.Errorf("%w: the portions carry no text (includeContent is false), so the built-in engine cannot read them", ErrNeedsModel)
		}
		if text == "" {
			text = it.Markdown
		}
		if _, _, ok := q.FindIn([]byte(text), []textmatch.Segment{{Start: 0, End: len(text)}}); ok {
			if len(hits) == 0 {
				firstLabel, firstText = it.Label, text
			}
			hits = append(hits, it.Index)
		}
	}
	switch mode {
	case ModeFirstMatch:
		if len(hits) > 0 {
			i := hits[0]
			return Action{Action: ActFinishSuccess, FirstItemIndex: &i, Summary: firstLabel + " " + document.Snippet(firstText, 80)}, nil
		}
		return moveOn(""), nil
	case ModeCollect:
		if len(hits) > 0 && !added {
			return Action{Action: ActTargetSetAdd, Indices: hits, Summary: fmt.Sprintf("%s and %d more mention %q", firstLabel, len(hits)-1, phrase)}, nil
		}
		return moveOn(""), nil
	}
	return Action{}, fmt.Errorf("built-in engine: unknown mode %q", mode)
}

// extract is the built-in engine's note on a portion: the headings it holds and
// the first sentence of its first paragraph.
func extract(pm portionMessage) string {
	var parts []string
	para := ""
	for _, it := range pm.Items {
		switch it.Type {
		case "Heading":
			parts = append(parts, it.Text+":")
		case "Paragraph", "ListItem", "Quote":
			if para == "" && len(strings.Fields(it.Text)) >= 6 {
				para = firstSentence(it.Text)
				parts = append(parts, para)
			}
		}
	}
	return strings.Join(parts, " ")
}

func firstSentence(s string) string {
	for i, r := range s {
		if (r == '.' || r == '!' || r == '?' || r == '…') && i > 20 {
			return strings.TrimSpace(s[:i+len(string(r))])
		}
	}
	return document.Snippet(s, 160)
}

// compose joins notes into one extractive summary. The runtime keeps the notes
// within their budget (map-reduce by chapter), so nothing is cut here.
func compose(notes []string) string {
	var sb strings.Builder
	for _, n := range notes {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if sb.Len() > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(n)
	}
	return sb.String()
}

// summaryBudget bounds the notes an AggregateSummary carries from turn to turn.
const summaryBudget = 16000

// summaryNotes are the map step's notes, grouped by the chapter (place) they came
// from. When they outgrow the budget, every group is cut to an equal share at a
// sentence boundary (the reduce step), so the end of the book is never dropped
// for the sake of its beginning.
type summaryNotes struct {
	budget    int
	groups    []noteGroup
	condensed int
}

type noteGroup struct{ place, text string }

func (n *summaryNotes) add(place, text string) {
	text = strings.TrimSpace(strings.ReplaceAll(text, "\n", " "))
	if k := len(n.groups) - 1; k >= 0 && n.groups[k].place == place {
		n.groups[k].text += " " + text
	} else {
		n.groups = append(n.groups, noteGroup{place: place, text: text})
	}
	if n.size() <= n.budget {
		return
	}
	n.condensed++
	// Reduce: merge neighbours of the same outer section until a fair share is
	// at least a sentence, then cut each group to its share.
	for len(n.groups) > 1 && n.budget/len(n.groups) < 160 {
		var merged []noteGroup
		for _, g := range n.groups {
			outer := outerPlace(g.place)
			if k := len(merged) - 1; k >= 0 && outerPlace(merged[k].place) == outer {
				merged[k].text += " " + g.text
				merged[k].place = outer
				continue
			}
			merged = append(merged, g)
		}
		if len(merged) == len(n.groups) {
			break
		}
		n.groups = merged
	}
	share := n.budget / len(n.groups)
	for k := range n.groups {
		n.groups[k].text = cutAtSentence(n.groups[k].text, share-len(n.groups[k].place)-4)
	}
}

func (n *summaryNotes) size() int {
	s := 0
	for _, g := range n.groups {
		s += len(g.place) + len(g.text) + 3
	}
	return s
}

func (n *summaryNotes) render() string {
	var sb strings.Builder
	for k, g := range n.groups {
		if k > 0 {
			sb.WriteByte('\n')
		}
		if g.place != "" {
			sb.WriteString(g.place + ": ")
		}
		sb.WriteString(g.text)
	}
	return sb.String()
}

// outerPlace drops the innermost heading of a place ("BOOK ONE: 1805, CHAPTER
// IX" → "BOOK ONE: 1805").
func outerPlace(p string) string {
	if k := strings.LastIndex(p, ", "); k >= 0 {
		return p[:k]
	}
	return p
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
