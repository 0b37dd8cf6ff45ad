package desktop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/waymark/waymark/backend/agent/author"
	"github.com/waymark/waymark/backend/agent/web"
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
	// ModelKeyOrigin is the server (scheme://host:port) the key was given
	// for: the key is sent there only (issue 21), and saving another address
	// forgets it. Reported, never taken from the caller.
	ModelKeyOrigin string `json:"modelKeyOrigin,omitempty"`
	// CommandTimeLimitMin bounds one command in all, in minutes (0: no
	// limit beyond each model request's own deadline); WAYMARK_TIME_LIMIT,
	// when set, wins.
	CommandTimeLimitMin int `json:"commandTimeLimitMin"`

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

	// Author is the name exported books carry when their front matter names
	// none (kept as the book.author setting, which the Export tool reads).
	Author string `json:"author"`

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

// SettingsKey is where the settings are kept in the profile database.
const SettingsKey = "ui.settings"

func (a *App) loadSettings(ctx context.Context) Settings {
	s := defaultSettings()
	if raw, ok, err := a.st.Setting(ctx, SettingsKey); err == nil && ok {
		_ = json.Unmarshal([]byte(raw), &s)
	}
	s.ClearModelKey, s.ModelKeyNote = false, ""
	if author, ok, err := a.st.Setting(ctx, manuscript.AuthorSetting); err == nil && ok {
		s.Author = author
	}
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
			if b, err := json.Marshal(stored); err == nil && a.st.SetSetting(ctx, SettingsKey, string(b)) == nil {
				s.ModelKeyStore = "keyring"
			}
		} else {
			s.ModelKeyStore = "database"
		}
	}
	s.ModelKeySet = s.ModelKey != ""
	if !s.ModelKeySet {
		s.ModelKeyStore, s.ModelKeyOrigin = "", ""
	} else if s.ModelKeyOrigin == "" {
		// Stored by an older Waymark: it was given with the saved address.
		s.ModelKeyOrigin = originOf(s.ModelURL)
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
	var p problems
	s.checkModel(&p)
	s.checkBrowser(&p)
	s.checkLook(&p)
	if len(p) > 0 {
		return errors.New("settings not saved: " + strings.Join(p, "; "))
	}
	return nil
}

// problems are what validate found wrong, each saying what is allowed.
type problems []string

func (p *problems) bad(format string, a ...any) { *p = append(*p, fmt.Sprintf(format, a...)) }

// checkModel checks the model server, the model and a command's time limit.
func (s Settings) checkModel(p *problems) {
	if s.ModelURL != "" {
		u, err := url.Parse(s.ModelURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			p.bad("model server URL %q: give an http(s) address such as http://127.0.0.1:11434/v1 (or leave it empty for the built-in engine)", s.ModelURL)
		}
		if strings.TrimSpace(s.Model) == "" {
			p.bad("model: give the model's name as the server knows it (e.g. llama3.1:8b)")
		}
	}
	if s.CommandTimeLimitMin < 0 || s.CommandTimeLimitMin > 1440 {
		p.bad("time limit of a command %d min: from 0 (none) to 1440 minutes", s.CommandTimeLimitMin)
	}
}

// checkBrowser checks the browser's settings: consent banners, steps,
// questions and downloads.
func (s Settings) checkBrowser(p *problems) {
	if s.BannerPasses < 1 || s.BannerPasses > 3 {
		p.bad("banner passes %d: from 1 to 3", s.BannerPasses)
	}
	if s.BannerBudgetMs < 200 || s.BannerBudgetMs > 10000 {
		p.bad("banner budget %d ms: from 200 to 10000 ms (1500–2500 is sensible)", s.BannerBudgetMs)
	}
	if s.BannerPassMs < 100 || s.BannerPassMs > s.BannerBudgetMs {
		p.bad("banner time per pass %d ms: from 100 ms up to the banner budget (%d ms)", s.BannerPassMs, s.BannerBudgetMs)
	}
	if s.PauseMs < 0 || s.PauseMs > 10000 {
		p.bad("pause between steps %d ms: from 0 to 10000 ms", s.PauseMs)
	}
	if s.IterationLimit < 1 || s.IterationLimit > 200 {
		p.bad("iteration limit %d: from 1 to 200 steps", s.IterationLimit)
	}
	if s.AskTimeoutSec < 10 || s.AskTimeoutSec > 3600 {
		p.bad("time to answer a question %d s: from 10 to 3600 seconds", s.AskTimeoutSec)
	}
	if s.DownloadDir != "" && !filepath.IsAbs(s.DownloadDir) {
		p.bad("download folder %q: give an absolute path such as /home/you/Downloads", s.DownloadDir)
	}
	if s.DownloadConflict != "rename" && s.DownloadConflict != "overwrite" {
		p.bad("when a downloaded file's name exists %q: rename or overwrite", s.DownloadConflict)
	}
}

// checkLook checks the theme, the author's name and the font size.
func (s Settings) checkLook(p *problems) {
	okTheme := false
	for _, t := range Themes {
		okTheme = okTheme || s.Theme == t
	}
	if !okTheme {
		p.bad("theme %q: %s", s.Theme, strings.Join(Themes, ", "))
	}
	if len([]rune(s.Author)) > 200 || strings.ContainsAny(s.Author, "\n\r") {
		p.bad("author: one line of at most 200 characters")
	}
	if s.FontSize < 10 || s.FontSize > 40 {
		p.bad("font size %d: from 10 to 40 pixels", s.FontSize)
	}
}

// Settings returns the stored settings (the model key is never sent back).
func (a *App) Settings() (Settings, error) {
	a.settingsMu.Lock()
	defer a.settingsMu.Unlock()
	s := a.settings
	s.ModelKey = ""
	return s, nil
}

// SaveSettings validates and stores the settings and applies them: a new model
// server for the next command, a new browser when its options changed.
func (a *App) SaveSettings(s Settings) (Settings, error) {
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
	forgot := false
	switch {
	case s.ClearModelKey:
		s.ModelKey = ""
	case s.ModelKey != "":
		// A key given now belongs to the address saved with it.
	case old.ModelKey != "" && sameOrigin(old.ModelKeyOrigin, s.ModelURL):
		s.ModelKey = old.ModelKey
	case old.ModelKey != "":
		// Another server: the old one's key is not for it.
		forgot = true
	}
	s.ModelKeyOrigin = ""
	if s.ModelKey != "" {
		s.ModelKeyOrigin = originOf(s.ModelURL)
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
	stored.ModelKeyStore, stored.ModelKeyNote, stored.ModelKeyOrigin = s.ModelKeyStore, "", s.ModelKeyOrigin
	if s.ModelKeyStore == "keyring" {
		stored.ModelKey = ""
	}
	if forgot {
		s.ModelKeyNote = fmt.Sprintf("The server address changed, so the key given for %s was forgotten: a key is sent only to the server it was given for. Enter the key of the new server if it needs one.", old.ModelKeyOrigin)
	}
	s.Author = strings.TrimSpace(s.Author)
	stored.Author = ""
	b, _ := json.Marshal(stored)
	if err := a.st.SetSetting(a.context(), SettingsKey, string(b)); err != nil {
		a.settingsMu.Unlock()
		return Settings{}, err
	}
	if err := a.st.SetSetting(a.context(), manuscript.AuthorSetting, s.Author); err != nil {
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

// originOf is the origin of a server address (scheme://host:port, with the
// scheme's own port written out), "" when it has none.
func originOf(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return ""
	}
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		switch scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// sameOrigin reports whether the address raw is on the server origin.
func sameOrigin(origin, raw string) bool {
	return origin != "" && originOf(origin) == originOf(raw)
}

func browserOptionsChanged(a, b Settings) bool {
	return a.BannersEnabled != b.BannersEnabled || a.BannerPasses != b.BannerPasses || a.BannerBudgetMs != b.BannerBudgetMs ||
		a.BannerPassMs != b.BannerPassMs || a.DownloadDir != b.DownloadDir || a.DownloadConflict != b.DownloadConflict
}

// BrowserOptions puts the settings into browser options o (the window's
// browser is made from them).
func BrowserOptions(o browser.Options, s Settings) browser.Options {
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
func (a *App) applyModel(s Settings) {
	if a.rt == nil {
		return
	}
	if env, err := author.TimeLimitFromEnv(); err == nil && env > 0 {
		a.rt.SetTimeLimit(env)
	} else {
		a.rt.SetTimeLimit(time.Duration(s.CommandTimeLimitMin) * time.Minute)
	}
	if a.envModel {
		return
	}
	var m llm.Model = author.Builtin{}
	if s.ModelURL != "" {
		cfg := llm.DefaultConfig(s.ModelURL, s.Model)
		if sameOrigin(s.ModelKeyOrigin, s.ModelURL) {
			cfg.APIKey = s.ModelKey
		}
		if c, err := llm.NewClient(cfg); err == nil {
			m = c
		}
	}
	a.rt.SetModel(m)
}

// model is the model the commands use now.
func (a *App) model() llm.Model {
	if a.rt == nil {
		return author.Builtin{}
	}
	if m := a.rt.LLM(); m != nil {
		return m
	}
	return author.Builtin{}
}

// Check is one line of a connection test.
type Check = llm.Check

// ConnectionReport says what works on a model server.
type ConnectionReport = llm.ProbeReport

// TestConnection asks a model server three small things — plain chat, a tool
// call, and an answer under a JSON schema — and says which work (the
// ProbeModelServer tool). An empty key uses the stored one only when the
// address is the server it was given for: another address gets no key
// (issue 21).
func (a *App) TestConnection(serverURL, model, key string) (ConnectionReport, error) {
	if key == "" {
		a.settingsMu.Lock()
		if sameOrigin(a.settings.ModelKeyOrigin, serverURL) {
			key = a.settings.ModelKey
		}
		a.settingsMu.Unlock()
	}
	var r ConnectionReport
	err := a.call(a.context(), "ProbeModelServer", llm.ProbeArgs{ServerURL: serverURL, Model: model, APIKey: key}, &r)
	return r, err
}

// ServerModels lists the models a server has installed, each with the
// context window it would run it with (the ModelServerModels tool), so
// Settings offers a choice instead of a free-text name. The key is used as
// in TestConnection: the stored one only for the server it was given for.
func (a *App) ServerModels(serverURL, key string) (llm.ModelList, error) {
	if key == "" {
		a.settingsMu.Lock()
		if sameOrigin(a.settings.ModelKeyOrigin, serverURL) {
			key = a.settings.ModelKey
		}
		a.settingsMu.Unlock()
	}
	var r llm.ModelList
	err := a.call(a.context(), "ModelServerModels", llm.ListModelsArgs{ServerURL: serverURL, APIKey: key}, &r)
	return r, err
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
func (a *App) Capabilities() Capabilities {
	m := a.model()
	builtin := !llm.Understands(m)
	c := Capabilities{Model: m.Name(), Builtin: builtin, ModelFromEnv: a.envModel, Pandoc: manuscript.PandocPath(), Speech: speechProgram(),
		NativeDialogs: a.dialogs != nil, Browser: a.newBrowser != nil, Commands: author.Understood, BrowseCommands: web.BrowseCommands,
		LayoutReport: os.Getenv(layoutEnv) != ""}
	c.Formats = []string{"markdown", "html"}
	if _, err := browser.FindBin(""); err == nil {
		c.Formats = append(c.Formats, "pdf")
	}
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
