package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/input"

	"github.com/waymark/waymark/app/sample"
)

// switcherState is the side panels' switcher as a screen reader and the
// keyboard find it.
type switcherState struct {
	Group    string   // the group's role and name
	Radios   []string // each button's role
	Checked  []string // the ids of the checked buttons
	Stops    []string // the ids with tabindex 0
	Pressed  int      // buttons with aria-pressed (toggle buttons)
	Focus    string   // the focused element's id
	Shown    string   // the panel not inert
	Controls bool     // every button names the panel it shows
}

func (e *uiEnv) switcher() switcherState {
	e.t.Helper()
	var s switcherState
	r := e.js(`() => {
		const g = document.getElementById('ms-tab-command').parentElement;
		const bs = [...g.querySelectorAll('button')];
		const shown = [...document.querySelectorAll('[id^=ms-panel-]')].filter(p => !p.inert).map(p => p.id);
		return JSON.stringify({
			Group: (g.getAttribute('role') || '') + ' ' + (g.getAttribute('aria-label') || ''),
			Radios: bs.map(b => b.getAttribute('role') || 'button'),
			Checked: bs.filter(b => b.getAttribute('aria-checked') === 'true').map(b => b.id),
			Stops: bs.filter(b => b.tabIndex === 0).map(b => b.id),
			Pressed: bs.filter(b => b.hasAttribute('aria-pressed')).length,
			Focus: document.activeElement?.id || '',
			Shown: shown.join(' '),
			Controls: bs.every(b => document.getElementById(b.getAttribute('aria-controls') || '-')),
		});
	}`)
	if err := json.Unmarshal([]byte(r), &s); err != nil {
		e.t.Fatalf("the switcher's state %s: %v", r, err)
	}
	return s
}

// TestUIPanelSwitcher: the side panels are switched by a radio group (one tab
// stop; arrows, Home and End move the focus to a panel's button and check it;
// a hotkey into a panel checks its button), not by toggle buttons: WebKitGTK
// sends a toggle button's pressed change after the focus event, and Orca 43
// said "People toggle button pressed.", then "pressed" again, while it leaves
// a radio button's checked change that comes with an arrow to the focus (the
// screen-reader tier, build/a11y/speech.py, hears it said once).
func TestUIPanelSwitcher(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "manuscript.md")
	if err := os.WriteFile(doc, sample.Manuscript, 0o644); err != nil {
		t.Fatal(err)
	}
	e := startUI(t, uiBrowser(t), dir, doc, filepath.Join(dir, "ui.db"))

	s := e.switcher()
	if s.Group != "radiogroup Manuscript tools" {
		t.Errorf("the switcher is %q, not a radio group named Manuscript tools", s.Group)
	}
	for i, r := range s.Radios {
		if r != "radio" {
			t.Errorf("the switcher's button %d is a %q, not a radio", i+1, r)
		}
	}
	if len(s.Radios) != 6 || s.Pressed != 0 || !s.Controls {
		t.Errorf("the switcher: %d buttons (want 6), %d with aria-pressed (want 0), each names its panel: %v", len(s.Radios), s.Pressed, s.Controls)
	}

	// Each step: the keys, then the button that has the focus, is the one
	// checked and the only tab stop, and its panel is shown.
	steps := []struct {
		what string
		keys []input.Key
		want string
	}{
		{"Shift+Tab from the command field", []input.Key{input.ShiftLeft, input.Tab}, "command"},
		{"End", []input.Key{input.End}, "people"},
		{"Left", []input.Key{input.ArrowLeft}, "history"},
		{"Right", []input.Key{input.ArrowRight}, "people"},
		{"Right past the last", []input.Key{input.ArrowRight}, "command"},
		{"Up past the first", []input.Key{input.ArrowUp}, "people"},
		{"Home", []input.Key{input.Home}, "command"},
		{"Down", []input.Key{input.ArrowDown}, "search"},
	}
	e.keys(input.ControlLeft, input.ShiftLeft, input.KeyK)
	for _, st := range steps {
		e.keys(st.keys...)
		id := "ms-tab-" + st.want
		var s switcherState
		for i := 0; i < 50; i++ {
			if s = e.switcher(); s.Focus == id {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if s.Focus != id || len(s.Checked) != 1 || s.Checked[0] != id || len(s.Stops) != 1 || s.Stops[0] != id || s.Shown != "ms-panel-"+st.want {
			t.Errorf("%s: focus on %q, checked %q, tab stops %q, shown %q; want all %s", st.what, s.Focus, s.Checked, s.Stops, s.Shown, st.want)
		}
	}

	// A hotkey into a panel: the field has the focus, the panel's button is checked.
	e.keys(input.ControlLeft, input.ShiftLeft, input.KeyK)
	for _, hk := range []struct {
		name, field, tab string
		key              input.Key
	}{{"F", "q", "search", input.KeyF}, {"K", "command", "command", input.KeyK}} {
		e.keys(input.ControlLeft, input.ShiftLeft, hk.key)
		s := e.switcher()
		if s.Focus != hk.field || len(s.Checked) != 1 || s.Checked[0] != "ms-tab-"+hk.tab || s.Shown != "ms-panel-"+hk.tab {
			t.Errorf("Ctrl+Shift+%s: focus on %q, checked %q, shown %q; want the field %q in %s", hk.name, s.Focus, s.Checked, s.Shown, hk.field, hk.tab)
		}
	}
}
