package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark/waymark/backend/testenv"
)

// The commands of issue 31 (undo and redo in the author's words, "next"
// in another case form, go to, in which chapters, the main characters, a
// chapter's typos, «где впервые назван»), each run through both command
// doors on a copy of a real book: `waymark agent` (a new process for each
// command, the book's state kept in its database) and RunCommand over MCP
// (one session). Both doors must give the same answer and the same success,
// and each answer and the file are checked. The edits undone are made
// through another door: `waymark call ReplaceAll`, or the ReplaceAll tool
// over MCP.

// doorStep is one step: an edit through another door, or a command.
type doorStep struct {
	replace  [2]string // an edit made through the other door: ReplaceAll query → with
	cmd      string
	ok       bool     // the command succeeds (exit 0)
	answer   []string // the answer holds each
	file     string   // "original": the file is the original; "unchanged": as before the step; "has:X": holds X
	found    bool     // the result says where the window moves (found)
	notFirst string   // the answer differs from this step's answer (by its command)
}

// doorRun is what a door said of a step.
type doorRun struct {
	answer string
	ok     bool
	result map[string]any
}

func TestCommandDoorsIssue31(t *testing.T) {
	testenv.SkipSweepInShortMode(t)
	books := filepath.Join("..", "..", "..", "shared", "corpus", "books")
	if _, err := os.Stat(books); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the corpus is not beside the repository (%v)", err)
		}
		t.Skipf("CORPUS TIER SKIPPED: %s is absent", books)
	}
	bin := buildCLI(t)
	steps := map[string][]doorStep{
		"ru": {
			{replace: [2]string{"Долохов", "Долохофф"}},
			{cmd: "отмени последнее", ok: true, answer: []string{"Отменил последнюю правку: Замена «", "Долохофф", "Том 1, Часть первая, VI"}, file: "original"},
			{cmd: "верни отменённое", ok: true, answer: []string{"Вернул отменённую правку: Замена «"}, file: "has:Это был Долохофф, семеновский офицер"},
			{cmd: "отмени удаление", ok: false, answer: []string{"Последняя правка этой книги — замена, а не удаление; ничего не отменено."}, file: "unchanged"},
			{cmd: "верни как было", ok: true, answer: []string{"Отменил последнюю правку: Замена «"}, file: "original"},
			{cmd: "отмени", ok: false, answer: []string{"Отменять нечего"}, file: "original"},
			{cmd: "где впервые появляется Наташа?", ok: true, answer: []string{"Том 1, Часть первая, VIII", "И Наташа не могла больше говорить"}},
			{cmd: "следующее упоминание Наташи", ok: true, answer: []string{"Том 1, Часть первая, VIII", "Наташа, оторвав на минуту лицо"}, notFirst: "где впервые появляется Наташа?"},
			{cmd: "кто главные герои?", ok: true, answer: []string{"Главные герои", "Пьер (", "Наташа ("}},
			{cmd: "исправь опечатки во второй главе", ok: true, answer: []string{"Словари не знают", "Том 1, Часть первая, II", "Ничего не изменено"}, file: "unchanged"},
			{cmd: "перейди к пятой главе", ok: true, answer: []string{"Том 1, Часть первая, V»", "Поблагодарив Анну Павловну"}, found: true},
			{cmd: "в каких главах есть Элен?", ok: true, answer: []string{"«Элен» упоминается в", "Том 1, Часть первая, II (2)"}},
			{cmd: "найди, где впервые назван Кутузов", ok: true, answer: []string{"Том 1, Часть первая, I:", "адъютант Кутузова"}},
		},
		"en": {
			{replace: [2]string{"Dolokhov", "Dolokhoff"}},
			{cmd: "undo that", ok: true, answer: []string{"Undid the last change: Replace «", "Dolokhoff"}, file: "original"},
			{cmd: "redo", ok: true, answer: []string{"Redid the change that was undone: Replace «"}, file: "has:Dolokhoff"},
			{cmd: "take it back", ok: true, answer: []string{"Undid the last change"}, file: "original"},
			{cmd: "undo the last change", ok: false, answer: []string{"Nothing to undo"}, file: "original"},
			{cmd: "where does Natasha first appear?", ok: true, answer: []string{"BOOK ONE: 1805, CHAPTER XI", "was all Natásha managed to utter"}},
			{cmd: "the next mention of Natasha", ok: true, answer: []string{"Natásha, raising her face"}, notFirst: "where does Natasha first appear?"},
			{cmd: "who are the main characters?", ok: true, answer: []string{"The main characters", "Pierre ("}},
			{cmd: "fix the typos in chapter 2", ok: true, answer: []string{"the dictionaries do not know in BOOK ONE: 1805, CHAPTER II", "Nothing was changed"}, file: "unchanged"},
			{cmd: "go to chapter 5", ok: true, answer: []string{"Moved to BOOK ONE: 1805, CHAPTER V", "the coronation at Milan"}, found: true},
			{cmd: "list every chapter where Helene appears", ok: true, answer: []string{`"Helene" is mentioned in`, "BOOK ONE: 1805, CHAPTER II (2)"}},
			{cmd: "go to the next chapter", ok: false, answer: []string{"go to chapter 5"}},
		},
	}
	// The four runs (two books, two doors) are each on a copy of their own
	// (file and database) and wait on their own processes: they overlap.
	for _, lang := range []string{"ru", "en"} {
		t.Run(lang, func(t *testing.T) {
			t.Parallel()
			original, err := os.ReadFile(filepath.Join(books, "war-and-peace."+lang+".md"))
			if err != nil {
				t.Fatal(err)
			}
			var cliAnswers, mcpAnswers []doorAnswer
			t.Run("doors", func(t *testing.T) {
				t.Run("waymark agent", func(t *testing.T) {
					t.Parallel()
					cliAnswers = runDoor(t, "waymark agent", original, steps[lang], newAgentDoor(t, bin))
				})
				t.Run("MCP", func(t *testing.T) {
					t.Parallel()
					mcpAnswers = runDoor(t, "MCP", original, steps[lang], newMCPDoor(t, bin))
				})
			})
			if len(cliAnswers) != len(steps[lang]) || len(mcpAnswers) != len(steps[lang]) {
				t.Fatal("a door stopped before its last step (above): the doors are not compared")
			}
			for i, s := range steps[lang] {
				if s.cmd != "" && cliAnswers[i] != mcpAnswers[i] {
					t.Errorf("%s: the doors differ:\n waymark agent: %+v\n MCP:           %+v", s.cmd, cliAnswers[i], mcpAnswers[i])
				}
			}
		})
	}
}

// doorAnswer is a step's answer and success through one door.
type doorAnswer struct {
	answer string
	ok     bool
}

// door runs a step's edit or command on a book.
type door interface {
	open(t *testing.T, doc, db string)
	replace(t *testing.T, query, with string)
	command(t *testing.T, cmd string) doorRun
}

// runDoor runs the steps through one door on a fresh copy of the book and
// checks each; it returns each step's answer and success.
func runDoor(t *testing.T, name string, original []byte, steps []doorStep, d door) []doorAnswer {
	dir := t.TempDir()
	doc, db := filepath.Join(dir, "book.md"), filepath.Join(dir, "w.db")
	if err := os.WriteFile(doc, original, 0o644); err != nil {
		t.Fatal(err)
	}
	d.open(t, doc, db)
	out := make([]doorAnswer, len(steps))
	byCmd := map[string]string{}
	for i, s := range steps {
		before, _ := os.ReadFile(doc)
		if s.cmd == "" {
			d.replace(t, s.replace[0], s.replace[1])
			if after, _ := os.ReadFile(doc); bytes.Equal(after, before) {
				t.Fatalf("%s: the edit through the other door changed nothing", name)
			}
			continue
		}
		r := d.command(t, s.cmd)
		out[i].answer, out[i].ok = r.answer, r.ok
		byCmd[s.cmd] = r.answer
		after, _ := os.ReadFile(doc)
		if r.ok != s.ok {
			t.Errorf("%s %q: success %v, want %v (answer %q)", name, s.cmd, r.ok, s.ok, r.answer)
		}
		for _, w := range s.answer {
			if !strings.Contains(r.answer, w) {
				t.Errorf("%s %q: the answer %q lacks %q", name, s.cmd, r.answer, w)
			}
		}
		for _, raw := range []string{"H1.", "H2.", "H3.", "task_", "revision ", "Undo", "ReplaceAll"} {
			if strings.Contains(r.answer, raw) {
				t.Errorf("%s %q: the answer shows %q: %s", name, s.cmd, raw, r.answer)
			}
		}
		switch {
		case s.file == "original" && !bytes.Equal(after, original):
			t.Errorf("%s %q: the file is not the original (%d bytes, original %d)", name, s.cmd, len(after), len(original))
		case s.file == "unchanged" && !bytes.Equal(after, before):
			t.Errorf("%s %q: the file changed", name, s.cmd)
		case strings.HasPrefix(s.file, "has:") && !bytes.Contains(after, []byte(s.file[4:])):
			t.Errorf("%s %q: the file lacks %q", name, s.cmd, s.file[4:])
		case s.file == "" && !bytes.Equal(after, before):
			t.Errorf("%s %q: the file changed", name, s.cmd)
		}
		if s.found {
			f, _ := r.result["found"].(map[string]any)
			if f == nil || f["from"] == nil {
				t.Errorf("%s %q: the result says nowhere to move (found): %v", name, s.cmd, r.result["found"])
			}
		}
		if s.notFirst != "" && r.answer == byCmd[s.notFirst] {
			t.Errorf("%s %q: the same answer as %q: %s", name, s.cmd, s.notFirst, r.answer)
		}
	}
	return out
}

// agentDoor is the command line: `waymark agent` per command, `waymark
// call ReplaceAll` for the edit made elsewhere.
type agentDoor struct {
	bin, doc, db string
}

func newAgentDoor(t *testing.T, bin string) *agentDoor { return &agentDoor{bin: bin} }

func (a *agentDoor) open(t *testing.T, doc, db string) { a.doc, a.db = doc, db }

func (a *agentDoor) replace(t *testing.T, query, with string) {
	args, _ := json.Marshal(map[string]string{"query": query, "with": with})
	cmd := exec.Command(a.bin, "call", "ReplaceAll", "--doc", a.doc, "--db", a.db, string(args))
	cmd.Env = builtinEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("waymark call ReplaceAll: %v\n%s", err, out)
	}
}

func (a *agentDoor) command(t *testing.T, command string) doorRun {
	cmd := exec.Command(a.bin, "agent", "--doc", a.doc, "--db", a.db, command)
	cmd.Env = builtinEnv()
	out, err := cmd.Output()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("waymark agent %q: %v", command, err)
	}
	r := doorRun{ok: err == nil}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var ev struct {
			Event string          `json:"event"`
			Text  string          `json:"text"`
			Data  json.RawMessage `json:"data"`
		}
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			t.Fatalf("waymark agent %q: not a JSON line: %.200s", command, sc.Bytes())
		}
		switch ev.Event {
		case "answer":
			r.answer = ev.Text
		case "result":
			_ = json.Unmarshal(ev.Data, &r.result)
		}
	}
	return r
}

// mcpDoor is a real MCP client on `waymark mcp`: RunCommand per command,
// the ReplaceAll tool for the edit made elsewhere.
type mcpDoor struct {
	bin string
	cs  *sdk.ClientSession
	ctx context.Context
}

func newMCPDoor(t *testing.T, bin string) *mcpDoor { return &mcpDoor{bin: bin} }

func (m *mcpDoor) open(t *testing.T, doc, db string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	client := sdk.NewClient(&sdk.Implementation{Name: "issue31-doors", Version: "1"}, nil)
	cmd := exec.Command(m.bin, "mcp", "--doc", doc, "--db", db)
	cmd.Env = builtinEnv()
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	m.cs, m.ctx = cs, ctx
}

func (m *mcpDoor) replace(t *testing.T, query, with string) {
	res, err := m.cs.CallTool(m.ctx, &sdk.CallToolParams{Name: "ReplaceAll", Arguments: map[string]any{"query": query, "with": with}})
	if err != nil || res.IsError {
		t.Fatalf("ReplaceAll over MCP: %v %+v", err, res)
	}
}

func (m *mcpDoor) command(t *testing.T, command string) doorRun {
	res, err := m.cs.CallTool(m.ctx, &sdk.CallToolParams{Name: "RunCommand", Arguments: map[string]any{"command": command}})
	if err != nil {
		t.Fatalf("RunCommand %q over MCP: %v", command, err)
	}
	r := doorRun{ok: !res.IsError}
	b, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(b, &r.result)
	if a, ok := r.result["answer"].(string); ok {
		r.answer = a
	} else if e, ok := r.result["error"].(string); ok {
		r.answer = e
	} else if len(res.Content) > 0 {
		if tc, ok := res.Content[0].(*sdk.TextContent); ok {
			// A failure with no result: its text is the reason.
			r.answer = tc.Text
		}
	}
	return r
}
