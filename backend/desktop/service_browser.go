package desktop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/waymark/waymark/backend/agent"
	"github.com/waymark/waymark/backend/agent/web"
	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/tools"
)

// browserSessionID keys the last browser session's history and transcript.
const browserSessionID = "browser:last"

// BrowserVisit is one page of the browser session's history.
type BrowserVisit struct {
	URL   string `json:"url"`
	Title string `json:"title"`
	At    string `json:"at"`
}

// BrowserItem is one numbered element, as the mirrored list shows it.
type BrowserItem struct {
	Number   int    `json:"number"`
	Role     string `json:"role"`
	Name     string `json:"name"`
	Value    string `json:"value,omitempty"`
	Href     string `json:"href,omitempty"`
	Disabled bool   `json:"disabled,omitempty"`
	Checked  *bool  `json:"checked,omitempty"`
}

// BrowserView is the outcome of one step in the browser workspace: the short
// line to say, the tool's status, and the refreshed state (numbered elements,
// tabs, downloads). Say and Result are BrowseCommand's answer, in the
// command's language: the terminal says the same lines.
type BrowserView struct {
	Say    string          `json:"say"`
	Tool   string          `json:"tool"`
	Status string          `json:"status"`
	Error  string          `json:"error,omitempty"`
	Result string          `json:"result"`
	Lang   string          `json:"lang"`
	Data   json.RawMessage `json:"data,omitempty"`
	// NeedsModel: the line is no number command; it may be a goal in plain
	// words (BrowserGoal, when a model server is set).
	NeedsModel bool `json:"needsModel,omitempty"`
	// Items is the current numbering (refreshed after every step), Total how
	// many there are in all.
	Items []BrowserItem `json:"items"`
	Total int           `json:"total"`
	// TotalAtLeast: Total is a lower bound (only the first window of a long
	// page is numbered yet).
	TotalAtLeast bool               `json:"totalAtLeast,omitempty"`
	URL          string             `json:"url"`
	Title        string             `json:"title"`
	Tabs         []browser.Tab      `json:"tabs"`
	Downloads    []browser.Download `json:"downloads"`
	// Dialog is a JavaScript dialog the page opened, for the user to answer.
	Dialog *browser.Dialog `json:"dialog,omitempty"`
	// DialogText is that dialog in words, in the command's language ("The
	// page asks: …"): the last line of Result, for the window's dialog.
	DialogText string `json:"dialogText,omitempty"`
	// Stale: the page changed since the list the items come from (the
	// numbers may mean other elements now: say list).
	Stale bool `json:"stale,omitempty"`
}

// browserMirror is the numbering the window mirrors: the one the user's own
// last list made (the numbers BrowseCommand acts by), never one the window
// made by itself, so a number means in the window what it means in the
// terminal (issue 33 point 4: a list the window took after every step made a
// stale number click another element).
type browserMirror struct {
	items   []BrowserItem
	total   int
	atLeast bool
	gen     int64
	url     string
	stale   bool
}

// stepOutcome is what the mirror needs from a step's data.
type stepOutcome struct {
	Generation int64 `json:"generation"`
	Stale      bool  `json:"numbering_stale"`
	Navigated  bool  `json:"navigated"`
}

// browserCtx binds the window's current browser and its browsing
// conversation to ctx for the browser tools. What the window asks for is the
// user's own command, so a file: address or file it names is theirs (the
// assistant's goals run with no such grant: Assistant.Run replaces it).
func (a *App) browserCtx(ctx context.Context) context.Context {
	ctx = web.WithBrowsing(browser.WithGrant(ctx, browser.Grant{User: true}), &a.browsing)
	a.ssMu.Lock()
	defer a.ssMu.Unlock()
	if a.ss == nil {
		return ctx
	}
	return browser.WithSessions(ctx, a.ss)
}

func (a *App) needBrowser() error {
	a.ssMu.Lock()
	defer a.ssMu.Unlock()
	if a.ss == nil {
		return errors.New("this window has no browser (Chromium is not available)")
	}
	return nil
}

// BrowserCommand runs a direct command ("list", "click 5", "type 3 hello",
// "go to example.org", in English or Russian) with no model, through the
// BrowseCommand tool. Anything else comes back with NeedsModel: a goal for the
// assistant when a model server is configured.
func (a *App) BrowserCommand(text string) (BrowserView, error) {
	if err := a.needBrowser(); err != nil {
		return BrowserView{}, err
	}
	text = strings.TrimSpace(text)
	if text == "" {
		return BrowserView{}, errors.New("type a command (list, click 5, type 3 hello, go to example.org) or a goal")
	}
	a.browserLog("command", loggedCommand(text))
	return a.browserCommand(web.BrowseCommandArgs{Command: text})
}

// loggedCommand is a number command as the transcript keeps it: text typed
// into a field (a password, a code, a message) is never stored, only the
// field's number.
func loggedCommand(text string) string {
	if st, err := new(web.Browsing).Parse(text); err == nil {
		if n, ok := st.TypedInto(); ok {
			verb, _, _ := strings.Cut(text, " ")
			return fmt.Sprintf("%s %v (typed text not kept)", verb, n)
		}
	}
	return text // the store hides a secret it states (store.HideSecrets)
}

// BrowserAct acts on a numbered element of the mirrored list: click, type or
// select, said as the number command it is.
func (a *App) BrowserAct(index int, action, text string) (BrowserView, error) {
	if err := a.needBrowser(); err != nil {
		return BrowserView{}, err
	}
	switch action {
	case "click":
	case "type", "select":
		if text == "" {
			return BrowserView{}, fmt.Errorf("%s %d needs the text to %s", action, index, action)
		}
	default:
		return BrowserView{}, fmt.Errorf("action %q: click, type or select", action)
	}
	a.browserLog("command", fmt.Sprintf("%s %d", action, index))
	return a.browserStep(func(ctx context.Context) (web.BrowseAnswer, error) {
		return a.browsing.Act(ctx, a.reg, index, action, text), nil
	})
}

// BrowserAnswerDialog answers the page's JavaScript dialog with the user's choice.
func (a *App) BrowserAnswerDialog(accept bool, text string) (BrowserView, error) {
	return a.browserCommand(web.BrowseCommandArgs{Dialog: &web.DialogAnswer{Accept: accept, Text: text}})
}

// BrowserRefresh numbers the page again and returns the state (after a
// goal: the assistant's last list is the numbering in force).
func (a *App) BrowserRefresh() (BrowserView, error) {
	if err := a.needBrowser(); err != nil {
		return BrowserView{}, err
	}
	defer a.browserWorking()()
	ctx := a.browserCtx(a.context())
	v := BrowserView{Tool: "browser_list_interactives", Status: "ok", Items: []BrowserItem{}, Tabs: []browser.Tab{}}
	if r, err := call(a, ctx, browser.ListInteractivesRef, browser.ListInteractivesArgs{Limit: 200}, tools.Context{}); err == nil && r.Status == "ok" && r.Data != nil {
		b, _ := json.Marshal(r.Data)
		a.noteList(b)
	}
	a.fillBrowserState(ctx, &v, true)
	return v, nil
}

// browserCommand runs one command through BrowseCommand (the interpreter
// the terminal uses too), as browserStep.
func (a *App) browserCommand(args web.BrowseCommandArgs) (BrowserView, error) {
	return a.browserStep(func(ctx context.Context) (web.BrowseAnswer, error) {
		return call(a, ctx, web.BrowseCommandRef, args, tools.Context{})
	})
}

// browserStep runs one step of the window's browsing conversation (a
// command through BrowseCommand, the interpreter the terminal uses too, or
// an act by number), then refreshes the tabs, downloads and the mirrored
// list: the items of the user's last list, marked stale when the page
// changed since. It never numbers the page itself: that would put numbers
// in force the user never heard.
func (a *App) browserStep(run func(ctx context.Context) (web.BrowseAnswer, error)) (BrowserView, error) {
	defer a.browserWorking()()
	ctx := a.browserCtx(a.context())
	v := BrowserView{Items: []BrowserItem{}, Tabs: []browser.Tab{}, Downloads: []browser.Download{}}
	ans, err := run(ctx)
	if err != nil {
		err = errors.New(web.Spoken(err.Error()))
		a.browserLog("error", err.Error())
		return v, err
	}
	v.Say, v.Tool, v.Status, v.Result, v.Lang, v.Data, v.Dialog, v.NeedsModel = ans.Say, ans.Tool, ans.Status, ans.Text, string(ans.Lang), ans.Data, ans.Dialog, ans.NeedsModel
	if ans.Status != "ok" {
		v.Error = ans.Text
	}
	if ans.Dialog != nil {
		v.DialogText = web.DialogLine(ans.Lang, *ans.Dialog)
	}
	a.noteDownload(ans)
	if ans.Status == "not_a_command" {
		a.browserLog("error", ans.Text)
	} else {
		a.browserLog("result", ans.Lines())
	}
	if ans.Tool == "browser_list_interactives" && ans.Status == "ok" {
		a.noteList(ans.Data)
	} else if ans.Tool != "" {
		a.noteChange(ans.Data)
	}
	// While the page's dialog waits, the page answers nothing (its tabs
	// included): the mirror and downloads only.
	a.fillBrowserState(ctx, &v, v.Dialog == nil)
	return v, nil
}

// browserWorking tells the window a browser step runs (Config.BrowserBusy:
// Chromium starting, a page's dialog or a new tab must not take the
// keyboard from it, issue 33 point 1); the func it returns says it ended.
func (a *App) browserWorking() func() {
	if a.browserBusy == nil {
		return func() {}
	}
	a.browserBusy(true)
	return func() { a.browserBusy(false) }
}

// noteDownload keeps a file a command downloaded for the Downloads list.
func (a *App) noteDownload(ans web.BrowseAnswer) {
	if ans.Status != "ok" || (ans.Tool != "browser_click_and_wait_download" && ans.Tool != "browser_download_wait") {
		return
	}
	var d browser.Download
	if json.Unmarshal(ans.Data, &d) == nil && d.Path != "" {
		a.browserMu.Lock()
		a.downloads = append(a.downloads, d)
		a.browserMu.Unlock()
	}
}

// noteList makes a list's items (browser_list_interactives' data) the
// mirrored numbering.
func (a *App) noteList(data json.RawMessage) {
	var l struct {
		Generation int64         `json:"generation"`
		Total      int           `json:"total"`
		AtLeast    bool          `json:"total_at_least"`
		URL        string        `json:"url"`
		Items      []BrowserItem `json:"items"`
	}
	if json.Unmarshal(data, &l) != nil || l.Items == nil {
		return
	}
	a.browserMu.Lock()
	a.mirror = browserMirror{items: l.Items, total: l.Total, atLeast: l.AtLeast, gen: l.Generation, url: l.URL}
	a.browserMu.Unlock()
}

// noteChange marks the mirrored numbering stale when a step reports that
// the page changed, navigated, or was numbered again (a find on a changed
// page numbers it anew).
func (a *App) noteChange(data json.RawMessage) {
	var o stepOutcome
	_ = json.Unmarshal(data, &o)
	a.browserMu.Lock()
	defer a.browserMu.Unlock()
	if o.Stale || o.Navigated || (o.Generation != 0 && o.Generation != a.mirror.gen) {
		a.mirror.stale = true
	}
}

// fillBrowserState adds the mirrored numbering, downloads, and (with tabs)
// the tabs and page. The mirror of another page than the one shown now is
// dropped.
func (a *App) fillBrowserState(ctx context.Context, v *BrowserView, tabs bool) {
	if !tabs {
		a.fillMirror(v)
		return
	}
	if r, err := call(a, ctx, browser.TabsRef, browser.TabsArgs{}, tools.Context{}); err == nil && r.Status == "ok" && r.Data != nil {
		v.Tabs = r.Data.Tabs
		for _, tab := range r.Data.Tabs {
			if tab.Current {
				v.URL, v.Title = tab.URL, tab.Title
			}
		}
	}
	if v.URL != "" {
		a.noteVisit(v.URL, v.Title)
	}
	a.browserMu.Lock()
	if m := &a.mirror; m.url != "" && v.URL != "" && noFragment(v.URL) != noFragment(m.url) {
		*m = browserMirror{stale: true}
	}
	a.browserMu.Unlock()
	a.fillMirror(v)
}

// fillMirror adds the mirrored numbering and the downloads.
func (a *App) fillMirror(v *BrowserView) {
	a.browserMu.Lock()
	if a.mirror.items != nil {
		v.Items = append([]BrowserItem{}, a.mirror.items...)
	}
	v.Total, v.TotalAtLeast, v.Stale = a.mirror.total, a.mirror.atLeast, a.mirror.stale
	v.Downloads = append([]browser.Download{}, a.downloads...)
	a.browserMu.Unlock()
}

// noFragment is an address without its #fragment (a link within the page
// keeps its numbering).
func noFragment(u string) string {
	u, _, _ = strings.Cut(u, "#")
	return u
}

// noteVisit keeps the session's history (last 50 pages) in SQLite.
func (a *App) noteVisit(url, title string) {
	a.browserMu.Lock()
	if n := len(a.history); n > 0 && a.history[n-1].URL == url {
		a.history[n-1].Title = title
	} else {
		a.history = append(a.history, BrowserVisit{URL: url, Title: title, At: time.Now().Format(time.DateTime)})
		if len(a.history) > 50 {
			a.history = a.history[len(a.history)-50:]
		}
	}
	b, _ := json.Marshal(map[string]any{"history": a.history})
	a.browserMu.Unlock()
	_ = a.st.SaveSession(context.Background(), browserSessionID, "browser", 0, b)
}

// browserLog keeps the browser session's transcript (commands and results)
// and sends it as a "browser:log" event: both without any text typed into a
// field or secret the user's words state (the store hides them, issue 21).
func (a *App) browserLog(role, text string) {
	_ = a.st.EnsureSession(context.Background(), browserSessionID, "browser", 0)
	text = a.st.HideSecrets(role, text)
	b, _ := json.Marshal(text)
	_ = a.st.AppendTranscript(context.Background(), browserSessionID, role, string(b))
	a.send("browser:log", map[string]string{"role": role, "text": text})
}

// BrowserSession is the last browser session, for the window to restore.
type BrowserSession struct {
	History    []BrowserVisit    `json:"history"`
	Transcript []TranscriptEntry `json:"transcript"`
	Running    bool              `json:"running"`
}

// BrowserSessionState returns the last session's history and transcript.
func (a *App) BrowserSessionState() (BrowserSession, error) {
	ctx := a.context()
	out := BrowserSession{History: []BrowserVisit{}}
	a.browserMu.Lock()
	if len(a.history) == 0 {
		if s, ok, err := a.st.Session(ctx, browserSessionID); err == nil && ok {
			var st struct {
				History []BrowserVisit `json:"history"`
			}
			if json.Unmarshal(s.State, &st) == nil {
				a.history = st.History
			}
		}
	}
	out.History = append(out.History, a.history...)
	a.browserMu.Unlock()
	t, err := a.Transcript("browser")
	if err != nil {
		return out, err
	}
	out.Transcript = t
	a.runMu.Lock()
	out.Running = a.cancel != nil
	a.runMu.Unlock()
	return out, nil
}

// BrowserGoal pursues a goal in plain words with the assistant, through the
// BrowserGoal tool (needs a model server). Progress lines arrive as
// "browser:progress" events, questions as "browser:ask" (answer with
// BrowserAnswer); Stop cancels.
func (a *App) BrowserGoal(goal string) (web.AssistantResult, error) {
	if err := a.needBrowser(); err != nil {
		return web.AssistantResult{}, err
	}
	goal = strings.TrimSpace(goal)
	if goal == "" {
		return web.AssistantResult{}, errors.New("say what you want to do on the web, e.g. find the weather in Kazan")
	}
	if !llm.Understands(a.model()) {
		return web.AssistantResult{}, fmt.Errorf("%w: goals in plain words need a model server (Settings → Model server). Without one, use number commands: say help to hear them", agent.ErrNeedsModel)
	}
	ctx, done, err := a.begin("browser goal")
	if err != nil {
		return web.AssistantResult{}, err
	}
	defer done()
	defer a.browserWorking()()
	a.settingsMu.Lock()
	s := a.settings
	a.settingsMu.Unlock()
	// A password or code the goal states is never stored nor said: the
	// transcript keeps the goal, the progress lines and the outcome without
	// it (browserLog; the store remembers it from the goal).
	a.browserLog("goal", goal)
	ctx = web.WithGoalOptions(a.browserCtx(ctx), web.GoalOptions{Pause: time.Duration(s.PauseMs) * time.Millisecond,
		AskTimeout: time.Duration(s.AskTimeoutSec) * time.Second, Screenshots: true,
		Log: func(l web.StepLog) { a.send("browser:step", l) }, Ask: a.ask})
	res, err := call(a, ctx, web.BrowserGoalRef, web.BrowserGoalArgs{Goal: goal, MaxSteps: min(max(s.IterationLimit, 0), 100)}, tools.Context{Progress: func(p tools.Progress) {
		if p.Event == "step" {
			a.browserLog("progress", p.Text)
			a.send("browser:progress", a.st.HideSecrets("progress", p.Text))
		}
	}})
	if err != nil {
		if errors.Is(err, context.Canceled) {
			a.browserLog("result", "Stopped.")
			return res, errors.New("stopped")
		}
		a.browserLog("error", err.Error())
		return res, err
	}
	if res.Done {
		a.browserLog("result", "Goal reached: "+res.Reason)
	} else {
		a.browserLog("result", "Goal not reached: "+res.Reason)
	}
	return res, nil
}

// ask puts the assistant's question to the window and waits for BrowserAnswer
// (or the time-out, or Stop).
func (a *App) ask(ctx context.Context, q string) (string, error) {
	ch := make(chan string, 1)
	a.askMu.Lock()
	a.askCh = ch
	a.askMu.Unlock()
	defer func() {
		a.askMu.Lock()
		if a.askCh == ch {
			a.askCh = nil
		}
		a.askMu.Unlock()
	}()
	a.browserLog("question", q)
	a.send("browser:ask", q)
	a.settingsMu.Lock()
	wait := time.Duration(a.settings.AskTimeoutSec) * time.Second
	a.settingsMu.Unlock()
	select {
	case ans, ok := <-ch:
		if !ok {
			return "", context.Canceled
		}
		a.send("browser:asked", "")
		return ans, nil
	case <-time.After(wait):
		a.send("browser:asked", "")
		return "", nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// BrowserAnswer answers the assistant's open question (the answer joins the
// history as the user's words; it is not logged).
func (a *App) BrowserAnswer(answer string) error {
	a.askMu.Lock()
	defer a.askMu.Unlock()
	if a.askCh == nil {
		return errors.New("there is no open question to answer")
	}
	a.askCh <- answer
	a.askCh = nil
	a.st.HideSecrets("answer", answer) // a secret it states is hidden from now on
	a.browserLog("answer", "(answered)")
	return nil
}
