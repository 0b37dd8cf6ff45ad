// Package document models a Markdown manuscript as a flat, ordered list of items
// (headings, paragraphs, list items, table cells, …) over the exact source bytes.
//
// The model exists so that an agent can address one element of a whole novel by a
// pointer and change it without touching a single byte outside that element: every
// edit is a splice of the source, checked by re-parsing the few top-level blocks
// around it, and the item list is updated incrementally rather than re-parsed.
package document

import (
	"fmt"

	"github.com/waymark/waymark/backend/textmatch"
)

// ItemType names the kind of a linear item. The names are part of the JSON contract
// (tools, MCP, the model prompt), so they never change once published.
type ItemType uint8

// The item types of SPEC §1.
const (
	Heading ItemType = iota + 1
	Paragraph
	ListItem
	TableCell
	Image
	CodeBlock
	Quote
	ThematicBreak
	HTML
	// FrontMatter is a YAML metadata block ("---" … "---" at the very top of
	// the book, as Jekyll, Hugo and Pandoc write it): metadata, not text — not
	// in the outline, not a first-mention candidate, searched only on request.
	FrontMatter
)

var typeNames = [...]string{
	Heading:       "Heading",
	Paragraph:     "Paragraph",
	ListItem:      "ListItem",
	TableCell:     "TableCell",
	Image:         "Image",
	CodeBlock:     "CodeBlock",
	Quote:         "Quote",
	ThematicBreak: "ThematicBreak",
	HTML:          "Html",
	FrontMatter:   "FrontMatter",
}

// String returns the published name of the type ("Paragraph", "ListItem", …).
func (t ItemType) String() string {
	if int(t) < len(typeNames) && typeNames[t] != "" {
		return typeNames[t]
	}
	return fmt.Sprintf("ItemType(%d)", t)
}

// MarshalText lets item types appear by name in JSON.
func (t ItemType) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// Item is one element of the linear document. Offsets are byte offsets into the
// current source; they are kept current by every edit.
type Item struct {
	Type ItemType
	// Level is the heading level (1–6) for headings, the nesting depth (1 = top
	// level) for list items and quotes, and 0 otherwise.
	Level int
	// Start and End delimit the item's exact Markdown source: Source()[Start:End].
	// Container prefixes of the first line ("> ", list indentation) lie before Start.
	Start, End int
	// Segs are the content lines without container prefixes, in order; they are what
	// the matcher reads and what the plain text is rendered from.
	Segs []textmatch.Segment
	// Line and Rune are the 0-based line and character (rune) offset of Start.
	Line, Rune int
	// Row and Col locate a table cell (row 0 is the header row).
	Row, Col int
	// Group is the start offset of the table a cell belongs to; Rows and Cols its size.
	Group, Rows, Cols int
	// Lead is the byte offset where the item's first line begins (before any
	// container prefix such as "> " or list indentation).
	Lead int
	// Prefix is the container prefix of the item's continuation lines, e.g. "> " or
	// "   " inside a list item; empty at the top level.
	Prefix string
	// SubEnd is, for list items, the end of the item's whole subtree (nested lists
	// included); it equals End for every other type.
	SubEnd int
	// Task is true for a GFM task-list item; Checked tells its state.
	Task, Checked bool
	// Footnote names the footnote a paragraph belongs to, if any.
	Footnote string
}

// inContainer reports whether the item sits inside a list item or block quote, where
// inserted Markdown has to carry the container prefix.
func (it *Item) inContainer() bool { return it.Prefix != "" || it.Start != it.Lead }
