package author

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/llm/llmtest"
)

// summariserModel notes the first words of each portion it is shown and
// finishes when the cursor is complete: the map step of a model's summary.
func summariserModel() llmtest.Reply {
	return llmtest.Repeat(llmtest.Handler(func(req llmtest.ChatRequest) llmtest.Reply {
		if strings.HasPrefix(req.LastMessage().Content, cursorCompleteMsg) {
			return llmtest.JSON(Action{Action: ActFinishSuccess, Summary: "The end of the book."})
		}
		var pm portionMessage
		for _, m := range req.Messages {
			if strings.HasPrefix(m.Content, `{"portion"`) {
				_ = json.Unmarshal([]byte(m.Content), &pm)
			}
		}
		note := ""
		for _, it := range pm.Items {
			if it.Type == "Paragraph" && len(strings.Fields(it.Text)) > 5 {
				w := strings.Fields(it.Text)
				note = strings.Join(w[:min(12, len(w))], " ") + "."
				break
			}
		}
		return llmtest.JSON(Action{Action: ActCursorNext, Summary: note})
	}))
}

// requestSizes is the largest request the server received, in its own
// tokens and in characters, and the characters of all requests.
func requestSizes(srv *llmtest.Server) (maxTokens, maxChars, allChars int) {
	for _, r := range srv.Requests() {
		chars := 0
		for _, m := range r.Messages {
			chars += len([]rune(m.Content))
		}
		maxTokens = max(maxTokens, r.ServerTokens)
		maxChars = max(maxChars, chars)
		allChars += chars
	}
	return
}

// TestWholeBookSummaryWithinTheBudget: a model's whole-book summary with the
// default context budget (8192 tokens) sends no request over it, as counted
// by the server's own tokenizer (which the client asks: it counts denser
// than the client's estimate), and still covers every chapter.
func TestWholeBookSummaryWithinTheBudget(t *testing.T) {
	srv := llmtest.NewWithOptions(t, llmtest.Options{Tokenizer: true}, summariserModel())
	client := llmtest.Client(t, srv.URL())
	if client.ContextTokens() != llm.DefaultContextTokens {
		t.Fatalf("default budget %d", client.ContextTokens())
	}
	e := newEnv(t, loadBook(t, "en"), client)
	answer, err := runOne(t, e, &CommandAgent{}, "summarise the whole book")
	if err != nil {
		t.Fatal(err)
	}
	maxTokens, maxChars, allChars := requestSizes(srv)
	t.Logf("whole-book summary with a model: %d requests, the largest %d server tokens / %d characters, %d characters in all; %d tokenizer calls",
		len(srv.Requests()), maxTokens, maxChars, allChars, srv.Tokenized())
	if maxTokens+cursorReplyTokens > llm.DefaultContextTokens {
		t.Errorf("a request of %d tokens (and %d for the reply) is over the budget of %d", maxTokens, cursorReplyTokens, llm.DefaultContextTokens)
	}
	if srv.Tokenized() == 0 {
		t.Error("the server's tokenizer was not asked")
	}
	lines := 0
	for _, l := range strings.Split(answer, "\n") {
		if strings.HasPrefix(l, "CHAPTER ") && strings.Contains(l, ": ") {
			lines++
		}
	}
	if lines != 365 {
		t.Errorf("%d of 365 chapters in the summary", lines)
	}
}

// TestOverBudgetIsNotSent: a request that cannot fit the budget is refused
// by the client with a clear error, and the server never sees it.
func TestOverBudgetIsNotSent(t *testing.T) {
	srv := llmtest.NewWithOptions(t, llmtest.Options{Tokenizer: true})
	cfg := llm.DefaultConfig(srv.URL(), "test-model")
	cfg.ContextTokens = 2048
	c, err := llm.NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: "user", Content: strings.Repeat("слово ", 2000)}}})
	if !errors.Is(err, llm.ErrOverBudget) || !strings.Contains(err.Error(), "over the budget of 2048") || len(srv.Requests()) != 0 {
		t.Fatalf("%v; %d requests", err, len(srv.Requests()))
	}
	for _, bad := range []int{-5, 100} {
		cfg.ContextTokens = bad
		if _, err := llm.NewClient(cfg); err == nil {
			t.Errorf("budget %d accepted", bad)
		}
	}
}

// TestStepLimitSaysWhereAndContinueGoesOn: a semantic find that reaches the
// step limit says where it stopped (not "not found"), and "continue" reads on
// from there.
func TestStepLimitSaysWhereAndContinueGoesOn(t *testing.T) {
	var shown [][]int
	never := llmtest.Repeat(llmtest.Handler(func(req llmtest.ChatRequest) llmtest.Reply {
		var pm portionMessage
		for _, m := range req.Messages {
			if strings.HasPrefix(m.Content, `{"portion"`) {
				_ = json.Unmarshal([]byte(m.Content), &pm)
			}
		}
		var idx []int
		for _, it := range pm.Items {
			idx = append(idx, it.Index)
		}
		shown = append(shown, idx)
		if strings.HasPrefix(req.LastMessage().Content, cursorCompleteMsg) {
			return llmtest.JSON(Action{Action: ActFinishNotFnd})
		}
		return llmtest.JSON(Action{Action: ActCursorNext})
	}))
	srv := llmtest.New(t, never)
	e := newEnv(t, loadBook(t, "en"), llmtest.Client(t, srv.URL()))
	answer, err := runOne(t, e, &CommandAgent{}, "find the scene where Pierre weeps for joy")
	if !errors.Is(err, ErrNothingDone) || !strings.Contains(answer, "I read up to BOOK") || !strings.Contains(answer, "say continue") {
		t.Fatalf("first run: %q %v", answer, err)
	}
	t.Logf("first run: %d requests: %s", len(srv.Requests()), answer)
	lastShown := shown[len(shown)-1][len(shown[len(shown)-1])-1]
	n := len(shown)
	answer, err = runOne(t, e, &CommandAgent{}, "continue")
	if len(shown) == n || shown[n][0] <= lastShown {
		t.Fatalf("continue did not read on after item %d: %v (%q %v)", lastShown, shown[n:min(n+1, len(shown))], answer, err)
	}
	t.Logf("continue: from item %d on: %s", shown[n][0], answer)
}

// TestModelClaimWithoutAnEditIsNoEdit: a model that says it deleted
// paragraphs but called no tool is reported as "no edit was made" (and the
// command fails), in the command's language.
func TestModelClaimWithoutAnEditIsNoEdit(t *testing.T) {
	for _, c := range []struct{ cmd, claim, want string }{
		{"delete all empty paragraphs", "I have deleted all 12 empty paragraphs.", "No edit was made"},
		{"удали все пустые абзацы", "Я удалил все 12 пустых абзацев.", "Ничего не изменено"},
	} {
		srv := llmtest.New(t, llmtest.Text(c.claim))
		e := newEnv(t, book, llmtest.Client(t, srv.URL()))
		answer, err := runOne(t, e, &CommandAgent{}, c.cmd)
		if !errors.Is(err, ErrNothingDone) || !strings.Contains(answer, c.want) || !strings.Contains(answer, c.claim[:10]) {
			t.Errorf("%s: %q %v", c.cmd, answer, err)
		}
		if b, _ := os.ReadFile(e.doc); string(b) != book {
			t.Errorf("%s: the book changed", c.cmd)
		}
	}
}

// TestBadItemIndexAskedAtMostThreeTimes: a model that keeps naming an item
// the book does not have is told so three times, then the run stops.
func TestBadItemIndexAskedAtMostThreeTimes(t *testing.T) {
	bad := 99999999
	for _, mode := range []string{ModeCollect, ModeFirstMatch} {
		reply := Action{Action: ActTargetSetAdd, Indices: []int{bad}}
		if mode == ModeFirstMatch {
			reply = Action{Action: ActFinishSuccess, FirstItemIndex: &bad}
		}
		srv := llmtest.New(t, llmtest.Repeat(llmtest.JSON(reply)))
		e := newEnv(t, book, llmtest.Client(t, srv.URL()))
		o := opts(mode, "Find the first scene where someone is happy")
		if mode == ModeCollect {
			ts, err := e.rt.Store.CreateTargetSet(context.Background(), mustCurrent(t, e).DocID, "s")
			if err != nil {
				t.Fatal(err)
			}
			o.TargetSetID = ts.ID
			o.TaskDescription = "Collect every scene where someone is happy"
		}
		r := e.run(t, o)
		if r.Success || !strings.Contains(r.Reason, "not in the book") || len(srv.Requests()) != 1+maxBadItems {
			t.Errorf("%s: %d requests, %+v", mode, len(srv.Requests()), r)
		}
	}
}

// TestWholeBookSummaryOnStockOllama: Ollama runs a model with 4,096 tokens
// unless told otherwise, ignores num_ctx on its OpenAI route and cuts a
// longer prompt silently. With the default budget of 8,192 the summary's
// portions were sized for 8,192 and reached the model cut; now the client
// learns the window first and every portion fits it, whole.
func TestWholeBookSummaryOnStockOllama(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole-book summary (about 200 requests): not with -short")
	}
	srv := llmtest.NewWithOptions(t, llmtest.Options{Server: llmtest.KindOllama, Models: []string{"test-model"}, Quirks: llmtest.Ollama}, summariserModel())
	client := llmtest.Client(t, srv.URL())
	e := newEnv(t, loadBook(t, "en"), client)
	answer, err := runOne(t, e, &CommandAgent{}, "summarise the whole book")
	if err != nil {
		t.Fatal(err)
	}
	largest, cut := 0, 0
	for _, r := range srv.Requests() {
		largest = max(largest, r.WindowTokens+r.MaxTokens)
		if r.Truncated {
			cut++
		}
	}
	t.Logf("whole-book summary on a stock Ollama (window 4096): %d requests, the largest %d tokens with its answer, %d cut by the server", len(srv.Requests()), largest, cut)
	if cut > 0 {
		t.Errorf("%d of %d requests were over the server's window of %d tokens (the largest %d) and reached the model cut", cut, len(srv.Requests()), llm.OllamaDefaultWindow, largest)
	}
	lines := 0
	for _, l := range strings.Split(answer, "\n") {
		if strings.HasPrefix(l, "CHAPTER ") && strings.Contains(l, ": ") {
			lines++
		}
	}
	if lines < 365 {
		t.Errorf("%d of 365 chapters in the summary", lines)
	}
}
