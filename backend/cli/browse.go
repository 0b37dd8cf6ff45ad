package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/waymark/waymark/backend/agent/web"
	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/tools"
	"github.com/waymark/waymark/backend/waymark"
)

// runBrowse is `waymark browse [--headless] [URL]`: the terminal loop on a
// browser of its own (a window unless --headless or there is no display).
func runBrowse(ctx context.Context, args []string, in io.Reader, out io.Writer) error {
	f, err := ParseFlags(args, "headless", "db")
	if err != nil {
		return err
	}
	if len(f.Positional) > 1 {
		return UsageError{"browse takes at most one URL"}
	}
	start := ""
	if len(f.Positional) == 1 {
		start = f.Positional[0]
	}
	model, err := waymark.ChooseModel()
	if err != nil {
		return err
	}
	opts := waymark.BrowserOptions(f.Headless, true)
	if opts.Headless && !f.Headless {
		fmt.Fprintln(out, "No display found: the browser runs without a window.")
	}
	ss := browser.NewSessions(opts)
	defer ss.Close()
	reg := waymark.New(waymark.Config{Model: model, Browser: ss}).Registry
	return browseLoop(ctx, reg, model, start, in, out)
}

// browseLoop is the terminal loop of `waymark browse`: a number command or a goal
// in, short progress lines out, so a blind user can browse from a terminal with a
// screen reader. It is a front end of the BrowseCommand and BrowserGoal tools (the
// window's Browser workspace is the other): number commands need no model, goals
// need a model server.
func browseLoop(ctx context.Context, reg *tools.Registry, model llm.Model, startURL string, in io.Reader, out io.Writer) error {
	lines := bufio.NewScanner(in)
	lines.Buffer(make([]byte, 64*1024), 1<<20)
	say := func(format string, a ...any) { fmt.Fprintf(out, format+"\n", a...) }
	state := &web.Browsing{Door: web.DoorTerminal}
	bctx := web.WithBrowsing(ctx, state)
	call := func(args web.BrowseCommandArgs) web.BrowseAnswer {
		a, err := web.BrowseCommandRef.Call(bctx, reg, args)
		if err != nil {
			return web.BrowseAnswer{Status: "error", Text: web.Spoken(err.Error())}
		}
		return a
	}
	var show func(a web.BrowseAnswer)
	show = func(a web.BrowseAnswer) {
		if t := a.Lines(); t != "" {
			say("%s", t)
		}
		// A JavaScript dialog is the user's to answer, never Waymark's.
		d := a.Dialog
		if d == nil {
			return
		}
		l := a.Lang
		ans := web.DialogAnswer{}
		switch d.Type {
		case "alert":
			say("%s", pick(l, "Press Enter to close it.", "Нажмите Enter, чтобы закрыть."))
			fmt.Fprint(out, "? ")
			lines.Scan()
			ans.Accept = true
		case "prompt":
			say("%s", pick(l, "Type your answer, or just Enter to cancel.", "Введите ответ или просто нажмите Enter для отмены."))
			fmt.Fprint(out, "? ")
			lines.Scan()
			if t := lines.Text(); t != "" {
				ans.Accept, ans.Text = true, t
			}
		default:
			say("%s", pick(l, "Answer yes (OK) or no (Cancel).", "Ответьте да (OK) или нет (Отмена)."))
			fmt.Fprint(out, "? ")
			lines.Scan()
			ans.Accept = isYes(lines.Text())
		}
		show(call(web.BrowseCommandArgs{Dialog: &ans}))
	}
	if startURL != "" {
		show(call(web.BrowseCommandArgs{Command: startCommand(startURL)}))
	}
	say("Ready. Type a number command (list, click 5, type 3 hello, press Enter, read page), or a goal. Say help for the commands; quit ends.")
	builtin := !llm.Understands(model)
	for {
		fmt.Fprint(out, "> ")
		if !lines.Scan() {
			say("Bye.")
			return lines.Err()
		}
		line := strings.TrimSpace(lines.Text())
		switch strings.ToLower(line) {
		case "":
			continue
		case "quit", "exit", "q", "выход", "выйти":
			say("%s", pick(web.LangOf(line), "Bye.", "До свидания."))
			return nil
		}
		a := call(web.BrowseCommandArgs{Command: line})
		if !a.NeedsModel || builtin {
			show(a)
			continue
		}
		goal(bctx, reg, line, a.Lang, say, out, lines)
	}
}

// goal gives a line that is no number command to the browser assistant (the
// BrowserGoal tool), its progress lines said as they come.
func goal(ctx context.Context, reg *tools.Registry, line string, l web.Lang, say func(string, ...any), out io.Writer, lines *bufio.Scanner) {
	ctx = web.WithGoalOptions(ctx, web.GoalOptions{AskTimeout: 5 * time.Minute,
		Ask: func(ctx context.Context, q string) (string, error) {
			fmt.Fprint(out, "? ")
			if !lines.Scan() {
				return "", nil
			}
			return lines.Text(), nil
		}})
	r, err := web.BrowserGoalRef.CallWith(ctx, reg, web.BrowserGoalArgs{Goal: line}, tools.Context{Progress: func(p tools.Progress) {
		switch p.Event {
		case "step":
			say("%s", p.Text)
		case "question":
			say("%s %s", pick(l, "Question:", "Вопрос:"), p.Text)
		}
	}})
	if err != nil {
		say("%s %s", pick(l, "Stopped:", "Остановлено:"), web.Spoken(err.Error()))
		return
	}
	if r.Done {
		say("%s %s", pick(l, "Goal reached:", "Цель достигнута:"), r.Reason)
	} else {
		say("%s %s", pick(l, "Goal not reached:", "Цель не достигнута:"), r.Reason)
	}
}

// pick is the sentence of the listener's language.
func pick(l web.Lang, en, ru string) string {
	if l == web.Russian {
		return ru
	}
	return en
}

func isYes(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "y", "yes", "ok", "д", "да", "ок":
		return true
	}
	return false
}

// startCommand is the command that opens what "waymark browse" was given: an
// address, or a whole "go to …" / «открой …» the user typed out (it was said
// back as "Not a command: "go to go to …"").
func startCommand(start string) string {
	if st, err := new(web.Browsing).Parse(start); err == nil && st.Tool == browser.NavigateRef.Name() {
		return start
	}
	return "go to " + start
}
