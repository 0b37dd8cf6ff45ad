package browser

import (
	"context"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/go-rod/rod/lib/proto"
)

// Values the user (or the model) typed into fields are never said back
// (issue 21): a PIN typed into a plain text field, or a password after the
// page's "Show password" made it a text field, was read out by "read page"
// and "list" (PIN code (textbox) = "SECRET") and so stored in the window's
// transcript. The session remembers which fields it typed into and how many
// characters; a list, a find, a typing result and read page give that count
// (Typed) instead of the field's value.

// typedFields are the fields typed into in a session, by frame path and
// data-blind-id, with the number of characters typed.
type typedFields struct {
	mu sync.Mutex
	m  map[string]int
}

func fieldKey(frame, id string) string { return frame + "#" + id }

// note remembers that chars characters were typed into the field.
func (t *typedFields) note(frame, id string, chars int) {
	if id == "" {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil {
		t.m = map[string]int{}
	}
	t.m[fieldKey(frame, id)] = chars
}

// chars is how many characters were typed into the field (false: none).
func (t *typedFields) chars(frame, id string) (int, bool) {
	if id == "" {
		return 0, false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	n, ok := t.m[fieldKey(frame, id)]
	return n, ok
}

// hideTyped replaces the value of a field typed into by the count of
// characters typed; it returns that count (0: the value stays).
func (s *Session) hideTyped(frame, id string, value *string) int {
	n, ok := s.typedIn.chars(frame, id)
	if !ok {
		return 0
	}
	*value = ""
	return max(n, 1)
}

// noteTyped remembers what a type action of the current list's element
// index puts into the page: the field (its value is not said back) and, for
// a password field, the text (no address may carry it).
func (s *Session) noteTyped(index int, text string) {
	n := s.current.Load()
	if n == nil || index < 1 || index > len(n.items) {
		return
	}
	it := n.items[index-1]
	s.typedIn.note(it.Frame, it.ID, utf8.RuneCountInString(text))
	if strings.EqualFold(it.Type, "password") {
		s.notePassword(text)
	}
}

// focusedFieldJS describes the focused editable field (through open shadow
// roots and same-origin frames): its data-blind-id and frame path (when it
// was numbered), its value's length, and, for a password field, its value
// with a key that stays with the field (kept in Waymark's own world: a
// document's token and the field's number).
const focusedFieldJS = `(() => {
  const deep = (e) => { while (e && e.shadowRoot && e.shadowRoot.activeElement) e = e.shadowRoot.activeElement; return e; };
  let e = deep(document.activeElement), path = [];
  while (e && (e.tagName === 'IFRAME' || e.tagName === 'FRAME')) {
    let d = null;
    try { d = e.contentDocument; } catch (_) {}
    if (!d) return null;
    path.push(e.getAttribute('data-blind-frame') || '?');
    e = deep(d.activeElement);
  }
  if (!e) return null;
  const t = String(e.type || '').toLowerCase();
  const text = e.tagName === 'TEXTAREA' || (e.tagName === 'INPUT' && !['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'image', 'range', 'color'].includes(t));
  if (!text && !e.isContentEditable) return null;
  const value = e.isContentEditable && !text ? (e.textContent || '') : String(e.value || '');
  const out = {id: e.getAttribute('data-blind-id') || '', frame: path.join('/'), chars: [...value].length, password: t === 'password'};
  if (out.password && value) {
    const m = (globalThis.__waymarkPw ||= new WeakMap());
    const doc = (globalThis.__waymarkDoc ||= Math.random().toString(36).slice(2));
    if (!m.has(e)) m.set(e, (globalThis.__waymarkPwN = (globalThis.__waymarkPwN || 0) + 1));
    out.key = doc + '/' + m.get(e);
    out.value = value;
  }
  return out;
})()`

// notePressed follows keys typed one by one (browser_press) into the focused
// field: its value is not said back, and a password's is guarded. With
// typing, the key changed the field. The lock is held.
func (s *Session) notePressed(ctx context.Context, typing bool) {
	w, err := s.topWorld(ctx)
	if err != nil {
		return
	}
	res, err := proto.RuntimeEvaluate{Expression: focusedFieldJS, ContextID: w.ctxID, ReturnByValue: true}.Call(w.p.Context(ctx))
	if err != nil || res.ExceptionDetails != nil || res.Result == nil || res.Result.Value.Nil() {
		return
	}
	v := res.Result.Value
	if typing && v.Get("chars").Int() > 0 {
		s.typedIn.note(v.Get("frame").Str(), v.Get("id").Str(), v.Get("chars").Int())
	}
	if key := v.Get("key").Str(); key != "" && s.typed.setField(key, v.Get("value").Str()) {
		s.guardDocuments()
	}
}
