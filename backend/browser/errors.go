package browser

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/waymark/waymark/backend/tools"
)

// Errors with identity (issue 36 point 2). A browser tool's error is an
// *Error: what went wrong (its Kind) and the values it names (Args). Its
// Error() is the English text for the model and the logs; a door that says
// it in its own words (agent/web, to a listener, in English or Russian)
// picks its sentence by Kind with errors.As, never by the text, so the text
// may be reworded without changing what a listener hears.

// ErrKind is what went wrong in a browser tool's *Error.
type ErrKind int

// The kinds of the browser tools' errors; each one's Args are those its
// English text (errKinds) names, in that order.
const (
	KindInvalid            ErrKind = iota // Args: the message (invalid arguments a door never gives)
	KindStartFailed                       // Err: why the browser could not be started
	KindListEmpty                         // Args: list
	KindListWindow                        // Args: list, limit, offset
	KindNotNumberedYet                    // Args: number, list, numbered so far, offset
	KindNotNumbered                       // Args: number, list, count
	KindListChanged                       // Args: number, old list, label, new list
	KindGone                              // Args: number, label
	KindDisabled                          // Args: number, label
	KindUnreachable                       // Args: number, label, why
	KindNoScroll                          // Args: number, label
	KindCoveredBy                         // Args: number, label, cover
	KindCoveredByOverFrame                // Args: number, label, cover
	KindCovered                           // Args: cover, number, label
	KindRenamed                           // Args: number, label, now
	KindKeptMoving                        // Args: number, label
	KindOtherSitePassword                 // Args: number, label, site, site
	KindNotTextField                      // Args: number, label
	KindIsListBox                         // Args: number, label
	KindTypeFailed                        // Args: number, label, why, why after Tab
	KindNotListBox                        // Args: number, label
	KindAmbiguousOption                   // Args: text, number, options
	KindNoOption                          // Args: number, label, text, options
	KindOptionDisabled                    // Args: option, number
	KindFrameKeptMoving                   // Args: number, label
	KindFrameParentGone                   // Args: number, label
	KindFrameGone                         // Args: number, label
	KindOutsideFrame                      // Args: number, label
	KindNoBack                            // no Args
	KindNoForward                         // no Args
	KindURLEmpty                          // no Args
	KindURLScheme                         // Args: url
	KindURLPartial                        // Args: url
	KindURLNoHost                         // Args: url
	KindURLBad                            // Args: url; Err: why
	KindURLPassword                       // Args: url
	KindLinkPassword                      // Args: link number
	KindNotGranted                        // Args: what (file or file address), path
	KindNavSlow                           // Args: url, time-out
	KindOpenFailed                        // Args: url; Err: why
	KindNoTab                             // Args: index, Tabs
	KindNoTabTitled                       // Args: text, Tabs
	KindNoTabToClose                      // Args: Tabs
	KindOnlyTab                           // Args: index
	KindTabsFrom1                         // Args: index
	KindNotALink                          // Args: number, label
	KindLinkActedHere                     // Args: number, label
	KindLinkNoTab                         // Args: number, label, wait
	KindNewTabFailed                      // Err: why
	KindSwitchFailed                      // Err: why
	KindTabHeld                           // Args: index, wait
	KindCloseFailed                       // Args: index; Err: why
	KindNoHeadings                        // no Args
	KindNoHeading                         // Args: heading, count, count
	KindHeadingsFrom1                     // Args: heading
	KindHeadingNotMain                    // Args: heading, its text
	KindPastEnd                           // Args: from, length
	KindNoTables                          // no Args
	KindNoTable                           // Args: table, count
	KindTableNoRows                       // Args: table
	KindNoRow                             // Args: row, table, count
	KindNoColumn                          // Args: column, table, count
	KindTableFrom1                        // no Args
	KindTableMode                         // Args: mode
	KindFindEmpty                         // no Args
	KindFindLong                          // Args: length, at most
	KindOccurrenceFrom1                   // Args: occurrence
	KindNoOccurrence                      // Args: occurrence, text, count
	KindPromptOnly                        // Args: the dialog's type
	KindDownloadFailed                    // Args: url
	KindNoDownload                        // Args: time-out
	KindDownloadSlow                      // Args: url, time-out
	KindDownloadFolder                    // Args: folder; Err: why
	KindSetDownloadFolder                 // Err: why
	KindSaveDownload                      // Args: path; Err: why
	KindTooManyFiles                      // Args: name, folder
	KindSubmitNoFile                      // Args: number, label
	KindNotFileField                      // Args: number, label
	KindNoFileChooser                     // Args: number, label
	KindPickerNotField                    // Args: number, label
	KindOneFile                           // Args: number, label, files given
	KindGiveFiles                         // Args: number; Err: why
	KindWatchChooser                      // Err: why
	KindFileRelative                      // Args: path
	KindFileStat                          // Args: path; Err: why (fs.ErrNotExist: there is none)
	KindFileNotRegular                    // Args: path
	KindFileUnreadable                    // Args: path; Err: why
	KindReading                           // Err: why
	KindFinding                           // Err: why
	KindOverlayBad                        // Args: field, fields, the field's text
	KindFrameChanging                     // no Args
	KindCallFrameChanging                 // Args: what, name
	KindInstall                           // Args: what; Err: why
	KindBadAnswer                         // Args: what, name; Err: why
	KindScript                            // Args: the page's own message
)

// errKind is a kind's English text (a format over its Args; the cause
// follows after ": ") and whether it is an invalid-arguments error (the
// tools' convention: a Go error, not a failed result).
type errKind struct {
	format  string
	invalid bool
}

var errKinds = map[ErrKind]errKind{
	KindInvalid:            {"%s", true},
	KindStartFailed:        {"the browser could not be started", false},
	KindListEmpty:          {"list %d has no elements; scroll, wait or navigate, then list again", false},
	KindListWindow:         {"list %d was made with limit=%d offset=%d, not the limit/offset given; call browser_list_interactives with the limit and offset you mean, then act", false},
	KindNotNumberedYet:     {"number %d is not in list %d yet: only 1..%d of the page are numbered so far; list with offset %d to number further", false},
	KindNotNumbered:        {"number %d is not in list %d (it numbers 1..%d)", false},
	KindListChanged:        {"element %d of list %d (%s) is not on the page any more (or not only once); the page was numbered again as list %d: choose from it", false},
	KindGone:               {"element %d (%s) no longer exists on the page; call browser_list_interactives again", false},
	KindDisabled:           {"element %d (%s) is disabled", false},
	KindUnreachable:        {"element %d (%s) cannot be reached: %s; scroll or list again", false},
	KindNoScroll:           {"element %d (%s) could not be scrolled into view", false},
	KindCoveredBy:          {"element %d (%s) is covered by %s; close that (browser_close_banners or Escape), scroll, or list again", false},
	KindCoveredByOverFrame: {"element %d (%s) is covered by %s (over its frame); close that (browser_close_banners or Escape), scroll, or list again", false},
	KindCovered:            {"the page moved something (%s) over element %d (%s) when the pointer came to it; nothing was pressed (list again to hear the page as it is now)", false},
	KindRenamed:            {"the page changed element %d (%s) into (%s) when the pointer came to it; nothing was pressed (list again to hear the page as it is now)", false},
	KindKeptMoving:         {"element %d (%s) kept moving when the pointer came to it; nothing was pressed; try again, or list again", false},
	KindOtherSitePassword:  {"element %d (%s) is a password field in a frame from %s, another site than the page's: what is typed there goes to %s; nothing was typed; to type it there all the same, give the same command again", false},
	KindNotTextField:       {"element %d (%s) is not a text field; use action click (or select for a list box)", false},
	KindIsListBox:          {"element %d (%s) is a list box; use action select with the option's text", false},
	KindTypeFailed:         {"could not type into element %d (%s): %s (also after pressing Tab and trying again: %s)", false},
	KindNotListBox:         {"element %d (%s) is not a list box (<select>); click it to open it, list again and click the option's number", false},
	KindAmbiguousOption:    {"%q matches several options of element %d: %s; give the full text", false},
	KindNoOption:           {"element %d (%s) has no option %q; its options: %s", false},
	KindOptionDisabled:     {"option %q of element %d is disabled", false},
	KindFrameKeptMoving:    {"element %d (%s) kept moving with its frame (scrolling or an animation); try again, or scroll it into view first", false},
	KindFrameParentGone:    {"element %d (%s): its frame's parent went away; list again", false},
	KindFrameGone:          {"element %d (%s): its frame is no longer on the page; list again", false},
	KindOutsideFrame:       {"element %d (%s) lies outside the visible part of its frame; scroll it into view or list again", false},
	KindNoBack:             {"there is no previous page in this tab", false},
	KindNoForward:          {"there is no next page in this tab", false},
	KindURLEmpty:           {"url is empty", true},
	KindURLScheme:          {"url %q: only http, https and file addresses can be opened", true},
	KindURLPartial:         {"url %q: give a full address such as https://example.org", true},
	KindURLNoHost:          {"url %q has no host", true},
	KindURLBad:             {"url %q", true},
	KindURLPassword:        {"url %q carries text typed into a password field: a password is never sent to an address; open the page without it", true},
	KindLinkPassword:       {"link %d carries text typed into a password field: it is not opened", true},
	KindNotGranted: {"%s %q: local files are reached only when the user asked for them; " +
		"this call was not given that file (in the window and `waymark browse` type the command yourself; " +
		"for MCP start the server with --allow-file PATH; the assistant uses only files and file: addresses named in your own words)", true},
	KindNavSlow:           {"%s did not answer within %s", false},
	KindOpenFailed:        {"could not open %s", false},
	KindNoTab:             {"there is no tab %d: %s", false},
	KindNoTabTitled:       {"no tab's title contains %q: %s", false},
	KindNoTabToClose:      {"no tab to close: %s", false},
	KindOnlyTab:           {"tab %d is the only tab; it stays open", false},
	KindTabsFrom1:         {"index %d: tabs count from 1", true},
	KindNotALink:          {"element %d (%s) is not a link, so it cannot open in a new tab; click it instead (a tab the page opens shows in browser_tabs)", false},
	KindLinkActedHere:     {"link %d (%s) has no address and opened no tab: it acted in this tab instead (the page changed: list again)", false},
	KindLinkNoTab:         {"link %d (%s) has no address and opened no tab within %s; click it instead", false},
	KindNewTabFailed:      {"could not open a new tab", false},
	KindSwitchFailed:      {"could not switch to the tab", false},
	KindTabHeld:           {"tab %d did not answer within %s: its page is held, most likely by a question shown before Waymark could read it; close that tab (browser_close_tab) or try again", false},
	KindCloseFailed:       {"could not close tab %d", false},
	KindNoHeadings:        {"this page has no headings; read it from the start instead", false},
	KindNoHeading:         {"there is no heading %d: the page has %d headings (1 to %d)", false},
	KindHeadingsFrom1:     {"heading %d: headings count from 1", true},
	KindHeadingNotMain:    {"heading %d (%s) is not in the main text of the page (it heads a menu or side panel); its links are in the list", false},
	KindPastEnd:           {"from %d is past the end of the main text (%d characters)", false},
	KindNoTables:          {"this page has no tables", false},
	KindNoTable:           {"there is no table %d: the page has %d tables", false},
	KindTableNoRows:       {"table %d has no rows below its column names", false},
	KindNoRow:             {"there is no row %d: table %d has %d rows", false},
	KindNoColumn:          {"there is no column %d: table %d has %d columns", false},
	KindTableFrom1:        {"table, row and column count from 1", true},
	KindTableMode:         {"mode %q: cell, row, column or table", true},
	KindFindEmpty:         {"text is empty: give a word or words to look for in the page's text", true},
	KindFindLong:          {"text is %d characters long: look for at most %d", true},
	KindOccurrenceFrom1:   {"occurrence %d: occurrences count from 1", true},
	KindNoOccurrence:      {"there is no occurrence %d of %q: the page's text holds it %d times", false},
	KindPromptOnly:        {"text answers only a prompt dialog; this is a %s dialog (give accept only)", true},
	KindDownloadFailed:    {"the download of %s failed or was cancelled; nothing was saved", false},
	KindNoDownload:        {"no download started within %s", false},
	KindDownloadSlow:      {"the download of %s did not finish within %s", false},
	KindDownloadFolder:    {"download folder %s", false},
	KindSetDownloadFolder: {"set the download folder", false},
	KindSaveDownload:      {"save the download as %s", false},
	KindTooManyFiles:      {"too many files called %s in %s", false},
	KindSubmitNoFile:      {"element %d (%s) sends its form and has no file field; list again and pick the file field or its button", false},
	KindNotFileField:      {"element %d (%s) is not a file field and has none; list again and pick the file field or its button", false},
	KindNoFileChooser:     {"element %d (%s) is not a file field, has none, and clicking it opened no file chooser; list again and pick the file field or its button", false},
	KindPickerNotField:    {"element %d (%s) opened a file picker that is not a file field; it cannot be given files", false},
	KindOneFile:           {"element %d (%s) takes one file; %d were given", false},
	KindGiveFiles:         {"give the files to element %d", false},
	KindWatchChooser:      {"watch for a file chooser", false},
	KindFileRelative:      {"file %q: give an absolute path", true},
	KindFileStat:          {"file %q", true},
	KindFileNotRegular:    {"file %q is not a regular file (a folder or device cannot be uploaded)", true},
	KindFileUnreadable:    {"file %q cannot be read", true},
	KindReading:           {"reading the page", false},
	KindFinding:           {"finding the place on the page", false},
	KindOverlayBad:        {"the page's overlay sent a list the host cannot read (at field %d of %d: %.40q); reload the page and list again", false},
	KindFrameChanging:     {"the frame kept changing", false},
	KindCallFrameChanging: {"%s %s: the frame kept changing", false},
	KindInstall:           {"install %s", false},
	KindBadAnswer:         {"%s %s: bad answer", false},
	KindScript:            {"page script error: %s", false},
}

// Error is a browser tool's error: what went wrong, the values it names,
// and the error under it (a library's, the system's), if any.
type Error struct {
	Kind ErrKind
	Args []any
	Err  error
}

// fail is an *Error of kind k naming args.
func fail(k ErrKind, args ...any) *Error { return &Error{Kind: k, Args: args} }

// failWith is an *Error of kind k naming args, caused by err.
func failWith(k ErrKind, err error, args ...any) *Error { return &Error{Kind: k, Args: args, Err: err} }

// Message is the English text without the invalid-arguments prefix: what
// went wrong, and then the error under it.
func (e *Error) Message() string {
	s := fmt.Sprintf(errKinds[e.Kind].format, e.Args...)
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Error is the English text for the model: an invalid-arguments error
// starts with tools.ErrInvalidArgs's.
func (e *Error) Error() string {
	if e.Invalid() {
		return tools.ErrInvalidArgs.Error() + ": " + e.Message()
	}
	return e.Message()
}

// Invalid says the error is about the call's arguments (tools.ErrInvalidArgs).
func (e *Error) Invalid() bool { return errKinds[e.Kind].invalid }

// Unwrap gives tools.ErrInvalidArgs for invalid arguments, and the error
// under it.
func (e *Error) Unwrap() []error {
	var out []error
	if e.Invalid() {
		out = append(out, tools.ErrInvalidArgs)
	}
	if e.Err != nil {
		out = append(out, e.Err)
	}
	return out
}

// Label names an element in an error: its role and accessible name,
// written role "name" (or the role alone).
type Label struct{ Role, Name string }

func (l Label) String() string {
	if l.Name == "" {
		return l.Role
	}
	return fmt.Sprintf("%s %q", l.Role, l.Name)
}

// label is how an error names it.
func label(it *Item) Label { return Label{Role: it.Role, Name: it.Name} }

// coverLabel reads what overlay.js says covers an element, tag "name"#id
// (the id is no word for the user, and is left out).
func coverLabel(by string) Label {
	if i := strings.LastIndex(by, "#"); i > strings.LastIndex(by, `"`) {
		by = by[:i]
	}
	role, name, _ := strings.Cut(by, " ")
	if u, err := strconv.Unquote(name); err == nil {
		name = u
	} else {
		name = strings.Trim(name, `"`)
	}
	return Label{Role: role, Name: name}
}

// Cover is what covers an element, as overlay.js says it: tag "name"#id.
type Cover string

// Label is the cover as a Label (without its id, which is no word for the
// user).
func (c Cover) Label() Label { return coverLabel(string(c)) }

// Tabs are the open tabs an error names.
type Tabs []Tab

func (t Tabs) String() string {
	if len(t) == 0 {
		return "no tabs are open"
	}
	parts := make([]string, len(t))
	for i, tab := range t {
		parts[i] = fmt.Sprintf("%d “%s”", tab.Index, tab.Title)
	}
	return "the tabs are " + strings.Join(parts, ", ")
}

// Sentinel errors of the session.
var (
	// ErrSessionClosed: the session was closed while the call waited.
	ErrSessionClosed = errors.New("the browser session is closed")
	// ErrSessionsClosed: the door closed every session.
	ErrSessionsClosed = errors.New("the browser sessions are closed")
)
