package browser

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

// The request guard (issue 21) applies the policy to every request the
// browser makes, not only to the addresses a tool is given: a page's
// script, a redirect, a click on a link, a new tab, a frame or a form. It
// intercepts, through CDP's Fetch domain on the browser's own session (so
// new tabs and frames of every process are covered from their first
// request):
//
//   - every file: request: it goes on only when the grant in force covers
//     the file (Grant.allows); a granted page that sends the browser to
//     file:///etc/shadow is stopped there;
//   - once a password was typed in the session, every request (a
//     navigation, a script's fetch, an image, a beacon): one whose address
//     carries the password in any simple form (as it is, %-encoded, base64,
//     hex, reversed: secretForms), or whose body carries it disguised
//     (base64, hex, reversed), is stopped. A login form sent by GET, or a
//     script that puts btoa(password) into an address, gets nowhere; a
//     form's own POST with the password as it is goes on.
//
// A stopped request is aborted (net::ERR_ABORTED): no error page is
// committed, so its address reaches neither the tab's history nor the
// profile's history or cache, nor what "read page" says. The tool call in
// progress (or the next one) says what was stopped (Result.Refused).
//
// The grant in force is the one of the last tool call (setGrant): a page
// acts on its own between calls, under what its last caller was allowed.

// requestGuard is a session's interception state.
type requestGuard struct {
	mu        sync.Mutex
	documents bool      // document requests are intercepted too
	refused   []Refusal // what was stopped since the last call took them
}

// setGrant makes g the grant in force for the session's requests.
func (s *Session) setGrant(g Grant) {
	s.grant.Store(&g)
}

// grantInForce is the grant of the last tool call (none: no local file).
func (s *Session) grantInForce() Grant {
	if g := s.grant.Load(); g != nil {
		return *g
	}
	return Grant{}
}

// guardPatterns are the Fetch patterns: file: always, every request once a
// password was typed.
func guardPatterns(all bool) []*proto.FetchRequestPattern {
	if all {
		return []*proto.FetchRequestPattern{{URLPattern: "*", RequestStage: proto.FetchRequestStageRequest}}
	}
	return []*proto.FetchRequestPattern{{URLPattern: "file:*", RequestStage: proto.FetchRequestStageRequest}}
}

// startGuard turns the interception on for the session's connection and
// follows its paused requests.
func (s *Session) startGuard(ctx context.Context) error {
	s.guard = &requestGuard{}
	if _, err := s.root.Call(ctx, "", "Fetch.enable", proto.FetchEnable{Patterns: guardPatterns(false)}); err != nil {
		return fmt.Errorf("guard the browser's requests: %w", err)
	}
	wait := s.root.Context(s.ctx).EachEvent(func(ev *proto.FetchRequestPaused) {
		go s.judge(ev)
	})
	go wait()
	return nil
}

// guardDocuments intercepts every request (from the first password typed
// on).
func (s *Session) guardDocuments() {
	g := s.guard
	if g == nil {
		return
	}
	g.mu.Lock()
	if g.documents {
		g.mu.Unlock()
		return
	}
	g.documents = true
	g.mu.Unlock()
	ctx, cancel := context.WithTimeout(s.ctx, 5*time.Second)
	defer cancel()
	_, _ = s.root.Call(ctx, "", "Fetch.enable", proto.FetchEnable{Patterns: guardPatterns(true)})
}

// judge lets a paused request go on or stops it.
func (s *Session) judge(ev *proto.FetchRequestPaused) {
	ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
	defer cancel()
	var why Refusal
	if s.ownsFrame(ctx, ev.FrameID) {
		why = s.refusal(ev.Request.URL)
		if why.Kind == 0 && s.typed.codedInBody(requestBody(ev.Request)) {
			why = Refusal{RefusedDisguisedPassword, hostAndPath(mustURL(ev.Request.URL))}
		}
	}
	if why.Kind == 0 {
		_, _ = s.root.Call(ctx, "", "Fetch.continueRequest", proto.FetchContinueRequest{RequestID: ev.RequestID})
		return
	}
	_, _ = s.root.Call(ctx, "", "Fetch.failRequest", proto.FetchFailRequest{RequestID: ev.RequestID, ErrorReason: proto.NetworkErrorReasonAborted})
	s.guard.mu.Lock()
	if len(s.guard.refused) < 20 {
		s.guard.refused = append(s.guard.refused, why)
	}
	s.guard.mu.Unlock()
	s.logf("browser: a request was stopped: %s", why)
}

// refusal says why the request for raw may not go out (Kind 0 when it may).
func (s *Session) refusal(raw string) Refusal {
	u, err := url.Parse(raw)
	if err != nil {
		return Refusal{}
	}
	if strings.EqualFold(u.Scheme, "file") {
		p := u.Path
		if p == "" {
			p = u.Opaque
		}
		host := strings.ToLower(u.Host)
		if (host == "" || host == "localhost") && s.grantInForce().allows(p) {
			return Refusal{}
		}
		return Refusal{RefusedLocalFile, p}
	}
	if s.typed.carriedBy(raw) {
		return Refusal{RefusedPasswordInAddress, hostAndPath(u)}
	}
	return Refusal{}
}

// RefusalKind is what the guard stopped.
type RefusalKind int

// What the guard stops; each Refusal's What is named in its kind's text.
const (
	RefusedLocalFile         RefusalKind = iota + 1 // What: the file's path
	RefusedPasswordInAddress                        // What: the address
	RefusedDisguisedPassword                        // What: the address
	RefusedDownload                                 // What: the file's name
	RefusedFileAddress                              // What: the file: address
)

// refusalTexts are each kind's English, for the model (Result.Refused).
var refusalTexts = map[RefusalKind]string{
	RefusedLocalFile:         "the page asked for the local file %s, which this session was not given; it was not opened",
	RefusedPasswordInAddress: "the page tried to open %s with a password in the address; it was not opened (a password is never sent in an address, as it is or disguised)",
	RefusedDisguisedPassword: "the page tried to send a password, disguised, to %s; it was not sent",
	RefusedDownload:          "the page started another download (%s) by itself; it was not saved (a file is saved only by your download command)",
	RefusedFileAddress:       "the browser did not open %s: a web page may not open a local file (to open it yourself, go to its address)",
}

// Refusal is one thing the guard stopped: what kind, and the address, path
// or name it was about. A door says it by its Kind (Result.Stopped).
type Refusal struct {
	Kind RefusalKind
	What string
}

func (r Refusal) String() string { return fmt.Sprintf(refusalTexts[r.Kind], r.What) }

// refusalStrings are rs's English texts.
func refusalStrings(rs []Refusal) []string {
	if rs == nil {
		return nil
	}
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.String()
	}
	return out
}

// requestBody is what a paused request sends (at most 1 MB of it).
func requestBody(r *proto.NetworkRequest) string {
	if r == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString(r.PostData)
	for _, e := range r.PostDataEntries {
		if b.Len() > 1<<20 {
			break
		}
		b.Write(e.Bytes)
	}
	return b.String()
}

func mustURL(raw string) *url.URL {
	u, err := url.Parse(raw)
	if err != nil {
		return &url.URL{}
	}
	return u
}

// hostAndPath is an address without its query and fragment (where a
// password would be), for the user to hear.
func hostAndPath(u *url.URL) string {
	v := *u
	v.RawQuery, v.Fragment, v.User = "", "", nil
	return v.String()
}

// noteRefused adds what was stopped to what the next result says.
func (s *Session) noteRefused(why Refusal) {
	if s.guard == nil {
		return
	}
	s.guard.mu.Lock()
	if len(s.guard.refused) < 20 {
		s.guard.refused = append(s.guard.refused, why)
	}
	s.guard.mu.Unlock()
}

// takeRefused returns (and forgets) what the guard stopped since the last
// call.
func (s *Session) takeRefused() []Refusal {
	if s.guard == nil {
		return nil
	}
	s.guard.mu.Lock()
	defer s.guard.mu.Unlock()
	r := s.guard.refused
	s.guard.refused = nil
	return r
}

// ownsFrame reports whether frame belongs to this session. A browser
// Waymark launched is the session's alone; in a browser it connected to
// (Options.ControlURL) other contexts' requests are theirs: a frame is the
// session's when it is one of its tabs or out-of-process frames, a target of
// its browser context, or a frame inside one of its tabs.
func (s *Session) ownsFrame(ctx context.Context, frame proto.PageFrameID) bool {
	if !s.ownCtx {
		return true
	}
	id := proto.TargetTargetID(frame)
	if s.tw != nil {
		s.tw.mu.Lock()
		_, tab := s.tw.born[id]
		s.tw.mu.Unlock()
		if tab {
			return true
		}
	}
	if s.frames.session(frame) != nil {
		return true
	}
	if info, err := (proto.TargetGetTargetInfo{TargetID: id}).Call(s.root.Context(ctx)); err == nil && info.TargetInfo != nil {
		return info.TargetInfo.BrowserContextID == s.contextID
	}
	// A frame in a tab's own process: look for it in the tabs' frame trees.
	targets, err := proto.TargetGetTargets{}.Call(s.root.Context(ctx))
	if err != nil {
		return true // when in doubt, the policy applies
	}
	for _, t := range targets.TargetInfos {
		if t.Type != proto.TargetTargetInfoTypePage || t.BrowserContextID != s.contextID {
			continue
		}
		p, err := s.browser.Context(ctx).PageFromTarget(t.TargetID)
		if err != nil {
			continue
		}
		tree, err := proto.PageGetFrameTree{}.Call(p)
		if err == nil && inTree(tree.FrameTree, frame) {
			return true
		}
	}
	return false
}

func inTree(t *proto.PageFrameTree, f proto.PageFrameID) bool {
	if t == nil {
		return false
	}
	if t.Frame != nil && t.Frame.ID == f {
		return true
	}
	for _, c := range t.ChildFrames {
		if inTree(c, f) {
			return true
		}
	}
	return false
}

// originOf is an address's origin (scheme://host[:port]), "" for none.
func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host)
}
