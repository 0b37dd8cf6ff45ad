// Command waymark is the offline assistant for authors of long Markdown manuscripts
// and for blind users browsing the web by numbers. With no subcommand it opens the
// desktop window; the subcommands are the command-line door to the same tools the
// model, the MCP server and the window use.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/waymark/waymark/app/sample"
	"github.com/waymark/waymark/backend/agent"
	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/manuscript/mtools"
	mcpserver "github.com/waymark/waymark/backend/mcp"
	"github.com/waymark/waymark/backend/store"
	"github.com/waymark/waymark/backend/tools"
)

const usage = `Waymark — offline assistant for manuscripts and accessible browsing.

Usage:
  waymark [--db PATH] [FILE.md]        open the desktop window (on FILE.md, or on the sample manuscript)
  waymark call TOOL [--doc PATH] [--db PATH] [--max-size BYTES] [--pretty] [--headless] ['JSON ARGS' | -]
                                       run one tool and print its JSON result
  waymark tools                        print every tool as JSON: name, description, inputSchema
  waymark mcp [--doc PATH] [--db PATH] [--headless] [--allow-file PATH]...
                                       serve every tool over MCP on standard input/output; the
                                       browser tools open file: addresses and upload files only
                                       inside the files and folders given with --allow-file
  waymark agent [--doc PATH] [--db PATH] "COMMAND"
                                       run an author's command (find, collect, replace, insert, delete,
                                       summarise) and print the transcript as JSON lines
  waymark browse [--headless] [URL]    browse the web by numbers in the terminal: number commands
                                       (list, click 5, type 3 hello, read page) or, with a model
                                       server, goals in plain words; for use with a screen reader
  waymark bench [--book PATH] [--runs N]
                                       measure the manuscript engine on a book and print medians and ratios
  waymark bench browser [--runs N] [--vs-playwright]
                                       measure the browser (headless Chromium) against its targets;
                                       --vs-playwright: side by side with Playwright MCP (build/playwright-mcp)
  waymark bench window [--book PATH] [--runs N]
                                       cold-start the desktop window under Xvfb on the sample and on a
                                       book; first paint, book open and memory against their targets
  waymark help                         this text

Exit status of "call": 0 the tool succeeded (its result on stdout); 1 the tool failed
({"error": "..."} on stdout); 2 the command line was wrong.

The database is $WAYMARK_DB, else $XDG_DATA_HOME/waymark/waymark.db, else
~/.local/share/waymark/waymark.db; --db overrides it.
Examples:
  waymark call Find --doc book.md '{"query": "Natasha"}'
  waymark call ReplaceText --doc book.md '{"index": 12, "newMarkdown": "New text."}'
  waymark call CursorNext --doc book.md '{"cursorName": "CUR_WHOLE_BOOK_FORWARD"}'
  waymark call browser_extract --headless   (browser tools run a browser for that one call)
`

// usageError is a command-line mistake: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run is main without the process: it returns the exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") && !strings.HasSuffix(strings.ToLower(args[0]), ".md") {
		cmd, args = args[0], args[1:]
	}
	var err error
	switch cmd {
	case "call":
		return runCall(ctx, args, stdin, stdout, stderr)
	case "tools":
		err = runTools(args, stdout)
	case "agent":
		return runAgent(ctx, args, stdout, stderr)
	case "mcp":
		err = runMCP(ctx, args)
	case "bench":
		err = runBench(ctx, args, stdout)
	case "browse":
		err = runBrowse(ctx, args, stdin, stdout)
	case "help":
		fmt.Fprint(stdout, usage)
		return 0
	case "":
		err = runWindow(args, stdout)
	default:
		err = usageError{fmt.Sprintf("unknown command %q; commands: call, tools, agent, mcp, browse, bench, help (or a FILE.md to open)", cmd)}
	}
	var ue usageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "waymark: %s\n\n%s", err, usage)
		return 2
	default:
		fmt.Fprintf(stderr, "waymark: %s\n", err)
		return 1
	}
}

// flags is the small common flag set of the subcommands.
type flags struct {
	doc, db, book string
	maxSize       int64
	runs          int
	pretty        bool
	headless      bool
	vsPlaywright  bool
	positional    []string
	allowFiles    []string // --allow-file, repeatable
}

func parseFlags(args []string, allowed ...string) (flags, error) {
	f := flags{runs: 5}
	ok := map[string]bool{}
	for _, a := range allowed {
		ok[a] = true
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "--") || a == "--" {
			if a == "--" {
				f.positional = append(f.positional, args[i+1:]...)
				break
			}
			f.positional = append(f.positional, a)
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		if !ok[name] {
			return f, usageError{fmt.Sprintf("unknown flag --%s; allowed here: --%s", name, strings.Join(allowed, ", --"))}
		}
		if name == "pretty" || name == "headless" || name == "vs-playwright" {
			if hasVal {
				return f, usageError{fmt.Sprintf("flag --%s takes no value", name)}
			}
			f.pretty = f.pretty || name == "pretty"
			f.headless = f.headless || name == "headless"
			f.vsPlaywright = f.vsPlaywright || name == "vs-playwright"
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				return f, usageError{fmt.Sprintf("flag --%s needs a value", name)}
			}
			i++
			val = args[i]
		}
		switch name {
		case "doc":
			f.doc = val
		case "allow-file":
			abs, err := filepath.Abs(val)
			if err != nil || val == "" {
				return f, usageError{fmt.Sprintf("--allow-file %q: give the path of a file or folder", val)}
			}
			if _, err := os.Stat(abs); err != nil {
				return f, usageError{fmt.Sprintf("--allow-file %q: %v", val, err)}
			}
			f.allowFiles = append(f.allowFiles, abs)
		case "db":
			f.db = val
		case "book":
			f.book = val
		case "max-size":
			n, err := strconv.ParseInt(val, 10, 64)
			if err != nil || n <= 0 {
				return f, usageError{fmt.Sprintf("--max-size %q: give a positive number of bytes", val)}
			}
			f.maxSize = n
		case "runs":
			n, err := strconv.Atoi(val)
			if err != nil || n < 1 || n > 1000 {
				return f, usageError{fmt.Sprintf("--runs %q: give a whole number from 1 to 1000", val)}
			}
			f.runs = n
		}
	}
	return f, nil
}

func openStore(path string) (*store.Store, error) {
	if path == "" {
		p, err := store.DefaultPath()
		if err != nil {
			return nil, err
		}
		path = p
	}
	return store.Open(path)
}

// newRegistry builds the one tool registry over a workspace, with the agent's
// tools running on model (a model server or the built-in engine). It has no
// browser tools; newRegistryWith adds them.
func newRegistry(ws *manuscript.Workspace, model llm.Model) (*tools.Registry, *agent.Runtime) {
	return newRegistryWith(ws, model, nil)
}

// newRegistryWith is newRegistry plus the browser tools of SPEC §5 running on
// ss (nil: no browser tools). The browser starts on the first browser tool call.
func newRegistryWith(ws *manuscript.Workspace, model llm.Model, ss *browser.Sessions) (*tools.Registry, *agent.Runtime) {
	r := tools.New()
	tools.RegisterManuscript(r, ws)
	mtools.RegisterTools(r, ws)
	llm.RegisterTools(r)
	rt := &agent.Runtime{WS: ws, Store: ws.Store, Model: model}
	agent.Register(r, rt)
	if ss != nil {
		browser.Register(r, ss)
	}
	return r, rt
}

func writeJSON(w io.Writer, v any, pretty bool) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if pretty {
		enc.SetIndent("", "  ")
	}
	_ = enc.Encode(v)
}

func runCall(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fail := func(err error) int {
		writeJSON(stdout, map[string]string{"error": err.Error()}, false)
		return 1
	}
	f, err := parseFlags(args, "doc", "db", "max-size", "pretty", "headless")
	if err == nil && (len(f.positional) < 1 || len(f.positional) > 2) {
		err = usageError{"call needs a tool name and at most one JSON argument object"}
	}
	if err != nil {
		fmt.Fprintf(stderr, "waymark: %s\n\n%s", err, usage)
		return 2
	}
	name := f.positional[0]
	raw := "{}"
	if len(f.positional) == 2 {
		raw = f.positional[1]
		if raw == "-" {
			b, err := io.ReadAll(stdin)
			if err != nil {
				return fail(fmt.Errorf("read arguments from standard input: %w", err))
			}
			raw = string(b)
		}
	}
	st, err := openStore(f.db)
	if err != nil {
		return fail(err)
	}
	defer st.Close()
	ws := manuscript.NewWorkspace(st)
	ws.MaxSize = f.maxSize
	model, err := chooseModel()
	if err != nil {
		return fail(err)
	}
	// A browser tool gets a browser for this one process: it starts on the call
	// and closes when the call's result is printed.
	ss := browser.NewSessions(browserOptions(f.headless, false))
	defer ss.Close()
	reg, _ := newRegistryWith(ws, model, ss)
	if _, ok := reg.Get(name); !ok {
		return fail(fmt.Errorf("%w %q; known tools: %s", tools.ErrUnknownTool, name, strings.Join(reg.Names(), ", ")))
	}
	if f.doc != "" {
		if _, err := ws.Open(ctx, f.doc); err != nil {
			return fail(err)
		}
	}
	// The arguments are the user's own: a file: address or a file they give
	// is theirs to open or send.
	res, err := reg.Call(browser.WithGrant(ctx, browser.Grant{User: true}), tools.Call{Name: name, Args: json.RawMessage(raw)}, tools.Context{})
	if err != nil {
		return fail(err)
	}
	writeJSON(stdout, res, f.pretty)
	return 0
}

func runTools(args []string, stdout io.Writer) error {
	f, err := parseFlags(args, "pretty")
	if err != nil {
		return err
	}
	if len(f.positional) > 0 {
		return usageError{"tools takes no arguments"}
	}
	reg, _ := newRegistryWith(manuscript.NewWorkspace(nil), agent.Builtin{}, browser.NewSessions(browser.Options{}))
	type entry struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"inputSchema"`
	}
	var out []entry
	for _, t := range reg.Tools() {
		var compact bytes.Buffer
		if err := json.Compact(&compact, t.InputSchema); err != nil {
			return err
		}
		out = append(out, entry{t.Name, t.Description, json.RawMessage(compact.Bytes())})
	}
	writeJSON(stdout, out, f.pretty)
	return nil
}

// version is the program's version, reported to MCP clients.
const version = "0.1.0"

// runMCP serves the registry over MCP on stdio. Logs go to standard error: standard
// output belongs to the protocol.
func runMCP(ctx context.Context, args []string) error {
	f, err := parseFlags(args, "doc", "db", "max-size", "headless", "allow-file")
	if err != nil {
		return err
	}
	if len(f.positional) > 0 {
		return usageError{"mcp takes no positional arguments"}
	}
	// An MCP client reaches local files (file: addresses, uploads) only
	// inside what the user named in the server's command line.
	grant := browser.Grant{Files: f.allowFiles}
	bopts := browserOptions(f.headless, false)
	st, err := openStore(f.db)
	if err != nil {
		return err
	}
	defer st.Close()
	ws := manuscript.NewWorkspace(st)
	ws.MaxSize = f.maxSize
	if f.doc != "" {
		if _, err := ws.Open(ctx, f.doc); err != nil {
			return err
		}
	}
	model, err := chooseModel()
	if err != nil {
		return err
	}
	// Every MCP session gets its own browser, started by its first browser tool
	// call and closed when the session ends; the default one is never used.
	def := browser.NewSessions(bopts)
	defer def.Close()
	reg, _ := newRegistryWith(ws, model, def)
	return mcpserver.ServeStdio(ctx, reg, version, mcpserver.Options{
		NewScope: func() mcpserver.Scope { return grantScope{browser.NewSessions(bopts), grant} },
	})
}

// grantScope is an MCP session's browser with the files the user allowed.
type grantScope struct {
	*browser.Sessions
	grant browser.Grant
}

func (g grantScope) Bind(ctx context.Context) context.Context {
	return browser.WithGrant(g.Sessions.Bind(ctx), g.grant)
}

// runAgent runs one command through the command agent; every event is a JSON line.
func runAgent(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	f, err := parseFlags(args, "doc", "db", "max-size")
	if err == nil && len(f.positional) != 1 {
		err = usageError{"agent needs one command in quotes, e.g. waymark agent --doc book.md 'find the first mention of \"Natasha\"'"}
	}
	if err != nil {
		fmt.Fprintf(stderr, "waymark: %s\n\n%s", err, usage)
		return 2
	}
	st, err := openStore(f.db)
	if err != nil {
		writeJSON(stdout, map[string]string{"event": "error", "error": err.Error()}, false)
		return 1
	}
	defer st.Close()
	ws := manuscript.NewWorkspace(st)
	ws.MaxSize = f.maxSize
	if f.doc != "" {
		if _, err := ws.Open(ctx, f.doc); err != nil {
			writeJSON(stdout, map[string]string{"event": "error", "error": err.Error()}, false)
			return 1
		}
	}
	model, err := chooseModel()
	if err != nil {
		writeJSON(stdout, map[string]string{"event": "error", "error": err.Error()}, false)
		return 1
	}
	reg, rt := newRegistry(ws, model)
	ca := &agent.CommandAgent{Reg: reg, Runtime: rt, Emit: func(e agent.Event) { writeJSON(stdout, e, false) }}
	if _, err := ca.Run(ctx, f.positional[0]); err != nil {
		return 1
	}
	return 0
}

// runWindow opens the desktop window on a file or on the sample manuscript.
func runWindow(args []string, stdout io.Writer) error {
	f, err := parseFlags(args, "db", "doc")
	if err != nil {
		return err
	}
	doc := f.doc
	restore := false
	switch len(f.positional) {
	case 0:
	case 1:
		doc = f.positional[0]
	default:
		return usageError{"give at most one manuscript to open"}
	}
	if doc == "" {
		// No book named: the last session's book comes back (the sample
		// manuscript the first time, or when the last book is gone).
		restore = true
		doc, err = samplePath()
		if err != nil {
			return err
		}
	}
	db := f.db
	if db == "" {
		if db, err = store.DefaultPath(); err != nil {
			return err
		}
	}
	return runDesktop(desktopOptions{DocPath: doc, DBPath: db, RestoreLast: restore})
}

// samplePath puts the sample manuscript into the user's data folder on first use
// (never overwriting the author's changes to it) and returns its path.
func samplePath() (string, error) {
	base, err := dataDir()
	if err != nil {
		return "", fmt.Errorf("find the data folder for the sample manuscript: %w", err)
	}
	dir := filepath.Join(base, "sample")
	p := filepath.Join(dir, "manuscript.md")
	if _, err := os.Stat(p); err == nil {
		return p, nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("create %s: %w", dir, err)
	}
	if err := os.WriteFile(p, sample.Manuscript, 0o644); err != nil {
		return "", fmt.Errorf("write the sample manuscript: %w", err)
	}
	return p, nil
}

// dataDir is Waymark's data folder: $XDG_DATA_HOME/waymark, else
// ~/.local/share/waymark.
func dataDir() (string, error) {
	base := os.Getenv("XDG_DATA_HOME")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		base = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(base, "waymark"), nil
}
