package web

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/tools"
)

var updateSpoken = flag.Bool("update-spoken", false, "rewrite testdata/spoken_errors.golden.json")

// spokenCase is one error a browser tool makes: its text (as the browser
// package writes it, invalid arguments with their prefix) and what a
// listener hears for it in each language.
type spokenCase struct {
	Name string `json:"name"`
	Msg  string `json:"msg"`
	En   string `json:"en"`
	Ru   string `json:"ru"`
}

const goldenSpoken = "testdata/spoken_errors.golden.json"

// inv is the text of an invalid-arguments error of the browser package.
func inv(format string, a ...any) string {
	return tools.ErrInvalidArgs.Error() + ": " + fmt.Sprintf(format, a...)
}

// spokenMessages are the errors of the browser package, each with the
// format its code writes and realistic values.
var spokenMessages = []struct{ name, msg string }{
	{"stale_moved", fmt.Sprintf("numbering is stale: %s; call browser_list_interactives again", fmt.Sprintf("element %d (%s) is number %d now", 5, `link "Next page"`, 7))},
	{"stale_gone", fmt.Sprintf("numbering is stale: %s; call browser_list_interactives again", fmt.Sprintf("element %d (%s) is no longer on the page", 5, `link "Next page"`))},
	{"stale", fmt.Sprintf("numbering is stale (%s since the last list); call browser_list_interactives again", "the document was replaced")},
	{"stale_frame", fmt.Sprintf("numbering is stale (%s since the last list); call browser_list_interactives again", "a frame went away")},
	{"no_list", "no numbering yet: call browser_list_interactives first"},
	{"not_numbered_yet", fmt.Sprintf("number %d is not in list %d yet: only 1..%d of the page are numbered so far; list with offset %d to number further", 60, 3, 50, 50)},
	{"not_numbered", fmt.Sprintf("number %d is not in list %d (it numbers 1..%d)", 60, 3, 42)},
	{"list_empty", fmt.Sprintf("list %d has no elements; scroll, wait or navigate, then list again", 3)},
	{"list_window", fmt.Sprintf("list %d was made with limit=%d offset=%d, not the limit/offset given; call browser_list_interactives with the limit and offset you mean, then act", 3, 50, 0)},
	{"not_text_field", fmt.Sprintf("element %d (%s) is not a text field; use action click (or select for a list box)", 4, `button "Search"`)},
	{"is_list_box", fmt.Sprintf("element %d (%s) is a list box; use action select with the option's text", 6, `combobox "Language of the guide"`)},
	{"covered", fmt.Sprintf("the page moved something (%s) over element %d (%s) when the pointer came to it; nothing was pressed (list again to hear the page as it is now)", `button "Buy"`, 1, `button "Cancel order"`)},
	{"covered_unnamed", fmt.Sprintf("the page moved something (%s) over element %d (%s) when the pointer came to it; nothing was pressed (list again to hear the page as it is now)", `div`, 1, `button`)},
	{"renamed", fmt.Sprintf("the page changed element %d (%s) into (%s) when the pointer came to it; nothing was pressed (list again to hear the page as it is now)", 2, `button "Safe action"`, `button "Transfer"`)},
	{"kept_moving", fmt.Sprintf("element %d (%s) kept moving when the pointer came to it; nothing was pressed; try again, or list again", 3, `button "Go"`)},
	{"other_site_password", fmt.Sprintf("element %d (%s) is a password field in a frame from %s, another site than the page's: what is typed there goes to %s; nothing was typed; to type it there all the same, give the same command again", 1, `textbox "Password"`, "localhost:4242", "localhost:4242")},
	{"disabled", fmt.Sprintf("element %d (%s) is disabled", 6, `combobox "Language of the guide"`)},
	{"disabled_unnamed", fmt.Sprintf("element %d (%s) is disabled", 6, `doc-backlink`)},
	{"gone", fmt.Sprintf("element %d (%s) no longer exists on the page; call browser_list_interactives again", 5, `link "Next page"`)},
	{"not_a_link", fmt.Sprintf("element %d (%s) is not a link, so it cannot open in a new tab; click it instead (a tab the page opens shows in browser_tabs)", 4, `button "Search"`)},
	{"no_back", "there is no previous page in this tab"},
	{"no_forward", "there is no next page in this tab"},
	{"no_tab", fmt.Sprintf("there is no tab %d: %s", 4, "the tabs are 1 “Home”, 2 “News”")},
	{"no_tab_none", fmt.Sprintf("there is no tab %d: %s", 4, "no tabs are open")},
	{"only_tab", fmt.Sprintf("tab %d is the only tab; it stays open", 1)},
	{"nav_refused", "Nothing answers at localhost:8699."},
	{"nav_unknown", "There is no site called nosuch.invalid: the name is not known."},
	{"nav_offline", "This computer is not connected to a network."},
	{"nav_timeout", "example.org did not answer in time."},
	{"nav_other", "Could not open example.org (cert authority invalid)."},
	{"no_heading", fmt.Sprintf("there is no heading %d: the page has %d headings (1 to %d)", 9, 4, 4)},
	{"no_headings", "this page has no headings; read it from the start instead"},
	{"heading_not_main", fmt.Sprintf("heading %d (%s) is not in the main text of the page (it heads a menu or side panel); its links are in the list", 3, "Menu")},
	{"no_browser", "the browser could not be started: no Chromium executable found (set Options.Bin; Waymark never downloads a browser): stat /nonexistent/chromium: no such file or directory"},
	{"start_failed", "the browser could not be started: launch /usr/bin/chromium: exit status 1"},
	{"list_changed", fmt.Sprintf("element %d of list %d (%s) is not on the page any more (or not only once); the page was numbered again as list %d: choose from it", 3, 2, `link "Home"`, 3)},
	{"unreachable", fmt.Sprintf("element %d (%s) cannot be reached: %s; scroll or list again", 5, `link "Next page"`, "it is hidden now")},
	{"no_scroll", fmt.Sprintf("element %d (%s) could not be scrolled into view", 5, `link "Next page"`)},
	{"type_failed", fmt.Sprintf("could not type into element %d (%s): %s (also after pressing Tab and trying again: %s)", 2, `textbox "Search"`, "the field stayed empty", "the field stayed empty")},
	{"not_list_box", fmt.Sprintf("element %d (%s) is not a list box (<select>); click it to open it, list again and click the option's number", 4, `button "Search"`)},
	{"ambiguous_option", fmt.Sprintf("%q matches several options of element %d: %s; give the full text", "Ka", 7, "Kazan; Kaliningrad")},
	{"no_option", fmt.Sprintf("element %d (%s) has no option %q; its options: %s", 7, `combobox "City"`, "Paris", "Moscow; Kazan")},
	{"option_disabled", fmt.Sprintf("option %q of element %d is disabled", "Kazan", 7)},
	{"url_empty", inv("%v", "url is empty")},
	{"url_scheme", inv("%v", fmt.Sprintf("url %q: only http, https and file addresses can be opened", "ftp://example.org/"))},
	{"url_partial", inv("%v", fmt.Sprintf("url %q: give a full address such as https://example.org", "news"))},
	{"url_no_host", inv("%v", fmt.Sprintf("url %q has no host", "http:///x"))},
	{"url_bad", inv("%v", fmt.Sprintf("url %q: %v", "http://[::1", `parse "http://[::1": missing ']' in host`))},
	{"url_password", inv("url %q carries text typed into a password field: a password is never sent to an address; open the page without it", "https://evil.example/?p=hunter2")},
	{"link_password", inv("link %d carries text typed into a password field: it is not opened", 4)},
	{"file_address_not_granted", inv("%s %q: local files are reached only when the user asked for them; "+
		"this call was not given that file (in the window and `waymark browse` type the command yourself; "+
		"for MCP start the server with --allow-file PATH; the assistant uses only files and file: addresses named in your own words)", "file address", "file:///etc/passwd")},
	{"link_file_not_granted", fmt.Sprintf("link %d: %s", 4, inv("%s %q: local files are reached only when the user asked for them; "+
		"this call was not given that file (in the window and `waymark browse` type the command yourself; "+
		"for MCP start the server with --allow-file PATH; the assistant uses only files and file: addresses named in your own words)", "file address", "file:///etc/passwd"))},
	{"file_not_granted", inv("%s %q: local files are reached only when the user asked for them; "+
		"this call was not given that file (in the window and `waymark browse` type the command yourself; "+
		"for MCP start the server with --allow-file PATH; the assistant uses only files and file: addresses named in your own words)", "file", "/etc/passwd")},
	{"no_dialog", "no dialog is open on the page"},
	{"prompt_only", inv("text answers only a prompt dialog; this is a %s dialog (give accept only)", "confirm")},
	{"download_failed", fmt.Sprintf("the download of %s failed or was cancelled; nothing was saved", "https://example.org/a.pdf")},
	{"no_download", fmt.Sprintf("no download started within %s", "10s")},
	{"download_slow", fmt.Sprintf("the download of %s did not finish within %s", "https://example.org/a.pdf", "1m0s")},
	{"submit_no_file", fmt.Sprintf("element %d (%s) sends its form and has no file field; list again and pick the file field or its button", 3, `button "Send"`)},
	{"not_file_field", fmt.Sprintf("element %d (%s) is not a file field and has none; list again and pick the file field or its button", 3, `button "Send"`)},
	{"not_file_field_no_chooser", fmt.Sprintf("element %d (%s) is not a file field, has none, and clicking it opened no file chooser; list again and pick the file field or its button", 3, `button "Send"`)},
	{"picker_not_field", fmt.Sprintf("element %d (%s) opened a file picker that is not a file field; it cannot be given files", 3, `button "Attach"`)},
	{"one_file", fmt.Sprintf("element %d (%s) takes one file; %d were given", 2, `button "Choose file"`, 2)},
	{"file_relative", inv("file %q: give an absolute path", "notes.txt")},
	{"file_not_regular", inv("file %q is not a regular file (a folder or device cannot be uploaded)", "/tmp")},
	{"file_missing", inv("file %q: %v", "/tmp/none.pdf", "stat /tmp/none.pdf: no such file or directory")},
	{"file_stat", inv("file %q: %v", "/root/x.pdf", "stat /root/x.pdf: permission denied")},
	{"file_unreadable", inv("file %q cannot be read: %v", "/root/x.pdf", "open /root/x.pdf: permission denied")},
	{"frame_kept_moving", fmt.Sprintf("element %d (%s) kept moving with its frame (scrolling or an animation); try again, or scroll it into view first", 3, `button "Pay"`)},
	{"frame_parent_gone", fmt.Sprintf("element %d (%s): its frame's parent went away; list again", 3, `button "Pay"`)},
	{"frame_gone", fmt.Sprintf("element %d (%s): its frame is no longer on the page; list again", 3, `button "Pay"`)},
	{"outside_frame", fmt.Sprintf("element %d (%s) lies outside the visible part of its frame; scroll it into view or list again", 3, `button "Pay"`)},
	{"no_tables", "this page has no tables"},
	{"no_table", fmt.Sprintf("there is no table %d: the page has %d tables", 3, 1)},
	{"table_no_rows", fmt.Sprintf("table %d has no rows below its column names", 1)},
	{"no_row", fmt.Sprintf("there is no row %d: table %d has %d rows", 9, 1, 4)},
	{"no_column", fmt.Sprintf("there is no column %d: table %d has %d columns", 9, 1, 3)},
	{"table_from_1", inv("table, row and column count from 1")},
	{"table_mode", inv("mode %q: cell, row, column or table", "diagonal")},
	{"find_empty", inv("text is empty: give a word or words to look for in the page's text")},
	{"find_long", inv("text is %d characters long: look for at most %d", 300, 200)},
	{"occurrence_from_1", inv("occurrence %d: occurrences count from 1", 0)},
	{"no_occurrence", fmt.Sprintf("there is no occurrence %d of %q: the page's text holds it %d times", 5, "war", 3)},
	{"past_end", fmt.Sprintf("from %d is past the end of the main text (%d characters)", 9000, 4000)},
	{"no_tab_to_close", fmt.Sprintf("no tab to close: %s", "no tabs are open")},
	{"no_title", fmt.Sprintf("no tab's title contains %q: %s", "mail", "the tabs are 1 “Home”, 2 “News”")},
	{"link_acted_here", fmt.Sprintf("link %d (%s) has no address and opened no tab: it acted in this tab instead (the page changed: list again)", 4, `link "More"`)},
	{"link_no_tab", fmt.Sprintf("link %d (%s) has no address and opened no tab within %s; click it instead", 4, `link "More"`, "3s")},
	{"new_tab_failed", fmt.Sprintf("could not open a new tab: %v", "context deadline exceeded")},
	{"switch_failed", fmt.Sprintf("could not switch to the tab: %v", "context deadline exceeded")},
	{"close_failed", fmt.Sprintf("could not close tab %d: %v", 2, "context deadline exceeded")},
	{"nav_slow", fmt.Sprintf("%s did not answer within %s", "https://example.org/", "30s")},
	{"open_failed", fmt.Sprintf("could not open %s: %v", "https://example.org/", "navigation failed: net::ERR_ABORTED")},
	{"session_closed", "the browser session is closed"},
	{"sessions_closed", "the browser sessions are closed"},
	{"script_error", fmt.Sprintf("page script error: %s", "TypeError: x is not a function")},
	{"reading", fmt.Sprintf("reading the page: %v", "context deadline exceeded")},
	{"finding", fmt.Sprintf("finding the place on the page: %v", "context deadline exceeded")},
	{"overlay_bad", fmt.Sprintf("the page's overlay sent a list the host cannot read (at field %d of %d: %.40q); reload the page and list again", 3, 9, "x")},
	{"frame_changing", "the frame kept changing"},
	{"frame_changing_call", fmt.Sprintf("%s %s: the frame kept changing", "overlay", "list")},
	{"install", fmt.Sprintf("install %s: %v", "overlay", "page script error: SyntaxError: Unexpected token")},
	{"bad_answer", fmt.Sprintf("%s %s: bad answer: %v", "overlay", "list", "invalid character 'x' looking for beginning of value")},
	{"download_folder", fmt.Sprintf("download folder %s: %v", "/home/me/Downloads", "mkdir /home/me/Downloads: permission denied")},
	{"set_download_folder", fmt.Sprintf("set the download folder: %v", "context deadline exceeded")},
	{"save_download", fmt.Sprintf("save the download as %s: %v", "/home/me/Downloads/a.pdf", "rename: permission denied")},
	{"too_many_files", fmt.Sprintf("too many files called %s in %s", "a.pdf", "/home/me/Downloads")},
	{"give_files", fmt.Sprintf("give the files to element %d: %v", 2, "context deadline exceeded")},
	{"watch_chooser", fmt.Sprintf("watch for a file chooser: %v", "context deadline exceeded")},
	{"covered_by", fmt.Sprintf("element %d (%s) is covered by %s; close that (browser_close_banners or Escape), scroll, or list again", 5, `link "Next page"`, `div "Cookies"#consent`)},
	{"covered_by_frame", fmt.Sprintf("element %d (%s) is covered by %s (over its frame); close that (browser_close_banners or Escape), scroll, or list again", 5, `link "Next page"`, `div "Cookies"`)},
	{"tabs_from_1", inv("index %d: tabs count from 1", 0)},
	{"headings_from_1", inv("heading %d: headings count from 1", 0)},
}

// spokenOld is what a number command's answer says for an error's text
// (tool_browse_command strips the invalid-arguments prefix).
func spokenOld(l Lang, msg string) string {
	if i := strings.Index(msg, tools.ErrInvalidArgs.Error()+": "); i >= 0 {
		msg = msg[i+len(tools.ErrInvalidArgs.Error())+2:]
	}
	return SpokenError(l, msg)
}

// TestSpokenErrorsGolden: every error of the browser tools is said as
// recorded in testdata/spoken_errors.golden.json, in both languages.
func TestSpokenErrorsGolden(t *testing.T) {
	var got []spokenCase
	for _, m := range spokenMessages {
		got = append(got, spokenCase{Name: m.name, Msg: m.msg, En: spokenOld(English, m.msg), Ru: spokenOld(Russian, m.msg)})
	}
	if *updateSpoken {
		b, _ := json.MarshalIndent(got, "", "  ")
		if err := os.WriteFile(goldenSpoken, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(goldenSpoken)
	if err != nil {
		t.Fatal(err)
	}
	var want []spokenCase
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	byName := map[string]spokenCase{}
	for _, w := range want {
		byName[w.Name] = w
	}
	for _, g := range got {
		w, ok := byName[g.Name]
		switch {
		case !ok:
			t.Errorf("%s: not in %s", g.Name, goldenSpoken)
		case g != w:
			t.Errorf("%s:\n got %+v\nwant %+v", g.Name, g, w)
		}
	}
}
