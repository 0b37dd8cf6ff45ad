package author

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/store"
)

// Undo and redo in the author's words: the book's history is kept in the
// store per book, so "undo that" takes back the book's last edit whichever
// door made it (the window, `waymark call`, an MCP client, another
// command), and the answer says in words what was undone.

// undo undoes (or, redo, makes again) the book's last edit and says which.
// A command that names the kind of edit («отмени замену») undoes it only
// when the last edit is of that kind.
func (c *CommandAgent) undo(ctx context.Context, in Intent, redo bool) (any, error) {
	ru := in.Russian
	m, err := c.Runtime.WS.Current()
	if err != nil {
		return nil, err
	}
	st := c.Runtime.Store
	if st == nil {
		return nil, fmt.Errorf("%s", say(ru, "this book has no history to undo from", "у этой книги нет истории правок"))
	}
	nothingLeft := func() error { return nothingLeftToUndo(ru, redo) }
	target, ok, err := undoTarget(ctx, st, m.DocID, redo)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, nothingLeft()
	}
	described := firstMaking(ctx, st, m.DocID, target)
	places := c.editPlaces(ctx, described.Rev, ru)
	kind := editKind(places, target)
	if in.Kind != "" && in.Kind != kind {
		answer := say(ru, fmt.Sprintf("The last change of this book was %s, not %s; nothing was %s.", editKindWords(kind, false), editKindWords(in.Kind, false), map[bool]string{false: "undone", true: "redone"}[redo]),
			fmt.Sprintf("Последняя правка этой книги — %s, а не %s; ничего не %s.", editKindWords(kind, true), editKindWords(in.Kind, true), map[bool]string{false: "отменено", true: "возвращено"}[redo]))
		return nil, nothing{answer}
	}
	ev, err := c.undoOrRedo(ctx, redo)
	if err != nil {
		switch {
		case errors.Is(err, manuscript.ErrNothingToUndo), errors.Is(err, manuscript.ErrNothingToRedo):
			return nil, nothingLeft()
		case errors.Is(err, manuscript.ErrUndoTextGone):
			return nil, fmt.Errorf("%s", say(ru, "Cannot take the last change back: the text it wrote has been changed since; nothing was changed.",
				"Не могу отменить последнюю правку: текст, который она вписала, с тех пор изменён; ничего не изменено."))
		}
		return nil, err
	}
	if redo {
		// A redo's places are read now that its text is back.
		places = c.editPlaces(ctx, described.Rev, ru)
	}
	what := describePlaces(places, ru)
	if what == "" {
		// Not listed as an edit (a redo of a redo): the revision's own bytes.
		where := ""
		if ev.Pointer != nil {
			_ = m.Do(func(d *document.Document) error {
				if i := d.IndexContaining(ev.Pointer.Byte); i >= 0 {
					where = d.Place(i)
				}
				return nil
			})
		}
		what = manuscript.DescribeEdit(string(target.Old), string(target.New), where, ru)
	}
	var answer string
	switch {
	case redo:
		answer = say(ru, "Redid the change that was undone: "+what+".", "Вернул отменённую правку: "+what+".")
	default:
		answer = say(ru, "Undid the last change: "+what+".", "Отменил последнюю правку: "+what+".")
	}
	c.emit(Event{Event: "answer", Text: answer})
	return undoneOf(ev, what), nil
}

// nothingLeftToUndo says that there is no edit to undo (or to redo).
func nothingLeftToUndo(ru, redo bool) error {
	if redo {
		return nothing{say(ru, "Nothing to redo: no change of this book was undone since its last edit.",
			"Возвращать нечего: после последней правки в этой книге ничего не отменялось.")}
	}
	return nothing{say(ru, "Nothing to undo: this book has no change left that can be undone.",
		"Отменять нечего: в этой книге нет правок, которые можно отменить.")}
}

// undoTarget is the edit that Undo (Redo) will take back (make again); ok
// is false when there is none (an undo never reaches back past the last
// whole-text revision).
func undoTarget(ctx context.Context, st *store.Store, docID int64, redo bool) (target store.Revision, ok bool, err error) {
	if redo {
		var u store.Revision
		if u, ok, err = st.LastUnconsumedUndo(ctx, docID); err == nil && ok {
			target, err = st.Revision(ctx, docID, u.UndoOf)
		}
		return target, ok, err
	}
	if target, ok, err = st.LastRevisionWhere(ctx, docID, store.EditOps, false); err == nil && ok {
		if bar, bok, berr := st.LastWholeText(ctx, docID); berr == nil && bok && target.Rev < bar.Rev {
			ok = false
		}
		if ok {
			target, err = st.Revision(ctx, docID, target.Rev)
		}
	}
	return target, ok, err
}

// firstMaking is the revision that first made the edit of target: a redo's
// revision holds the edit it made again, which is described by the first
// revision that made it.
func firstMaking(ctx context.Context, st *store.Store, docID int64, target store.Revision) store.Revision {
	described := target
	for k := 0; k < 50 && described.Op == store.OpRedo; k++ {
		u, err := st.Revision(ctx, docID, described.UndoOf)
		if err != nil {
			break
		}
		if described, err = st.Revision(ctx, docID, u.UndoOf); err != nil {
			described = target
			break
		}
	}
	return described
}

// Undone is what an undo or redo command did: the revision it made, where
// the text it changed starts, and the edit in words. (The Undo tool's own
// result lists every item of the revision's span, which for a change all
// through the book is the whole book's pointers.)
type Undone struct {
	Op       string            `json:"op"`
	Revision int64             `json:"revision"`
	Pointer  *document.Pointer `json:"pointer,omitempty"`
	Items    int               `json:"items"` // items in the revision's span
	Edit     string            `json:"edit,omitempty"`
}

func undoneOf(ev manuscript.EditView, what string) Undone {
	return Undone{Op: ev.Op, Revision: ev.Revision, Pointer: ev.Pointer, Items: len(ev.Pointers), Edit: what}
}

// editPlaces lists the places of one edit of the book (EditsSince, in the
// command's language), or none when it is not listed as an edit there.
func (c *CommandAgent) editPlaces(ctx context.Context, rev int64, ru bool) []manuscript.EditSince {
	lang := say(ru, "en", "ru")
	es, err := manuscript.EditsSinceRef.Call(ctx, c.Reg, manuscript.EditsSinceArgs{SinceRevision: rev - 1, Language: lang})
	if err != nil {
		return nil
	}
	var out []manuscript.EditSince
	for _, e := range es.Edits {
		if e.Revision == rev {
			out = append(out, e)
		}
	}
	return out
}

// editKind is what an edit did: replace, insert or delete.
func editKind(places []manuscript.EditSince, r store.Revision) string {
	before, after := string(r.Old), string(r.New)
	if len(places) > 0 {
		before, after = places[0].Before, places[0].After
	}
	switch {
	case strings.TrimSpace(after) == "":
		return VerbDelete
	case strings.TrimSpace(before) == "":
		return VerbInsert
	}
	return VerbReplace
}

// editKindWords names a kind of edit: "a replacement", «замена».
func editKindWords(kind string, ru bool) string {
	switch kind {
	case VerbDelete:
		return say(ru, "a deletion", "удаление")
	case VerbInsert:
		return say(ru, "an insertion", "вставка")
	}
	return say(ru, "a replacement", "замена")
}

// describePlaces says an edit of one or many places: the first place in
// words, and how many more there were, to where.
func describePlaces(places []manuscript.EditSince, ru bool) string {
	if len(places) == 0 {
		return ""
	}
	first := places[0].Description
	if len(places) == 1 {
		return first
	}
	n := len(places) - 1
	last := places[len(places)-1].Description
	where := func(desc string) string {
		for _, sep := range []string{" in ", " — "} {
			if k := strings.LastIndex(desc, sep); k >= 0 {
				return desc[k+len(sep):]
			}
		}
		return ""
	}
	lastWhere := where(last)
	if lastWhere == where(first) {
		lastWhere = "" // all in one chapter, which the first place names
	}
	if ru {
		s := fmt.Sprintf("%s, и ещё %d %s", first, n, ruPlural(n, "место", "места", "мест"))
		if lastWhere != "" {
			s += " — до «" + lastWhere + "»"
		}
		return s
	}
	s := fmt.Sprintf("%s, and %s more", first, enCount(n, "place"))
	if lastWhere != "" {
		s += ", to " + lastWhere
	}
	return s
}
