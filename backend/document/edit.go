package document

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/parser"
)

// Edit is a checked but not yet applied change. Plan* methods build it without
// touching the document, so the caller can persist the revision first and only then
// Apply it: a failure anywhere leaves the document exactly as it was.
type Edit struct {
	d        *Document
	Op       string // "ReplaceText", "InsertAfter", "InsertBefore", "Delete", "Undo", "Redo", "Restore"
	Target   int    // index of the addressed item (-1 for raw splices)
	Start    int    // splice start
	OldEnd   int    // splice end in the old source
	Old, New []byte // removed and inserted bytes
	Removes  bool   // see Change.Removes
	// Note tells the caller something it must pass on to the user, e.g. where
	// an inserted heading was put.
	Note string

	wStart, wEnd int // re-parsed window in old coordinates
	lo, hi       int // old items [lo, hi) replaced by win.items
	win          parsed
	produced     []int  // indices (in the new document) of the items the edit made
	mid          []Item // those items, in the new document's offsets
	deleted      []int  // old indices of removed items
	cursor       int    // index (new document) the cursor is after; -1 = document start
}

// EditResult reports an applied edit.
type EditResult struct {
	Op       string
	Rev      int64
	Change   Change
	Produced []int     // current indices of the items the edit created or rewrote
	Deleted  []Pointer // pointers (as they were) of the items it removed
	Cursor   int       // index the cursor is after, -1 for the document start
	// Window is the old item range [Lo, Hi) and the number of items replacing it,
	// so that cursors and other positions can follow the change.
	Lo, Hi, NewCount int
}

var listMarker = regexp.MustCompile(`^[ \t]{0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|\r?\n|$)`)

// cleanInput normalises the Markdown a caller passes: no leading or trailing line
// breaks (the splice supplies its own), the document's line-break style.
func (d *Document) cleanInput(md string) (string, error) {
	if !utf8.ValidString(md) {
		return "", fmt.Errorf("%w: the new Markdown is not valid UTF-8", ErrBadInput)
	}
	if strings.IndexByte(md, 0) >= 0 {
		return "", fmt.Errorf("%w: the new Markdown contains a NUL byte", ErrBadInput)
	}
	md = strings.ReplaceAll(md, "\r\n", "\n")
	md = strings.Trim(md, "\n")
	if d.newline != "\n" {
		md = strings.ReplaceAll(md, "\n", d.newline)
	}
	return md, nil
}

func (d *Document) splitLines(md string) []string {
	return strings.Split(md, d.newline)
}

// prefixLines joins lines, putting prefix before every line after the first unless
// the caller already wrote it (so an item's own Markdown round-trips unchanged).
func (d *Document) prefixLines(lines []string, prefix string, first bool) string {
	var sb strings.Builder
	for k, l := range lines {
		if k > 0 {
			sb.WriteString(d.newline)
		}
		if (k > 0 || first) && prefix != "" && !strings.HasPrefix(l, prefix) && !(strings.TrimRight(prefix, " \t") != "" && strings.HasPrefix(l, strings.TrimRight(prefix, " \t"))) {
			sb.WriteString(prefix)
		}
		sb.WriteString(l)
	}
	return sb.String()
}

func (d *Document) target(i int) (*Item, error) {
	if _, err := d.ResolveIndex(i); err != nil {
		return nil, err
	}
	return &d.items[i], nil
}

// PlanReplaceText checks replacing item i's Markdown with md.
func (d *Document) PlanReplaceText(i int, md string) (*Edit, error) {
	it, err := d.target(i)
	if err != nil {
		return nil, err
	}
	md, err = d.cleanInput(md)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(md) == "" && it.Type != TableCell {
		return nil, fmt.Errorf("%w: the new text for %s %s is empty; to remove the item use Delete", ErrBadInput, it.Type, d.Label(i))
	}
	switch it.Type {
	case Heading:
		md = d.headingText(it, md)
	case ListItem:
		md = d.listItemText(it, md)
	case TableCell:
		if md, err = d.cellText(it, i, md); err != nil {
			return nil, err
		}
		if len(it.Segs) == 0 {
			return d.plan("ReplaceText", i, it.Start, it.End, []byte(md), false)
		}
	case FrontMatter:
		// The metadata may be given without its fences; they stay.
		if first, _, _ := strings.Cut(md, d.newline); strings.TrimRight(first, " \t") != "---" {
			md = "---" + d.newline + md + d.newline + "---"
		}
	}
	return d.planReplace(it, i, md)
}

// headingText is the new text of a heading with the heading's marks: its
// '#'s when the text has none, a setext heading's underline.
func (d *Document) headingText(it *Item, md string) string {
	src := d.src
	if src[it.Start] == '#' && !strings.HasPrefix(strings.TrimLeft(md, " "), "#") {
		md = strings.Repeat("#", it.Level) + " " + md
	} else if src[it.Start] != '#' && !strings.HasPrefix(md, "#") && !strings.Contains(md, d.newline) {
		// Setext heading: keep its underline.
		if nlAt := bytes.LastIndexByte(src[it.Start:it.End], '\n'); nlAt >= 0 {
			md = md + d.newline + string(src[it.Start+nlAt+1:it.End])
		}
	}
	return md
}

// listItemText is the new text of a list item with the item's marker when
// the text has none.
func (d *Document) listItemText(it *Item, md string) string {
	if !listMarker.MatchString(md) {
		content := it.End
		if len(it.Segs) > 0 {
			content = it.Segs[0].Start
		}
		md = string(d.src[it.Start:content]) + md
	}
	return md
}

// cellText is the new text of table cell i: one line, its '|'s escaped; for
// a cell the row leaves out, with the pipes a cell needs.
func (d *Document) cellText(it *Item, i int, md string) (string, error) {
	if strings.Contains(md, d.newline) {
		return "", fmt.Errorf("%w: a table cell holds one line; the new text for %s has line breaks", ErrBadInput, d.Label(i))
	}
	// A '|' of the text is text: unescaped it would end the cell and push
	// what follows out of the table.
	md = escapePipes(md)
	if len(it.Segs) > 0 {
		return md, nil
	}
	// A cell the row leaves out (after its last one): the text goes after
	// the row's last cell, with the pipes a cell needs.
	if strings.TrimSpace(md) == "" {
		return "", fmt.Errorf("%w: table cell %s is already empty", ErrBadInput, d.Label(i))
	}
	if it.Start > 0 && d.src[it.Start-1] == '|' {
		return " " + md + " |", nil
	}
	return " | " + md, nil
}

// planReplace plans item i's replacement by md. An item's own Markdown goes
// back exactly as it is (round trip). New text gets the container's prefix
// on its continuation lines ("> ", list indentation), so a multi-line quote
// stays a tidy quote; if that does not fit, it goes in as given.
func (d *Document) planReplace(it *Item, i int, md string) (*Edit, error) {
	cont := it.Prefix
	if it.Type == ListItem && len(it.Segs) > 0 {
		cont = it.Prefix + strings.Repeat(" ", it.Segs[0].Start-it.Start)
	}
	text := md
	if md != d.Markdown(i) && cont != "" {
		text = d.prefixLines(d.splitLines(md), cont, false)
	}
	e, err := d.plan("ReplaceText", i, it.Start, it.End, []byte(text), false)
	if err != nil && text != md {
		if e2, err2 := d.plan("ReplaceText", i, it.Start, it.End, []byte(md), false); err2 == nil {
			return e2, nil
		}
	}
	return e, err
}

// PlanInsertAfter checks inserting md as new item(s) right after item i (after the
// whole subtree of a list item).
func (d *Document) PlanInsertAfter(i int, md string) (*Edit, error) {
	return d.planInsert("InsertAfter", i, md)
}

// PlanInsertBefore checks inserting md as new item(s) right before item i.
func (d *Document) PlanInsertBefore(i int, md string) (*Edit, error) {
	return d.planInsert("InsertBefore", i, md)
}

func (d *Document) planInsert(op string, i int, md string) (*Edit, error) {
	it, err := d.target(i)
	if err != nil {
		return nil, err
	}
	md, err = d.cleanInput(md)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(md) == "" {
		return nil, fmt.Errorf("%w: nothing to insert: the Markdown is empty", ErrBadInput)
	}
	if it.Type == TableCell {
		return nil, fmt.Errorf("%w: cannot insert next to a table cell (%s): a table keeps its shape; change the cell with ReplaceText, or insert next to the item before or after the table", ErrHierarchy, d.Label(i))
	}
	nlS := d.newline
	if op == "InsertAfter" && it.Type == Heading && it.Prefix == "" && hasHeading(md) {
		return d.planHeadingAfterSection(i, md)
	}
	lines := d.splitLines(md)
	blank := strings.TrimRight(it.Prefix, " \t")
	var at int
	var text string
	switch {
	case it.Type == ListItem:
		body := d.prefixLines(lines, it.Prefix, false)
		if op == "InsertAfter" {
			at, text = it.SubEnd, nlS+it.Prefix+body
		} else {
			at, text = it.Start, body+nlS+it.Prefix
		}
	case it.inContainer():
		body := d.prefixLines(lines, it.Prefix, false)
		if op == "InsertAfter" {
			at, text = it.End, nlS+blank+nlS+it.Prefix+body
		} else {
			at, text = it.Start, body+nlS+blank+nlS+it.Prefix
		}
	default:
		if op == "InsertAfter" {
			at, text = it.End, nlS+nlS+md
		} else {
			at, text = it.Lead, md+nlS+nlS
		}
	}
	return d.plan(op, i, at, at, []byte(text), false)
}

// hasHeading tells whether md makes a heading.
func hasHeading(md string) bool {
	for _, it := range linearize([]byte(md)).items {
		if it.Type == Heading {
			return true
		}
	}
	return false
}

// planHeadingAfterSection inserts a heading "after" heading i: directly after the
// heading line it would take over the section's content, so it goes after the
// whole section instead — before the next heading of the same or a higher level,
// or at the end of the book — and the edit's Note says so.
func (d *Document) planHeadingAfterSection(i int, md string) (*Edit, error) {
	it := &d.items[i]
	nlS := d.newline
	next := -1
	for _, h := range d.heads {
		if h > i && d.items[h].Level <= it.Level {
			next = h
			break
		}
	}
	var e *Edit
	var err error
	var where string
	if next >= 0 {
		nh := &d.items[next]
		if nh.Prefix != "" {
			return nil, fmt.Errorf("%w: a heading inserted after %s belongs after its section, but the section ends inside a quote or list; insert it before heading %s instead", ErrHierarchy, d.Label(i), d.Label(next))
		}
		e, err = d.plan("InsertAfter", i, nh.Lead, nh.Lead, []byte(md+nlS+nlS), false)
		where = fmt.Sprintf("before the next heading %q (%s)", d.Text(next), d.Label(next))
	} else {
		at := len(d.src)
		text := nlS + nlS + md
		if bytes.HasSuffix(d.src, []byte(nlS)) {
			text = nlS + md + nlS
		}
		e, err = d.plan("InsertAfter", i, at, at, []byte(text), false)
		where = "at the end of the book"
	}
	if err != nil {
		return nil, err
	}
	if n := next; n == i+1 {
		e.Note = fmt.Sprintf("the heading was inserted directly after heading %q (its section is empty)", d.Text(i))
	} else {
		e.Note = fmt.Sprintf("the heading was inserted after the whole section of %q, %s, so that section keeps its content", d.Text(i), where)
	}
	return e, nil
}

// PlanDelete checks removing item i (a list item with its nested items).
func (d *Document) PlanDelete(i int) (*Edit, error) {
	it, err := d.target(i)
	if err != nil {
		return nil, err
	}
	switch it.Type {
	case TableCell:
		return nil, fmt.Errorf("%w: cannot delete a table cell (%s): a table keeps its shape; clear it with ReplaceText and empty text", ErrHierarchy, d.Label(i))
	case Heading:
		return nil, fmt.Errorf("%w: deleting heading %s would merge its section into the one before; edits keep the outline — change the heading's text with ReplaceText or delete the section's items", ErrHierarchy, d.Label(i))
	}
	src := d.src
	start, end := it.Lead, it.SubEnd
	// Take the line break after the item.
	if end < len(src) && src[end] == '\r' {
		end++
	}
	if end < len(src) && src[end] == '\n' {
		end++
	}
	if it.Type != ListItem {
		start, end = d.withBlankLine(it, start, end)
	}
	return d.plan("Delete", i, start, end, nil, true)
}

// withBlankLine widens the deletion of item it, [start, end), by one blank
// line around it, so that no two blank lines are left: inside a quote the
// quote's blank line before it or after it, else the one after or before.
func (d *Document) withBlankLine(it *Item, start, end int) (int, int) {
	src := d.src
	container := it.Prefix != "" && strings.TrimSpace(it.Prefix) != ""
	prev, next := prevLineStart(src, start), nextLineEnd(src, end)
	hasQuote := func(a, b int) bool { return bytes.IndexByte(src[a:b], '>') >= 0 }
	switch {
	case container && prev >= 0 && blankLine(src, prev, start, true) && hasQuote(prev, start):
		// Inside a quote: drop the quote's blank line before the item…
		start = prev
	case container && next > end && blankLine(src, end, next, true) && hasQuote(end, next):
		// …or after it.
		end = next
	case next > end && blankLine(src, end, next, false):
		end = next
	case prev >= 0 && blankLine(src, prev, start, false):
		start = prev
	}
	return start, end
}

// blankLine: the line src[a:b] is blank (with allowQuote, but for quote
// marks).
func blankLine(src []byte, a, b int, allowQuote bool) bool {
	l := bytes.TrimRight(src[a:b], "\r\n")
	if allowQuote {
		l = bytes.TrimLeft(l, " \t>")
	}
	return len(bytes.TrimSpace(l)) == 0
}

// nextLineEnd is the end of the line that starts at p (after its line
// break), -1 at the end of src.
func nextLineEnd(src []byte, p int) int {
	if p >= len(src) {
		return -1
	}
	e := bytes.IndexByte(src[p:], '\n')
	if e < 0 {
		return len(src)
	}
	return p + e + 1
}

// prevLineStart is the start of the line before the one that starts at
// p, -1 at the start of src.
func prevLineStart(src []byte, p int) int {
	if p == 0 {
		return -1
	}
	return bytes.LastIndexByte(src[:p-1], '\n') + 1
}

// PlanSplice checks a raw splice used by undo, redo and restore: the neighbours must
// stay as they are, but the hierarchy rule does not apply (it restores a state the
// document already had).
func (d *Document) PlanSplice(op string, start, oldEnd int, newBytes []byte, removes bool) (*Edit, error) {
	if start < 0 || oldEnd < start || oldEnd > len(d.src) {
		return nil, fmt.Errorf("%w: splice [%d,%d) is outside the document (0..%d)", ErrBadInput, start, oldEnd, len(d.src))
	}
	return d.plan(op, -1, start, oldEnd, newBytes, removes)
}

// PlanSpliceWide is PlanSplice for a splice whose effect reaches past its
// neighbours (typing that opens a code fence swallows the rest of the book, a
// restore that changes the outline): the whole source is re-parsed, and the
// items that parse differently become part of the edit, but the splice itself
// — what the revision records — stays the bytes that changed.
func (d *Document) PlanSpliceWide(op string, start, oldEnd int, newBytes []byte, removes bool) (*Edit, error) {
	if start < 0 || oldEnd < start || oldEnd > len(d.src) {
		return nil, fmt.Errorf("%w: splice [%d,%d) is outside the document (0..%d)", ErrBadInput, start, oldEnd, len(d.src))
	}
	return d.planIn(op, -1, start, oldEnd, newBytes, removes, true)
}

func (d *Document) plan(op string, target, start, oldEnd int, newBytes []byte, removes bool) (*Edit, error) {
	return d.planIn(op, target, start, oldEnd, newBytes, removes, false)
}

func (d *Document) planIn(op string, target, start, oldEnd int, newBytes []byte, removes, wide bool) (*Edit, error) {
	e := &Edit{d: d, Op: op, Target: target, Start: start, OldEnd: oldEnd,
		Old: append([]byte(nil), d.src[start:oldEnd]...), New: newBytes, Removes: removes}
	e.wStart, e.wEnd = d.window(start, oldEnd, wide)
	if err := e.parseWindow(newBytes); err != nil {
		return nil, err
	}

	// Old items in the window.
	e.lo, _ = d.IndexAt(e.wStart)
	e.hi, _ = d.IndexAt(e.wEnd)
	if e.wEnd == len(d.src) {
		e.hi = len(d.items) // empty items can sit exactly at the end of the source
	}
	m := &spliceMatch{d: d, op: op, target: target, lo: e.lo, start: start, oldEnd: oldEnd,
		delta: len(newBytes) - (oldEnd - start), olds: d.items[e.lo:e.hi], news: e.win.items}
	nb, na := m.kept(wide)
	if !m.unchanged(nb, na) {
		return nil, fmt.Errorf("%w: %s; nothing was changed", ErrHierarchy, d.leakReason(op, target))
	}
	olds, news := m.olds, m.news
	mid := news[nb : len(news)-na]
	e.mid = mid
	for k := nb; k < len(olds)-na; k++ {
		e.deleted = append(e.deleted, e.lo+k)
	}
	if err := d.checkRule(op, target, mid, len(olds)-nb-na); err != nil {
		return nil, err
	}
	for k := range mid {
		e.produced = append(e.produced, e.lo+nb+k)
	}
	switch {
	case len(mid) > 0:
		e.cursor = e.lo + nb + len(mid) - 1
	case op == "Delete":
		e.cursor = e.lo + nb - 1
	default:
		e.cursor = -1
	}
	return e, nil
}

// window is the source range an edit re-parses: whole top-level blocks
// around the splice, with one untouched block on each side as a guard that
// nothing leaks across; the whole source when wide.
func (d *Document) window(start, oldEnd int, wide bool) (wStart, wEnd int) {
	if wide {
		return 0, len(d.src)
	}
	r := d.roots
	a := -1
	for lo, hi := 0, len(r); lo < hi; {
		m := (lo + hi) / 2
		if r[m] <= start {
			a, lo = m, m+1
		} else {
			hi = m
		}
	}
	if a >= 1 {
		wStart = r[a-1]
	}
	c := len(r)
	for lo, hi := 0, len(r); lo < hi; {
		m := (lo + hi) / 2
		if r[m] >= oldEnd && r[m] > start {
			c, hi = m, m
		} else {
			lo = m + 1
		}
	}
	wEnd = len(d.src)
	if c+1 < len(r) {
		wEnd = r[c+1]
	}
	if wEnd < oldEnd {
		wEnd = len(d.src)
	}
	return wStart, wEnd
}

// parseWindow parses the window with the splice made, its items and roots at
// their offsets in the source.
func (e *Edit) parseWindow(newBytes []byte) error {
	d := e.d
	win := make([]byte, 0, e.wEnd-e.wStart+len(newBytes))
	win = append(win, d.src[e.wStart:e.Start]...)
	win = append(win, newBytes...)
	win = append(win, d.src[e.OldEnd:e.wEnd]...)
	e.win = linearizeWith(win, d.refs, e.wStart == 0)
	if e.win.deep > 0 {
		return fmt.Errorf("%w: the new text nests lists and block quotes more than %d levels deep; at most %d levels are allowed", ErrBadInput, MaxNesting, MaxNesting)
	}
	for k := range e.win.items {
		shiftItem(&e.win.items[k], e.wStart)
	}
	for k := range e.win.roots {
		e.win.roots[k] += e.wStart
	}
	return nil
}

// spliceMatch compares the old items of an edit's window with the items the
// window parses to after the splice: the items before and after the splice
// must come out as they were.
type spliceMatch struct {
	d                    *Document
	op                   string
	target, lo           int
	start, oldEnd, delta int
	olds, news           []Item
}

// isTarget: the old item k is the one the edit addresses (or, for a list
// item's Delete, nested in it).
func (m *spliceMatch) isTarget(k int) bool {
	if m.target < 0 {
		return false
	}
	t := &m.d.items[m.target]
	if m.op != "ReplaceText" && m.op != "Delete" {
		return false
	}
	if k == m.target {
		return true
	}
	return m.op == "Delete" && t.Type == ListItem && m.d.items[k].Start > t.Start && m.d.items[k].Start < t.SubEnd
}

// sameBefore: the k-th item of the window, before the splice, is unchanged.
func (m *spliceMatch) sameBefore(k int) bool {
	o, n := m.olds[k], m.news[k]
	if o.SubEnd >= m.start && n.SubEnd >= n.End {
		// An enclosing list item: its subtree grows or shrinks with the edit.
		o.SubEnd = n.SubEnd
	}
	return sameItem(&o, &n, 0)
}

// sameAfter: the k-th item from the window's end, after the splice, is
// unchanged but for its offsets.
func (m *spliceMatch) sameAfter(k int) bool {
	return sameItemAfter(&m.olds[len(m.olds)-1-k], &m.news[len(m.news)-1-k], m.delta, m.start)
}

// kept is how many old items before (nb) and after (na) the splice must
// stay as they were.
func (m *spliceMatch) kept(wide bool) (nb, na int) {
	olds := m.olds
	for nb < len(olds) && olds[nb].End <= m.start && olds[nb].Start < m.start && !m.isTarget(m.lo+nb) {
		nb++
	}
	for na < len(olds)-nb && olds[len(olds)-1-na].Start >= m.oldEnd && !m.isTarget(m.lo+len(olds)-1-na) {
		na++
	}
	if m.target < 0 {
		nb, na = m.typedInto(nb, na)
	}
	if wide {
		nb, na = m.reparsed(nb, na)
	}
	return nb, na
}

// typedInto: a raw splice (typing, undo, redo, restore) addresses no item:
// the item that ends where the splice starts, or starts where it ends, is
// the one typed into (a letter after a paragraph's last one, or before its
// first), so it may change; only the items beyond must stay as they were.
func (m *spliceMatch) typedInto(nb, na int) (int, int) {
	olds, news := m.olds, m.news
	if nb > 0 && olds[nb-1].End == m.start && (len(news) < nb || !m.sameBefore(nb-1)) {
		nb--
	}
	if na > 0 && olds[len(olds)-na].Start == m.oldEnd && (len(news) < na || !m.sameAfter(na-1)) {
		na--
	}
	return nb, na
}

// reparsed: of a wide splice, only the items that parse as before stay; the
// rest is the edit's.
func (m *spliceMatch) reparsed(nb, na int) (int, int) {
	for k := 0; k < nb; k++ {
		if k >= len(m.news) || !m.sameBefore(k) {
			nb = k
		}
	}
	for k := 0; k < na; k++ {
		if k >= len(m.news)-nb || !m.sameAfter(k) {
			na = k
		}
	}
	return nb, na
}

// unchanged: the nb items before the splice and the na after it parse as
// they were.
func (m *spliceMatch) unchanged(nb, na int) bool {
	if len(m.news) < nb+na {
		return false
	}
	for k := 0; k < nb; k++ {
		if !m.sameBefore(k) {
			return false
		}
	}
	for k := 0; k < na; k++ {
		if !m.sameAfter(k) {
			return false
		}
	}
	return true
}

func (d *Document) leakReason(op string, target int) string {
	what := "the edit"
	if target >= 0 && d.items[target].Type == TableCell {
		return fmt.Sprintf("the new text for table cell %s would change the table's shape (a '|' in the text splits the cell; write it as '\\|')", d.Label(target))
	}
	if target >= 0 {
		what = fmt.Sprintf("%s on %s %s", op, d.items[target].Type, d.Label(target))
	}
	return what + " would change the elements around it (for example the new text joins the next paragraph, turns it into a heading, or opens a code block or HTML block that swallows what follows); end every construct you open and keep the text to the target element"
}

// escapePipes writes every '|' of a cell's text that is not escaped yet as
// '\|', as GFM tables need (inside code spans too).
func escapePipes(md string) string {
	if !strings.Contains(md, "|") {
		return md
	}
	var sb strings.Builder
	for k := 0; k < len(md); k++ {
		if md[k] == '|' && (k == 0 || md[k-1] != '\\') {
			sb.WriteByte('\\')
		}
		sb.WriteByte(md[k])
	}
	return sb.String()
}

// checkRule applies the hierarchy rule of SPEC §1 to the items an edit produces.
func (d *Document) checkRule(op string, target int, mid []Item, removed int) error {
	if target < 0 {
		return nil
	}
	t := &d.items[target]
	label := d.Label(target)
	if err := checkHeadings(op, t, label, mid); err != nil {
		return err
	}
	switch op {
	case "Delete":
		if len(mid) != 0 {
			return fmt.Errorf("%w: deleting %s would leave other text in its place", ErrHierarchy, label)
		}
		return nil
	case "ReplaceText":
		return checkReplace(t, label, mid)
	case "InsertAfter", "InsertBefore":
		return checkInsert(t, label, mid, removed)
	}
	return nil
}

// checkHeadings: an edit makes a heading only where it replaces, or inserts
// next to, a heading of the same level.
func checkHeadings(op string, t *Item, label string, mid []Item) error {
	for k := range mid {
		if mid[k].Type != Heading || t.Type == Heading && mid[k].Level == t.Level {
			continue
		}
		if t.Type == Heading {
			return fmt.Errorf("%w: %s of heading %s (level %d) would make a level-%d heading; headings keep their level — write a level-%d heading (%s Title)", ErrHierarchy, op, label, t.Level, mid[k].Level, t.Level, strings.Repeat("#", t.Level))
		}
		return fmt.Errorf("%w: %s on %s %s would add a heading (level %d); edits do not change the outline — only a heading can be replaced by, or have inserted next to it, a heading of its own level", ErrHierarchy, op, t.Type, label, mid[k].Level)
	}
	return nil
}

// checkReplace: the new text of item t stays an item of its kind (a
// heading of its level, the same table cell, a list item at its depth, front
// matter, inside its quote).
func checkReplace(t *Item, label string, mid []Item) error {
	switch t.Type {
	case Heading:
		if len(mid) != 1 || mid[0].Type != Heading {
			return fmt.Errorf("%w: a heading (%s) must be replaced by exactly one heading of level %d; the new text makes %d element(s)", ErrHierarchy, label, t.Level, len(mid))
		}
	case TableCell:
		if !sameCell(t, mid) {
			return fmt.Errorf("%w: the new text for table cell %s would change the table's shape (a '|' in the text splits the cell; write it as '\\|')", ErrHierarchy, label)
		}
	case ListItem:
		if len(mid) == 0 || mid[0].Type != ListItem || mid[0].Level != t.Level {
			return fmt.Errorf("%w: list item %s must stay a list item at depth %d", ErrHierarchy, label, t.Level)
		}
	case FrontMatter:
		if len(mid) != 1 || mid[0].Type != FrontMatter {
			return fmt.Errorf("%w: the front matter must stay front matter: YAML lines (\"key: value\") between a line \"---\" and a line \"---\"", ErrHierarchy)
		}
	default:
		if len(mid) == 0 {
			return fmt.Errorf("%w: the new text for %s makes no element (a link reference definition alone is not text)", ErrHierarchy, label)
		}
	}
	if t.Type == Quote && leavesQuote(mid) {
		return fmt.Errorf("%w: the new text for quote %s would leave the block quote", ErrHierarchy, label)
	}
	return nil
}

// sameCell: the new text of table cell t makes that one cell again.
// Filling a cell the row left out makes the next one left out addressable:
// an empty cell with no text of its own, which does not count.
func sameCell(t *Item, mid []Item) bool {
	for len(mid) > 1 && mid[len(mid)-1].Type == TableCell && len(mid[len(mid)-1].Segs) == 0 && mid[len(mid)-1].Row == t.Row {
		mid = mid[:len(mid)-1]
	}
	return len(mid) == 1 && mid[0].Type == TableCell && mid[0].Row == t.Row && mid[0].Col == t.Col
}

// leavesQuote: one of the items stands outside any block quote.
func leavesQuote(mid []Item) bool {
	for k := range mid {
		if mid[k].Prefix == "" && mid[k].Start == mid[k].Lead {
			return true
		}
	}
	return false
}

// checkInsert: inserted Markdown makes elements, only list items (the first
// at t's depth) next to a list item, and changes no existing element.
func checkInsert(t *Item, label string, mid []Item, removed int) error {
	if len(mid) == 0 {
		return fmt.Errorf("%w: the inserted Markdown makes no element", ErrHierarchy)
	}
	if t.Type == ListItem {
		for k := range mid {
			if mid[k].Type != ListItem || mid[k].Level < t.Level {
				return fmt.Errorf("%w: next to list item %s only list items can be inserted (e.g. \"- text\"); got a %s", ErrHierarchy, label, mid[k].Type)
			}
		}
		if mid[0].Level != t.Level {
			return fmt.Errorf("%w: the first inserted list item must be at the depth of %s (%d)", ErrHierarchy, label, t.Level)
		}
	}
	if removed != 0 {
		return fmt.Errorf("%w: inserting next to %s would change an existing element", ErrHierarchy, label)
	}
	return nil
}

// sameItemAfter compares an old item after the splice with its re-parsed self: its
// offsets moved by delta. A table cell's Group (its table's start) and Lead (its
// row's start) lie before the cell, so they move only when they come after the
// splice start: a cell edit of another length shifts the cells after it, not
// their table or, in the same row, their row — whose text before them (Prefix)
// is the only part of them that changed.
func sameItemAfter(o, n *Item, delta, start int) bool {
	if o.Type == TableCell && (o.Group < start || o.Lead <= start) {
		m := *n
		if o.Group < start {
			m.Group += delta
		}
		if o.Lead <= start {
			m.Lead += delta
			m.Prefix = o.Prefix
		}
		return sameItem(o, &m, delta)
	}
	return sameItem(o, n, delta)
}

// sameItem compares an old item with a re-parsed one shifted by delta.
func sameItem(o, n *Item, delta int) bool {
	if o.Type != n.Type || o.Level != n.Level || o.Start+delta != n.Start || o.End+delta != n.End ||
		o.Row != n.Row || o.Col != n.Col || o.Rows != n.Rows || o.Cols != n.Cols ||
		o.Task != n.Task || o.Checked != n.Checked || o.Footnote != n.Footnote || o.Prefix != n.Prefix ||
		len(o.Segs) != len(n.Segs) || o.Lead+delta != n.Lead || o.SubEnd+delta != n.SubEnd {
		return false
	}
	if o.Type == TableCell && o.Group+delta != n.Group {
		return false
	}
	for k := range o.Segs {
		if o.Segs[k].Start+delta != n.Segs[k].Start || o.Segs[k].End+delta != n.Segs[k].End {
			return false
		}
	}
	return true
}

func shiftItem(it *Item, delta int) {
	it.Start += delta
	it.End += delta
	it.Lead += delta
	it.SubEnd += delta
	if it.Type == TableCell {
		it.Group += delta
	}
	for k := range it.Segs {
		it.Segs[k].Start += delta
		it.Segs[k].End += delta
	}
}

// Apply commits a planned edit to its document. The edit must have been planned on
// the document's current state.
func (e *Edit) Apply() EditResult {
	d := e.d
	delta := len(e.New) - len(e.Old)
	dLines := lineDelta(d.src, e.Start, e.OldEnd, e.New)
	dRunes := countRunes(e.New) - countRunes(e.Old)

	res := EditResult{Op: e.Op, Lo: e.lo, Hi: e.hi, NewCount: len(e.win.items)}
	for _, k := range e.deleted {
		res.Deleted = append(res.Deleted, d.PointerTo(k))
	}

	// Source, spliced in place; growth keeps headroom so that typing-sized edits do
	// not copy the whole book each time.
	tail := len(d.src) - e.OldEnd
	if need := len(d.src) + delta; need > cap(d.src) {
		grown := make([]byte, len(d.src), need+need/16+4096)
		copy(grown, d.src)
		d.src = grown
	}
	if delta > 0 {
		d.src = d.src[:len(d.src)+delta]
	}
	copy(d.src[e.Start+len(e.New):], d.src[e.OldEnd:e.OldEnd+tail])
	copy(d.src[e.Start:], e.New)
	d.src = d.src[:e.Start+len(e.New)+tail]

	// Items: the window replaced, the rest shifted.
	line, runes, from := 0, 0, 0
	if e.lo > 0 {
		p := &d.items[e.lo-1]
		line, runes, from = p.Line, p.Rune, p.Start
	}
	position(d.src, e.win.items, from, line, runes)
	nOld, nNew := e.hi-e.lo, len(e.win.items)
	if nNew != nOld {
		d.items = slices.Replace(d.items, e.lo, e.hi, e.win.items...)
	} else {
		copy(d.items[e.lo:], e.win.items)
	}
	if delta != 0 || dLines != 0 || dRunes != 0 {
		after := d.items[e.lo+nNew:]
		for k := range after {
			it := &after[k]
			if delta != 0 {
				shiftItem(it, delta)
			}
			it.Line += dLines
			it.Rune += dRunes
		}
	}

	// Roots.
	var roots []int
	for _, r := range d.roots {
		if r < e.wStart {
			roots = append(roots, r)
		}
	}
	roots = append(roots, e.win.roots...)
	for _, r := range d.roots {
		if r >= e.wEnd {
			roots = append(roots, r+delta)
		}
	}
	d.roots = dedupInts(roots)
	d.mergeRefs(e.win.refs)
	d.reindexHeads()

	d.rev++
	ch := Change{Rev: d.rev, Start: e.Start, OldEnd: e.OldEnd, NewEnd: e.Start + len(e.New), Removes: e.Removes, DLines: dLines, DRunes: dRunes}
	d.changes = append(d.changes, ch)
	res.Rev, res.Change, res.Produced, res.Cursor = d.rev, ch, e.produced, e.cursor
	return res
}

func (d *Document) mergeRefs(refs []parser.Reference) {
	for _, r := range refs {
		replaced := false
		for k := range d.refs {
			if bytes.EqualFold(d.refs[k].Label(), r.Label()) {
				d.refs[k], replaced = r, true
				break
			}
		}
		if !replaced {
			d.refs = append(d.refs, r)
		}
	}
}
