package author

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/waymark/waymark/backend/agent"
	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/llm/llmtest"
	"github.com/waymark/waymark/backend/textmatch"
)

// meanings is the reader model's sense of words: a question word and the words
// that express it in a text.
var meanings = map[string][]string{
	"angry":    {"angry", "angrily", "anger", "rage", "furious", "fury", "wrath"},
	"сердится": {"сердит", "сердил", "рассерд", "гнев", "бешенств", "ярост", "злоб"},
	"sings":    {"sang", "sing", "singing"},
	"поёт":     {"пела", "запела", "петь", "пение"},
}

// readerModel is the scripted model server made to behave like a model that
// reads: in each portion it is shown it looks for an item naming the task's
// person (any word form) together with a word of the question's meaning, and
// answers with one JSON action: that item, the next portion, or not found. For a
// task without a meaning word (a plain name) it claims the last item shown, a
// careless answer the runtime must check.
func readerModel() llmtest.Reply {
	return llmtest.Repeat(llmtest.Handler(func(req llmtest.ChatRequest) llmtest.Reply {
		var task string
		var pm portionMessage
		rejected := map[int]bool{}
		for _, m := range req.Messages {
			if m.Role != "user" {
				continue
			}
			var n int
			if _, err := fmt.Sscanf(m.Content, "Item %d cannot be the answer", &n); err == nil {
				rejected[n] = true
			}
			for _, line := range strings.Split(m.Content, "\n") {
				if v, ok := strings.CutPrefix(line, "Task: "); ok {
					task = v
				}
			}
			if strings.HasPrefix(m.Content, `{"portion"`) {
				pm = portionMessage{}
				_ = json.Unmarshal([]byte(m.Content), &pm)
			}
		}
		if strings.HasPrefix(req.LastMessage().Content, cursorCompleteMsg) {
			return llmtest.JSON(Action{Action: ActFinishNotFnd})
		}
		var names []*textmatch.Query
		var sense []string
		for k, w := range strings.FieldsFunc(task, func(r rune) bool { return !unicode.IsLetter(r) }) {
			if r := []rune(w)[0]; k > 0 && unicode.IsUpper(r) {
				q, _ := textmatch.CompileWith(w, textmatch.Options{Forms: true})
				names = append(names, q)
			}
			sense = append(sense, meanings[strings.ToLower(w)]...)
		}
		if len(sense) == 0 && len(pm.Items) > 0 {
			i := pm.Items[len(pm.Items)-1].Index
			return llmtest.JSON(Action{Action: ActFinishSuccess, FirstItemIndex: &i, Summary: "the last item"})
		}
		for _, it := range pm.Items {
			if rejected[it.Index] {
				continue // told so: read on
			}
			// A sentence that names the person and says the meaning.
			ok, hit := false, false
			for _, sent := range strings.FieldsFunc(it.Text, func(r rune) bool { return r == '.' || r == '!' || r == '?' || r == ';' }) {
				named := true
				for _, q := range names {
					_, _, found := q.FindIn([]byte(sent), []textmatch.Segment{{Start: 0, End: len(sent)}})
					named = named && found
				}
				means := false
				for _, w := range strings.FieldsFunc(strings.ToLower(sent), func(r rune) bool { return !unicode.IsLetter(r) }) {
					for _, s := range sense {
						means = means || strings.HasPrefix(w, s)
					}
				}
				if named && means {
					ok, hit = true, true
				}
			}
			if ok && hit {
				i := it.Index
				return llmtest.JSON(Action{Action: ActFinishSuccess, FirstItemIndex: &i, Summary: it.Label})
			}
		}
		if pm.HasMore {
			return llmtest.JSON(Action{Action: ActCursorNext})
		}
		return llmtest.JSON(Action{Action: ActFinishNotFnd})
	}))
}

// askCommand runs one command against a book with the reader model over HTTP.
func askCommand(t *testing.T, content, cmd string) (answer string, res any, srv *llmtest.Server, err error) {
	t.Helper()
	srv = llmtest.New(t, readerModel())
	e := newEnv(t, content, llmtest.Client(t, srv.URL()))
	ca := &CommandAgent{Reg: e.reg, Runtime: e.rt, Emit: func(ev Event) {
		if ev.Event == "answer" {
			answer = ev.Text
		}
	}}
	res, err = ca.Run(context.Background(), cmd)
	return answer, res, srv, err
}

func TestSemanticCommandsAskTheModel(t *testing.T) {
	en, ru := loadBook(t, "en"), loadBook(t, "ru")
	cases := []struct {
		book, cmd, place, quote string
	}{
		{en, "Find the first mention of Pierre getting angry at someone", "BOOK ONE: 1805, CHAPTER XXIV", "“But, Prince,” said Anna Mikháylovna"},
		{ru, "найди первое упоминание, где Пьер сердится", "Том 1, Часть первая, XVIII", "нетерпеливо продолжал князь Василий"},
		{en, "find the first scene where Natasha sings", "BOOK ONE: 1805, CHAPTER XII", "The only young people remaining in the drawing room"},
	}
	for _, c := range cases {
		t.Run(c.cmd, func(t *testing.T) {
			answer, res, srv, err := askCommand(t, c.book, c.cmd)
			if err != nil {
				t.Fatal(err)
			}
			r := res.(CursorAgentResult)
			chars := 0
			for _, req := range srv.Requests() {
				for _, m := range req.Messages {
					chars += len([]rune(m.Content))
				}
			}
			t.Logf("%s → %s (%d requests, %d characters sent, %d prompt tokens)", c.cmd, answer, len(srv.Requests()), chars, r.Tokens.PromptTokens)
			if len(srv.Requests()) == 0 || !r.Success {
				t.Fatalf("the model was not asked through the protocol: %d requests, %+v", len(srv.Requests()), r)
			}
			for _, req := range srv.Requests() {
				if len(req.ResponseFormat) == 0 {
					t.Fatalf("a request without the one-action JSON schema")
				}
			}
			if !strings.Contains(answer, c.place) || !strings.Contains(answer, c.quote) {
				t.Fatalf("answer %q, want %q … %q", answer, c.place, c.quote)
			}
		})
	}
}

// zvezdochkin is a small manuscript for seed 001's example: the professor's
// name is a heading before it is mentioned in the text.
const zvezdochkin = `# Роман

## Гости профессора Звёздочкина

Глава начинается с дождя, и никто ещё ничего не знает.

В тот вечер у профессора Звёздочкина собрались гости.

Потом Звёздочкин ушёл.
`

// TestLexicalCommandsAreChecked: a name is looked up by the matcher; the model
// sees only portions holding it, and its careless claim (the last item shown)
// is corrected to the first mention; headings excluded stay excluded.
func TestLexicalCommandsAreChecked(t *testing.T) {
	cases := []struct {
		name, book, cmd, want string
		model                 bool
	}{
		{"seed 001, built-in", zvezdochkin, "Найди первое упоминание профессора Звёздочкина (исключая заголовки)", "«В тот вечер у профессора Звёздочкина собрались гости.»", false},
		{"seed 001, model", zvezdochkin, "Найди первое упоминание профессора Звёздочкина (исключая заголовки)", "«В тот вечер у профессора Звёздочкина собрались гости.»", true},
		{"seed 001 quoted, model", zvezdochkin, "Найди первое упоминание «профессора Звёздочкина» (исключая заголовки)", "«В тот вечер у профессора Звёздочкина собрались гости.»", true},
		{"heading allowed", zvezdochkin, "Найди первое упоминание профессора Звёздочкина", "заголовок «Гости профессора Звёздочкина»", true},
		{"Dolokhov, model", loadBook(t, "ru"), "найди первое упоминание Долохова", "Том 1, Часть первая, VI: «—\u00a0Я за Долохова!", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var answer string
			var res any
			var err error
			var srv *llmtest.Server
			if c.model {
				answer, res, srv, err = askCommand(t, c.book, c.cmd)
			} else {
				e := newEnv(t, c.book, nil)
				ca := &CommandAgent{Reg: e.reg, Runtime: e.rt, Emit: func(ev Event) {
					if ev.Event == "answer" {
						answer = ev.Text
					}
				}}
				res, err = ca.Run(context.Background(), c.cmd)
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(answer, c.want) {
				t.Fatalf("answer %q, want %q", answer, c.want)
			}
			r := res.(CursorAgentResult)
			if !r.Prefiltered {
				t.Fatalf("a lexical task was not prefiltered: %+v", r)
			}
			if srv != nil {
				if len(srv.Requests()) == 0 {
					t.Fatal("the model was not asked")
				}
				for _, req := range srv.Requests() {
					last := ""
					for _, m := range req.Messages {
						if strings.HasPrefix(m.Content, `{"portion"`) {
							last = m.Content
						}
					}
					if q := strings.Fields(c.want)[0]; last == "" || !strings.Contains(last, "Звёздочкин") && !strings.Contains(last, "Долохов") {
						t.Fatalf("a portion without the name was shown (%s): %.200s", q, last)
					}
				}
			}
		})
	}
}

// TestNoModelAnswersInTheAuthorsLanguage: without a model server a semantic task
// is refused in the language of the command.
func TestNoModelAnswersInTheAuthorsLanguage(t *testing.T) {
	e := newEnv(t, zvezdochkin, nil)
	for cmd, want := range map[string]string{
		"найди первое упоминание, где профессор сердится": "нужен сервер модели: «где профессор сердится»",
		"найди сцену, где Звёздочкин уходит":              "нужен сервер модели",
		"find the first scene where the professor leaves": "needs a model server",
	} {
		ca := &CommandAgent{Reg: e.reg, Runtime: e.rt}
		_, err := ca.Run(context.Background(), cmd)
		if !errors.Is(err, agent.ErrNeedsModel) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", cmd, err, want)
		}
	}
}

// BenchmarkSemanticFirstMatchTokens: the prompt tokens a semantic FirstMatch on
// the English book sends to the model, against a naive read of the whole book in
// one prompt.
func BenchmarkSemanticFirstMatchTokens(b *testing.B) {
	book := loadBook(b, "en")
	naive := llm.EstimateTokens(book)
	var sent, steps int
	for b.Loop() {
		srv := llmtest.New(b, readerModel())
		e := newEnv(b, book, llmtest.Client(b, srv.URL()))
		r, err := e.rt.Run(context.Background(), CursorAgentOptions{Forward: true, MaxElements: 20, MaxBytes: 8192, IncludeContent: true,
			Mode: ModeFirstMatch, TaskDescription: "Find the first mention of Pierre getting angry at someone"})
		if err != nil || !r.Success {
			b.Fatalf("%v %+v", err, r)
		}
		sent, steps = srv.PromptTokens(), r.Steps
	}
	b.ReportMetric(float64(sent), "tokens-sent")
	b.ReportMetric(float64(naive), "tokens-whole-book")
	b.ReportMetric(float64(naive)/float64(sent), "x-fewer")
	b.ReportMetric(float64(steps), "steps")
}

// TestWholeBookSummary: AggregateSummary of the English book covers every
// chapter with a sentence (map-reduce by chapter, the runtime keeping every
// note), with portions large or small; a run stopped by the step limit
// returns what it read with an honest note of where it stops.
func TestWholeBookSummary(t *testing.T) {
	text := loadBook(t, "en")
	e := newEnv(t, text, nil)
	chapters := 0
	_ = mustCurrent(t, e).Do(func(d *document.Document) error {
		for i := 0; i < d.Len(); i++ {
			if d.Item(i).Type == document.Heading && strings.HasPrefix(d.Text(i), "CHAPTER ") {
				chapters++
			}
		}
		return nil
	})
	for _, size := range []int{65536, 16384} {
		r := e.run(t, CursorAgentOptions{Forward: true, MaxElements: 200, MaxBytes: size, IncludeContent: true, Mode: ModeSummary, TaskDescription: "Summarise the whole book", MaxSteps: ptr(MaxMaxSteps)})
		if !r.Success {
			t.Fatalf("%+v", r)
		}
		covered := 0
		for _, line := range strings.Split(r.Summary, "\n") {
			if head, rest, ok := strings.Cut(line, ": "); ok && strings.HasPrefix(head, "CHAPTER ") && len(strings.Fields(rest)) >= 3 {
				covered++
			}
		}
		t.Logf("portions of %d bytes: %d portions, %d bytes of summary, %d of %d chapters with a sentence", size, r.Portions, len(r.Summary), covered, chapters)
		if covered != chapters {
			t.Errorf("portions of %d bytes: %d of %d chapters have a sentence", size, covered, chapters)
		}
		for _, want := range []string{"BOOK ONE: 1805", "BOOK EIGHT", "BOOK FIFTEEN", "SECOND EPILOGUE"} {
			if !strings.Contains(r.Summary, want) {
				t.Errorf("portions of %d bytes: the summary does not reach %q", size, want)
			}
		}
	}
	steps := 30
	cut := e.run(t, CursorAgentOptions{Forward: true, MaxElements: 20, MaxBytes: 4096, IncludeContent: true, Mode: ModeSummary, TaskDescription: "Summarise the whole book", MaxSteps: &steps})
	if cut.Success || cut.Summary == "" || !cut.StepLimit || !strings.Contains(cut.Reason, "cut: the summary covers the book up to BOOK ONE: 1805, CHAPTER") {
		t.Fatalf("a cut summary: %+v", cut)
	}
}

func ptr(n int) *int { return &n }

// TestNextMentionPerDocument: "the next one" continues this book's last search,
// "the next mention of X" continues X's own search, and a search in one book is
// not continued in another.
func TestNextMentionPerDocument(t *testing.T) {
	e := newEnv(t, book, nil)
	other := filepath.Join(t.TempDir(), "other.md")
	if err := os.WriteFile(other, []byte("# Other\n\nPierre in another book.\n\nNatasha in another book.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var answer string
	ca := &CommandAgent{Reg: e.reg, Runtime: e.rt, Emit: func(ev Event) {
		if ev.Event == "answer" {
			answer = ev.Text
		}
	}}
	step := func(cmd, want string) {
		t.Helper()
		answer = ""
		_, err := ca.Run(ctx, cmd)
		got := answer
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(got, want) {
			t.Fatalf("%s: %q, want %q", cmd, got, want)
		}
	}
	step(`find the first mention of "Natasha"`, "sub-item about Natásha")
	step(`find the first mention of "Pierre"`, "“Pierre”")
	step(`find the next mention of "Natasha"`, "Natasha danced at the ball") // Natasha's search, not Pierre's
	step(`find the next one`, "Pierre watched Natasha again")                // the last search: Natasha
	if _, err := e.ws.Open(ctx, other); err != nil {
		t.Fatal(err)
	}
	step(`find the next one`, "no earlier search in this book")
	step(`find the first mention of "Pierre"`, "Pierre in another book")
	if _, err := e.ws.Open(ctx, e.doc); err != nil {
		t.Fatal(err)
	}
	step(`find the next mention of "Pierre"`, "Pierre watched Natasha again") // the first book's Pierre search goes on
}

// TestEditsUseExactWords: replace, insert and delete address the words as
// written; a form of them («Долохова») is not the place of an edit of «Долохов».
func TestEditsUseExactWords(t *testing.T) {
	const text = "# Р\n\nЯ за Долохова!\n\nЭто был Долохов.\n"
	e := newEnv(t, text, nil)
	ca := &CommandAgent{Reg: e.reg, Runtime: e.rt}
	if _, err := ca.Run(context.Background(), "замени «Долохов» на «Курагин»"); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(e.doc)
	if string(b) != "# Р\n\nЯ за Долохова!\n\nЭто был Курагин.\n" {
		t.Fatalf("replace changed the wrong word:\n%s", b)
	}
}

const constraintsBook = `# Story

## Chapter 1

Pierre was calm.

## Chapter 2: Pierre is angry

> Pierre was angry in a quote.

` + "```\nPierre angry in code\n```" + `

Pierre grew angry at the count.

## Chapter 3

Pierre was angry again.
`

// TestConstraintsOnBothRoutes: "excluding headings", "in a quote", "in code",
// "after chapter N" hold for a semantic task the model answers (a heading it
// claims is sent back) and for a lexical one the matcher answers.
func TestConstraintsOnBothRoutes(t *testing.T) {
	cases := []struct {
		cmd, want string
		model     bool
	}{
		{"find the first scene where Pierre is angry", "the heading “Chapter 2: Pierre is angry”", true},
		{"find the first scene where Pierre is angry (excluding headings)", "“Pierre grew angry at the count.”", true},
		{"find the first scene where Pierre is angry in a quote", "“Pierre was angry in a quote.”", true},
		{"find the first scene where Pierre is angry in code", "“Pierre angry in code”", true},
		{"find the first scene where Pierre is angry after chapter 2", "Chapter 3: “Pierre was angry again.”", true},
		{"найди первую сцену, где Pierre сердится, исключая заголовки", "нужен сервер модели", false},
		{`find the first mention of "angry"`, "the heading “Chapter 2: Pierre is angry”", false},
		{`find the first mention of "angry" excluding headings`, "“Pierre grew angry at the count.”", false},
		{`find the first mention of "Pierre" in a quote`, "“Pierre was angry in a quote.”", false},
		{`найди первое упоминание «Pierre» в коде`, "«Pierre angry in code»", false},
		{`find the first mention of Pierre after chapter 2`, "Chapter 3: “Pierre was angry again.”", false},
		{`найди первое упоминание «Pierre» после главы 2`, "Chapter 3: «Pierre was angry again.»", false},
		{`find the first mention of Pierre in chapter 4`, "no heading names chapter 4", false},
	}
	for _, c := range cases {
		t.Run(c.cmd, func(t *testing.T) {
			var answer string
			var err error
			var srv *llmtest.Server
			if c.model {
				answer, _, srv, err = askCommand(t, constraintsBook, c.cmd)
			} else {
				e := newEnv(t, constraintsBook, nil)
				ca := &CommandAgent{Reg: e.reg, Runtime: e.rt, Emit: func(ev Event) {
					if ev.Event == "answer" {
						answer = ev.Text
					}
				}}
				_, err = ca.Run(context.Background(), c.cmd)
			}
			if err != nil {
				answer = err.Error()
			}
			if !strings.Contains(answer, c.want) {
				t.Fatalf("answer %q, want %q", answer, c.want)
			}
			if srv != nil && len(srv.Requests()) == 0 {
				t.Fatal("the model was not asked")
			}
		})
	}
}
