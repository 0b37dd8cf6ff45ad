package web

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/tools"
)

// BrowseCommandArgs are BrowseCommand's arguments: a number command, or the
// answer to the page's JavaScript dialog.
type BrowseCommandArgs struct {
	Command string `json:"command,omitempty" jsonschema:"a number command in English or Russian: list, more, click 5, type 3 hello, read page, read from here, back, find search, список, нажми 5, читай дальше; help lists them"`
	// Dialog answers the dialog the page opened (the last answer's dialog).
	Dialog *DialogAnswer `json:"dialog,omitempty" jsonschema:"the user's answer to the page's JavaScript dialog"`
}

// DialogAnswer is the user's answer to a page's JavaScript dialog.
type DialogAnswer struct {
	Accept bool   `json:"accept" jsonschema:"OK (true) or Cancel (false)"`
	Text   string `json:"text,omitempty" jsonschema:"the text typed into a prompt"`
}

// Refine: a command or a dialog answer.
func (BrowseCommandArgs) Refine(s *jsonschema.Schema) {
	one := 1
	tools.Prop(s, "command").MinLength = &one
}

// BrowseAnswer is what a number command said and did: Say is the short line
// said before it runs ("Clicking 5."), Text the answer's lines, both in the
// command's language.
type BrowseAnswer struct {
	Say  string `json:"say"`
	Text string `json:"text"`
	Lang Lang   `json:"lang"`
	// Status is ok, error (the command ran and failed: Text says why) or
	// not_a_command (Text says so; NeedsModel: it may be a goal in plain
	// words, for BrowserGoal).
	Status     string `json:"status"`
	NeedsModel bool   `json:"needs_model,omitempty"`
	// Tool and Data are the browser tool the command ran and its data (for
	// the window's mirrored list; never read aloud).
	Tool string          `json:"tool,omitempty"`
	Data json.RawMessage `json:"data,omitempty"`
	// Dialog is a JavaScript dialog the page opened: the user answers it
	// with BrowseCommand's dialog argument.
	Dialog *browser.Dialog `json:"dialog,omitempty"`
}

// Failed: a command that ran and failed is a failure for every door
// (tools.Failure); a line that is no command is an answer.
func (a BrowseAnswer) Failed() (string, bool) { return a.Text, a.Status == "error" }

// Lines is the answer as a listener hears it: Say, then Text.
func (a BrowseAnswer) Lines() string {
	return strings.TrimSpace(strings.TrimSpace(a.Say) + "\n" + a.Text)
}

// Do runs one number command on reg's browser tools, as the user's own (a
// file: address it names is theirs), and says the answer in the command's
// language. It is the one interpreter every door uses: the terminal, the
// window, MCP (BrowseCommand).
func (b *Browsing) Do(ctx context.Context, reg *tools.Registry, line string) BrowseAnswer {
	step, err := b.Parse(line)
	l := b.Lang()
	if err != nil {
		a := BrowseAnswer{Text: err.Error(), Lang: l, Status: "not_a_command"}
		var nc *NotCommandError
		if errors.As(err, &nc) {
			a.NeedsModel = nc.IsGoal()
		} else {
			a.Status = "error"
		}
		return a
	}
	return b.Run(ctx, reg, step)
}

// Lang is the language of the last command.
func (b *Browsing) Lang() Lang {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.lang == "" {
		return English
	}
	return b.lang
}

// AnswerDialog answers the page's JavaScript dialog with the user's choice.
func (b *Browsing) AnswerDialog(ctx context.Context, reg *tools.Registry, d DialogAnswer) BrowseAnswer {
	l := b.Lang()
	args := browser.DialogArgs{Accept: d.Accept}
	if d.Text != "" {
		args.Text = &d.Text
	}
	return b.Run(ctx, reg, stepTo(browser.DialogRef, args, l.t("Answering the page.", "Отвечаю странице.")))
}

// Act runs an action on a numbered element (click, type or select), as the
// command "click 5" or "type 3 hello" does, without a command to parse.
func (b *Browsing) Act(ctx context.Context, reg *tools.Registry, index int, action, text string) BrowseAnswer {
	l := b.Lang()
	step, err := actStep(l, index, action, text)
	if err != nil {
		return BrowseAnswer{Text: err.Error(), Lang: l, Status: "error"}
	}
	return b.Run(ctx, reg, step)
}

// Run runs one parsed step and says its answer.
func (b *Browsing) Run(ctx context.Context, reg *tools.Registry, step BrowseStep) BrowseAnswer {
	l := b.Lang()
	a := BrowseAnswer{Say: step.Say, Lang: l, Status: "ok", Tool: step.Tool}
	if step.call == nil {
		// Help, or the end of a list or text: words only, no tool.
		a.Text, a.Say, a.Tool = step.Say, "", ""
		return a
	}
	res, err := step.call(browser.WithGrant(ctx, browser.Grant{User: true}), reg)
	if err != nil {
		a.Status, a.Text = "error", l.t("Error: ", "Ошибка: ")+SpokenError(l, err)
		return a
	}
	if d := res.BlockingDialog(); d != nil {
		// The page's dialog still waits (the window's was closed without an
		// answer): said again, to be answered before anything else.
		a.Status, a.Dialog = "error", d
		a.Text = l.t("Error: The page waits for an answer first.", "Ошибка: Страница сначала ждёт ответа.") + "\n" + DialogLine(l, *d)
		return a
	}
	restored := b.Observe(step, res)
	a.Text = RenderResultIn(l, res)
	if _, failed := res.Failed(); failed {
		a.Status = "error"
	}
	a.Data, _ = json.Marshal(res.Payload())
	if say := OpeningLine(l, res); say != "" {
		a.Say = say
	}
	if restored != nil {
		a.Text += "\n" + l.f("Your reading place here is kept: say read more to go on from character %s.",
			"Место чтения на этой странице сохранено: скажите «читай дальше», чтобы продолжить со знака %s.", thousands(l, restored.next+1))
	}
	a.Dialog = OpenDialog(res)
	if a.Dialog != nil {
		a.Text += "\n" + DialogLine(l, *a.Dialog)
	}
	return a
}

// maxDialogRunes bounds the page's message as it is said.
const maxDialogRunes = 600

// DialogLine is the page's dialog in words, in l: what an alert says, what a
// confirm or prompt asks (the page's text, cut to maxDialogRunes); the last
// line of an answer that opened one.
func DialogLine(l Lang, d browser.Dialog) string {
	msg := strings.Join(strings.Fields(d.Message), " ")
	if r := []rune(msg); len(r) > maxDialogRunes {
		msg = string(r[:maxDialogRunes]) + "…"
	}
	line := dialogLine(l, d.Type, msg)
	if d.Tab > 0 {
		// Another tab asks (one the site opened): named, the user stays here.
		title := strings.Join(strings.Fields(d.TabTitle), " ")
		if r := []rune(title); len(r) > 80 {
			title = string(r[:80]) + "…"
		}
		line = l.f("The page in tab %d (%s)", "Страница во вкладке %d (%s)", d.Tab, title) + strings.TrimPrefix(line, l.t("The page", "Страница"))
	}
	return line
}

// dialogLine is DialogLine for the current tab's page.
func dialogLine(l Lang, kind, msg string) string {
	switch {
	case kind == "beforeunload":
		return l.t("The page asks whether to leave it: what you changed there may be lost.", "Страница спрашивает, уйти ли с неё: изменения на ней могут пропасть.")
	case kind == "alert" && msg == "":
		return l.t("The page shows a message with no text.", "Страница показывает сообщение без текста.")
	case kind == "alert":
		return l.f("The page says: %s", "Страница сообщает: %s", msg)
	case msg == "":
		return l.t("The page asks a question with no text.", "Страница задаёт вопрос без текста.")
	}
	return l.f("The page asks: %s", "Страница спрашивает: %s", msg)
}

// browsingKey carries a conversation's Browsing in a context: a door with
// its own conversation (the window) hands it to BrowseCommand.
type browsingKey struct{}

// WithBrowsing makes BrowseCommand calls under ctx go on with conversation b.
func WithBrowsing(ctx context.Context, b *Browsing) context.Context {
	return context.WithValue(ctx, browsingKey{}, b)
}

// BrowseCommandRef is the typed handle on BrowseCommand.
var BrowseCommandRef = tools.RefTo[BrowseCommandArgs, BrowseAnswer]("BrowseCommand")

// browseCommandTool is BrowseCommand: the number-command interpreter as a
// tool, one conversation per registry unless the door hands its own.
func browseCommandTool(r *tools.Registry) tools.Tool {
	own := &Browsing{Door: DoorMCP}
	return BrowseCommandRef.Func("Run one number command of the accessible browser, as a blind user says it (list, more, click 5, type 3 hello, read page, read more, read from here, find search, back, tabs; in English or Russian), and return what the listener hears in the command's language: say, then text. \"more\" goes on with the last list, find, headings or reading. A line that is no command comes back with status not_a_command (needs_model: give it to BrowserGoal).",
		func(ctx context.Context, a BrowseCommandArgs) (BrowseAnswer, error) {
			b := own
			if c, ok := ctx.Value(browsingKey{}).(*Browsing); ok && c != nil {
				b = c
			}
			switch {
			case a.Dialog != nil && a.Command != "":
				return BrowseAnswer{}, errors.New("give command or dialog, not both")
			case a.Dialog != nil:
				return b.AnswerDialog(ctx, r, *a.Dialog), nil
			case strings.TrimSpace(a.Command) == "":
				return BrowseAnswer{}, errors.New("give a command (help lists them) or a dialog answer")
			}
			return b.Do(ctx, r, a.Command), nil
		})
}
