package browser

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/ysmood/gson"
)

// The consent world runs @duckduckgo/autoconsent (its content script and
// compact opt-out rules, copied here by build/setup.sh from the npm package)
// after consent.js, Waymark's bridge and generic rules.
//
//go:embed consent.js autoconsent
var consentFiles embed.FS

const consentWorld = "waymark-consent"

// BannerOptions configure the banner hook (SPEC §5). The zero value is on,
// with 2 passes within 2000 ms, at most 800 ms a pass once the budget is
// partly spent, rejecting non-essential cookies.
type BannerOptions struct {
	Disabled bool
	// Passes is how many rounds of closing run at most (1–3; default 2).
	Passes int
	// TotalBudget caps one hook run (default 2000 ms; 1500–2500 is sensible).
	TotalBudget time.Duration
	// PassBudget caps each pass after the first (default 800 ms).
	PassBudget time.Duration
	// AcceptIfOnlyWay lets the generic rules press "Accept" when a banner has
	// no reject or close button (default: leave such a banner and say so).
	AcceptIfOnlyWay bool
}

// validate says what is wrong with a banner configuration, and what is
// allowed (zero values mean the defaults).
func (o BannerOptions) validate() error {
	const minBudget, maxBudget = 100 * time.Millisecond, 10 * time.Second
	switch {
	case o.Passes < 0 || o.Passes > 3:
		return fmt.Errorf("banner passes %d: use 1 to 3 (0 means the default, 2)", o.Passes)
	case o.TotalBudget < 0 || (o.TotalBudget > 0 && o.TotalBudget < minBudget) || o.TotalBudget > maxBudget:
		return fmt.Errorf("banner total budget %s: use %s to %s (0 means the default, 2s; 1.5s to 2.5s suits most sites)", o.TotalBudget, minBudget, maxBudget)
	case o.PassBudget < 0 || (o.PassBudget > 0 && o.PassBudget < minBudget) || o.PassBudget > maxBudget:
		return fmt.Errorf("banner pass budget %s: use %s to %s (0 means the default, 800ms)", o.PassBudget, minBudget, maxBudget)
	}
	return nil
}

func (o BannerOptions) withDefaults() BannerOptions {
	if o.Passes <= 0 {
		o.Passes = 2
	}
	if o.TotalBudget <= 0 {
		o.TotalBudget = 2000 * time.Millisecond
	}
	if o.PassBudget <= 0 {
		o.PassBudget = 800 * time.Millisecond
	}
	return o
}

// BannerReport is what the hook did: how many banners it found and closed,
// by which rule, how long it took. It never holds page text.
type BannerReport struct {
	Trigger        string   `json:"trigger"`
	Found          int      `json:"found"`
	Closed         int      `json:"closed"`
	Passes         int      `json:"passes"`
	Rules          []string `json:"rules"`
	Ms             int64    `json:"ms"`
	LeftoversFixed int      `json:"leftovers_fixed"`
	Renumbered     int64    `json:"renumbered"` // the new list's generation; 0: none
	Note           string   `json:"note,omitempty"`
}

// budgetRanOut ends a report's note when the banner budget was spent (the
// tests tell a hook that waited out its budget by it).
const budgetRanOut = "ran out"

// consentSource is the script of the consent world, and autoconsent's
// rules, which are not in it: they are handed to a document when its
// autoconsent starts (giveRules). Built once per process; no rules when the
// autoconsent files are not installed.
var consentSource = sync.OnceValues(func() (string, json.RawMessage) {
	cfg := map[string]any{
		"enabled": true, "autoAction": "optOut", "disabledCmps": []string{}, "enablePrehide": false,
		"enableCosmeticRules": true, "enableGeneratedRules": true, "detectRetries": 8, "isMainWorld": false,
		"enableHeuristicDetection": false, "logs": map[string]bool{"errors": false},
	}
	cb, _ := json.Marshal(cfg)
	have := "false"
	var rules json.RawMessage
	script, err1 := consentFiles.ReadFile("autoconsent/autoconsent.playwright.js")
	rb, err2 := consentFiles.ReadFile("autoconsent/compact-rules.json")
	if err1 == nil && err2 == nil && json.Valid(rb) {
		have = "true"
		rules = json.RawMessage(`{"compact": ` + string(rb) + `}`)
	} else {
		script = nil
	}
	bridge, _ := consentFiles.ReadFile("consent.js")
	src := strings.Replace(string(bridge), "__WMC_CONFIG__", string(cb), 1)
	src = strings.Replace(src, "__WMC_HAVE_RULES__", have, 1)
	return src + "\n" + string(script), rules
})

// giveRules hands autoconsent's rules to the frame's consent world when its
// autoconsent is to start and has none (C.needRules).
func (s *Session) giveRules(ctx context.Context, frame proto.PageFrameID) {
	if len(s.consentRules) > 0 {
		_, _ = s.consentCall(ctx, frame, "rulesIn", s.consentRules)
	}
}

// consentAfterLoad starts autoconsent in the page's frames after the top
// document's load event (at 300 ms, 1.5 s and 4 s), unless the page has
// moved on: a consent platform the page draws by itself is answered even
// when no hook looks. Frames whose autoconsent started already cost one
// short call each.
func (s *Session) consentAfterLoad(e *pageEvents, loadedAt time.Time) {
	if s.opts.Banners.Disabled || len(s.consentRules) == 0 {
		return
	}
	e.mu.Lock()
	doc := e.navCommitted
	e.mu.Unlock()
	for _, after := range []time.Duration{300 * time.Millisecond, 1500 * time.Millisecond, 4 * time.Second} {
		select {
		case <-s.ctx.Done():
			return
		case <-time.After(time.Until(loadedAt.Add(after))):
		}
		e.mu.Lock()
		moved := e.navCommitted != doc
		e.mu.Unlock()
		if moved || e.pendingDialog() != nil {
			return
		}
		// The session's page is the session's: while a tool runs (it may
		// switch tabs, and its own hook looks at banners), this round is
		// left out rather than making the tool wait.
		if !s.mu.TryLock() {
			continue
		}
		if s.ev == e {
			ctx, cancel := context.WithTimeout(s.ctx, 2*time.Second)
			for _, f := range s.frameIDs(ctx) {
				if v, err := s.consentCall(ctx, f, "want"); err == nil && v.Bool() {
					s.giveRules(ctx, f)
				}
			}
			cancel()
		}
		s.mu.Unlock()
	}
}

// installConsent makes every document of p start the consent world.
func (s *Session) installConsent(ctx context.Context) {
	if s.opts.Banners.Disabled {
		return
	}
	_, _ = proto.PageAddScriptToEvaluateOnNewDocument{Source: s.consentJS, WorldName: consentWorld, RunImmediately: true}.Call(s.page.Context(ctx))
}

type consentPoll struct {
	Msgs []struct {
		Type     string          `json:"type"`
		ID       string          `json:"id"`
		Code     string          `json:"code"`
		Cmp      string          `json:"cmp"`
		Result   json.RawMessage `json:"result"`
		Cosmetic bool            `json:"cosmetic"`
	} `json:"msgs"`
	Lifecycle string   `json:"lifecycle"`
	Cmps      []string `json:"cmps"`
	// NeedRules: autoconsent is to start and waits for its rules.
	NeedRules bool `json:"needRules"`
	Banners   int  `json:"banners"`
	// Looked: autoconsent began a detection attempt while a banner was on
	// screen, and it has had time to finish.
	Looked bool `json:"looked"`
	// SinceDetected is how long ago (ms) autoconsent found a consent platform
	// in the frame; -1: none.
	SinceDetected int64 `json:"sinceDetected"`
}

// detectedGrace is how long the hook waits for the popup of a consent
// platform autoconsent found when no banner is on screen (autoconsent itself
// looks for 5 s; a platform whose consent is already stored shows none).
const detectedGrace = 700 * time.Millisecond

// waitsFor says whether a frame's autoconsent needs more time: a rule is
// opting out, a platform was just found, or a banner is on screen that it
// has not yet looked at (the last two only while patient).
func (p consentPoll) waitsFor(patient bool) bool {
	switch {
	case busyLifecycles[p.Lifecycle]:
		return true
	case p.SinceDetected >= 0 && (p.Lifecycle == "cmpDetected" || startingLifecycles[p.Lifecycle]):
		return p.Banners > 0 || time.Duration(p.SinceDetected)*time.Millisecond < detectedGrace
	case p.Banners > 0 && startingLifecycles[p.Lifecycle] && !p.Looked:
		return patient
	}
	return false
}

// consentCall runs fn (a function of the consent world's __wmc) in a frame.
func (s *Session) consentCall(ctx context.Context, frame proto.PageFrameID, fn string, args ...any) (gson.JSON, error) {
	fp := s.pageFor(frame)
	w, err := proto.PageCreateIsolatedWorld{FrameID: frame, WorldName: consentWorld}.Call(fp.Context(ctx))
	if err != nil {
		return gson.JSON{}, err
	}
	p := fp.Context(ctx)
	for attempt := 0; attempt < 2; attempt++ {
		var cargs []*proto.RuntimeCallArgument
		for _, a := range args {
			cargs = append(cargs, &proto.RuntimeCallArgument{Value: gson.New(a)})
		}
		res, err := proto.RuntimeCallFunctionOn{FunctionDeclaration: `function(fn, ...a) { const C = globalThis.__wmc; if (!C) return "\u0000missing"; return C[fn](...a); }`,
			ExecutionContextID: w.ExecutionContextID, Arguments: append([]*proto.RuntimeCallArgument{{Value: gson.New(fn)}}, cargs...),
			ReturnByValue: true, AwaitPromise: true}.Call(p)
		if err != nil {
			return gson.JSON{}, err
		}
		if res.ExceptionDetails != nil {
			return gson.JSON{}, jsError(res.ExceptionDetails)
		}
		if res.Result.Value.Str() == "\u0000missing" {
			// A document from before the hook was installed: start the world now.
			if _, err := (proto.RuntimeEvaluate{Expression: s.consentJS, ContextID: w.ExecutionContextID}).Call(p); err != nil {
				return gson.JSON{}, err
			}
			continue
		}
		return res.Result.Value, nil
	}
	return gson.JSON{}, fmt.Errorf("the consent world did not start")
}

// frameIDs lists the page's frames that live in its process.
func (s *Session) frameIDs(ctx context.Context) []proto.PageFrameID {
	tree, err := proto.PageGetFrameTree{}.Call(s.page.Context(ctx))
	if err != nil || tree.FrameTree == nil {
		return []proto.PageFrameID{s.page.FrameID}
	}
	var out []proto.PageFrameID
	var walk func(t *proto.PageFrameTree)
	walk = func(t *proto.PageFrameTree) {
		if t == nil || t.Frame == nil || len(out) >= maxFrames {
			return
		}
		out = append(out, t.Frame.ID)
		for _, c := range t.ChildFrames {
			walk(c)
		}
	}
	walk(tree.FrameTree)
	// Frames inside out-of-process frames are in their own sessions' trees.
	if s.frames != nil {
		seen := map[proto.PageFrameID]bool{}
		for _, f := range out {
			seen[f] = true
		}
		for _, fp := range s.frames.all() {
			t, err := proto.PageGetFrameTree{}.Call(fp.Context(ctx))
			if err != nil || t.FrameTree == nil {
				continue
			}
			var sub []proto.PageFrameID
			var w2 func(t *proto.PageFrameTree)
			w2 = func(t *proto.PageFrameTree) {
				if t == nil || t.Frame == nil || len(out)+len(sub) >= maxFrames {
					return
				}
				if !seen[t.Frame.ID] {
					seen[t.Frame.ID] = true
					sub = append(sub, t.Frame.ID)
				}
				for _, c := range t.ChildFrames {
					w2(c)
				}
			}
			w2(t.FrameTree)
			out = append(out, sub...)
		}
	}
	return out
}

// busyLifecycles are autoconsent states in which it is working on a popup;
// in the starting ones it is still looking for a consent platform.
var (
	busyLifecycles     = map[string]bool{"openPopupDetected": true, "runningOptOut": true}
	startingLifecycles = map[string]bool{"": true, "loading": true, "waitingForInitResponse": true, "initialized": true, "started": true}
)

// closeBanners is the banner hook: up to Passes rounds within the budgets.
// Each round reads every frame's autoconsent state (answering its eval
// requests in the frame's main world), waits while a rule is working on a
// popup, then lets the generic rules close what is left. It never blocks
// longer than TotalBudget, and re-numbers when it closed something while a
// numbering was active. The lock is held.
func (s *Session) closeBanners(ctx context.Context, trigger string) *BannerReport {
	rep := s.closeBannersOnly(ctx, trigger)
	s.renumberAfterBanners(ctx, rep)
	return rep
}

// closeBannersOnly is the hook without the re-numbering, so that it can run
// while a navigation settles (afterNav); renumberAfterBanners follows it.
func (s *Session) closeBannersOnly(ctx context.Context, trigger string) *BannerReport {
	o := s.opts.Banners.withDefaults()
	rep := &BannerReport{Trigger: trigger, Rules: []string{}}
	if o.Disabled {
		rep.Note = "Banner closing is off."
		return rep
	}
	if s.ev.pendingDialog() != nil {
		rep.Note = "A dialog is open; banners wait."
		return rep
	}
	start := time.Now()
	deadline := start.Add(o.TotalBudget)
	hctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	b := &bannerRun{s: s, o: o, rep: rep, rules: map[string]bool{}}
	for pass := 1; pass <= o.Passes && hctx.Err() == nil; pass++ {
		rep.Passes = pass
		passEnd := deadline
		if pass > 1 {
			passEnd = minTime(deadline, time.Now().Add(o.PassBudget))
		}
		if b.pass(hctx, passEnd) == 0 {
			break
		}
		sleepCtx(hctx, 120*time.Millisecond) // let the page remove what it closed
	}
	b.finish(ctx, trigger, start, deadline)
	return rep
}

// bannerRun is one run of the banner hook: its options, its report and the
// rules that closed something.
type bannerRun struct {
	s     *Session
	o     BannerOptions
	rep   *BannerReport
	rules map[string]bool
}

// pass is one round of the hook until passEnd: autoconsent's rules while
// they work on a popup, then the generic rules where a banner is on screen.
// It returns how many banners it closed.
func (b *bannerRun) pass(hctx context.Context, passEnd time.Time) int {
	passStart := time.Now()
	patientUntil := passStart.Add(passEnd.Sub(passStart) * 6 / 10)
	pctx, pcancel := context.WithDeadline(hctx, passEnd)
	defer pcancel()
	frames := b.s.frameIDs(pctx)
	// Frames whose last poll saw no banner on screen: the generic rules
	// (which close banners on screen only) need not look there.
	noBanner := map[proto.PageFrameID]bool{}
	closed := 0
	for pctx.Err() == nil {
		busy, c := b.pollFrames(pctx, frames, noBanner, patientUntil)
		closed += c
		if !busy {
			break
		}
		sleepCtx(pctx, 40*time.Millisecond)
	}
	// What no autoconsent rule closed: the generic rules.
	return closed + b.generic(pctx, frames, noBanner)
}

// pollFrames reads each frame's autoconsent state once, answering what it
// asks; busy while a rule is working on a popup (before patientUntil: also
// while it is still looking for a consent platform).
func (b *bannerRun) pollFrames(pctx context.Context, frames []proto.PageFrameID, noBanner map[proto.PageFrameID]bool, patientUntil time.Time) (busy bool, closed int) {
	s := b.s
	for _, f := range frames {
		delete(noBanner, f)
		v, err := s.consentCall(pctx, f, "poll")
		if err != nil {
			continue
		}
		var poll consentPoll
		if json.Unmarshal([]byte(v.Str()), &poll) != nil {
			continue
		}
		if poll.NeedRules {
			s.giveRules(pctx, f)
		}
		noBanner[f] = poll.Banners == 0
		closed += b.answer(pctx, f, poll)
		if poll.waitsFor(time.Now().Before(patientUntil)) {
			busy = true
		}
	}
	return busy, closed
}

// answer handles a frame's autoconsent messages and returns how many
// banners its rules closed.
func (b *bannerRun) answer(pctx context.Context, f proto.PageFrameID, poll consentPoll) (closed int) {
	for _, m := range poll.Msgs {
		switch m.Type {
		case "eval":
			b.s.consentEval(pctx, f, m.ID, m.Code)
		case "popupFound":
			b.rep.Found++
		case "optOutResult":
			if string(m.Result) == "true" && !b.rules["autoconsent:"+m.Cmp] {
				b.rules["autoconsent:"+m.Cmp] = true
				closed++
				b.rep.Closed++
			}
		}
	}
	return closed
}

// generic runs the generic rules in the frames that may show a banner and
// returns how many banners they closed.
func (b *bannerRun) generic(pctx context.Context, frames []proto.PageFrameID, noBanner map[proto.PageFrameID]bool) (closed int) {
	rep := b.rep
	for _, f := range frames {
		if pctx.Err() != nil {
			break
		}
		if noBanner[f] {
			continue
		}
		v, err := b.s.consentCall(pctx, f, "generic", map[string]any{"acceptIfOnlyWay": b.o.AcceptIfOnlyWay})
		if err != nil {
			continue
		}
		var done []struct {
			How     string `json:"how"`
			Buttons int    `json:"buttons"`
		}
		_ = json.Unmarshal([]byte(mustJSON(v)), &done)
		for _, d := range done {
			rep.Found++
			if d.How == "none" {
				rep.Note = strings.TrimSpace(rep.Note + " A banner has no reject or close button; it was left open (accepting is off).")
				continue
			}
			closed++
			rep.Closed++
			b.rules["generic:"+d.How] = true
		}
	}
	return closed
}

// finish fixes what closed banners left behind (a locked scroll), and
// completes the report: rules, notes, time.
func (b *bannerRun) finish(ctx context.Context, trigger string, start, deadline time.Time) {
	s, rep, o := b.s, b.rep, b.o
	if rep.Closed > 0 {
		lctx, lcancel := context.WithTimeout(ctx, 300*time.Millisecond)
		for _, f := range s.frameIDs(lctx) {
			if v, err := s.consentCall(lctx, f, "leftovers"); err == nil {
				rep.LeftoversFixed += v.Int()
			}
		}
		lcancel()
	}
	for r := range b.rules {
		rep.Rules = append(rep.Rules, r)
	}
	slices.Sort(rep.Rules)
	if len(s.consentRules) == 0 {
		rep.Note = strings.TrimSpace(rep.Note + " The autoconsent rules are not installed (run bash build/setup.sh); only the generic rules ran.")
	}
	if !time.Now().Before(deadline) && ctx.Err() == nil {
		rep.Note = strings.TrimSpace(rep.Note + fmt.Sprintf(" The banner budget of %s %s.", o.TotalBudget, budgetRanOut))
	}
	rep.Ms = time.Since(start).Milliseconds()
	if rep.Found > 0 || rep.Closed > 0 {
		s.logf("banners: trigger=%s found=%d closed=%d passes=%d rules=%v ms=%d leftovers=%d", trigger, rep.Found, rep.Closed, rep.Passes, rep.Rules, rep.Ms, rep.LeftoversFixed)
	}
}

// renumberAfterBanners numbers the page again when the hook closed a banner
// while a numbering was active.
func (s *Session) renumberAfterBanners(ctx context.Context, rep *BannerReport) {
	if rep == nil || rep.Closed == 0 {
		return
	}
	if n := s.current.Load(); n != nil {
		if _, err := s.list(ctx, ListOptions{Scope: n.scope, Limit: n.limit, Offset: n.offset}); err == nil {
			rep.Renumbered = s.current.Load().gen
		}
	}
}

func mustJSON(v gson.JSON) string {
	b, _ := v.MarshalJSON()
	return string(b)
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// consentEval runs one of autoconsent's eval snippets (library code from the
// rules, never model-written) in the frame's main world, where the page's
// own objects are, and hands the result back. A snippet that fails answers
// false, so that rule step fails safely.
func (s *Session) consentEval(ctx context.Context, frame proto.PageFrameID, id, code string) {
	result, _ := s.mainEval(ctx, frame, code)
	_, _ = s.consentCall(ctx, frame, "evalResp", id, result)
}

// mainEval evaluates code in the main world of a frame and says whether it
// came out true. The top frame's main world is the page's default context;
// a child frame's is reached through its document, resolved by CDP in the
// frame's own (main) world.
func (s *Session) mainEval(ctx context.Context, frame proto.PageFrameID, code string) (bool, error) {
	if frame == s.page.FrameID {
		res, err := proto.RuntimeEvaluate{Expression: code, ReturnByValue: true, AwaitPromise: true}.Call(s.page.Context(ctx))
		if err != nil {
			return false, err
		}
		if res.ExceptionDetails != nil {
			return false, jsError(res.ExceptionDetails)
		}
		return res.Result.Value.Bool(), nil
	}
	p := s.pageFor(frame).Context(ctx)
	const group = "waymark-consent-eval"
	defer func() { _ = proto.RuntimeReleaseObjectGroup{ObjectGroup: group}.Call(p) }()
	w, err := proto.PageCreateIsolatedWorld{FrameID: frame, WorldName: consentWorld}.Call(p)
	if err != nil {
		return false, err
	}
	doc, err := proto.RuntimeEvaluate{Expression: "document", ContextID: w.ExecutionContextID, ObjectGroup: group}.Call(p)
	if err != nil {
		return false, err
	}
	if doc.Result.ObjectID == "" {
		return false, fmt.Errorf("frame %s has no document", frame)
	}
	node, err := proto.DOMDescribeNode{ObjectID: doc.Result.ObjectID}.Call(p)
	if err != nil {
		return false, err
	}
	main, err := proto.DOMResolveNode{BackendNodeID: node.Node.BackendNodeID, ObjectGroup: group}.Call(p)
	if err != nil {
		return false, err
	}
	res, err := proto.RuntimeCallFunctionOn{ObjectID: main.Object.ObjectID, FunctionDeclaration: `function(code) { return (0, this.defaultView.eval)(code); }`,
		Arguments: []*proto.RuntimeCallArgument{{Value: gson.New(code)}}, ReturnByValue: true, AwaitPromise: true}.Call(p)
	if err != nil {
		return false, err
	}
	if res.ExceptionDetails != nil {
		return false, jsError(res.ExceptionDetails)
	}
	return res.Result.Value.Bool(), nil
}

// CloseBanners runs the banner hook now (browser_close_banners).
func (s *Session) CloseBanners(ctx context.Context) (*BannerReport, error) {
	ctx, unlock, err := s.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	return s.closeBanners(ctx, "asked"), nil
}

// bannersAfter runs the hook after an action of the kind trigger, and at
// the first numbering on a new domain.
func (s *Session) bannersAfter(ctx context.Context, trigger string) *BannerReport {
	if s.opts.Banners.Disabled {
		return nil
	}
	rep := s.closeBanners(ctx, trigger)
	if pi, err := s.info(ctx); err == nil {
		s.bannerHost = hostOf(pi.URL)
	}
	return worthSaying(rep)
}

// worthSaying is the hook's report, or nil when there is nothing to say.
func worthSaying(rep *BannerReport) *BannerReport {
	if rep == nil || (rep.Found == 0 && rep.Closed == 0 && rep.Note == "" && rep.Ms < quietMs) {
		return nil
	}
	return rep
}

// consentControl matches the name of a control about cookies or consent
// (a "Cookie settings" link, a "Manage consent" button).
var consentControl = regexp.MustCompile(`(?i)cookie|куки|consent|privacy (settings|preferences|choices|center)|настройки конфиденциальности`)

// bannersAfterClick is the hook after a click. A click on a control about
// cookies or consent was the user's (or the model's) own move, often to open
// the settings on purpose: the hook then leaves the page as it is.
func (s *Session) bannersAfterClick(ctx context.Context, it *Item) *BannerReport {
	if s.opts.Banners.Disabled {
		return nil
	}
	if it != nil && consentControl.MatchString(it.Name) {
		return &BannerReport{Trigger: "click", Note: "The click was on a cookie or consent control: banners were left as they are."}
	}
	return s.bannersAfter(ctx, "click")
}

// quietMs: a hook run that found nothing is left out of an action's result
// unless it took at least this long (then the time is worth knowing).
const quietMs = 500

func hostOf(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return ""
	}
	return p.Hostname()
}
