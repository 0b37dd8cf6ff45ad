package agent

import (
	"context"
	"encoding/json"
	"unicode/utf8"

	"github.com/waymark/waymark/backend/llm"
)

// A conversation loop (the browser assistant, the command agent) grows by a
// call and its result every step: page lists and extracts of a few thousand
// tokens each soon pass a small model's context budget, and the client then
// refuses to send the request at all. fitConversation keeps every request
// within the budget the way a reader forgets: results that a newer result of
// the same tool has replaced go first, oldest first; then older results of
// any kind; only then are the remaining results cut, the longest first. The
// system prompt, the goal and the calls themselves stay whole, and every call
// keeps an answer (the protocol pairs them), so the model still knows what it
// did and whether it worked.

// leftOut is what stands in for a result left out of the context.
const leftOut = "an earlier result, left out to keep within the model's context; call the tool again if you need it"

// cutNote ends a result that was cut to fit.
const cutNote = " … (the rest was cut to keep within the model's context)"

// minResult is a result too short to be worth leaving out or cutting.
const minResult = 200

// fitConversation shortens convo in place (what was left out stays out) so
// that fixed, convo and the tools, with room for the reply, fit the model's
// budget. A model without a budget, or a request that fits, is left alone.
func fitConversation(ctx context.Context, model llm.Model, tools []llm.ToolSpec, fixed, convo []llm.Message) {
	b, ok := model.(llm.Budgeted)
	if !ok || b.ContextTokens() <= 0 || len(convo) == 0 {
		return
	}
	limit := b.ContextTokens() - llm.ReplyTokens
	fits := func() bool {
		msgs := make([]llm.Message, 0, len(fixed)+len(convo))
		msgs = append(append(msgs, fixed...), convo...)
		return b.CountTokens(ctx, llm.Request{Messages: msgs, Tools: tools}) <= limit
	}
	if fits() {
		return
	}
	kind, lastTurn := resultKinds(convo)
	if leaveOut(convo, kind, lastTurn, fits) {
		return
	}
	cutLongest(convo, kind, fits)
}

// resultKinds is what each result of convo is: the tool that answered (a
// note after a result is "note"; "" for a call); and where the last turn
// starts.
func resultKinds(convo []llm.Message) ([]string, int) {
	names := map[string]string{}
	kind := make([]string, len(convo))
	lastTurn := 0
	for i, m := range convo {
		switch m.Role {
		case llm.RoleAssistant:
			lastTurn = i
			for _, c := range m.ToolCalls {
				names[c.ID] = c.Name
			}
		case llm.RoleTool:
			kind[i] = "tool " + names[m.ToolCallID]
		case llm.RoleUser:
			kind[i] = "note"
		}
	}
	return kind, lastTurn
}

// leaveOut leaves results out until the conversation fits: first the
// replaced results (a newer one of the same kind follows), then the older
// ones; never a result of the last turn. It reports whether it fits.
func leaveOut(convo []llm.Message, kind []string, lastTurn int, fits func() bool) bool {
	newest := map[string]int{}
	for i, k := range kind {
		if k != "" {
			newest[k] = i
		}
	}
	for _, replaced := range []bool{true, false} {
		for i := 0; i < lastTurn; i++ {
			if kind[i] == "" || len(convo[i].Content) <= minResult || convo[i].Content == leftOutOf(convo[i]) {
				continue
			}
			if replaced && newest[kind[i]] == i {
				continue
			}
			convo[i].Content = leftOutOf(convo[i])
			if fits() {
				return true
			}
		}
	}
	return false
}

// cutLongest cuts the longest result to half, until it fits (or nothing is
// left to cut: the prompt alone is over, and the client says so).
func cutLongest(convo []llm.Message, kind []string, fits func() bool) {
	for {
		longest := -1
		for i, k := range kind {
			if k != "" && len(convo[i].Content) > 2*minResult && (longest < 0 || len(convo[i].Content) > len(convo[longest].Content)) {
				longest = i
			}
		}
		if longest < 0 {
			return
		}
		c := convo[longest].Content
		n := len(c) / 2
		for n > 0 && !utf8.RuneStart(c[n]) {
			n--
		}
		convo[longest].Content = c[:n] + cutNote
		if fits() {
			return
		}
	}
}

// leftOutOf is what stands in for m: a tool's result keeps its status (the
// model still knows whether the call worked).
func leftOutOf(m llm.Message) string {
	if m.Role != llm.RoleTool {
		return "(" + leftOut + ")"
	}
	var res map[string]any
	_ = json.Unmarshal([]byte(m.Content), &res)
	status, _ := res["status"].(string)
	if _, failed := res["error"]; status == "" && failed {
		status = "error"
	}
	if status == "" {
		status = "ok"
	}
	b, _ := json.Marshal(map[string]string{"status": status, "note": leftOut})
	return string(b)
}
