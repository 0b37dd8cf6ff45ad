package browser

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"
)

// keyDef describes one key the way Chromium's DevTools input expects it.
// rod's lib/input table is used for printable ASCII; the named keys are
// defined here because rod gives Enter and Tab the key values "\r" and "\t",
// so a page that checks event.key === "Enter" would never see it.
type keyDef struct {
	key     string // KeyboardEvent.key
	code    string // KeyboardEvent.code
	keyCode int
	text    string // inserted text, if any
	loc     int
}

var namedKeys = map[string]keyDef{
	"enter":      {"Enter", "Enter", 13, "\r", 0},
	"return":     {"Enter", "Enter", 13, "\r", 0},
	"tab":        {"Tab", "Tab", 9, "", 0},
	"escape":     {"Escape", "Escape", 27, "", 0},
	"esc":        {"Escape", "Escape", 27, "", 0},
	"space":      {" ", "Space", 32, " ", 0},
	"spacebar":   {" ", "Space", 32, " ", 0},
	"backspace":  {"Backspace", "Backspace", 8, "", 0},
	"delete":     {"Delete", "Delete", 46, "", 0},
	"del":        {"Delete", "Delete", 46, "", 0},
	"insert":     {"Insert", "Insert", 45, "", 0},
	"arrowdown":  {"ArrowDown", "ArrowDown", 40, "", 0},
	"down":       {"ArrowDown", "ArrowDown", 40, "", 0},
	"arrowup":    {"ArrowUp", "ArrowUp", 38, "", 0},
	"up":         {"ArrowUp", "ArrowUp", 38, "", 0},
	"arrowleft":  {"ArrowLeft", "ArrowLeft", 37, "", 0},
	"left":       {"ArrowLeft", "ArrowLeft", 37, "", 0},
	"arrowright": {"ArrowRight", "ArrowRight", 39, "", 0},
	"right":      {"ArrowRight", "ArrowRight", 39, "", 0},
	"home":       {"Home", "Home", 36, "", 0},
	"end":        {"End", "End", 35, "", 0},
	"pageup":     {"PageUp", "PageUp", 33, "", 0},
	"pagedown":   {"PageDown", "PageDown", 34, "", 0},
	"shift":      {"Shift", "ShiftLeft", 16, "", 1},
	"control":    {"Control", "ControlLeft", 17, "", 1},
	"ctrl":       {"Control", "ControlLeft", 17, "", 1},
	"alt":        {"Alt", "AltLeft", 18, "", 1},
	"option":     {"Alt", "AltLeft", 18, "", 1},
	"meta":       {"Meta", "MetaLeft", 91, "", 1},
	"cmd":        {"Meta", "MetaLeft", 91, "", 1},
	"command":    {"Meta", "MetaLeft", 91, "", 1},
	"super":      {"Meta", "MetaLeft", 91, "", 1},
}

func init() {
	for i := 1; i <= 12; i++ {
		namedKeys[fmt.Sprintf("f%d", i)] = keyDef{fmt.Sprintf("F%d", i), fmt.Sprintf("F%d", i), 111 + i, "", 0}
	}
}

var modifierBits = map[string]int{"Alt": input.ModifierAlt, "Control": input.ModifierControl, "Meta": input.ModifierMeta, "Shift": input.ModifierShift}

// charKey describes the key that types r: rod's US-layout table for printable
// ASCII, otherwise a key event that carries the character as its text (how
// Chromium receives Cyrillic or emoji from an input method).
func charKey(r rune) keyDef {
	if r == '\n' || r == '\r' {
		return namedKeys["enter"]
	}
	if r == '\t' {
		return namedKeys["tab"]
	}
	if r >= 0x20 && r < 0x7f {
		if info, ok := rodKeyInfo(input.Key(r)); ok {
			return keyDef{key: string(r), code: info.Code, keyCode: info.KeyCode, text: string(r)}
		}
	}
	return keyDef{key: string(r), text: string(r)}
}

// rodKeyInfo is input.Key.Info without its panic for unknown keys.
func rodKeyInfo(k input.Key) (info input.KeyInfo, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return k.Info(), true
}

// parseKey reads "Enter", "Tab", "k", "Shift+Tab", "Control+a", "ж".
func parseKey(spec string) (mods []keyDef, key keyDef, err error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return nil, key, invalid("key is empty")
	}
	parts := []string{spec}
	if utf8.RuneCountInString(spec) > 1 && strings.Contains(spec[1:], "+") {
		parts = strings.Split(spec, "+")
		if strings.HasSuffix(spec, "++") { // "Control++"
			parts = append(parts[:len(parts)-2], "+")
		}
	}
	for i, p := range parts {
		p = strings.TrimSpace(p)
		last := i == len(parts)-1
		if k, ok := namedKeys[strings.ToLower(p)]; ok {
			if !last {
				if _, isMod := modifierBits[k.key]; !isMod {
					return nil, key, invalid("key %q: only Shift, Control, Alt and Meta can be combined with another key", spec)
				}
				mods = append(mods, k)
				continue
			}
			return mods, k, nil
		}
		if !last || utf8.RuneCountInString(p) != 1 {
			return nil, key, invalid("key %q: use a key name (Enter, Tab, Escape, Space, ArrowDown, Backspace, PageDown, F5, …), one character such as k, or a combination such as Shift+Tab", spec)
		}
		r, _ := utf8.DecodeRuneInString(p)
		return mods, charKey(r), nil
	}
	return nil, key, invalid("key %q not understood", spec)
}

func dispatchKey(p *rod.Page, k keyDef, modifiers int, down bool) error {
	ev := proto.InputDispatchKeyEvent{
		Key: k.key, Code: k.code, WindowsVirtualKeyCode: k.keyCode, NativeVirtualKeyCode: k.keyCode, Modifiers: modifiers,
	}
	if k.loc > 0 {
		ev.Location = &k.loc
	}
	switch {
	case !down:
		ev.Type = proto.InputDispatchKeyEventTypeKeyUp
	case k.text != "" && modifiers&(input.ModifierControl|input.ModifierAlt|input.ModifierMeta) == 0:
		ev.Type = proto.InputDispatchKeyEventTypeKeyDown
		ev.Text, ev.UnmodifiedText = k.text, k.text
	default:
		ev.Type = proto.InputDispatchKeyEventTypeRawKeyDown
	}
	return ev.Call(p)
}

// pressKey presses and releases a key with modifiers held, as a person would.
func pressKey(ctx context.Context, page *rod.Page, mods []keyDef, k keyDef) error {
	p := page.Context(ctx)
	bits := 0
	for _, m := range mods {
		bits |= modifierBits[m.key]
		if err := dispatchKey(p, m, bits, true); err != nil {
			return err
		}
	}
	if err := dispatchKey(p, k, bits, true); err != nil {
		return err
	}
	if err := dispatchKey(p, k, bits, false); err != nil {
		return err
	}
	for i := len(mods) - 1; i >= 0; i-- {
		bits &^= modifierBits[mods[i].key]
		if err := dispatchKey(p, mods[i], bits, false); err != nil {
			return err
		}
	}
	return nil
}

// typeText types text key by key into whatever has the focus.
func typeText(ctx context.Context, page *rod.Page, text string) error {
	for _, r := range text {
		if err := pressKey(ctx, page, nil, charKey(r)); err != nil {
			return err
		}
	}
	return nil
}

// moveTo moves the mouse to (x, y) in the top viewport.
func moveTo(ctx context.Context, page *rod.Page, x, y float64) error {
	return proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMouseMoved, X: x, Y: y}.Call(page.Context(ctx))
}

// clickAt moves the mouse to (x, y) in the top viewport and clicks the left
// button (clickItem has moved it there and checked what lies under it).
func clickAt(ctx context.Context, page *rod.Page, x, y float64) error {
	p := page.Context(ctx)
	if err := moveTo(ctx, page, x, y); err != nil {
		return err
	}
	if err := (proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMousePressed, X: x, Y: y,
		Button: proto.InputMouseButtonLeft, Buttons: gsonInt(1), ClickCount: 1}).Call(p); err != nil {
		return err
	}
	return proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMouseReleased, X: x, Y: y,
		Button: proto.InputMouseButtonLeft, Buttons: gsonInt(0), ClickCount: 1}.Call(p)
}

// wheel sends one mouse-wheel event at (x, y).
func wheel(ctx context.Context, page *rod.Page, x, y, dx, dy float64) error {
	return proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMouseWheel, X: x, Y: y, DeltaX: dx, DeltaY: dy}.Call(page.Context(ctx))
}

func gsonInt(i int) *int { return &i }
