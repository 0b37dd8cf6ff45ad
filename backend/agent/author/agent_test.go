package author

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/waymark/waymark/backend/agent"
	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/llm/llmtest"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/store"
	"github.com/waymark/waymark/backend/tools"
)

const book = `# Book

## Part One

Anna Pavlovna was at home. Nobody mentioned the professor.

- A list
  - with a sub-item about Natásha

| who | where |
|-----|-------|
| Pierre | Moscow |

` + "```\nNatasha in code\n```" + `

## Part Two

Natasha danced at the ball, and everyone watched her dance all night long.

Pierre watched Natasha again, and the night went on and on until the morning came.
`

type env struct {
	doc string
	st  *store.Store
	ws  *manuscript.Workspace
	reg *tools.Registry
	rt  *Runtime
}

func newEnv(t testing.TB, content string, model llm.Model) *env {
	t.Helper()
	dir := t.TempDir()
	e := &env{doc: filepath.Join(dir, "book.md")}
	if err := os.WriteFile(e.doc, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(dir, "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e.st = st
	e.ws = manuscript.NewWorkspace(st)
	if _, err := e.ws.Open(context.Background(), e.doc); err != nil {
		t.Fatal(err)
	}
	e.reg = tools.New()
	manuscript.RegisterTools(e.reg, e.ws)
	if model == nil {
		model = Builtin{}
	}
	e.rt = &Runtime{WS: e.ws, Store: st, Model: model}
	Register(e.reg, e.rt)
	return e
}

func (e *env) run(t *testing.T, o CursorAgentOptions) CursorAgentResult {
	t.Helper()
	r, err := e.rt.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func opts(mode, task string) CursorAgentOptions {
	return CursorAgentOptions{Forward: true, MaxElements: 3, MaxBytes: 4096, IncludeContent: true, Mode: mode, TaskDescription: task}
}

func TestFirstMatchBuiltin(t *testing.T) {
	e := newEnv(t, book, nil)
	cases := []struct {
		task, want string
	}{
		{`Find the first mention of "Natasha"`, "- with a sub-item about Natásha"}, // sub-item, accents ignored, code skipped
		{`найди первое упоминание «Pierre»`, "Pierre"},                             // table cell
		{`Find the first mention of "natasha in code"`, ""},
		{`Find the first code mention of "Natasha in code"`, "```\nNatasha in code\n```"},
		{`the first mention of "part two"`, "## Part Two"},
	}
	for _, c := range cases {
		r := e.run(t, opts(ModeFirstMatch, c.task))
		if c.want == "" {
			if r.Success {
				t.Errorf("%s: found %q", c.task, r.Markdown)
			}
			continue
		}
		if !r.Success || r.Markdown != c.want || r.SemanticPointer == nil || r.FirstItemIndex == nil || !strings.Contains(r.Summary, r.SemanticPointer.Label) {
			t.Errorf("%s: %+v", c.task, r)
		}
	}
	// The next mention continues the task.
	r := e.run(t, opts(ModeFirstMatch, `Find the first mention of "Natasha"`))
	o := opts(ModeFirstMatch, `Find the first mention of "Natasha"`)
	o.TaskID = r.TaskID
	next := e.run(t, o)
	if !next.Success || !strings.HasPrefix(next.Markdown, "Natasha danced") {
		t.Fatalf("next mention: %+v", next)
	}
	o.State = next.State
	third := e.run(t, o)
	if !third.Success || !strings.HasPrefix(third.Markdown, "Pierre watched") {
		t.Fatalf("third mention: %+v", third)
	}
	fourth := e.run(t, o) // same state again: the same answer (state given wins)
	if fourth.Markdown != third.Markdown {
		t.Fatalf("state replay: %+v", fourth)
	}
	o.State = third.State
	if end := e.run(t, o); end.Success || !strings.Contains(end.Reason, "no mention") {
		t.Fatalf("after the last mention: %+v", end)
	}
	// Events carry the seed's names.
	evs, _ := e.st.Events(context.Background(), "", 0)
	kinds := map[string]bool{}
	for _, ev := range evs {
		kinds[ev.Kind] = true
	}
	for _, k := range []string{"cursor_batch", "agent_finish_success", "agent_finish_not_found", "cursor_batch_complete"} {
		if !kinds[k] {
			t.Errorf("no %s event logged", k)
		}
	}
}

func TestCollectAndSummary(t *testing.T) {
	e := newEnv(t, book, nil)
	ts, err := e.st.CreateTargetSet(context.Background(), 1, "natasha")
	if err != nil {
		t.Fatal(err)
	}
	o := opts(ModeCollect, `Collect every mention of "Natasha"`)
	o.TargetSetID = ts.ID
	r := e.run(t, o)
	if !r.Success {
		t.Fatalf("collect: %+v", r)
	}
	res, err := e.reg.Call(context.Background(), tools.Call{Name: "TargetSetGet", Args: json.RawMessage(`{"targetSetId":"` + ts.ID + `"}`)}, tools.Context{})
	if err != nil {
		t.Fatal(err)
	}
	idx := res.(manuscript.TargetSetGetResult).ItemIndices
	if len(idx) != 3 {
		t.Fatalf("collected %v, want the sub-item and two paragraphs", idx)
	}
	s := e.run(t, opts(ModeSummary, "Summarise the book"))
	if !s.Success || !strings.Contains(s.Summary, "Part Two") || !strings.Contains(s.Summary, "Natasha danced at the ball") {
		t.Fatalf("summary: %+v", s)
	}
}

func TestRunCursorAgentBadInput(t *testing.T) {
	e := newEnv(t, book, nil)
	zero, big := 0, 513
	cases := []struct {
		name string
		o    CursorAgentOptions
		want string
	}{
		{"unknown mode", CursorAgentOptions{Mode: "Grep", MaxElements: 1, MaxBytes: 1, TaskDescription: "x"}, "use one of FirstMatch, CollectToTargetSet, AggregateSummary"},
		{"collect without set", CursorAgentOptions{Mode: ModeCollect, MaxElements: 1, MaxBytes: 1, TaskDescription: "x"}, "requires targetSetId"},
		{"maxSteps 0", CursorAgentOptions{Mode: ModeFirstMatch, MaxElements: 1, MaxBytes: 1, TaskDescription: "x", MaxSteps: &zero}, "maxSteps 0 is out of range; allowed 1..512"},
		{"maxSteps 513", CursorAgentOptions{Mode: ModeFirstMatch, MaxElements: 1, MaxBytes: 1, TaskDescription: "x", MaxSteps: &big}, "maxSteps 513 is out of range"},
		{"unknown task", CursorAgentOptions{Mode: ModeFirstMatch, MaxElements: 1, MaxBytes: 1, TaskDescription: "x", TaskID: "task_nope"}, `task "task_nope": not found`},
		{"limits", CursorAgentOptions{Mode: ModeFirstMatch, MaxElements: 0, MaxBytes: 1, TaskDescription: "x"}, "maxElements 0 is out of range"},
		{"missing set", CursorAgentOptions{Mode: ModeCollect, MaxElements: 1, MaxBytes: 1, TaskDescription: "x", TargetSetID: "ts_x"}, `"ts_x"`},
	}
	for _, c := range cases {
		_, err := e.rt.Run(context.Background(), c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	// A task that needs understanding: the built-in engine says so plainly.
	r := e.run(t, opts(ModeFirstMatch, "the first scene where Pierre is angry"))
	if r.Success || !strings.Contains(r.Reason, "needs a model server") {
		t.Fatalf("non-lexical task: %+v", r)
	}
}

func TestParseAction(t *testing.T) {
	cases := []struct {
		in, want string
	}{
		{`{"action":"cursor_next"}`, ""},
		{` {"action":"agent_finish_success","firstItemIndex":3,"summary":"H2.p3 x"} `, ""},
		{"```json\n{\"action\":\"cursor_next\"}\n```", OneActionReply},
		{`{"action":"cursor_next"}{"action":"cursor_next"}`, OneActionReply},
		{`Sure! {"action":"cursor_next"}`, OneActionReply},
		{`{"action":"cursor_next"} done`, OneActionReply},
		{`{"action":"jump"}`, `unknown action "jump"`},
		{`{"action":"target_set_add"}`, "target_set_add needs"},
		{`{"action":"cursor_next","colour":1}`, OneActionReply},
		{``, OneActionReply},
	}
	for _, c := range cases {
		_, err := ParseAction(c.in)
		if c.want == "" {
			if err != nil {
				t.Errorf("%q: %v", c.in, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.in, err, c.want)
		}
	}
}

func TestCommandAgentBuiltin(t *testing.T) {
	e := newEnv(t, book, nil)
	var events []Event
	ca := &CommandAgent{Reg: e.reg, Runtime: e.rt, Emit: func(ev Event) { events = append(events, ev) }}
	ctx := context.Background()
	read := func() string { b, _ := os.ReadFile(e.doc); return string(b) }

	if _, err := ca.Run(ctx, `find the first mention of "Natasha"`); err != nil {
		t.Fatal(err)
	}
	if _, err := ca.Run(ctx, `find the next mention`); err != nil {
		t.Fatal(err)
	}
	last := events[len(events)-2]
	if last.Event != "answer" || !strings.Contains(last.Text, "Natasha danced") {
		t.Fatalf("next mention answer: %+v", last)
	}
	if _, err := ca.Run(ctx, `замени «danced at the ball» на «waltzed at the ball»`); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(read(), "Natasha waltzed at the ball, and everyone") {
		t.Fatalf("replace not applied:\n%s", read())
	}
	if _, err := ca.Run(ctx, `collect all mentions of "Pierre" into "pierre scenes"`); err != nil {
		t.Fatal(err)
	}
	if _, err := ca.Run(ctx, `insert "A new paragraph." after "Anna Pavlovna"`); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(read(), "Nobody mentioned the professor.\n\nA new paragraph.\n") {
		t.Fatalf("insert not applied:\n%s", read())
	}
	if _, err := ca.Run(ctx, `delete the paragraph with "A new paragraph"`); err != nil {
		t.Fatal(err)
	}
	out, err := ca.Run(ctx, `summarise part two`)
	if err != nil || !strings.Contains(out.(CursorAgentResult).Summary, "Natasha waltzed at the ball") {
		t.Fatalf("summary: %v %v", out, err)
	}
	before := read()
	if _, err := ca.Run(ctx, `rewrite the ball scene more dramatically`); !errors.Is(err, agent.ErrNeedsModel) || !strings.Contains(err.Error(), "does not understand") {
		t.Fatalf("not understood: %v", err)
	}
	if _, err := ca.Run(ctx, `delete the paragraph with "Zvezdochkin"`); err == nil || !strings.Contains(err.Error(), "nothing was changed") {
		t.Fatalf("delete of an absent phrase: %v", err)
	}
	if read() != before {
		t.Fatal("a failed command changed the manuscript")
	}
	// Every applied edit carried its cursor context and is undoable.
	for _, ev := range events {
		if ev.Event == "tool_result" && (ev.Tool == "ReplaceText" || ev.Tool == "InsertAfter" || ev.Tool == "Delete") {
			b, _ := json.Marshal(ev.Result)
			if !strings.Contains(string(b), `"context":"Cursor: `) {
				t.Errorf("%s result without cursor context: %s", ev.Tool, b)
			}
		}
	}
	for k := 0; k < 3; k++ {
		if _, err := e.reg.Call(ctx, tools.Call{Name: "Undo"}, tools.Context{}); err != nil {
			t.Fatal(err)
		}
	}
	if read() != book {
		t.Fatalf("three undos did not restore the book:\n%s", read())
	}
}

func TestLexicalPhrase(t *testing.T) {
	cases := map[string]string{
		`Find the first mention of "Natasha"`: "Natasha",
		`найди первое упоминание «профессора Звёздочкина»`: "профессора Звёздочкина",
		`Find “Pierre” please`:                          "Pierre",
		`the first mention of Pierre's wife`:            "", // Hélène: a question, not a phrase
		`find the first mention of Natasha in part two`: "Natasha",
		`the first scene where Pierre is angry`:         "",
		`найди первое упоминание Кутузова.`:             "Кутузова",
	}
	for task, want := range cases {
		if got := ParseTask(task).Phrase; got != want {
			t.Errorf("ParseTask(%q).Phrase = %q, want %q", task, got, want)
		}
	}
}

// mustCurrent is the env's open manuscript.
func mustCurrent(t testing.TB, e *env) *manuscript.Manuscript {
	t.Helper()
	m, err := e.ws.Current()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Stopping a model-driven command after it edited leaves the manuscript as it
// was: the undo of the run's edits does not die with the cancelled context.
func TestCommandAgentStoppedAfterAnEditUndoesIt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := llmtest.New(t,
		llmtest.Tool("ReplaceText", map[string]any{"index": 4, "newMarkdown": "Changed."}),
		llmtest.Handler(func(req llmtest.ChatRequest) llmtest.Reply {
			cancel() // the author presses Stop while the model thinks
			return llmtest.Delay(time.Second, llmtest.Text("too late"))
		}))
	e := newEnv(t, book, llmtest.Client(t, srv.URL()))
	ca := &CommandAgent{Reg: e.reg, Runtime: e.rt}
	_, err := ca.Run(ctx, "change the first paragraph")
	if !errors.Is(err, context.Canceled) || err.Error() != "The command was stopped before it finished. The 1 edit(s) of this run were undone." {
		t.Fatalf("stopped run: %v", err)
	}
	if b, _ := os.ReadFile(e.doc); string(b) != book {
		t.Fatalf("a stopped run left the manuscript changed:\n%s", b)
	}
}
