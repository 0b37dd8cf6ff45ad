package document

import (
	"errors"
	"fmt"
	"sort"
	"unicode/utf8"
)

// Limits of a named cursor (seed 000).
const (
	MaxCursorName  = 96
	MinElements    = 1
	MaxElements    = 200
	MinBytes       = 1
	MaxBytes       = 65536
	DefaultElems   = 20
	DefaultBytes   = 2048
	CursorForward  = "CUR_WHOLE_BOOK_FORWARD"
	CursorBackward = "CUR_WHOLE_BOOK_BACKWARD"
)

// CursorSpec is what a caller sets when creating a cursor.
type CursorSpec struct {
	Name           string `json:"cursorName"`
	Forward        bool   `json:"forward"`
	MaxElements    int    `json:"maxElements"`
	MaxBytes       int    `json:"maxBytes"`
	IncludeContent bool   `json:"includeContent"`
}

// Validate checks the seed's limits and says which value is wrong and what is allowed.
func (s CursorSpec) Validate() error {
	n := utf8.RuneCountInString(s.Name)
	switch {
	case n == 0:
		return fmt.Errorf("%w: cursor name is required (1..%d characters)", ErrBadInput, MaxCursorName)
	case n > MaxCursorName:
		return fmt.Errorf("%w: cursor name is %d characters; at most %d are allowed", ErrBadInput, n, MaxCursorName)
	case s.MaxElements < MinElements || s.MaxElements > MaxElements:
		return fmt.Errorf("%w: maxElements %d is out of range; allowed %d..%d", ErrBadInput, s.MaxElements, MinElements, MaxElements)
	case s.MaxBytes < MinBytes || s.MaxBytes > MaxBytes:
		return fmt.Errorf("%w: maxBytes %d is out of range; allowed %d..%d", ErrBadInput, s.MaxBytes, MinBytes, MaxBytes)
	}
	return nil
}

// CursorState is a cursor with its position: Next is the index of the next item to
// hand out (for a backward cursor, counting down); Complete once it has run out.
type CursorState struct {
	CursorSpec
	Next     int  `json:"next"`
	Complete bool `json:"complete"`
}

// PortionItem is one item in a portion (JSON: index, type, level, pointer,
// utf16Offset, markdown, text).
type PortionItem struct {
	Index   int      `json:"index"`
	Type    ItemType `json:"type"`
	Level   int      `json:"level"`
	Pointer Pointer  `json:"pointer"`
	// Utf16Offset is where the item starts in UTF-16 code units (as an
	// editor counts); the manuscript fills it in (UTF16Index).
	Utf16Offset int    `json:"utf16Offset"`
	Markdown    string `json:"markdown"`
	Text        string `json:"text"`
}

// Portion is what CursorNext returns.
type Portion struct {
	CursorName string        `json:"cursorName"`
	Items      []PortionItem `json:"items"`
	HasMore    bool          `json:"hasMore"`
}

// Cursors is the DocumentContext of seed 000: named cursors over one document, so a
// host (the UI's "next portion", MCP clients, screen-reader paging) can read a whole
// book portion by portion without a model.
type Cursors struct {
	doc *Document
	m   map[string]*CursorState
}

// NewCursors creates the context with the two whole-book defaults.
func NewCursors(d *Document) *Cursors {
	c := &Cursors{doc: d, m: map[string]*CursorState{}}
	for _, fw := range []bool{true, false} {
		name := CursorForward
		if !fw {
			name = CursorBackward
		}
		_, _ = c.Create(CursorSpec{Name: name, Forward: fw, MaxElements: DefaultElems, MaxBytes: DefaultBytes, IncludeContent: true})
	}
	return c
}

// Create defines a cursor, or re-initialises an existing one with the new limits.
func (c *Cursors) Create(s CursorSpec) (CursorState, error) {
	if err := s.Validate(); err != nil {
		return CursorState{}, err
	}
	st := &CursorState{CursorSpec: s}
	if !s.Forward {
		st.Next = c.doc.Len() - 1
	}
	c.m[s.Name] = st
	return *st, nil
}

// Restore installs a cursor loaded from storage (already validated).
func (c *Cursors) Restore(st CursorState) {
	s := st
	c.m[st.Name] = &s
}

// Get returns a cursor's state.
func (c *Cursors) Get(name string) (CursorState, bool) {
	st, ok := c.m[name]
	if !ok {
		return CursorState{}, false
	}
	return *st, true
}

// Names lists the defined cursors, sorted.
func (c *Cursors) Names() []string {
	var out []string
	for n := range c.m {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// ErrCursorNotDefined is what Next returns (under the seed's words) for a
// cursor nobody created: a caller creates it and asks again.
var ErrCursorNotDefined = errors.New("cursor not defined")

// ErrCursorComplete is what Next returns (under the seed's words) for a
// cursor that has given its last portion: a caller resets it or stops.
var ErrCursorComplete = errors.New("cursor complete")

// cursorError keeps the seed's words for a model to read while callers test
// its kind with errors.Is, never by its text.
type cursorError struct {
	words string
	kind  error
}

func (e *cursorError) Error() string { return e.words }
func (e *cursorError) Unwrap() error { return e.kind }

// Next returns the cursor's next portion. The error strings are the seed's, word
// for word, because prompts read them; their kinds are ErrCursorNotDefined and
// ErrCursorComplete.
func (c *Cursors) Next(name string) (Portion, error) {
	st, ok := c.m[name]
	if !ok {
		return Portion{}, &cursorError{fmt.Sprintf("Cursor '%s' is not defined", name), ErrCursorNotDefined}
	}
	d := c.doc
	n := d.Len()
	if st.Complete || n == 0 || st.Next < 0 || st.Next >= n {
		st.Complete = true
		return Portion{}, &cursorError{fmt.Sprintf("Cursor '%s' is complete, reset it before requesting more portions.", name), ErrCursorComplete}
	}
	p := Portion{CursorName: name, Items: []PortionItem{}}
	size := 0
	i := st.Next
	for i >= 0 && i < n && len(p.Items) < st.MaxElements {
		it := d.Item(i)
		sz := it.End - it.Start
		if len(p.Items) > 0 && size+sz > st.MaxBytes {
			break
		}
		size += sz
		p.Items = append(p.Items, d.PortionItem(i, st.IncludeContent))
		if st.Forward {
			i++
		} else {
			i--
		}
	}
	st.Next = i
	p.HasMore = i >= 0 && i < n
	st.Complete = !p.HasMore
	return p, nil
}

// PortionItem builds the portion view of item i.
func (d *Document) PortionItem(i int, content bool) PortionItem {
	it := d.Item(i)
	pi := PortionItem{Index: i, Type: it.Type, Level: it.Level, Pointer: d.PointerTo(i)}
	if content {
		pi.Markdown, pi.Text = d.Markdown(i), d.Text(i)
	}
	return pi
}

// Follow moves every cursor past an applied edit so that it neither skips nor
// repeats items that the edit did not touch.
func (c *Cursors) Follow(r EditResult) {
	shift := r.NewCount - (r.Hi - r.Lo)
	for _, st := range c.m {
		switch {
		case st.Next >= r.Hi:
			st.Next += shift
		case st.Next >= r.Lo:
			if st.Forward {
				st.Next = r.Lo
			} else {
				st.Next = r.Lo + r.NewCount - 1
			}
		}
	}
}
