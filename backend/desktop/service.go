// Package desktop is the desktop window's services: what the window's
// JavaScript calls. It has no Wails import: app/ binds an App to the window
// (as window.go.main.DesktopApp) and gives it the window's events and dialogs.
//
// App is a thin adapter: every manuscript, browser and model action goes
// through the same tools registry as the model, MCP and the CLI; what it adds
// is what only a window needs — text positions in the editor's units
// (UTF-16), events for live progress, native dialogs, settings and the
// session to restore.
//
// Wails binds every exported method, so the wiring hooks (Startup, Shutdown,
// OpenWhileStarting, AssetHandler) are functions, not methods, and helpers are
// unexported.
package desktop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/waymark/waymark/backend/agent/author"
	"github.com/waymark/waymark/backend/agent/web"
	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/store"
	"github.com/waymark/waymark/backend/tools"
	"github.com/waymark/waymark/backend/waymark"
)

// App is what the window's JavaScript calls (window.go.main.DesktopApp).
type App struct {
	ctx context.Context
	w   *waymark.App // the registry, workspace and runtime every door shares
	ws  *manuscript.Workspace
	reg *tools.Registry
	rt  *author.Runtime
	st  *store.Store

	// emit sends an event to the window (Wails' EventsEmit, or the UI tier's
	// event stream); nil: events are dropped.
	emit func(name string, data any)
	// dialogs are the native file dialogs (nil in the UI tier: paths are typed).
	dialogs FileDialogs
	// notice shows a message in the window's native notice (nil: none).
	notice func(text string)
	// proc is where the processes are listed (/proc; a fixture in tests).
	proc string
	// newBrowser makes the browser sessions for the current settings.
	newBrowser func(Settings) *browser.Sessions

	// opening is closed once the manuscript the window started on is open
	// (openErr: why it could not be); nil when it was open before.
	opening chan struct{}
	openErr error

	// paints counts the window's Painted calls; benchOpenAt is when it was
	// asked to open WAYMARK_BENCH_OPEN (timing.go).
	benchMu     sync.Mutex
	paints      int
	benchOpenAt time.Time
	// gz is the text of gzDoc at gzRev, gzipped for the window (gzipped).
	gzMu  sync.Mutex
	gz    string
	gzDoc string
	gzRev int64

	ssMu sync.Mutex
	ss   *browser.Sessions

	runMu   sync.Mutex
	cancel  context.CancelFunc // the running command or goal
	running string
	askMu   sync.Mutex
	askCh   chan string

	settingsMu sync.Mutex
	settings   Settings
	envModel   bool // the model comes from WAYMARK_MODEL_URL: settings do not replace it

	browserMu sync.Mutex
	downloads []browser.Download
	// browsing is the window's number-browsing conversation (BrowseCommand
	// goes on with it: "more", reading places, the language).
	browsing web.Browsing
	history  []BrowserVisit
	// mirror is the numbering the window shows: the user's last list.
	mirror      browserMirror
	browserBusy func(bool)
}

// FileDialogs are the native open/save dialogs of the desktop window.
type FileDialogs interface {
	OpenFile(title string) (string, error)
	SaveFile(title, defaultName string) (string, error)
}

// Config is what an App is built from.
type Config struct {
	// Waymark is the registry, the workspace and the agents' runtime,
	// assembled as for every other door (waymark.New).
	Waymark *waymark.App
	// NewBrowser returns the browser sessions for the settings (headless in
	// tests, a window in the app); nil: no browser workspace.
	NewBrowser func(Settings) *browser.Sessions
	// EnvModel is true when WAYMARK_MODEL_URL chose the model.
	EnvModel bool
	// Emit sends an event to the window; nil: events are dropped.
	Emit func(name string, data any)
	// Dialogs are the native file dialogs; nil: paths are typed.
	Dialogs FileDialogs
	// Notice shows a message in the window's native notice, which a screen
	// reader speaks (app/screenreader_gtk.go); nil: there is none.
	Notice func(text string)
	// BrowserBusy is told when a browser step starts (true) and ends
	// (false): the window keeps the keyboard from the browser it drives
	// meanwhile (app/keyboard_gtk.go); nil: nothing to do.
	BrowserBusy func(busy bool)
}

// New builds the window's services over the registry; the settings stored in
// the profile apply at once (model server, browser options).
func New(cfg Config) *App {
	w := cfg.Waymark
	a := &App{w: w, ws: w.WS, reg: w.Registry, rt: w.Runtime, st: w.WS.Store, newBrowser: cfg.NewBrowser, envModel: cfg.EnvModel,
		emit: cfg.Emit, dialogs: cfg.Dialogs, notice: cfg.Notice, browserBusy: cfg.BrowserBusy, proc: "/proc"}
	a.settings = a.loadSettings(context.Background())
	a.applyModel(a.settings)
	if a.newBrowser != nil {
		a.ss = a.newBrowser(a.settings)
	}
	return a
}

// Startup gives the app the window's context (Wails' OnStartup).
func Startup(a *App, ctx context.Context) { a.ctx = ctx }

// Shutdown closes the browser (Wails' OnShutdown).
func Shutdown(a *App) {
	a.ssMu.Lock()
	defer a.ssMu.Unlock()
	if a.ss != nil {
		_ = a.ss.Close()
	}
}

// OpenWhileStarting runs open (which opens the manuscript the window starts
// on) in the background; the app's calls wait for it. Once it is open, the
// outline and the zipped text are made, so the window's first questions are
// answered at once.
func OpenWhileStarting(a *App, open func() error) {
	a.opening = make(chan struct{})
	go func() {
		a.openErr = open()
		close(a.opening)
		Mark("manuscript parsed")
		a.warm()
	}()
}

// AssetHandler answers the window's requests that are not embedded files
// (the manuscript's text at /waymark/text).
func AssetHandler(a *App) http.Handler { return http.HandlerFunc(a.serveAsset) }

// current is the open manuscript, once the one the window started on is read.
func (a *App) current() (*manuscript.Manuscript, error) {
	if a.opening != nil {
		<-a.opening
		if a.openErr != nil {
			if m, err := a.ws.Current(); err == nil {
				return m, nil // another book was opened since
			}
			return nil, a.openErr
		}
	}
	return a.ws.Current()
}

// context is the app's context (the window's, or Background before startup
// and in the UI tier).
func (a *App) context() context.Context {
	if a.ctx == nil {
		return context.Background()
	}
	return a.ctx
}

func (a *App) send(name string, data any) {
	if a.emit != nil {
		a.emit(name, data)
	}
}

// call runs a registry tool through its typed handle: the one way the
// window's actions call a tool (Call is the frontend's, by name with JSON).
// Like Call, it waits for the book the window started on and gives the tool
// the window's browser; tc reports the tool's progress.
func call[In, Out any](a *App, ctx context.Context, ref tools.Ref[In, Out], args In, tc tools.Context) (Out, error) {
	return ref.CallWith(a.toolCtx(ctx), a.reg, args, tc)
}

// toolCtx is ctx for a tool the window calls, once the book the window
// started on is open (the tools answer about it), with the window's browser.
func (a *App) toolCtx(ctx context.Context) context.Context {
	if a.opening != nil {
		<-a.opening
	}
	return a.browserCtx(ctx)
}

// Call runs any tool of the registry with JSON arguments and returns its JSON
// result: the window's door to the same tools as the model, MCP and the CLI.
func (a *App) Call(tool string, args string) (string, error) {
	ctx := a.toolCtx(a.context())
	if what, ok := agentTools[tool]; ok {
		c, end, err := a.begin(what)
		if err != nil {
			return "", err
		}
		defer end()
		ctx = c
	}
	res, err := a.reg.Call(a.toolCtx(ctx), tools.Call{Name: tool, Args: json.RawMessage(args)}, a.progress())
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(res)
	return string(b), err
}

// progress sends what a running tool reports to the window, as
// "command:event" events (the transcript's live lines).
func (a *App) progress() tools.Context {
	return tools.Context{Progress: func(p tools.Progress) { a.send("command:event", p) }}
}

// agentTools run an agent for as long as it takes: called through the window's
// generic door they take its one running slot, as RunCommand does, so the
// global Stop ends them and a second run is refused while one goes on.
var agentTools = map[string]string{"PlanRun": "plan", "RunCommand": "command", "RunCursorAgent": "command"}

// OutlineHeading is one heading of the outline panel.
type OutlineHeading struct {
	Index    int    `json:"index"`
	Level    int    `json:"level"`
	Text     string `json:"text"`
	Words    int    `json:"words"`
	OwnWords int    `json:"ownWords"`
	Label    string `json:"label"`
	// Pos is where the heading starts in the editor (UTF-16 code units).
	Pos int `json:"pos"`
}

// OutlineView is the outline with the book's word counts.
type OutlineView struct {
	Revision   int64            `json:"revision"`
	Headings   []OutlineHeading `json:"headings"`
	TotalWords int              `json:"totalWords"`
	// TodayWords is the change of the book's word count since the first time
	// it was opened today (negative when the author cut more than wrote).
	TodayWords int `json:"todayWords"`
	Items      int `json:"items"`
}

// ManuscriptView is what the window shows of the open manuscript.
type ManuscriptView struct {
	Path     string `json:"path"`
	Name     string `json:"name"`
	Markdown string `json:"markdown"`
	// TextURL is where the window fetches the text instead (ManuscriptInfo).
	TextURL   string      `json:"textURL,omitempty"`
	SizeBytes int         `json:"sizeBytes"`
	Items     int         `json:"items"`
	Revision  int64       `json:"revision"`
	Outline   OutlineView `json:"outline"`
	// Headings and TotalWords repeat the outline's for older callers.
	Headings   []OutlineHeading `json:"headings"`
	TotalWords int              `json:"totalWords"`
	// Session is what the window saved for this document (cursor, scroll), "" if nothing.
	Session string `json:"session"`
	// Recent are the recently opened files, newest first.
	Recent []RecentFile `json:"recent"`
}

// RecentFile is one entry of the recent-files list.
type RecentFile struct {
	Path   string `json:"path"`
	Name   string `json:"name"`
	Exists bool   `json:"exists"`
}

// Manuscript returns the open manuscript with its text and outline; the
// editor's copy starts from this text (the whole text, as the TextChanges tool
// gives it to a caller that holds none).
func (a *App) Manuscript() (ManuscriptView, error) {
	for range 3 { // an edit between the two answers: ask again
		t, err := call(a, a.context(), manuscript.TextChangesRef, manuscript.TextChangesArgs{}, tools.Context{})
		if err != nil {
			return ManuscriptView{}, err
		}
		v, err := a.ManuscriptInfo()
		if err != nil {
			return v, err
		}
		if v.Revision == t.Revision {
			v.Markdown, v.TextURL = t.Markdown, ""
			return v, nil
		}
	}
	return ManuscriptView{}, errors.New("the manuscript kept changing while it was read; ask again")
}

// Phase marks a step of the window's first load for `bench window` (printed
// only with WAYMARK_REPORT_PAINT=1).
func (a *App) Phase(name string) { Mark("window: " + name) }

// ManuscriptInfo is Manuscript without the text: the window fetches that from
// TextURL, which is much faster for a whole novel than a string in the
// binding's JSON (6 MB: tens of milliseconds instead of half a second).
func (a *App) ManuscriptInfo() (ManuscriptView, error) {
	Mark("Manuscript asked")
	defer Mark("Manuscript answered")
	ctx := a.context()
	m, err := a.current()
	if err != nil {
		return ManuscriptView{}, err
	}
	v := ManuscriptView{Path: m.Path, Name: filepath.Base(m.Path)}
	o, err := a.outline(ctx)
	if err != nil {
		return v, err
	}
	v.Outline = a.outlineView(ctx, m, o)
	v.SizeBytes, v.Items, v.Revision = o.SizeBytes, o.Items, o.Revision
	v.TextURL = fmt.Sprintf("%s?rev=%d", TextPath, v.Revision)
	v.Headings, v.TotalWords = v.Outline.Headings, v.Outline.TotalWords
	// The window's own state for this book: where the author was.
	if s, ok, err := a.st.Session(ctx, docSessionID(m)); err == nil && ok {
		v.Session = string(s.State)
	}
	a.noteRecent(ctx, m.Path)
	v.Recent, _ = a.RecentFiles()
	return v, nil
}

// OpenManuscript opens a Markdown file (checked first: text, UTF-8, size) and
// makes it the current manuscript.
func (a *App) OpenManuscript(path string) (ManuscriptView, error) {
	if path == "" {
		return ManuscriptView{}, errors.New("give the path of a Markdown file to open, e.g. /home/you/novel.md")
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return ManuscriptView{}, NoBookError{Path: path}
	}
	if _, err := a.ws.Open(a.context(), path); err != nil {
		return ManuscriptView{}, err
	}
	return a.ManuscriptInfo()
}

// NoBookError is the refusal to open a path where no file is: the window
// offers to create the book there (NewManuscript).
type NoBookError struct{ Path string }

func (e NoBookError) Error() string {
	return fmt.Sprintf("there is no book at %s yet; New… (Ctrl+N) creates it", e.Path)
}

// NewManuscript creates a new book at path from its title (the file holds the
// title as its first heading) and opens it. Nothing that exists is ever
// replaced: a path that is taken, or whose folder is missing, is refused with
// what to do instead. A path without an extension gets ".md".
func (a *App) NewManuscript(path, title string) (ManuscriptView, error) {
	path, title = strings.TrimSpace(path), strings.Join(strings.Fields(title), " ")
	if path == "" {
		return ManuscriptView{}, errors.New("give the path of the new book, e.g. /home/you/novel.md")
	}
	if !filepath.IsAbs(path) {
		return ManuscriptView{}, fmt.Errorf("give the new book's full path (from /), not %q", path)
	}
	if filepath.Ext(path) == "" {
		path += ".md"
	}
	if title == "" {
		title = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || !fi.IsDir() {
		return ManuscriptView{}, fmt.Errorf("the folder %s does not exist; choose a folder that does, nothing was created", filepath.Dir(path))
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return ManuscriptView{}, fmt.Errorf("%s already exists; open it with Open… (Ctrl+O), or give the new book another name", path)
	}
	if err != nil {
		return ManuscriptView{}, fmt.Errorf("create %s: %v", path, err)
	}
	_, err = f.WriteString("# " + title + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(path)
		return ManuscriptView{}, fmt.Errorf("create %s: %v; nothing was created", path, err)
	}
	return a.OpenManuscript(path)
}

// ChooseManuscript shows the native open dialog and opens the chosen file.
func (a *App) ChooseManuscript() (ManuscriptView, error) {
	if a.dialogs == nil {
		return ManuscriptView{}, errors.New("there is no file dialog here; type the file's path instead")
	}
	p, err := a.dialogs.OpenFile("Open a manuscript")
	if err != nil {
		return ManuscriptView{}, err
	}
	if p == "" {
		return ManuscriptView{}, errors.New("no file was chosen")
	}
	return a.OpenManuscript(p)
}

// ChooseSavePath shows the native save dialog (for exports) and returns the path.
func (a *App) ChooseSavePath(title, defaultName string) (string, error) {
	if a.dialogs == nil {
		return "", errors.New("there is no file dialog here; type the path instead")
	}
	return a.dialogs.SaveFile(title, defaultName)
}

const recentKey = "ui.recentFiles"

func (a *App) noteRecent(ctx context.Context, path string) {
	var list []string
	if raw, ok, err := a.st.Setting(ctx, recentKey); err == nil && ok {
		_ = json.Unmarshal([]byte(raw), &list)
	}
	out := []string{path}
	for _, p := range list {
		if p != path && len(out) < 10 {
			out = append(out, p)
		}
	}
	b, _ := json.Marshal(out)
	_ = a.st.SetSetting(ctx, recentKey, string(b))
	_ = a.st.SetSetting(ctx, "ui.lastDocument", path)
}

// RecentFiles lists the recently opened manuscripts, newest first.
func (a *App) RecentFiles() ([]RecentFile, error) {
	var list []string
	raw, ok, err := a.st.Setting(a.context(), recentKey)
	if err != nil {
		return nil, err
	}
	if ok {
		_ = json.Unmarshal([]byte(raw), &list)
	}
	out := make([]RecentFile, 0, len(list))
	for _, p := range list {
		_, err := os.Stat(p)
		out = append(out, RecentFile{Path: p, Name: filepath.Base(p), Exists: err == nil})
	}
	return out, nil
}

// Outline returns the headings (with their places in the editor) and the word
// counts of the book and of today's session: the Outline tool, which makes
// one outline per revision.
func (a *App) Outline() (OutlineView, error) {
	ctx := a.context()
	m, err := a.current()
	if err != nil {
		return OutlineView{}, err
	}
	o, err := a.outline(ctx)
	if err != nil {
		return OutlineView{}, err
	}
	return a.outlineView(ctx, m, o), nil
}

// outline asks the Outline tool.
func (a *App) outline(ctx context.Context) (manuscript.OutlineResult, error) {
	return call(a, ctx, manuscript.OutlineRef, manuscript.OutlineArgs{}, tools.Context{})
}

// outlineView is the outline panel's view of the Outline tool's result, with
// today's words.
func (a *App) outlineView(ctx context.Context, m *manuscript.Manuscript, o manuscript.OutlineResult) OutlineView {
	v := OutlineView{Revision: o.Revision, TotalWords: o.TotalWords, Items: o.Items, Headings: make([]OutlineHeading, 0, len(o.Headings))}
	for _, h := range o.Headings {
		v.Headings = append(v.Headings, OutlineHeading{Index: h.Index, Level: h.Level, Text: h.Text, Words: h.Words, OwnWords: h.OwnWords,
			Label: h.Pointer.Label, Pos: h.Utf16Offset})
	}
	v.TodayWords = a.todayWords(ctx, m, v.TotalWords)
	return v
}

// warm makes the outline and the zipped text of the open manuscript while the
// window starts, so its first questions are answered at once.
func (a *App) warm() {
	if _, err := a.current(); err != nil {
		return
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, _, err := a.gzipped(); err == nil {
			Mark("text zipped")
		}
	}()
	if _, err := a.Outline(); err == nil {
		Mark("outline warmed")
	}
	<-done
}

// todayWords keeps the book's word count at the first sight of each day and
// returns the change since.
func (a *App) todayWords(ctx context.Context, m *manuscript.Manuscript, total int) int {
	key := fmt.Sprintf("words.today.%d", m.DocID)
	today := time.Now().Format(time.DateOnly)
	var base struct {
		Day   string `json:"day"`
		Words int    `json:"words"`
	}
	if raw, ok, err := a.st.Setting(ctx, key); err == nil && ok && json.Unmarshal([]byte(raw), &base) == nil && base.Day == today {
		return total - base.Words
	}
	base.Day, base.Words = today, total
	b, _ := json.Marshal(base)
	_ = a.st.SetSetting(ctx, key, string(b))
	return 0
}

func docSessionID(m *manuscript.Manuscript) string { return fmt.Sprintf("doc:%d", m.DocID) }

// SaveDocumentSession remembers the window's state for the open document (cursor
// position, scroll, reading position: any JSON the window gives), so reopening
// the book puts the author back where they were.
func (a *App) SaveDocumentSession(state string) error {
	m, err := a.current()
	if err != nil {
		return err
	}
	if !json.Valid([]byte(state)) {
		return errors.New("the session state must be JSON")
	}
	return a.st.SaveSession(a.context(), docSessionID(m), "document", m.DocID, json.RawMessage(state))
}
