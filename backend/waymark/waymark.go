// Package waymark assembles Waymark's parts: the one tool registry over a
// manuscript workspace, the agents' runtime on a model, and, when a door
// asks for them, the browser tools. Every door (the window, the command
// line, the MCP server, the bench) and every test builds its parts here, so
// that all of them serve the same registry with the same tools.
package waymark

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/waymark/waymark/backend/agent/author"
	"github.com/waymark/waymark/backend/agent/web"
	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/tools"
)

// Config is what a door chooses; the zero Config lists every tool but the
// browser's, over a workspace without a database and the built-in engine.
type Config struct {
	// WS holds the books the tools work on; nil: a workspace without a
	// database (enough to list the tools, or to browse).
	WS *manuscript.Workspace
	// Model understands the author's commands and the browsing goals; nil:
	// the built-in engine.
	Model llm.Model
	// Browser runs the browser tools of SPEC §5 (its browser starts on the
	// first browser tool call); nil: no browser tools.
	Browser *browser.Sessions
}

// App is Waymark assembled: the registry every door serves, the workspace
// it works on, and the agents' runtime (whose model the window's settings
// may change).
type App struct {
	WS       *manuscript.Workspace
	Registry *tools.Registry
	Runtime  *author.Runtime
}

// New assembles the parts cfg names.
func New(cfg Config) *App {
	ws := cfg.WS
	if ws == nil {
		ws = manuscript.NewWorkspace(nil)
	}
	model := cfg.Model
	if model == nil {
		model = author.Builtin{}
	}
	r := tools.New()
	manuscript.RegisterTools(r, ws)
	llm.RegisterTools(r)
	rt := &author.Runtime{WS: ws, Store: ws.Store, Model: model}
	if limit, err := author.TimeLimitFromEnv(); err == nil {
		rt.TimeLimit = limit // a bad value is refused by ChooseModel, which every door calls first
	}
	author.Register(r, rt)
	if cfg.Browser != nil {
		browser.Register(r, cfg.Browser)
		web.RegisterBrowsing(r, rt)
	}
	return &App{WS: ws, Registry: r, Runtime: rt}
}

// ChooseModel returns the model server named by WAYMARK_MODEL_URL and
// WAYMARK_MODEL, or the built-in engine when none is configured. A configured but
// invalid server is an error, never a silent fallback.
func ChooseModel() (llm.Model, error) {
	if _, err := author.TimeLimitFromEnv(); err != nil {
		return nil, err
	}
	cfg, ok := llm.ConfigFromEnv()
	if !ok {
		return author.Builtin{}, nil
	}
	c, err := llm.NewClient(cfg)
	if err != nil {
		return nil, fmt.Errorf("model server settings (WAYMARK_MODEL_URL, WAYMARK_MODEL): %w", err)
	}
	return c, nil
}

// BrowserOptions are the browser settings of a door: a window unless headless
// is asked for or there is no display to show it on; keepProfile keeps cookies
// and logins in the user's data folder (only one process can use it at a time,
// so only the window and the interactive browse loop ask for it).
func BrowserOptions(headless, keepProfile bool) browser.Options {
	o := browser.Options{Headless: headless || (os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "")}
	if keepProfile {
		if dir, err := DataDir(); err == nil {
			o.ProfileDir = filepath.Join(dir, "chromium-profile")
		}
	}
	if u := os.Getenv("WAYMARK_BROWSER_URL"); u != "" {
		o.ControlURL = u
	}
	return o
}

// DataDir is Waymark's data folder: $XDG_DATA_HOME/waymark, else
// ~/.local/share/waymark.
func DataDir() (string, error) {
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
