package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/waymark/waymark/backend/agent"
	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/tools"
)

// runBrowse is `waymark browse [--headless] [URL]`: the terminal loop on a
// browser of its own (a window unless --headless or there is no display).
func runBrowse(ctx context.Context, args []string, in io.Reader, out io.Writer) error {
	f, err := parseFlags(args, "headless", "db")
	if err != nil {
		return err
	}
	if len(f.positional) > 1 {
		return usageError{"browse takes at most one URL"}
	}
	start := ""
	if len(f.positional) == 1 {
		start = f.positional[0]
	}
	model, err := chooseModel()
	if err != nil {
		return err
	}
	opts := browserOptions(f.headless, true)
	if opts.Headless && !f.headless {
		fmt.Fprintln(out, "No display found: the browser runs without a window.")
	}
	ss := browser.NewSessions(opts)
	defer ss.Close()
	reg, _ := newRegistryWith(manuscript.NewWorkspace(nil), model, ss)
	return browseLoop(ctx, reg, model, start, in, out)
}

// browserOptions are the browser settings of the CLI: a window unless headless
// is asked for or there is no display to show it on; keepProfile keeps cookies
// and logins in the user's data folder (only one process can use it at a time,
// so only the interactive browse loop asks for it).
func browserOptions(headless, keepProfile bool) browser.Options {
	o := browser.Options{Headless: headless || (os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "")}
	if keepProfile {
		if dir, err := dataDir(); err == nil {
			o.ProfileDir = filepath.Join(dir, "chromium-profile")
		}
	}
	if u := os.Getenv("WAYMARK_BROWSER_URL"); u != "" {
		o.ControlURL = u
	}
	return o
}

// browseLoop is the terminal loop of `waymark browse`: a number command or a goal
// in, short progress lines out, so a blind user can browse from a terminal with a
// screen reader. Number commands need no model; goals need a model server.
func browseLoop(ctx context.Context, reg *tools.Registry, model llm.Model, startURL string, in io.Reader, out io.Writer) error {
	lines := bufio.NewScanner(in)
	lines.Buffer(make([]byte, 64*1024), 1<<20)
	say := func(format string, a ...any) { fmt.Fprintf(out, format+"\n", a...) }
	var run func(step agent.BrowseStep)
	run = func(step agent.BrowseStep) {
		say("%s", step.Say)
		b, _ := json.Marshal(step.Args)
		// A number command is the user's own: a file: address or a file it
		// names is theirs (the assistant's goals get no such grant).
		res, err := reg.Call(browser.WithGrant(ctx, browser.Grant{User: true}), tools.Call{Name: step.Tool, Args: b}, tools.Context{})
		if err != nil {
			say("Error: %v", err)
			return
		}
		say("%s", renderResult(res))
		// A JavaScript dialog is the user's to answer, never Waymark's.
		if d := openDialog(res); d != nil {
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
			run(agent.BrowseStep{Tool: "browser_dialog", Args: args, Say: "Answering the page."})
		}
	}
	if startURL != "" {
		run(agent.BrowseStep{Tool: "browser_navigate", Args: map[string]any{"url": startURL}, Say: "Opening " + startURL + "."})
	}
	say("Ready. Type a number command (list, click 5, type 3 hello, press Enter, read page), or a goal. help lists the commands; quit ends.")
	_, builtin := model.(agent.Builtin)
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
		case "help", "?", "помощь":
			say("Commands: %s", agent.BrowseCommands)
			continue
		}
		step, err := agent.ParseBrowseCommand(line)
		if err == nil {
			run(step)
			continue
		}
		if builtin {
			say("%v", err)
			continue
		}
		a := &agent.Assistant{Reg: reg, Model: model, Progress: func(l string) { say("%s", l) },
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

// renderResult turns a browser tool's {status, data, error} into short lines a
// screen reader can speak.
func renderResult(res any) string {
	b, _ := json.Marshal(res)
	var r struct {
		Status string          `json:"status"`
		Error  string          `json:"error"`
		Data   json.RawMessage `json:"data"`
	}
	if json.Unmarshal(b, &r) != nil || r.Status == "" {
		return string(b)
	}
	if r.Status == "error" {
		return "Error: " + r.Error
	}
	var d map[string]any
	if json.Unmarshal(r.Data, &d) != nil {
		var s string
		if json.Unmarshal(r.Data, &s) == nil && s != "" {
			return s
		}
		return "OK."
	}
	if items, ok := d["items"].([]any); ok {
		var sb strings.Builder
		if total, ok := d["total"].(float64); ok {
			fmt.Fprintf(&sb, "%d elements", int(total))
			if len(items) < int(total) {
				fmt.Fprintf(&sb, " (showing %d)", len(items))
			}
			sb.WriteString(":\n")
		}
		for _, it := range items {
			m, _ := it.(map[string]any)
			sb.WriteString(itemLine(m))
			sb.WriteByte('\n')
		}
		if more, _ := d["has_more"].(bool); more {
			fmt.Fprintf(&sb, "More: say list %v.\n", d["next_offset"])
		}
		return strings.TrimRight(sb.String(), "\n")
	}
	if matches, ok := d["matches"].([]any); ok {
		if len(matches) == 0 {
			return "Nothing found."
		}
		var sb strings.Builder
		for _, it := range matches {
			m, _ := it.(map[string]any)
			sb.WriteString(itemLine(m))
			sb.WriteByte('\n')
		}
		return strings.TrimRight(sb.String(), "\n")
	}
	if text, ok := d["text"].(string); ok && text != "" {
		return text
	}
	var parts []string
	if a, ok := d["action"].(string); ok && d["number"] != nil {
		parts = append(parts, fmt.Sprintf("Done: %s %v (%v).", a, d["number"], first(d, "name", "role")))
	} else if k, ok := d["key"].(string); ok {
		parts = append(parts, "Pressed "+k+".")
	}
	if nav, _ := d["navigated"].(bool); nav || d["action"] == nil {
		if t, _ := d["title"].(string); t != "" {
			parts = append(parts, "Page: "+t+".")
		} else if u, _ := d["url"].(string); u != "" {
			parts = append(parts, "Page: "+u+".")
		}
	}
	if f, ok := d["focused"].(map[string]any); ok && d["navigated"] != true {
		if n := first(f, "name"); n != "" {
			parts = append(parts, fmt.Sprintf("Focus: %v %v.", first(f, "role", "tag"), n))
		}
	}
	if p, _ := d["path"].(string); p != "" {
		parts = append(parts, "Saved to "+p+".")
	}
	if stale, _ := d["numbering_stale"].(bool); stale {
		parts = append(parts, "The page changed: say list for new numbers.")
	}
	if len(parts) == 0 {
		return "OK."
	}
	return strings.Join(parts, " ")
}

// itemLine is one numbered element as a screen reader should hear it:
// "5. button Save", with its state.
func itemLine(m map[string]any) string {
	line := fmt.Sprintf("%v. %v %v", first(m, "number", "index"), first(m, "role", "tag"), first(m, "name"))
	if c, ok := m["checked"].(bool); ok {
		if c {
			line += ", checked"
		} else {
			line += ", not checked"
		}
	}
	if v, _ := m["value"].(string); v != "" {
		line += ", value " + v
	}
	if dis, _ := m["disabled"].(bool); dis {
		line += ", disabled"
	}
	return line
}

// openDialog returns the JavaScript dialog a result reports as waiting.
func openDialog(res any) *browser.Dialog {
	r, ok := res.(browser.Result)
	if !ok || r.Status != "ok" {
		return nil
	}
	b, _ := json.Marshal(r.Data)
	var d struct {
		Dialog *browser.Dialog `json:"dialog_open"`
		Next   *browser.Dialog `json:"next_dialog"`
	}
	_ = json.Unmarshal(b, &d)
	if d.Dialog != nil {
		return d.Dialog
	}
	return d.Next
}

func isYes(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "y", "yes", "ok", "д", "да", "ок":
		return true
	}
	return false
}

func first(m map[string]any, keys ...string) any {
	for _, k := range keys {
		if v, ok := m[k]; ok && v != nil && v != "" {
			return v
		}
	}
	return ""
}
