package manuscript

import (
	"fmt"
	"strings"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/store"
)

// maxQuoted is how many words of a changed passage are quoted; a longer one
// keeps its first and last words around an ellipsis.
const maxQuoted = 12

// DescribeEdit says an edit as an author reads it, for the list of edits to
// review and for a screen reader: what changed, with a word of the text
// around it on each side, and where — «Replace «…сказал Пьер, …» with
// «…сказал Петр, …» in Том 1, Часть первая, II». No tool names, no item
// labels: before and after are the Markdown the edit removed and inserted,
// place the headings around it (Document.Place). russian says it in Russian
// (a Russian command's edit): «Замена «…сказал Пьер, …» на «…сказал Петр, …» —
// Том 1, Часть первая, II».
func DescribeEdit(before, after, place string, russian bool) string {
	x, y := strings.Fields(before), strings.Fields(after)
	p := 0
	for p < len(x) && p < len(y) && x[p] == y[p] {
		p++
	}
	s := 0
	for s < len(x)-p && s < len(y)-p && x[len(x)-1-s] == y[len(y)-1-s] {
		s++
	}
	w := editWords[russian]
	where, from := w.in+place, w.from+place
	if place == "" {
		where, from = w.none, w.none
	}
	old, new := x[p:len(x)-s], y[p:len(y)-s]
	switch {
	case len(old) == 0 && len(new) == 0:
		return w.spacing + where
	case len(old) == 0:
		return w.insert + quoted(y, p, len(y)-s) + where
	case len(new) == 0:
		return w.delete + quoted(x, p, len(x)-s) + from
	}
	return w.replace + quoted(x, p, len(x)-s) + w.with + quoted(y, p, len(y)-s) + where
}

// editWords are DescribeEdit's words in English (false) and Russian (true).
var editWords = map[bool]struct{ in, from, none, spacing, insert, delete, replace, with string }{
	false: {" in ", " from ", " before the first heading", "Change the spacing", "Insert ", "Delete ", "Replace ", " with "},
	true:  {" — ", " — ", " до первого заголовка", "Правка пробелов", "Вставка ", "Удаление ", "Замена ", " на "},
}

// quoted is «words[from:to]» with the word before and after it, an ellipsis
// where the passage goes on.
func quoted(words []string, from, to int) string {
	part := words[from:to]
	if len(part) > maxQuoted {
		part = append(append(append([]string{}, part[:maxQuoted/2]...), "…"), part[len(part)-maxQuoted/2+1:]...)
	}
	var b strings.Builder
	b.WriteString("«")
	if from > 0 {
		if from > 1 {
			b.WriteString("…")
		}
		b.WriteString(words[from-1])
		b.WriteByte(' ')
	}
	b.WriteString(strings.Join(part, " "))
	if to < len(words) {
		b.WriteByte(' ')
		b.WriteString(words[to])
		if to+1 < len(words) {
			b.WriteString("…")
		}
	}
	b.WriteString("»")
	return b.String()
}

// revisionWords are describeRevision's words in English (false) and Russian (true).
var revisionWords = map[bool]struct{ open, restore, undone, redone, other, more, moreOne string }{
	false: {"The book as first opened", "The text set back to revision %d", "Undone: ", "Redone: ", "Another program: ", ", and in %d more places", ", and in %d more place"},
	true:  {"Книга, какой её открыли впервые", "Текст возвращён к правке %d", "Отменено: ", "Возвращено: ", "Другая программа: ", ", и ещё в %d местах", ", и ещё в %d месте"},
}

// describeRevision says one revision of the history as an author reads it
// (the History panel, the window's undo): what changed and where, in words —
// no item labels, no tool names. at is where the revision's text starts in
// d (re-based over the later revisions), or -1 when that is not known. An
// undo or redo is said as the edit it took back or made again.
func describeRevision(r store.Revision, d *document.Document, at int, russian bool) string {
	w := revisionWords[russian]
	old, new, prefix := r.Old, r.New, ""
	switch r.Op {
	case store.OpOpen:
		return w.open
	case store.OpRestore:
		var n int64
		if _, err := fmt.Sscanf(r.Summary, "Restore revision %d", &n); err == nil {
			return fmt.Sprintf(w.restore, n)
		}
	case store.OpUndo:
		old, new, prefix = r.New, r.Old, w.undone
	case store.OpRedo:
		prefix = w.redone
	case store.OpExternal:
		prefix = w.other
	}
	// A revision of several places (ReplaceAll) is said by its first.
	ps := placesOf(old, new)
	place := ""
	if at >= 0 {
		if r.Op == store.OpUndo {
			// The place's offset is in the undone edit's text, not this one's.
			ps[0].at = placesOf(r.Old, r.New)[0].at
		}
		if p := at + ps[0].at; p <= len(d.Source()) {
			if i := d.IndexContaining(min(p, max(len(d.Source())-1, 0))); i >= 0 {
				place = d.Place(i)
			}
		}
	}
	s := prefix + DescribeEdit(ps[0].before, ps[0].after, place, russian)
	if n := len(ps) - 1; n > 0 {
		more := w.more
		// «в 1 месте», «в 21 месте», but «в 11 местах»; "1 more place".
		if russian && n%10 == 1 && n%100 != 11 || !russian && n == 1 {
			more = w.moreOne
		}
		s += fmt.Sprintf(more, n)
	}
	return s
}
