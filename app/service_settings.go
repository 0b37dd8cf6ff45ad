package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/waymark/waymark/backend/agent"
	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/manuscript"
)

// Settings are the window's preferences, stored in the profile's SQLite database.
type Settings struct {
	// Model server (any OpenAI-compatible endpoint); empty URL: the built-in engine.
	ModelURL string `json:"modelUrl"`
	Model    string `json:"model"`
	// ModelKey is write-only: Settings() returns it empty and says in
	// ModelKeySet whether one is stored; saving an empty key keeps the stored one
	// unless ClearModelKey is set.
	ModelKey      string `json:"modelKey"`
	ModelKeySet   bool   `json:"modelKeySet"`
	ClearModelKey bool   `json:"clearModelKey"`
	// ModelKeyStore says where the key is kept: "keyring" (the system's
	// Secret Service), "database" (the profile database, readable only by
	// you, when no Secret Service answers) or "" (no key); ModelKeyNote says
	// so in words. Both are reported, never taken from the caller.
	ModelKeyStore string `json:"modelKeyStore"`
	ModelKeyNote  string `json:"modelKeyNote,omitempty"`

	// Browser: cookie banners, pace and limits, downloads.
	BannersEnabled   bool   `json:"bannersEnabled"`
	BannerPasses     int    `json:"bannerPasses"`
	BannerBudgetMs   int    `json:"bannerBudgetMs"`
	BannerPassMs     int    `json:"bannerPassMs"`
	PauseMs          int    `json:"pauseMs"`
	IterationLimit   int    `json:"iterationLimit"`
	AskTimeoutSec    int    `json:"askTimeoutSec"`
	DownloadDir      string `json:"downloadDir"`
	DownloadConflict string `json:"downloadConflict"`

	// Window.
	Speech   bool   `json:"speech"`
	Theme    string `json:"theme"`
	FontSize int    `json:"fontSize"`
}

// Themes are the window's colour schemes; "contrast" keeps every text at 7:1 or more.
var Themes = []string{"light", "dark", "contrast"}

func defaultSettings() Settings {
	dl := ""
	if home, err := os.UserHomeDir(); err == nil {
		dl = filepath.Join(home, "Downloads", "Waymark")
	}
	return Settings{BannersEnabled: true, BannerPasses: 2, BannerBudgetMs: 2000, BannerPassMs: 800, PauseMs: 0,
		IterationLimit: 20, AskTimeoutSec: 300, DownloadDir: dl, DownloadConflict: "rename", Theme: "light", FontSize: 16}
}

const settingsKey = "ui.settings"

func (a *DesktopApp) loadSettings(ctx context.Context) Settings {
	s := defaultSettings()
	if raw, ok, err := a.st.Setting(ctx, settingsKey); err == nil && ok {
		_ = json.Unmarshal([]byte(raw), &s)
	}
	s.ClearModelKey, s.ModelKeyNote = false, ""
	switch {
	case s.ModelKeyStore == "keyring":
		key, err := secretService.get()
		if err != nil {
			s.ModelKey, s.ModelKeyNote = "", "The model server key could not be read from the system keyring ("+err.Error()+"); enter it again."
		} else {
			s.ModelKey = key
		}
	case s.ModelKey != "":
		// A key stored in the database (an older Waymark, or no keyring
		// then): into the keyring now if there is one.
		if err := secretService.set(s.ModelKey); err == nil {
			stored := s
			stored.ModelKey, stored.ModelKeyStore = "", "keyring"
			if b, err := json.Marshal(stored); err == nil && a.st.SetSetting(ctx, settingsKey, string(b)) == nil {
				s.ModelKeyStore = "keyring"
			}
		} else {
			s.ModelKeyStore = "database"
		}
	}
	s.ModelKeySet = s.ModelKey != ""
	if !s.ModelKeySet {
		s.ModelKeyStore = ""
	}
	if s.ModelKeyStore == "database" && s.ModelKeyNote == "" {
		s.ModelKeyNote = noKeyringNote
	}
	return s
}

// noKeyringNote says where the key is when no Secret Service answers.
const noKeyringNote = "No system keyring (Secret Service) answered, so the model server key is stored in the profile database, a file readable only by you (0600)."

// validate checks every field and says what is allowed.
func (s Settings) validate() error {
	var errs []string
	bad := func(format string, a ...any) { errs = append(errs, fmt.Sprintf(format, a...)) }
	if s.ModelURL != "" {
		u, err := url.Parse(s.ModelURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("model server URL %q: give an http(s) address such as http://127.0.0.1:11434/v1 (or leave it empty for the built-in engine)", s.ModelURL)
		}
		if strings.TrimSpace(s.Model) == "" {
			bad("model: give the model's name as the server knows it (e.g. llama3.1:8b)")
		}
	}
	if s.BannerPasses < 1 || s.BannerPasses > 3 {
		bad("banner passes %d: from 1 to 3", s.BannerPasses)
	}
	if s.BannerBudgetMs < 200 || s.BannerBudgetMs > 10000 {
		bad("banner budget %d ms: from 200 to 10000 ms (1500–2500 is sensible)", s.BannerBudgetMs)
	}
	if s.BannerPassMs < 100 || s.BannerPassMs > s.BannerBudgetMs {
		bad("banner time per pass %d ms: from 100 ms up to the banner budget (%d ms)", s.BannerPassMs, s.BannerBudgetMs)
	}
	if s.PauseMs < 0 || s.PauseMs > 10000 {
		bad("pause between steps %d ms: from 0 to 10000 ms", s.PauseMs)
	}
	if s.IterationLimit < 1 || s.IterationLimit > 200 {
		bad("iteration limit %d: from 1 to 200 steps", s.IterationLimit)
	}
	if s.AskTimeoutSec < 10 || s.AskTimeoutSec > 3600 {
		bad("time to answer a question %d s: from 10 to 3600 seconds", s.AskTimeoutSec)
	}
	if s.DownloadDir != "" && !filepath.IsAbs(s.DownloadDir) {
		bad("download folder %q: give an absolute path such as /home/you/Downloads", s.DownloadDir)
	}
	if s.DownloadConflict != "rename" && s.DownloadConflict != "overwrite" {
		bad("when a downloaded file's name exists %q: rename or overwrite", s.DownloadConflict)
	}
	okTheme := false
	for _, t := range Themes {
		okTheme = okTheme || s.Theme == t
	}
	if !okTheme {
		bad("theme %q: %s", s.Theme, strings.Join(Themes, ", "))
	}
	if s.FontSize < 10 || s.FontSize > 40 {
		bad("font size %d: from 10 to 40 pixels", s.FontSize)
	}
	if len(errs) > 0 {
		return errors.New("settings not saved: " + strings.Join(errs, "; "))
	}
	return nil
}

// Settings returns the stored settings (the model key is never sent back).
func (a *DesktopApp) Settings() (Settings, error) {
	a.settingsMu.Lock()
	defer a.settingsMu.Unlock()
	s := a.settings
	s.ModelKey = ""
	return s, nil
}

// SaveSettings validates and stores the settings and applies them: a new model
// server for the next command, a new browser when its options changed.
func (a *DesktopApp) SaveSettings(s Settings) (Settings, error) {
	s.ModelURL, s.Model = strings.TrimSpace(s.ModelURL), strings.TrimSpace(s.Model)
	if err := s.validate(); err != nil {
		return Settings{}, err
	}
	if s.ModelURL != "" {
		if _, err := llm.NewClient(llm.DefaultConfig(s.ModelURL, s.Model)); err != nil {
			return Settings{}, fmt.Errorf("settings not saved: %w", err)
		}
	}
	a.settingsMu.Lock()
	old := a.settings
	switch {
	case s.ClearModelKey:
		s.ModelKey = ""
	case s.ModelKey == "":
		s.ModelKey = old.ModelKey
	}
	s.ModelKeySet, s.ClearModelKey, s.ModelKeyNote = s.ModelKey != "", false, ""
	// The key goes to the system keyring when there is one; the database
	// keeps it only when there is none (and says so).
	stored := s
	switch {
	case s.ModelKey == "":
		s.ModelKeyStore = ""
		if old.ModelKeyStore == "keyring" {
			_ = secretService.remove()
		}
	case s.ModelKey == old.ModelKey && old.ModelKeyStore != "":
		s.ModelKeyStore, s.ModelKeyNote = old.ModelKeyStore, old.ModelKeyNote
	default:
		if err := secretService.set(s.ModelKey); err == nil {
			s.ModelKeyStore = "keyring"
		} else {
			s.ModelKeyStore, s.ModelKeyNote = "database", noKeyringNote
		}
	}
	stored.ModelKeyStore, stored.ModelKeyNote = s.ModelKeyStore, ""
	if s.ModelKeyStore == "keyring" {
		stored.ModelKey = ""
	}
	b, _ := json.Marshal(stored)
	if err := a.st.SetSetting(a.context(), settingsKey, string(b)); err != nil {
		a.settingsMu.Unlock()
		return Settings{}, err
	}
	a.settings = s
	a.settingsMu.Unlock()
	a.applyModel(s)
	if a.newBrowser != nil && browserOptionsChanged(old, s) {
		a.ssMu.Lock()
		prev := a.ss
		a.ss = a.newBrowser(s)
		a.ssMu.Unlock()
		if prev != nil {
			go prev.Close()
		}
	}
	out := s
	out.ModelKey = ""
	return out, nil
}

func browserOptionsChanged(a, b Settings) bool {
	return a.BannersEnabled != b.BannersEnabled || a.BannerPasses != b.BannerPasses || a.BannerBudgetMs != b.BannerBudgetMs ||
		a.BannerPassMs != b.BannerPassMs || a.DownloadDir != b.DownloadDir || a.DownloadConflict != b.DownloadConflict
}

// applyBrowserSettings puts the settings into browser options.
func applyBrowserSettings(o browser.Options, s Settings) browser.Options {
	o.Banners = browser.BannerOptions{Disabled: !s.BannersEnabled, Passes: s.BannerPasses,
		TotalBudget: time.Duration(s.BannerBudgetMs) * time.Millisecond, PassBudget: time.Duration(s.BannerPassMs) * time.Millisecond}
	if s.DownloadDir != "" {
		o.DownloadDir = s.DownloadDir
	}
	o.DownloadConflict = s.DownloadConflict
	return o
}

// applyModel makes the commands use the configured model server, or the
// built-in engine when none is set (WAYMARK_MODEL_URL, when set, wins).
func (a *DesktopApp) applyModel(s Settings) {
	if a.envModel || a.rt == nil {
		return
	}
	var m llm.Model = agent.Builtin{}
	if s.ModelURL != "" {
		cfg := llm.DefaultConfig(s.ModelURL, s.Model)
		cfg.APIKey = s.ModelKey
		if c, err := llm.NewClient(cfg); err == nil {
			m = c
		}
	}
	a.rt.SetModel(m)
}

// model is the model the commands use now.
func (a *DesktopApp) model() llm.Model {
	if a.rt == nil {
		return agent.Builtin{}
	}
	if m := a.rt.LLM(); m != nil {
		return m
	}
	return agent.Builtin{}
}

// Check is one line of a connection test.
type Check struct {
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

// ConnectionReport says what works on a model server.
type ConnectionReport struct {
	Server     string   `json:"server"`
	Model      string   `json:"model"`
	Models     []string `json:"models"`
	Reachable  Check    `json:"reachable"`
	Chat       Check    `json:"chat"`
	ToolCalls  Check    `json:"toolCalls"`
	JSONSchema Check    `json:"jsonSchema"`
	Summary    string   `json:"summary"`
}

// TestConnection asks a model server three small things — plain chat, a tool
// call, and an answer under a JSON schema — and says which work. An empty key
// uses the stored one.
func (a *DesktopApp) TestConnection(serverURL, model, key string) (ConnectionReport, error) {
	serverURL, model = strings.TrimSpace(serverURL), strings.TrimSpace(model)
	if key == "" {
		a.settingsMu.Lock()
		key = a.settings.ModelKey
		a.settingsMu.Unlock()
	}
	cfg := llm.DefaultConfig(serverURL, model)
	cfg.APIKey, cfg.MaxRetries, cfg.Timeout, cfg.Stream = key, -1, 60*time.Second, false
	c, err := llm.NewClient(cfg)
	if err != nil {
		return ConnectionReport{}, err
	}
	r := ConnectionReport{Server: c.BaseURL(), Model: model, Models: []string{}}
	ctx, cancel := context.WithTimeout(a.context(), 3*time.Minute)
	defer cancel()
	if names, err := c.ListModels(ctx); err != nil {
		r.Reachable = Check{Detail: err.Error()}
	} else {
		r.Models = names
		r.Reachable = Check{OK: true, Detail: fmt.Sprintf("the server lists %d model(s)", len(names))}
		found := false
		for _, n := range names {
			found = found || n == model
		}
		if !found && len(names) > 0 {
			r.Reachable.Detail += fmt.Sprintf("; %q is not among them (%s)", model, strings.Join(names, ", "))
		}
	}
	if resp, err := c.Complete(ctx, llm.Request{Messages: []llm.Message{{Role: "user", Content: "Reply with the single word: ready"}}, MaxTokens: 20}); err != nil {
		r.Chat = Check{Detail: err.Error()}
	} else {
		r.Chat = Check{OK: strings.TrimSpace(resp.Content) != "" || len(resp.ToolCalls) > 0, Detail: "answered: " + brief(resp.Content, 60)}
		if !r.Chat.OK {
			r.Chat.Detail = "the answer was empty"
		}
	}
	echo := llm.ToolSpec{Name: "echo", Description: "Repeat a word back.", Parameters: json.RawMessage(`{"type":"object","properties":{"word":{"type":"string"}},"required":["word"]}`)}
	if resp, err := c.Complete(ctx, llm.Request{Messages: []llm.Message{{Role: "user", Content: "Call the tool echo with the word ping."}}, Tools: []llm.ToolSpec{echo}}); err != nil {
		r.ToolCalls = Check{Detail: err.Error()}
	} else {
		calls := resp.ToolCalls
		how := "structured tool calls"
		if len(calls) == 0 {
			if tc, ok := llm.ParseTextToolCall(resp.Content); ok {
				calls, how = []llm.ToolCall{tc}, "tool calls written as text (the text fallback is used)"
			}
		}
		if len(calls) > 0 && calls[0].Name == "echo" {
			r.ToolCalls = Check{OK: true, Detail: how}
		} else {
			r.ToolCalls = Check{Detail: "the model answered without calling the tool: " + brief(resp.Content, 60)}
		}
	}
	schema := &llm.JSONSchema{Name: "answer", Strict: true, Schema: json.RawMessage(`{"type":"object","properties":{"answer":{"type":"string"}},"required":["answer"],"additionalProperties":false}`)}
	if resp, err := c.Complete(ctx, llm.Request{Messages: []llm.Message{{Role: "user", Content: "Answer in JSON: what colour is the sky on a clear day?"}}, JSONSchema: schema}); err != nil {
		r.JSONSchema = Check{Detail: err.Error()}
	} else {
		var v struct {
			Answer *string `json:"answer"`
		}
		if json.Unmarshal([]byte(strings.TrimSpace(resp.Content)), &v) == nil && v.Answer != nil {
			r.JSONSchema = Check{OK: true, Detail: "one JSON object as asked"}
		} else {
			r.JSONSchema = Check{Detail: "the answer did not follow the schema: " + brief(resp.Content, 60)}
		}
	}
	var works, fails []string
	for _, c := range []struct {
		name string
		ok   bool
	}{{"chat", r.Chat.OK}, {"tool calling", r.ToolCalls.OK}, {"JSON schema", r.JSONSchema.OK}} {
		if c.ok {
			works = append(works, c.name)
		} else {
			fails = append(fails, c.name)
		}
	}
	switch {
	case len(fails) == 0:
		r.Summary = "Everything works: chat, tool calling and JSON schema."
	case len(works) == 0:
		r.Summary = "Nothing works with this server and model."
	default:
		r.Summary = fmt.Sprintf("Works: %s. Does not work: %s.", strings.Join(works, ", "), strings.Join(fails, ", "))
	}
	return r, nil
}

func brief(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// Capabilities says what this installation can do, for the window to offer or
// explain: the model in use, pandoc for DOCX/EPUB, a speech program.
type Capabilities struct {
	Model          string   `json:"model"`
	Builtin        bool     `json:"builtin"`
	ModelFromEnv   bool     `json:"modelFromEnv"`
	Pandoc         string   `json:"pandoc"`
	Speech         string   `json:"speech"`
	Formats        []string `json:"formats"`
	NativeDialogs  bool     `json:"nativeDialogs"`
	Browser        bool     `json:"browser"`
	Commands       string   `json:"commands"`
	BrowseCommands string   `json:"browseCommands"`
	// LayoutReport asks the window to measure its layout after each resize and
	// report it (Layout; WAYMARK_LAYOUT_REPORT=1, the screenshot tier).
	LayoutReport bool `json:"layoutReport"`
}

// Capabilities reports the model, pandoc and speech availability.
func (a *DesktopApp) Capabilities() Capabilities {
	m := a.model()
	_, builtin := m.(agent.Builtin)
	c := Capabilities{Model: m.Name(), Builtin: builtin, ModelFromEnv: a.envModel, Pandoc: manuscript.PandocPath(), Speech: speechProgram(),
		NativeDialogs: a.dialogs != nil, Browser: a.newBrowser != nil, Commands: agent.Understood, BrowseCommands: agent.BrowseCommands,
		LayoutReport: os.Getenv(layoutEnv) != ""}
	c.Formats = []string{"markdown", "html"}
	if c.Pandoc != "" {
		c.Formats = append(c.Formats, "docx", "epub")
	}
	return c
}

// speechProgram is spd-say (speech-dispatcher) or espeak-ng, whichever is installed.
func speechProgram() string {
	for _, p := range []string{"spd-say", "espeak-ng"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	return ""
}

// Speak says a progress line aloud when speech is on (off by default, so it
// never doubles a screen reader). It returns at once.
func (a *DesktopApp) Speak(text string) error {
	a.settingsMu.Lock()
	on := a.settings.Speech
	a.settingsMu.Unlock()
	if !on || strings.TrimSpace(text) == "" {
		return nil
	}
	p := speechProgram()
	if p == "" {
		return errors.New("speech is on, but neither speech-dispatcher (spd-say) nor espeak-ng is installed (Debian: apt-get install speech-dispatcher)")
	}
	// Neither program takes "--"; a line starting with "-" would read as an option.
	cmd := exec.Command(p, strings.TrimLeft(text, "- "))
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("speech: %w", err)
	}
	go cmd.Wait()
	return nil
}
