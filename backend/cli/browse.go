package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/waymark/waymark/backend/agent/author"
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
// screen reader. Number commands need no model; goals need a model server.
func browseLoop(ctx context.Context, reg *tools.Registry, model llm.Model, startURL string, in io.Reader, out io.Writer) error {
	lines := bufio.NewScanner(in)
	lines.Buffer(make([]byte, 64*1024), 1<<20)
	say := func(format string, a ...any) { fmt.Fprintf(out, format+"\n", a...) }
	var state web.Browsing
	var run func(step web.BrowseStep)
	run = func(step web.BrowseStep) {
		say("%s", step.Say)
		if step.Tool == "" {
			return
		}
		b, _ := json.Marshal(step.Args)
		// A number command is the user's own: a file: address or a file it
		// names is theirs (the assistant's goals get no such grant).
		res, err := reg.Call(browser.WithGrant(ctx, browser.Grant{User: true}), tools.Call{Name: step.Tool, Args: b}, tools.Context{})
		if err != nil {
			say("Error: %s", web.Spoken(err.Error()))
			return
		}
		state.Observe(step, res)
		say("%s", web.RenderResult(step.Tool, res))
		// A JavaScript dialog is the user's to answer, never Waymark's.
		if d := web.OpenDialog(res); d != nil {
			say("The page asks (%s): %s", d.Type, d.Message)
			args := map[string]any{}
			switch d.Type {
			case "alert":
				say("Press Enter to close it.")
				fmt.Fprint(out, "? ")
				lines.Scan()
				args["accept"] = true
			case "prompt":
				say("Type your answer, or just Enter to cancel.")
				fmt.Fprint(out, "? ")
				lines.Scan()
				if ans := lines.Text(); ans != "" {
					args["accept"], args["text"] = true, ans
				} else {
					args["accept"] = false
				}
			default:
				say("Answer yes (OK) or no (Cancel).")
				fmt.Fprint(out, "? ")
				lines.Scan()
				args["accept"] = isYes(lines.Text())
			}
			run(web.BrowseStep{Tool: "browser_dialog", Args: args, Say: "Answering the page."})
		}
	}
	if startURL != "" {
		run(web.BrowseStep{Tool: "browser_navigate", Args: map[string]any{"url": startURL}, Say: "Opening " + startURL + "."})
	}
	say("Ready. Type a number command (list, click 5, type 3 hello, press Enter, read page), or a goal. Say help for the commands; quit ends.")
	_, builtin := model.(author.Builtin)
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
			say("Bye.")
			return nil
		}
		step, err := state.Parse(line)
		if err == nil {
			run(step)
			continue
		}
		if builtin {
			say("%v", err)
			continue
		}
		a := &web.Assistant{Reg: reg, Model: model, Progress: func(l string) { say("%s", l) },
			AskTimeout: 5 * time.Minute,
			Ask: func(ctx context.Context, q string) (string, error) {
				say("Question: %s", q)
				fmt.Fprint(out, "? ")
				if !lines.Scan() {
					return "", nil
				}
				return lines.Text(), nil
			}}
		res, err := a.Run(ctx, line)
		if err != nil {
			say("Stopped: %v", err)
			continue
		}
		if res.Done {
			say("Goal reached: %s", res.Reason)
		} else {
			say("Goal not reached: %s", res.Reason)
		}
	}
}

func isYes(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "y", "yes", "ok", "д", "да", "ок":
		return true
	}
	return false
}

// The listener's lines come from backend/agent (the window's browser
// workspace says the same).
