package web

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/waymark/waymark/backend/browser"
)

// RenderResult turns a browser tool's {status, data, error} into short lines a
// screen reader can speak: what the listener needs to know, in the commands
// the listener says (never the tools' names).
func RenderResult(tool string, res any) string {
	b, _ := json.Marshal(res)
	var r struct {
		Status string          `json:"status"`
		Error  string          `json:"error"`
		Data   json.RawMessage `json:"data"`
	}
	if json.Unmarshal(b, &r) != nil || r.Status == "" {
		return Spoken(string(b))
	}
	if r.Status == "error" {
		return "Error: " + Spoken(r.Error)
	}
	var d map[string]any
	if json.Unmarshal(r.Data, &d) != nil {
		var s string
		if json.Unmarshal(r.Data, &s) == nil && s != "" {
			return Spoken(s)
		}
		return "OK."
	}
	switch tool {
	case "browser_list_interactives":
		return listLines(d)
	case "browser_read":
		return readLines(d)
	case "browser_tabs":
		return tabLines(d)
	case "browser_scroll":
		return scrollLine(d)
	case "browser_upload":
		var names []string
		for _, f := range asList(d["files"]) {
			names = append(names, filepath.Base(fmt.Sprint(f)))
		}
		field := fmt.Sprint(first(d, "field"))
		if field == "" {
			field = "the file field"
		}
		return Spoken(fmt.Sprintf("Gave %s to %v (%s).", strings.Join(names, ", "), d["number"], field))
	}
	if matches, ok := d["matches"].([]any); ok {
		if len(matches) == 0 {
			return "Nothing found."
		}
		var sb strings.Builder
		for _, it := range matches {
			m, _ := it.(map[string]any)
			sb.WriteString(itemLine(m))
			sb.WriteByte('\n')
		}
		return strings.TrimRight(sb.String(), "\n")
	}
	if text, ok := d["text"].(string); ok && text != "" {
		if more, _ := d["more_at"].(float64); more > 0 {
			text += "\nSay read more for the rest of the text, or read from heading and its number."
		}
		return Spoken(text)
	}
	var parts []string
	if a, ok := d["action"].(string); ok && d["number"] != nil {
		if sel, _ := d["selected"].(string); a == "select" && sel != "" {
			parts = append(parts, fmt.Sprintf("Chose %s in %v (%v).", sel, d["number"], first(d, "name", "role")))
		} else {
			parts = append(parts, fmt.Sprintf("Done: %s %v (%v).", a, d["number"], first(d, "name", "role")))
		}
	} else if k, ok := d["key"].(string); ok {
		parts = append(parts, "Pressed "+k+".")
	}
	if tab, ok := d["tab"].(float64); ok {
		switch tool {
		case "browser_open_in_new_tab":
			parts = append(parts, fmt.Sprintf("Opened in a new tab, tab %d of %v.", int(tab), d["tabs"]))
		default:
			parts = append(parts, fmt.Sprintf("Tab %d of %v.", int(tab), d["tabs"]))
		}
	}
	// A link to a place in a page (#fragment): the page is scrolled there,
	// and the listener can list from that place.
	here := false
	if u, _ := d["url"].(string); tool == "browser_overlay_act" && d["action"] == "click" && len(asList(d["new_tabs"])) == 0 {
		if i := strings.IndexByte(u, '#'); i >= 0 && i < len(u)-1 {
			here = true
		}
	}
	if nav, _ := d["navigated"].(bool); nav || d["action"] == nil {
		if t, _ := d["title"].(string); t != "" {
			parts = append(parts, "Page: "+t+".")
		} else if u, _ := d["url"].(string); u != "" {
			parts = append(parts, "Page: "+u+".")
		}
	}
	if st, _ := d["http_status"].(float64); st >= 400 {
		parts = append(parts, fmt.Sprintf("The server answered %d, %s: this is an error page.", int(st), strings.ToLower(http.StatusText(int(st)))))
	}
	if f, ok := d["focused"].(map[string]any); ok && d["navigated"] != true {
		if n := first(f, "name"); n != "" {
			parts = append(parts, fmt.Sprintf("Focus: %v %v.", first(f, "role", "tag"), n))
		}
	}
	if p, _ := d["path"].(string); p != "" {
		parts = append(parts, "Saved to "+p+".")
	}
	for _, t := range asList(d["new_tabs"]) {
		m, _ := t.(map[string]any)
		title := fmt.Sprint(first(m, "title", "url"))
		parts = append(parts, fmt.Sprintf("Opened a new tab: %v, %s. Say tab %v to go there.", m["index"], title, m["index"]))
	}
	if stale, _ := d["numbering_stale"].(bool); here {
		parts = append(parts, "Say list from here for the elements from this place on, or list for all.")
	} else if stale {
		parts = append(parts, "The page changed: say list for new numbers.")
	}
	if note, _ := d["note"].(string); note != "" && (tool == "browser_close_tab" || tool == "browser_switch_tab") {
		parts = append(parts, note)
	}
	if tool == "browser_close_tab" {
		for _, t := range asList(d["tabs"]) {
			if m, _ := t.(map[string]any); m["current"] == true {
				parts = append(parts, fmt.Sprintf("Now on tab %v: %v.", m["index"], first(m, "title", "url")))
			}
		}
	}
	if len(parts) == 0 {
		return "OK."
	}
	return Spoken(strings.Join(parts, " "))
}

// listLines reads a window of the numbering: how many there are, the window,
// and how to go on.
func listLines(d map[string]any) string {
	var sb strings.Builder
	total := int(numOf(d["total"]))
	off := int(numOf(d["offset"]))
	items := asList(d["items"])
	// A first window of a long page numbers only as far as it needs (and
	// one more): the page has more than total-1 elements, how many more is
	// known once the next window is listed.
	atLeast, _ := d["total_at_least"].(bool)
	switch {
	case atLeast && len(items) > 0:
		fmt.Fprintf(&sb, "More than %d elements, %d to %d:", total-1, off+1, off+len(items))
	case total == 0:
		sb.WriteString("No numbered elements on this page.")
	case len(items) == 0:
		fmt.Fprintf(&sb, "No elements from number %d: the page has %d. Say list to start again.", off+1, total)
	case len(items) == total:
		fmt.Fprintf(&sb, "%d elements:", total)
	default:
		fmt.Fprintf(&sb, "%d elements, %d to %d:", total, off+1, off+len(items))
	}
	for _, it := range items {
		m, _ := it.(map[string]any)
		sb.WriteByte('\n')
		sb.WriteString(itemLine(m))
	}
	if more, _ := d["has_more"].(bool); more {
		next := int(numOf(d["next_offset"]))
		if atLeast {
			fmt.Fprintf(&sb, "\nSay more for %d onward.", next+1)
		} else {
			fmt.Fprintf(&sb, "\nSay more for %d to %d.", next+1, min(total, next+len(items)))
		}
	} else if off > 0 && len(items) > 0 {
		sb.WriteString("\nEnd of the list.")
	}
	return Spoken(sb.String())
}

// readLines is one portion of the text: where it is, the text, how to go on.
func readLines(d map[string]any) string {
	var sb strings.Builder
	if note, _ := d["note"].(string); note != "" {
		sb.WriteString(note + "\n")
	}
	from, next, total := int(numOf(d["from"])), int(numOf(d["next"])), int(numOf(d["total"]))
	if h, ok := d["heading"].(map[string]any); ok {
		fmt.Fprintf(&sb, "Heading %v: %v.\n", h["number"], h["text"])
	}
	if total == 0 {
		return Spoken(sb.String() + "This page has no text to read.")
	}
	fmt.Fprintf(&sb, "Characters %s to %s of %s:\n", thousands(from+1), thousands(next), thousands(total))
	sb.WriteString(fmt.Sprint(d["text"]))
	if more, _ := d["has_more"].(bool); more {
		sb.WriteString("\nSay read more to go on.")
	} else {
		sb.WriteString("\nEnd of the text.")
	}
	return Spoken(sb.String())
}

// tabLines lists the tabs, the current one said so.
func tabLines(d map[string]any) string {
	tabs := asList(d["tabs"])
	var sb strings.Builder
	if len(tabs) == 1 {
		sb.WriteString("1 tab:")
	} else {
		fmt.Fprintf(&sb, "%d tabs:", len(tabs))
	}
	for _, t := range tabs {
		m, _ := t.(map[string]any)
		fmt.Fprintf(&sb, "\n%v. %v", m["index"], first(m, "title", "url"))
		if m["current"] == true {
			sb.WriteString(", current")
		}
	}
	if len(tabs) > 1 {
		sb.WriteString("\nSay tab and its number to go there.")
	}
	return Spoken(sb.String())
}

// scrollLine says where the page is now.
func scrollLine(d map[string]any) string {
	var parts []string
	y, maxY, vh := numOf(d["y"]), numOf(d["max_y"]), numOf(d["viewport_height"])
	switch {
	case d["at_top"] == true && d["at_bottom"] == true:
		parts = append(parts, "The whole page fits on the screen.")
	case d["at_top"] == true:
		parts = append(parts, "At the top of the page.")
	case d["at_bottom"] == true:
		parts = append(parts, "At the bottom of the page.")
	case maxY > 0 && vh > 0:
		screens := int(math.Ceil((maxY + vh) / vh))
		parts = append(parts, fmt.Sprintf("%d%% down the page, screen %d of %d.", int(math.Round(100*y/maxY)), min(screens, int(math.Round(y/vh))+1), screens))
	}
	if moved, _ := d["moved"].(bool); !moved && len(parts) > 0 && d["at_top"] != true && d["at_bottom"] != true {
		parts = append(parts, "The page did not move.")
	}
	if v, ok := d["in_view"].(bool); ok && !v {
		parts = append(parts, "The element is still not on the screen.")
	}
	if g, _ := d["page_grew"].(bool); g {
		parts = append(parts, "More loaded.")
	}
	if s, _ := d["numbering_stale"].(bool); s {
		parts = append(parts, "The page changed: say list for new numbers.")
	}
	if len(parts) == 0 {
		return "OK."
	}
	return strings.Join(parts, " ")
}

// spokenNames turns the tools' names in messages (written for the model)
// into what the listener says.
var spokenNames = strings.NewReplacer(
	"numbering is stale", "the numbers are out of date",
	"no numbering yet", "there are no numbers yet",
	"call browser_list_interactives with the limit and offset you mean, then act", "say list, then act",
	"call browser_list_interactives", "say list",
	"(browser_close_banners or Escape)", "(press Escape)",
	"browser_close_banners", "press Escape",
	"browser_list_interactives", "list",
	"browser_switch_tab", "say tab and its number",
	"browser_tabs", "say tabs",
	"browser_extract", "read page",
	"browser_read", "read more",
	"browser_overlay_act", "click",
	"browser_dialog", "your answer",
	`\u00a0`, " ", `\u200b`, "", "\u00a0", " ", "\u200b", "",
)

// Spoken says the tools' names in s as the listener says them.
func Spoken(s string) string { return spokenNames.Replace(s) }

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

func numOf(v any) float64 {
	f, _ := v.(float64)
	return f
}

// thousands writes n with commas: 24,310.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// itemLine is one numbered element as a screen reader should hear it:
// "5. button Save", with its state.
func itemLine(m map[string]any) string {
	line := fmt.Sprintf("%v. %v %v", first(m, "number", "index"), first(m, "role", "tag"), first(m, "name"))
	if c, ok := m["checked"].(bool); ok {
		if c {
			line += ", checked"
		} else {
			line += ", not checked"
		}
	}
	if v, _ := m["value"].(string); v != "" {
		line += ", value " + v
	}
	if dis, _ := m["disabled"].(bool); dis {
		line += ", disabled"
	}
	return line
}

// OpenDialog returns the JavaScript dialog a result reports as waiting.
func OpenDialog(res any) *browser.Dialog {
	r, ok := res.(browser.Result)
	if !ok || r.Status != "ok" {
		return nil
	}
	b, _ := json.Marshal(r.Data)
	var d struct {
		Dialog *browser.Dialog `json:"dialog_open"`
		Next   *browser.Dialog `json:"next_dialog"`
	}
	_ = json.Unmarshal(b, &d)
	if d.Dialog != nil {
		return d.Dialog
	}
	return d.Next
}

func first(m map[string]any, keys ...string) any {
	for _, k := range keys {
		if v, ok := m[k]; ok && v != nil && v != "" {
			return v
		}
	}
	return ""
}
