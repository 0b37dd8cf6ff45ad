package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/waymark/waymark/backend/tools"
)

// Result is every browser tool's answer (SPEC §5): {"status":"ok","data":…}
// or {"status":"error","error":"…"}. Failures of the page or the browser are
// results, not Go errors, so the assistant can read them and recover; a Go
// error from a browser tool always means invalid arguments.
type Result struct {
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
	Data   any    `json:"data,omitempty"`
}

// OK wraps data in a successful Result.
func OK(data any) Result { return Result{Status: "ok", Data: data} }

// Fail is an error Result.
func Fail(msg string) Result { return Result{Status: "error", Error: msg} }

type noArgs struct{}

type navigateArgs struct {
	URL string `json:"url"`
}

type waitArgs struct {
	Ms          int    `json:"ms"`
	NetworkIdle bool   `json:"network_idle"`
	State       string `json:"state"`
}

type listArgs struct {
	Scope    string `json:"scope"`
	Limit    int    `json:"limit"`
	Offset   int    `json:"offset"`
	FromHere bool   `json:"from_here"`
}

type showArgs struct {
	Scheme string `json:"scheme"`
}

type findArgs struct {
	Role   string `json:"role"`
	Text   string `json:"text"`
	Limit  int    `json:"limit"`
	Offset int    `json:"offset"`
}

type actArgs struct {
	Index  int    `json:"index"`
	Action string `json:"action"`
	Text   string `json:"text"`
	Limit  *int   `json:"limit"`
	Offset *int   `json:"offset"`
}

type roleArgs struct {
	Role string `json:"role"`
}

type indexArgs struct {
	Index int `json:"index"`
}

type switchArgs struct {
	Index         int    `json:"index"`
	TitleContains string `json:"title_contains"`
}

type downloadArgs struct {
	Index     int `json:"index"`
	TimeoutMs int `json:"timeout_ms"`
}

type uploadArgs struct {
	Index int      `json:"index"`
	Files []string `json:"files"`
}

type dialogArgs struct {
	Accept bool    `json:"accept"`
	Text   *string `json:"text"`
}

type pressArgs struct {
	Key string `json:"key"`
}

type scrollArgs struct {
	To       string  `json:"to"`
	ByX      float64 `json:"by_x"`
	ByY      float64 `json:"by_y"`
	Index    int     `json:"index"`
	Behavior string  `json:"behavior"`
}

type extractArgs struct {
	Mode string `json:"mode"`
}

type readArgs struct {
	From        int    `json:"from"`
	Heading     int    `json:"heading"`
	Chars       int    `json:"chars"`
	ContinueURL string `json:"continue_url"`
}

type screenshotArgs struct {
	FullPage bool `json:"full_page"`
}

// handler decodes the arguments, gets the (lazily started) session and turns
// the outcome into a Result.
func handler[T any](ss *Sessions, run func(ctx context.Context, s *Session, a T) (any, error)) tools.Handler {
	return func(ctx context.Context, call tools.Call, _ *tools.Tool, _ tools.Context) (any, error) {
		a, err := tools.Decode[T](call)
		if err != nil {
			return nil, err
		}
		s, err := SessionsFrom(ctx, ss).Get(ctx)
		if err != nil {
			return Fail("the browser could not be started: " + err.Error()), nil
		}
		data, err := run(ctx, s, a)
		if err != nil {
			if errors.Is(err, tools.ErrInvalidArgs) {
				return nil, fmt.Errorf("%s: %w", call.Name, err)
			}
			return Fail(err.Error()), nil
		}
		return OK(data), nil
	}
}

func schema(props string, required ...string) json.RawMessage {
	req, _ := json.Marshal(required)
	if required == nil {
		req = []byte("[]")
	}
	return json.RawMessage(`{"type": "object", "properties": {` + props + `}, "required": ` + string(req) + `, "additionalProperties": false}`)
}

// Register adds the browser tools (SPEC §5) to r; they run on ss's session,
// which starts on the first call. Element actions go strictly by number:
// list → show → act.
func Register(r *tools.Registry, ss *Sessions) {
	r.MustRegister(
		tools.Tool{Name: "browser_navigate",
			Description: "Open a web address (http, https or file) in the browser and wait until it has loaded and the network is idle (capped). Returns url, title, http_status, loaded, network_idle. Any numbering becomes stale: list again before acting by number. A file: address opens only when the user asked for that file (MCP: a file or folder given to the server with --allow-file); an address carrying text typed into a password field is refused.",
			InputSchema: schema(`"url": {"type": "string", "minLength": 1, "description": "the address, e.g. https://example.org/page"}`, "url"),
			Handler: handler(ss, func(ctx context.Context, s *Session, a navigateArgs) (any, error) {
				if err := s.checkNavigation(ctx, a.URL); err != nil {
					return nil, err
				}
				return s.Navigate(ctx, a.URL)
			})},
		tools.Tool{Name: "browser_wait",
			Description: "Wait: ms pauses (up to 30000); network_idle waits until no request is in flight for 0.5 s; state waits for load, domcontentloaded or network_idle. With no arguments: waits for load and network idle. Single-page apps may never go idle: then wait a short ms and list again. Returns numbering_stale when the page changed.",
			InputSchema: schema(`"ms": {"type": "integer", "minimum": 0, "maximum": 30000, "description": "milliseconds to pause"},
				"network_idle": {"type": "boolean", "description": "wait until the network is idle (capped)"},
				"state": {"type": "string", "enum": ["load", "domcontentloaded", "network_idle"], "description": "page state to wait for"}`),
			Handler: handler(ss, func(ctx context.Context, s *Session, a waitArgs) (any, error) {
				return s.Wait(ctx, WaitOptions{Ms: a.Ms, NetworkIdle: a.NetworkIdle, State: a.State})
			})},
		tools.Tool{Name: "browser_back", Description: "Go back one page in the browser history and wait for it to load.",
			Handler: handler(ss, func(ctx context.Context, s *Session, _ noArgs) (any, error) { return s.Back(ctx) })},
		tools.Tool{Name: "browser_forward", Description: "Go forward one page in the browser history and wait for it to load.",
			Handler: handler(ss, func(ctx context.Context, s *Session, _ noArgs) (any, error) { return s.Forward(ctx) })},
		tools.Tool{Name: "browser_reload", Description: "Reload the page and wait for it to load.",
			Handler: handler(ss, func(ctx context.Context, s *Session, _ noArgs) (any, error) { return s.Reload(ctx) })},
		tools.Tool{Name: "browser_list_interactives",
			Description: "Number every visible, uncovered interactive element of the page (links, buttons, fields, list boxes, clickable items; inside frames and shadow DOM too) in document order and return a window of them: {generation, total, total_at_least, offset, limit, has_more, items: [{number, id, role, name, tag, type, value, href, disabled, checked, frame}]}. Act only by these numbers, and list again after navigation or when an act reports numbering_stale. A first window (offset 0, limit at most 100) of a long page numbers only that far: then total_at_least is true and total is a lower bound; the next window numbers the rest, with the same numbers.",
			InputSchema: schema(`"scope": {"type": "string", "enum": ["page", "viewport", "main", "dialog"], "description": "page (default): everything; viewport: only what is on screen; main: the main content; dialog: the open modal dialog"},
				"limit": {"type": "integer", "minimum": 1, "maximum": 500, "description": "how many items to return (default 50)"},
				"offset": {"type": "integer", "minimum": 0, "description": "skip this many items (paging)"},
				"from_here": {"type": "boolean", "description": "start the window at the place the page shows now (an in-page link's target, else the top of the screen) instead of offset"}`),
			Handler: handler(ss, func(ctx context.Context, s *Session, a listArgs) (any, error) {
				if a.FromHere {
					if a.Offset != 0 {
						return nil, invalid("give offset or from_here, not both")
					}
					return s.ListFromHere(ctx, ListOptions{Scope: a.Scope, Limit: a.Limit})
				}
				return s.List(ctx, ListOptions{Scope: a.Scope, Limit: a.Limit, Offset: a.Offset})
			})},
		tools.Tool{Name: "browser_overlay_show",
			Description: "Show the numbers of the last list on the page as high-contrast badges (for a person looking at the screen; screen readers do not hear them). Lists first if there is no list yet; fails if the list is stale.",
			InputSchema: schema(`"scheme": {"type": "string", "enum": ["yellow-on-black", "black-on-yellow", "white-on-black", "white-on-blue"], "description": "badge colours (default yellow-on-black)"}`),
			Handler: handler(ss, func(ctx context.Context, s *Session, a showArgs) (any, error) {
				return s.ShowOverlay(ctx, a.Scheme)
			})},
		tools.Tool{Name: "browser_overlay_hide", Description: "Remove the number badges from the page (the numbers stay valid).",
			Handler: handler(ss, func(ctx context.Context, s *Session, _ noArgs) (any, error) {
				if err := s.HideOverlay(ctx); err != nil {
					return nil, err
				}
				return map[string]bool{"hidden": true}, nil
			})},
		tools.Tool{Name: "browser_find",
			Description: "Orientation only: find elements of the current numbering whose label, aria-label, placeholder or title contains text (any language, case- and space-insensitive) and/or have a role (button, link, textbox, checkbox, combobox, …). Returns their numbers; then act with browser_overlay_act. Numbers the page first if needed.",
			InputSchema: schema(`"role": {"type": "string", "description": "role such as button, link, textbox, checkbox, combobox"},
				"text": {"type": "string", "description": "part of the visible label, e.g. \"войти\" or \"search\""},
				"limit": {"type": "integer", "minimum": 1, "maximum": 100, "description": "at most this many matches (default 10)"},
				"offset": {"type": "integer", "minimum": 0}`),
			Handler: handler(ss, func(ctx context.Context, s *Session, a findArgs) (any, error) {
				return s.Find(ctx, FindOptions{Role: a.Role, Text: a.Text, Limit: a.Limit, Offset: a.Offset})
			})},
		tools.Tool{Name: "browser_overlay_act",
			Description: "Act on the element with this number in the last list: click (real mouse click at its centre), type (focuses the field, clears it and types text with real key events; on failure presses Tab and retries once) or select (picks the option of a list box by visible text or value). Fails with a clear error, never a wrong click, if the numbering is stale or the element is gone, hidden, covered or disabled. Returns url, title, navigated, numbering_stale, focused.",
			InputSchema: schema(`"index": {"type": "integer", "minimum": 1, "description": "the element's number in the last list"},
				"action": {"type": "string", "enum": ["click", "type", "select"]},
				"text": {"type": "string", "description": "text to type, or the option to select"},
				"limit": {"type": "integer", "minimum": 1, "maximum": 500, "description": "the limit of the list the number comes from (optional check)"},
				"offset": {"type": "integer", "minimum": 0, "description": "the offset of the list the number comes from (optional check)"}`, "index", "action"),
			Handler: handler(ss, func(ctx context.Context, s *Session, a actArgs) (any, error) {
				if a.Action == "type" {
					s.notePasswordTyped(a.Index, a.Text)
				}
				return s.Act(ctx, ActOptions{Index: a.Index, Action: a.Action, Text: a.Text, Limit: a.Limit, Offset: a.Offset})
			})},
		tools.Tool{Name: "browser_dialog",
			Description: "Answer the JavaScript dialog (alert, confirm, prompt or leave-page question) the page opened. Dialogs are the user's to answer: ask the user first and pass their answer; never answer one on your own. accept=true is OK / leave, accept=false is Cancel / stay; text is the answer to a prompt.",
			InputSchema: schema(`"accept": {"type": "boolean", "description": "true: OK (or leave the page); false: Cancel (or stay)"},
				"text": {"type": "string", "description": "the user's answer to a prompt dialog"}`, "accept"),
			Handler: handler(ss, func(ctx context.Context, s *Session, a dialogArgs) (any, error) {
				return s.AnswerDialog(ctx, a.Accept, a.Text)
			})},
		tools.Tool{Name: "browser_focus_next",
			Description: "Move the keyboard focus forward with real Tab presses, to the next element (of the role, if given: button, link, textbox, checkbox, combobox…). Says what has the focus and its number in the current list.",
			InputSchema: schema(`"role": {"type": "string", "description": "stop at the next element of this role"}`),
			Handler:     handler(ss, func(ctx context.Context, s *Session, a roleArgs) (any, error) { return s.FocusMove(ctx, a.Role, false) })},
		tools.Tool{Name: "browser_focus_prev",
			Description: "Move the keyboard focus back with real Shift+Tab presses, to the previous element (of the role, if given). Says what has the focus and its number in the current list.",
			InputSchema: schema(`"role": {"type": "string", "description": "stop at the previous element of this role"}`),
			Handler:     handler(ss, func(ctx context.Context, s *Session, a roleArgs) (any, error) { return s.FocusMove(ctx, a.Role, true) })},
		tools.Tool{Name: "browser_act_by_index",
			Description: "Last resort only (prefer browser_overlay_act): act by the number of the last list even if the page changed since; the page is numbered again and the act happens only if the same element is found again, on its new number (the result says which).",
			InputSchema: schema(`"index": {"type": "integer", "minimum": 1, "description": "the element's number in the last list"},
				"action": {"type": "string", "enum": ["click", "type", "select"]},
				"text": {"type": "string", "description": "text to type, or the option to select"}`, "index", "action"),
			Handler: handler(ss, func(ctx context.Context, s *Session, a actArgs) (any, error) {
				if a.Action == "type" {
					s.notePasswordTyped(a.Index, a.Text)
				}
				return s.ActByIndex(ctx, ActOptions{Index: a.Index, Action: a.Action, Text: a.Text})
			})},
		tools.Tool{Name: "browser_tabs", Description: "List the open tabs: index (from 1, in opening order), title, url and which one is current.",
			Handler: handler(ss, func(ctx context.Context, s *Session, _ noArgs) (any, error) { return s.Tabs(ctx) })},
		tools.Tool{Name: "browser_open_in_new_tab",
			Description: "Open the numbered link of the last list in a new tab (by its address; a script link gets a Ctrl+click), make it the current tab and wait for it to load. List again before acting in it. Tabs the page opens by itself appear in browser_tabs and in a click's new_tabs.",
			InputSchema: schema(`"index": {"type": "integer", "minimum": 1, "description": "the link's number in the last list"}`, "index"),
			Handler: handler(ss, func(ctx context.Context, s *Session, a indexArgs) (any, error) {
				if err := s.checkLinkTarget(ctx, a.Index); err != nil {
					return nil, err
				}
				return s.OpenInNewTab(ctx, a.Index)
			})},
		tools.Tool{Name: "browser_switch_tab",
			Description: "Make another tab current: by index (from 1, in opening order; tabs the site opened count too) or by part of its title. List again before acting by number.",
			InputSchema: schema(`"index": {"type": "integer", "minimum": 1, "description": "the tab's number"},
				"title_contains": {"type": "string", "description": "part of the tab's title, any case"}`),
			Handler: handler(ss, func(ctx context.Context, s *Session, a switchArgs) (any, error) {
				return s.SwitchTab(ctx, a.Index, a.TitleContains)
			})},
		tools.Tool{Name: "browser_close_tab",
			Description: "Close a tab (default: the current one; then the previous tab becomes current). The last tab stays open.",
			InputSchema: schema(`"index": {"type": "integer", "minimum": 1, "description": "the tab's number"}`),
			Handler:     handler(ss, func(ctx context.Context, s *Session, a indexArgs) (any, error) { return s.CloseTab(ctx, a.Index) })},
		tools.Tool{Name: "browser_click_and_wait_download",
			Description: "Click the numbered element (a download link or button) and wait until the file is saved in the download folder (safe file name; an existing name gets \" (1)\" unless the policy is overwrite). Returns path, name, bytes, url.",
			InputSchema: schema(`"index": {"type": "integer", "minimum": 1, "description": "the element's number in the last list"},
				"timeout_ms": {"type": "integer", "minimum": 100, "maximum": 600000, "description": "how long to wait (default 60000)"}`, "index"),
			Handler: handler(ss, func(ctx context.Context, s *Session, a downloadArgs) (any, error) {
				return s.ClickAndWaitDownload(ctx, a.Index, a.TimeoutMs)
			})},
		tools.Tool{Name: "browser_download_wait",
			Description: "Wait for a download in progress (or the next one to start) to be saved; returns path, name, bytes, url.",
			InputSchema: schema(`"timeout_ms": {"type": "integer", "minimum": 100, "maximum": 600000, "description": "how long to wait (default 60000)"}`),
			Handler: handler(ss, func(ctx context.Context, s *Session, a downloadArgs) (any, error) {
				return s.DownloadWait(ctx, a.TimeoutMs)
			})},
		tools.Tool{Name: "browser_upload",
			Description: "Give files to the numbered file field (or its button or label; a button with no field in sight is clicked and the file chooser it opens gets the files). Only files the user named, as absolute paths of regular files; one file unless the field takes several. A file is sent only when the user gave it (MCP: a file or folder given to the server with --allow-file).",
			InputSchema: schema(`"index": {"type": "integer", "minimum": 1, "description": "the file field's number in the last list"},
				"files": {"type": "array", "minItems": 1, "items": {"type": "string", "minLength": 1}, "description": "absolute paths of the files the user named"}`, "index", "files"),
			Handler: handler(ss, func(ctx context.Context, s *Session, a uploadArgs) (any, error) {
				if err := checkUpload(ctx, a.Files); err != nil {
					return nil, err
				}
				return s.Upload(ctx, a.Index, a.Files)
			})},
		tools.Tool{Name: "browser_close_banners",
			Description: "Close cookie and consent banners now (they are also closed after navigation, clicks, reloads and tab changes): known consent platforms through the autoconsent rules, others by their reject or close button; non-essential cookies are refused. Returns found, closed, passes, rules, ms, leftovers_fixed (inert / aria-hidden / scroll lock undone) and renumbered (the new list, if a numbering was active).",
			Handler:     handler(ss, func(ctx context.Context, s *Session, _ noArgs) (any, error) { return s.CloseBanners(ctx) })},
		tools.Tool{Name: "browser_press",
			Description: "Press a key on the focused element: Enter, Tab, Shift+Tab, Escape, Space, ArrowDown/Up/Left/Right, Backspace, Home, End, PageDown, F5, or one character such as k (play/pause video). Returns what has the focus afterwards.",
			InputSchema: schema(`"key": {"type": "string", "minLength": 1, "description": "key name, one character, or Modifier+Key"}`, "key"),
			Handler: handler(ss, func(ctx context.Context, s *Session, a pressArgs) (any, error) {
				return s.Press(ctx, a.Key)
			})},
		tools.Tool{Name: "browser_scroll",
			Description: "Scroll the page with the mouse wheel: to top or bottom, by_y / by_x pixels (positive: down/right), or until element index of the last list is in view (in_view says if it is). With no arguments scrolls down by most of a screen. Reports the position, whether the page grew (more loaded) and numbering_stale.",
			InputSchema: schema(`"to": {"type": "string", "enum": ["top", "bottom"]},
				"by_x": {"type": "number", "description": "pixels to the right (negative: left)"},
				"by_y": {"type": "number", "description": "pixels down (negative: up)"},
				"index": {"type": "integer", "minimum": 1, "description": "scroll until this element (its number in the last list) is in view"},
				"behavior": {"type": "string", "enum": ["smooth", "instant"], "description": "smooth (default): real mouse-wheel events, so pages load more as they would for a person; instant: jump there"}`),
			Handler: handler(ss, func(ctx context.Context, s *Session, a scrollArgs) (any, error) {
				return s.Scroll(ctx, ScrollOptions{To: a.To, ByX: a.ByX, ByY: a.ByY, Index: a.Index, Behavior: a.Behavior})
			})},
		tools.Tool{Name: "browser_extract",
			Description: "Summarise the page for listening: title, address, headings outline, regions, the gist of the main text (up to 1500 characters) and the form fields with their labels and numbers. data.text is the plain-text summary.",
			InputSchema: schema(`"mode": {"type": "string", "enum": ["summary"], "description": "only summary"}`),
			Handler: handler(ss, func(ctx context.Context, s *Session, a extractArgs) (any, error) {
				return s.Extract(ctx, a.Mode)
			})},
		tools.Tool{Name: "browser_read",
			Description: "Read the page's main text by portions (about 1500 characters, cut at paragraph or sentence ends): from a character offset (from; browser_extract's more_at and a portion's next say where to go on) or from a numbered heading (browser_extract numbers them). Returns text, from, next, total, has_more and the heading.",
			InputSchema: schema(`"from": {"type": "integer", "minimum": 0, "description": "character offset in the main text (default 0)"},
				"heading": {"type": "integer", "minimum": 1, "description": "start at this heading (its number in browser_extract's headings)"},
				"chars": {"type": "integer", "minimum": 200, "maximum": 6000, "description": "portion size (default 1500)"},
				"continue_url": {"type": "string", "description": "the address the last portion came from: if the page is another one now, read it from the start"}`),
			Handler: handler(ss, func(ctx context.Context, s *Session, a readArgs) (any, error) {
				return s.Read(ctx, ReadOptions{From: a.From, Heading: a.Heading, Chars: a.Chars, ContinueURL: a.ContinueURL})
			})},
		tools.Tool{Name: "browser_screenshot",
			Description: "Save a PNG screenshot of the screen (or the whole page with full_page) into the screenshot folder and return its path. Use it when something fails, for the log.",
			InputSchema: schema(`"full_page": {"type": "boolean", "description": "the whole page instead of the visible part"}`),
			Handler: handler(ss, func(ctx context.Context, s *Session, a screenshotArgs) (any, error) {
				return s.Screenshot(ctx, a.FullPage)
			})},
	)
}
