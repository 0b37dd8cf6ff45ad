package author

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/agent"
	"github.com/waymark/waymark/backend/llm/llmtest"
	"github.com/waymark/waymark/backend/store"
	"github.com/waymark/waymark/backend/tools"
)

func targetSets(e *env) []store.TargetSet {
	m, err := e.ws.Current()
	if err != nil {
		return nil
	}
	sets, _ := e.st.TargetSets(context.Background(), m.DocID)
	return sets
}

func TestSplitSteps(t *testing.T) {
	cases := []struct {
		cmd  string
		want []string
	}{
		{`collect every scene with Natasha, then summarise each`, []string{"collect every scene with Natasha", "summarise each"}},
		{`собери все сцены с Наташей, затем перескажи каждую`, []string{"собери все сцены с Наташей", "перескажи каждую"}},
		{`find "Pierre"; then delete "Anna", and then summarise part 2.`, []string{`find "Pierre"`, `delete "Anna"`, "summarise part 2"}},
		{`find the scene where Pierre argues and then leaves`, []string{`find the scene where Pierre argues and then leaves`}},
		{`найди сцену, где Наташа потом поёт`, []string{`найди сцену, где Наташа потом поёт`}},
		{`найди сцену, где Наташа поёт, а потом перескажи её`, []string{`найди сцену, где Наташа поёт`, "перескажи её"}},
		{`найди «Пьер», потом удали абзац с «Анна»`, []string{"найди «Пьер»", "удали абзац с «Анна»"}},
		{`replace "and then, then" with "then"`, []string{`replace "and then, then" with "then"`}},
		{`find the first mention of "Natasha"`, []string{`find the first mention of "Natasha"`}},
	}
	for _, c := range cases {
		if got := splitSteps(c.cmd); !reflect.DeepEqual(got, c.want) {
			t.Errorf("splitSteps(%q) = %q, want %q", c.cmd, got, c.want)
		}
	}
}

// callTool calls a registry tool the way the CLI and MCP do, and decodes its
// result as JSON.
func callTool[T any](t *testing.T, reg *tools.Registry, name string, args any) (T, error) {
	t.Helper()
	var out T
	b, _ := json.Marshal(args)
	v, err := reg.Call(context.Background(), tools.Call{Name: name, Args: b}, tools.Context{})
	if err != nil {
		return out, err
	}
	raw, _ := json.Marshal(v)
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s result %s: %v", name, raw, err)
	}
	return out, nil
}

// The built-in engine plans "X, then Y" when it understands every part; the
// plan runs only through PlanRun, once, with the user's edits validated.
func TestBuiltinPlanProposeRunDiscard(t *testing.T) {
	for _, c := range []struct {
		name, cmd string
		says      []string
		answer    string
	}{
		{"english", `collect all mentions of "Natasha" into "N", then summarise part 2`, []string{`collect all mentions of "Natasha" into "N"`, "summarise part 2"}, "Collected 3 passage(s)"},
		{"russian", `собери все упоминания «Natasha» в «Н», затем перескажи часть 2`, []string{"собери все упоминания «Natasha» в «Н»", "перескажи часть 2"}, "В набор «Н» собрано 3 места"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, book, nil)
			p, err := callTool[PlanProposal](t, e.reg, "PlanPropose", map[string]any{"command": c.cmd})
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Steps) != 2 || p.Steps[0].Say != c.says[0] || p.Steps[1].Say != c.says[1] || p.Steps[0].Tool != "RunCommand" {
				t.Fatalf("plan %+v", p)
			}
			if !strings.HasPrefix(p.Message, "Plan of 2 step(s): 1. ") || !strings.Contains(p.Message, "Nothing runs until you approve it") {
				t.Fatalf("message %q", p.Message)
			}
			// Nothing ran: no target set was made.
			if sets := targetSets(e); len(sets) != 0 {
				t.Fatalf("a proposed plan ran: %d target sets", len(sets))
			}
			r, err := callTool[PlanRunResult](t, e.reg, "PlanRun", map[string]any{"planId": p.PlanID})
			if err != nil || !r.Success || r.Ran != 2 || !strings.Contains(r.Answer, c.answer) {
				t.Fatalf("run: %+v %v", r, err)
			}
			if sets := targetSets(e); len(sets) != 1 {
				t.Fatalf("after the run: %d target sets", len(sets))
			}
			if _, err := callTool[PlanRunResult](t, e.reg, "PlanRun", map[string]any{"planId": p.PlanID}); err == nil || !strings.Contains(err.Error(), "has already run") {
				t.Fatalf("second run: %v", err)
			}
		})
	}

	e := newEnv(t, book, nil)
	cmd := `replace "Natasha danced" with "Natasha waltzed", then delete the paragraph with "Pierre watched"`
	propose := func() PlanProposal {
		p, err := callTool[PlanProposal](t, e.reg, "PlanPropose", map[string]any{"command": cmd})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	errCases := []struct {
		name  string
		steps any
		want  string
	}{
		{"unknown tool", []map[string]any{{"id": "s1", "tool": "Explode", "arguments": map[string]any{}, "say": "boom"}}, `unknown tool "Explode"`},
		{"tool no plan may use", []map[string]any{{"id": "s1", "tool": "PlanDiscard", "arguments": map[string]any{"planId": "x"}, "say": "x"}}, `unknown tool "PlanDiscard"`},
		{"bad arguments", []map[string]any{{"id": "s1", "tool": "RunCommand", "arguments": map[string]any{"cmd": "x"}, "say": "x"}}, `unknown field "cmd"; allowed fields: command`},
		{"empty command", []map[string]any{{"id": "s1", "tool": "RunCommand", "arguments": map[string]any{"command": ""}, "say": "x"}}, "command"},
		{"no steps", []map[string]any{}, "steps"},
	}
	for _, c := range errCases {
		p := propose()
		if _, err := callTool[PlanRunResult](t, e.reg, "PlanRun", map[string]any{"planId": p.PlanID, "steps": c.steps}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want %q", c.name, err, c.want)
		}
	}
	if b, _ := os.ReadFile(e.doc); string(b) != book {
		t.Fatalf("an invalid plan changed the manuscript:\n%s", b)
	}
	// An edited step runs as edited.
	p := propose()
	edited := []PlanStepView{p.Steps[0]}
	edited[0].Arguments = json.RawMessage(`{"command":"replace \"Natasha danced\" with \"Natasha sang\""}`)
	edited[0].Say = `replace "Natasha danced" with "Natasha sang"`
	r, err := callTool[PlanRunResult](t, e.reg, "PlanRun", map[string]any{"planId": p.PlanID, "steps": edited})
	if err != nil || !r.Success || r.Ran != 1 {
		t.Fatalf("edited run: %+v %v", r, err)
	}
	if b, _ := os.ReadFile(e.doc); !strings.Contains(string(b), "Natasha sang at the ball") || !strings.Contains(string(b), "Pierre watched") {
		t.Fatalf("edited plan:\n%s", b)
	}
	// A discarded plan never runs; an unknown one says to propose again.
	p = propose()
	if _, err := callTool[map[string]any](t, e.reg, "PlanDiscard", map[string]any{"planId": p.PlanID}); err != nil {
		t.Fatal(err)
	}
	if _, err := callTool[PlanRunResult](t, e.reg, "PlanRun", map[string]any{"planId": p.PlanID}); err == nil || !strings.Contains(err.Error(), "was discarded: propose it again") {
		t.Fatalf("discarded: %v", err)
	}
	if _, err := callTool[PlanRunResult](t, e.reg, "PlanRun", map[string]any{"planId": "plan_nope"}); err == nil || !strings.Contains(err.Error(), "propose it again with PlanPropose") {
		t.Fatalf("unknown: %v", err)
	}
	// A failing step stops the plan and says what ran.
	p, err = callTool[PlanProposal](t, e.reg, "PlanPropose", map[string]any{"command": `delete the paragraph with "Pierre watched", then delete the paragraph with "Zvezdochkin"`})
	if err != nil {
		t.Fatal(err)
	}
	r, err = callTool[PlanRunResult](t, e.reg, "PlanRun", map[string]any{"planId": p.PlanID})
	if err != nil || r.Success || r.Ran != 1 || !strings.Contains(r.Error, `"Zvezdochkin" does not occur`) || !strings.Contains(r.Error, "1 of 2 step(s) had run; the manuscript was set back to revision") {
		t.Fatalf("failing step: %+v %v", r, err)
	}
	// Nothing is half-applied: step 1's deletion was set back.
	if b, _ := os.ReadFile(e.doc); !strings.Contains(string(b), "Pierre watched") || !strings.Contains(string(b), "Natasha sang") {
		t.Fatalf("a plan that stopped left its first step's edit:\n%s", b)
	}
}

// A multi-step command through the command agent is planned, not run; the
// built-in engine says which part it does not understand.
func TestCommandOfSeveralStepsIsPlannedNotRun(t *testing.T) {
	e := newEnv(t, book, nil)
	var answers []string
	ca := &CommandAgent{Reg: e.reg, Runtime: e.rt, Emit: func(ev Event) {
		if ev.Event == "answer" {
			answers = append(answers, ev.Text)
		}
	}}
	out, err := ca.Run(context.Background(), `replace "Natasha danced" with "Natasha waltzed", then delete the paragraph with "Pierre watched"`)
	if err != nil {
		t.Fatal(err)
	}
	p, ok := out.(PlanProposal)
	if !ok || len(p.Steps) != 2 || len(answers) != 1 || answers[0] != p.Message {
		t.Fatalf("result %#v, answers %q", out, answers)
	}
	if b, _ := os.ReadFile(e.doc); string(b) != book {
		t.Fatalf("a planned command ran:\n%s", b)
	}
	_, err = ca.Run(context.Background(), "collect every scene with Natasha, then summarise each")
	if !errors.Is(err, agent.ErrNeedsModel) || !strings.Contains(err.Error(), `does not understand "collect every scene with Natasha"`) {
		t.Fatalf("built-in, not understood: %v", err)
	}
}

// With a model server, a command the built-in engine cannot split is planned
// by the model through the loop's lazy plan (real HTTP): a JSON plan, no tools
// offered, nothing run until PlanRun.
func TestModelPlansThroughTheLoop(t *testing.T) {
	plan := `{"steps":[
		{"id":"s1","tool":"TargetSetCreate","args":{"name":"Natasha scenes"},"outputPath":"†state.set","say":"make a set for the scenes"},
		{"id":"s2","tool":"RunCursorAgent","args":{"forward":true,"maxElements":20,"maxBytes":8192,"includeContent":true,"mode":"CollectToTargetSet","taskDescription":"Collect every scene with \"Natasha\"","targetSetId":"†state.set.targetSetId"},"outputPath":"†state.found","say":"collect every scene with Natasha"},
		{"id":"s3","tool":"RunCursorAgent","args":{"forward":true,"maxElements":20,"maxBytes":8192,"includeContent":true,"mode":"AggregateSummary","taskDescription":"Summarise each scene with Natasha"},"say":"summarise each scene"}]}`
	for _, cmd := range []string{"collect every scene with Natasha, then summarise each", "собери все сцены с Наташей, затем перескажи каждую"} {
		t.Run(cmd, func(t *testing.T) {
			var planReq *llmtest.ChatRequest
			srv := llmtest.New(t, llmtest.Repeat(llmtest.Handler(func(req llmtest.ChatRequest) llmtest.Reply {
				if strings.Contains(string(req.ResponseFormat), `"plan"`) {
					planReq = &req
					return llmtest.Text(plan)
				}
				// The cursor sub-agent's turns: collect item 6, then finish.
				last := req.LastMessage().Content
				switch {
				case strings.Contains(last, `"count"`):
					return llmtest.Text(`{"action":"agent_finish_success","summary":"collected"}`)
				case strings.Contains(req.Messages[1].Content, "CollectToTargetSet"):
					return llmtest.Text(`{"action":"target_set_add","indices":[6]}`)
				}
				return llmtest.Text(`{"action":"agent_finish_success","summary":"Natasha dances at the ball."}`)
			})))
			e := newEnv(t, book, llmtest.Client(t, srv.URL()))
			p, err := callTool[PlanProposal](t, e.reg, "PlanPropose", map[string]any{"command": cmd})
			if err != nil {
				t.Fatal(err)
			}
			if planReq == nil || len(planReq.Tools) != 0 || len(srv.Requests()) != 1 {
				t.Fatalf("the plan was not asked for alone: %d requests", len(srv.Requests()))
			}
			if len(p.Steps) != 3 || p.Steps[1].Say != "collect every scene with Natasha" || !strings.Contains(p.Message, "Plan of 3 step(s)") {
				t.Fatalf("plan %+v", p)
			}
			if sets := targetSets(e); len(sets) != 0 {
				t.Fatal("the model's plan ran before approval")
			}
			r, err := callTool[PlanRunResult](t, e.reg, "PlanRun", map[string]any{"planId": p.PlanID})
			if err != nil || !r.Success || r.Ran != 3 {
				t.Fatalf("run: %+v %v", r, err)
			}
			sets := targetSets(e)
			if len(sets) != 1 {
				t.Fatalf("target sets %+v", sets)
			}
			got, err := callTool[map[string]any](t, e.reg, "TargetSetGet", map[string]any{"targetSetId": sets[0].ID})
			if err != nil || got["count"] != float64(1) {
				t.Fatalf("collected %+v %v", got, err)
			}
		})
	}
}

// A plan's edits are described in the language of the command that made it,
// not the book's (issue 35 point 6): a Russian book's plan asked for in
// English was reviewed in Russian («Замена …»), and the other way round.
func TestPlanEditsDescribedInTheCommandsLanguage(t *testing.T) {
	for _, c := range []struct {
		name, book, cmd, want, notWant string
	}{
		{"en command, ru book", "# Роман\n\n## Глава 1\n\nНаташа танцевала на балу.\n\nПьер смотрел на неё.\n",
			`replace "танцевала" with "пела", then delete the paragraph with "Пьер смотрел"`, `^(Replace|Delete) `, `Замена|Удаление`},
		{"ru command, en book", "# Novel\n\n## Chapter 1\n\nNatasha danced at the ball.\n\nPierre watched her.\n",
			`замени «danced» на «sang», затем удали абзац с «Pierre watched»`, `^(Замена|Удаление) `, `Replace|Delete`},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, c.book, nil)
			p, err := callTool[PlanProposal](t, e.reg, "PlanPropose", map[string]any{"command": c.cmd})
			if err != nil {
				t.Fatal(err)
			}
			r, err := callTool[PlanRunResult](t, e.reg, "PlanRun", map[string]any{"planId": p.PlanID})
			if err != nil || !r.Success || len(r.Edits) != 2 {
				t.Fatalf("run: %+v %v", r, err)
			}
			for _, ed := range r.Edits {
				if !regexp.MustCompile(c.want).MatchString(ed.Description) || regexp.MustCompile(c.notWant).MatchString(ed.Description) {
					t.Errorf("edit described as %q, want it in the command's language (%q)", ed.Description, c.want)
				}
			}
		})
	}
}
