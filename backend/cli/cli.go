// Package cli is the command-line door of waymark: the subcommands call, tools,
// mcp, agent and browse, run on the same tool registry the model, the MCP server
// and the window use. Package main (app/) wires them with the desktop window.
package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/waymark/waymark/backend/agent/author"
	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/manuscript"
	mcpserver "github.com/waymark/waymark/backend/mcp"
	"github.com/waymark/waymark/backend/store"
	"github.com/waymark/waymark/backend/tools"
	"github.com/waymark/waymark/backend/waymark"
)

// Usage is the help text of the waymark command.
const Usage = `Waymark — offline assistant for manuscripts and accessible browsing.

Usage:
  waymark [--db PATH] [FILE.md]        open the desktop window (on FILE.md, or on the sample manuscript)
  waymark call TOOL [--doc PATH] [--db PATH] [--max-size BYTES] [--pretty] [--headless] ['JSON ARGS' | -]
                                       run one tool and print its JSON result
  waymark tools                        print every tool as JSON: name, description, inputSchema, outputSchema
  waymark mcp [--doc PATH] [--db PATH] [--headless] [--allow-file PATH]...
                                       serve every tool over MCP on standard input/output; the
                                       browser tools open file: addresses and upload files only
                                       inside the files and folders given with --allow-file
  waymark agent [--doc PATH] [--db PATH] "COMMAND"
                                       run an author's command (find, collect, replace, insert, delete,
                                       summarise): its progress as JSON lines, then its result
                                       (the RunCommand tool's, as "waymark call RunCommand" prints it)
  waymark browse [--headless] [URL]    browse the web by numbers in the terminal: number commands
                                       (list, click 5, type 3 hello, read page) or, with a model
                                       server, goals in plain words; for use with a screen reader
  waymark help                         this text
  waymark --version                    the version, the commit and the build date

Exit status of "call": 0 the tool succeeded (its result on stdout); 1 the tool failed
({"error": "..."} on stdout, or a browser tool's result with "status": "error"
and its "error"); 2 the command line was wrong.

The database is $WAYMARK_DB, else $XDG_DATA_HOME/waymark/waymark.db, else
~/.local/share/waymark/waymark.db; --db overrides it.
Examples:
  waymark call Find --doc book.md '{"query": "Natasha"}'
  waymark call ReplaceText --doc book.md '{"index": 12, "newMarkdown": "New text."}'
  waymark call CursorNext --doc book.md '{"cursorName": "CUR_WHOLE_BOOK_FORWARD"}'
  waymark call browser_extract --headless   (browser tools run a browser for that one call)
`

// UsageError is a command-line mistake: exit status 2.
type UsageError struct{ Msg string }

func (e UsageError) Error() string { return e.Msg }

// Split takes the subcommand off the front of a command line: "" when the
// line opens the window (no arguments, a flag, or a FILE.md).
func Split(args []string) (cmd string, rest []string) {
	if len(args) > 0 {
		switch args[0] {
		case "--version", "-V", "version":
			return "version", args[1:]
		case "--help", "-h":
			return "help", args[1:]
		}
	}
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") && !strings.HasSuffix(strings.ToLower(args[0]), ".md") {
		return args[0], args[1:]
	}
	return "", args
}

// Run runs the subcommand cmd (call, tools, agent, mcp, browse, help) and
// returns the exit status.
func Run(ctx context.Context, cmd string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var err error
	switch cmd {
	case "call":
		oneShotGC()
		return runCall(ctx, args, stdin, stdout, stderr)
	case "tools":
		err = runTools(args, stdout)
	case "agent":
		return runAgent(ctx, args, stdout, stderr)
	case "mcp":
		err = runMCP(ctx, args)
	case "browse":
		err = runBrowse(ctx, args, stdin, stdout)
	case "help":
		fmt.Fprint(stdout, Usage)
		return 0
	case "version":
		printVersion(stdout)
		return 0
	case "bench":
		err = UsageError{"the benchmarks are a command of their own: go run -tags sqlite_fts5 ./cmd/waymark-bench [browser|window] (in the repository)"}
	default:
		err = UsageError{fmt.Sprintf("unknown command %q; commands: call, tools, agent, mcp, browse, help, --version (or a FILE.md to open)", cmd)}
	}
	return Exit(err, stderr)
}

// oneShotGC tunes the garbage collector for one call that reads a book and
// exits: no collection below 128 MiB of Go memory (a 6 MB novel's text and
// index are about 22 MB live), where the default collected several times
// while the book was loaded, a sixth of a warm `waymark call Find`'s
// processor time. Above the limit it collects as usual. A GOGC or GOMEMLIMIT
// the user set is kept.
func oneShotGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetMemoryLimit(128 << 20)
	debug.SetGCPercent(-1)
}

// Exit turns a subcommand's error into its exit status, printing it: 0 none,
// 2 a command-line mistake (with the usage), 1 anything else.
func Exit(err error, stderr io.Writer) int {
	var ue UsageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "waymark: %s\n\n%s", err, Usage)
		return 2
	default:
		fmt.Fprintf(stderr, "waymark: %s\n", err)
		return 1
	}
}

// Flags is the small common flag set of the subcommands.
type Flags struct {
	Doc, DB    string
	MaxSize    int64
	Pretty     bool
	Headless   bool
	Positional []string
	AllowFiles []string // --allow-file, repeatable
}

// ParseFlags reads a subcommand's flags (--name VALUE or --name=VALUE), of
// which only the allowed ones may appear; the rest are positional.
func ParseFlags(args []string, allowed ...string) (Flags, error) {
	f := Flags{}
	ok := map[string]bool{}
	for _, a := range allowed {
		ok[a] = true
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "--") || a == "--" {
			if a == "--" {
				f.Positional = append(f.Positional, args[i+1:]...)
				break
			}
			f.Positional = append(f.Positional, a)
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		if !ok[name] {
			return f, UsageError{fmt.Sprintf("unknown flag --%s; allowed here: --%s", name, strings.Join(allowed, ", --"))}
		}
		if name == "pretty" || name == "headless" {
			if hasVal {
				return f, UsageError{fmt.Sprintf("flag --%s takes no value", name)}
			}
			f.Pretty = f.Pretty || name == "pretty"
			f.Headless = f.Headless || name == "headless"
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				return f, UsageError{fmt.Sprintf("flag --%s needs a value", name)}
			}
			i++
			val = args[i]
		}
		switch name {
		case "doc":
			f.Doc = val
		case "allow-file":
			abs, err := filepath.Abs(val)
			if err != nil || val == "" {
				return f, UsageError{fmt.Sprintf("--allow-file %q: give the path of a file or folder", val)}
			}
			if _, err := os.Stat(abs); err != nil {
				return f, UsageError{fmt.Sprintf("--allow-file %q: %v", val, err)}
			}
			f.AllowFiles = append(f.AllowFiles, abs)
		case "db":
			f.DB = val
		case "max-size":
			n, err := strconv.ParseInt(val, 10, 64)
			if err != nil || n <= 0 {
				return f, UsageError{fmt.Sprintf("--max-size %q: give a positive number of bytes", val)}
			}
			f.MaxSize = n
		}
	}
	return f, nil
}

// OpenStore opens the database at path, or at the default path when it is empty.
func OpenStore(path string) (*store.Store, error) {
	if path == "" {
		p, err := store.DefaultPath()
		if err != nil {
			return nil, err
		}
		path = p
	}
	return store.Open(path)
}

// opened is what `waymark call`, `mcp` and `agent` work on: the store, the
// workspace with the book --doc names open, and the registry over them.
type opened struct {
	st  *store.Store
	reg *tools.Registry
}

// openBook opens the store (--db), makes the workspace (--max-size), chooses
// the model and builds the registry over them and ss (nil: no browser);
// then tool, when given, must be one of the registry's (said before a long
// book is read), and the book --doc names is opened. Close closes the store.
func openBook(ctx context.Context, f Flags, ss *browser.Sessions, tool string) (*opened, error) {
	st, err := OpenStore(f.DB)
	if err != nil {
		return nil, err
	}
	d, err := openWith(ctx, st, f, ss, tool)
	if err != nil {
		_ = st.Close()
		return nil, err
	}
	return d, nil
}

// openWith is openBook over the open store st.
func openWith(ctx context.Context, st *store.Store, f Flags, ss *browser.Sessions, tool string) (*opened, error) {
	ws := manuscript.NewWorkspace(st)
	ws.MaxSize = f.MaxSize
	model, err := waymark.ChooseModel()
	if err != nil {
		return nil, err
	}
	reg := waymark.New(waymark.Config{WS: ws, Model: model, Browser: ss}).Registry
	if tool != "" {
		if _, err := reg.Get(tool); err != nil {
			return nil, err
		}
	}
	if f.Doc != "" {
		if _, err := ws.Open(ctx, f.Doc); err != nil {
			return nil, err
		}
	}
	return &opened{st: st, reg: reg}, nil
}

// Close closes the store.
func (d *opened) Close() error { return d.st.Close() }

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
	f, err := ParseFlags(args, "doc", "db", "max-size", "pretty", "headless")
	if err == nil && (len(f.Positional) < 1 || len(f.Positional) > 2) {
		err = UsageError{"call needs a tool name and at most one JSON argument object"}
	}
	if err != nil {
		fmt.Fprintf(stderr, "waymark: %s\n\n%s", err, Usage)
		return 2
	}
	name := f.Positional[0]
	raw := "{}"
	if len(f.Positional) == 2 {
		raw = f.Positional[1]
		if raw == "-" {
			b, err := io.ReadAll(stdin)
			if err != nil {
				return fail(fmt.Errorf("read arguments from standard input: %w", err))
			}
			raw = string(b)
		}
	}
	// A browser tool gets a browser for this one process: it starts on the call
	// and closes when the call's result is printed.
	ss := browser.NewSessions(waymark.BrowserOptions(f.Headless, false))
	defer ss.Close()
	d, err := openBook(ctx, f, ss, name)
	if err != nil {
		return fail(err)
	}
	defer d.Close()
	reg := d.reg
	// The arguments are the user's own: a file: address or a file they give
	// is theirs to open or send.
	// A long tool's progress (an export's stages) goes to stderr as JSON
	// lines; stdout holds only the result.
	res, err := reg.Call(browser.WithGrant(ctx, browser.Grant{User: true}), tools.Call{Name: name, Args: json.RawMessage(raw)},
		tools.Context{Progress: func(p tools.Progress) { writeJSON(stderr, p, false) }})
	if err != nil {
		return fail(err)
	}
	writeJSON(stdout, res, f.Pretty)
	if _, failed := tools.Failed(res, nil); failed {
		return 1 // the result says why, under "error" (tools.Failed)
	}
	return 0
}

func runTools(args []string, stdout io.Writer) error {
	f, err := ParseFlags(args, "pretty")
	if err != nil {
		return err
	}
	if len(f.Positional) > 0 {
		return UsageError{"tools takes no arguments"}
	}
	reg := waymark.New(waymark.Config{Browser: browser.NewSessions(browser.Options{})}).Registry
	type entry struct {
		Name         string          `json:"name"`
		Description  string          `json:"description"`
		InputSchema  json.RawMessage `json:"inputSchema"`
		OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	}
	compact := func(s json.RawMessage) (json.RawMessage, error) {
		if len(s) == 0 {
			return nil, nil
		}
		var b bytes.Buffer
		err := json.Compact(&b, s)
		return b.Bytes(), err
	}
	var out []entry
	ts, err := reg.Tools()
	if err != nil {
		return err
	}
	for _, t := range ts {
		in, err := compact(t.InputSchema)
		if err != nil {
			return err
		}
		res, err := compact(t.OutputSchema)
		if err != nil {
			return err
		}
		out = append(out, entry{t.Name, t.Description, in, res})
	}
	writeJSON(stdout, out, f.Pretty)
	return nil
}

// runMCP serves the registry over MCP on stdio. Logs go to standard error: standard
// output belongs to the protocol.
func runMCP(ctx context.Context, args []string) error {
	f, err := ParseFlags(args, "doc", "db", "max-size", "headless", "allow-file")
	if err != nil {
		return err
	}
	if len(f.Positional) > 0 {
		return UsageError{"mcp takes no positional arguments"}
	}
	// An MCP client reaches local files (file: addresses, uploads) only
	// inside what the user named in the server's command line.
	grant := browser.Grant{Files: f.AllowFiles}
	// Temporary browser profiles a killed Waymark left behind go now.
	browser.RemoveStaleProfiles()
	bopts := waymark.BrowserOptions(f.Headless, false)
	// Every MCP session gets its own browser, started by its first browser tool
	// call and closed when the session ends; the default one is never used.
	def := browser.NewSessions(bopts)
	defer def.Close()
	d, err := openBook(ctx, f, def, "")
	if err != nil {
		return err
	}
	defer d.Close()
	return mcpserver.ServeStdio(ctx, d.reg, Version, mcpserver.Options{
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

// runAgent runs one command (the RunCommand tool, as every door runs it):
// each step of its progress is a JSON line as it happens, and the last line
// is the result ({"event":"result","data":…}) or the error
// ({"event":"error","error":…}, exit status 1).
func runAgent(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	f, err := ParseFlags(args, "doc", "db", "max-size")
	if err == nil && len(f.Positional) != 1 {
		err = UsageError{"agent needs one command in quotes, e.g. waymark agent --doc book.md 'find the first mention of \"Natasha\"'"}
	}
	if err != nil {
		fmt.Fprintf(stderr, "waymark: %s\n\n%s", err, Usage)
		return 2
	}
	fail := func(err error) int {
		writeJSON(stdout, map[string]string{"event": "error", "error": err.Error()}, false)
		return 1
	}
	d, err := openBook(ctx, f, nil, "")
	if err != nil {
		return fail(err)
	}
	defer d.Close()
	res, err := author.RunCommandRef.CallWith(ctx, d.reg, author.RunCommandArgs{Command: f.Positional[0]},
		tools.Context{Progress: func(p tools.Progress) { writeJSON(stdout, p, false) }})
	if err != nil {
		return fail(err)
	}
	writeJSON(stdout, tools.Progress{Event: "result", Data: mustJSON(res)}, false)
	return 0
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}
