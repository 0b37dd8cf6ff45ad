package manuscript

import (
	"bytes"
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/store"
	"github.com/waymark/waymark/backend/tools"
)

// EditsSinceArgs names the revision the edits come after.
type EditsSinceArgs struct {
	SinceRevision int64 `json:"sinceRevision" jsonschema:"list the edits made after this revision (e.g. the revision before a command ran)"`
	// Language is the language of the descriptions: a command's own ("ru",
	// "en"); empty, the book's.
	Language string `json:"language,omitempty" jsonschema:"the language of the descriptions: en or ru (a command's language); default the book's"`
}

// Refine: revisions are not negative.
func (EditsSinceArgs) Refine(s *jsonschema.Schema) {
	tools.Range(tools.Prop(s, "sinceRevision"), 0, 1<<53)
	tools.Enum(tools.Prop(s, "language"), "en", "ru")
}

// EditSince is one edit, for review: the Markdown it removed and inserted and
// where it is now, re-based over every later revision.
type EditSince struct {
	Revision int64  `json:"revision"`
	Op       string `json:"op"`
	Summary  string `json:"summary"`
	Before   string `json:"before"`
	After    string `json:"after"`
	// ByteOffset and Utf16Offset are where the edit starts in the text at
	// Head: in bytes of UTF-8, and in UTF-16 code units.
	ByteOffset  int `json:"byteOffset"`
	Utf16Offset int `json:"utf16Offset"`
	// Description is the edit in words, with where it is (DescribeEdit).
	Description string `json:"description"`
}

// EditsSinceResult lists the edits in the order they were made.
type EditsSinceResult struct {
	Head  int64       `json:"head"`
	Edits []EditSince `json:"edits"`
}

// EditsSinceRef is the typed handle on the EditsSince tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var EditsSinceRef = tools.RefTo[EditsSinceArgs, EditsSinceResult]("EditsSince")

func editsSinceTool(ws *Workspace) tools.Tool {
	return EditsSinceRef.Func("The edits made after a revision (undo, redo, restore and outside changes left out), each with the text before and after, its place in the newest text (byteOffset in UTF-8 bytes, utf16Offset in UTF-16 code units), re-based over every later revision, and a description in words with the headings it is under.",
		func(ctx context.Context, a EditsSinceArgs) (EditsSinceResult, error) { return EditsSince(ctx, ws, a) })
}

// EditsSince is the EditsSince tool's handler.
func EditsSince(ctx context.Context, ws *Workspace, a EditsSinceArgs) (EditsSinceResult, error) {
	m, err := ws.Current()
	if err != nil {
		return EditsSinceResult{}, err
	}
	var head int64
	var idx *document.UTF16Index
	_ = m.Do(func(d *document.Document) error {
		head = d.Rev()
		if head > a.SinceRevision {
			idx = document.NewUTF16Index(append([]byte(nil), d.Source()...))
		}
		return nil
	})
	res := EditsSinceResult{Head: head, Edits: []EditSince{}}
	if head <= a.SinceRevision {
		return res, nil
	}
	revs, err := ws.Store.Revisions(ctx, m.DocID, a.SinceRevision)
	if err != nil {
		return res, err
	}
	for len(revs) > 0 && revs[len(revs)-1].Rev > head {
		revs = revs[:len(revs)-1] // written after the text was read
	}
	for k, r := range revs {
		if r.Op == store.OpUndo || r.Op == store.OpRedo || r.Op == store.OpOpen || r.Op == store.OpExternal || r.Op == store.OpRestore {
			continue
		}
		start := r.Start
		for _, later := range revs[k+1:] {
			if later.Start <= start {
				start += int64(len(later.New) - len(later.Old))
			}
		}
		// A revision of several places (ReplaceAll, DeleteAll) is listed place
		// by place, so the review shows each change, not the text between.
		for _, p := range placesOf(r.Old, r.New) {
			at := int(start) + p.at
			res.Edits = append(res.Edits, EditSince{Revision: r.Rev, Op: r.Op, Summary: r.Summary, Before: p.before, After: p.after,
				ByteOffset: at, Utf16Offset: idx.Pos(at)})
		}
	}
	// Each edit in words, placed under the headings around it now.
	_ = m.Do(func(d *document.Document) error {
		russian := describeIn(a.Language, d.Source())
		for k := range res.Edits {
			e := &res.Edits[k]
			place := ""
			if i := d.IndexContaining(e.ByteOffset); i >= 0 && d.Rev() == head {
				place = d.Place(i)
			}
			e.Description = DescribeEdit(e.Before, e.After, place, russian)
		}
		return nil
	})
	return res, nil
}

// newline splits a revision's bytes into lines for placesOf.
var newline = []byte("\n")

// place is one changed line run of a revision: its text before and after, and
// where it starts in the revision's new bytes.
type place struct {
	at            int
	before, after string
}

// placesOf splits a revision's old and new bytes into the lines that differ
// when they line up (the same lines, or the new ones with some removed); a
// change of any other shape is one place.
func placesOf(old, new []byte) []place {
	whole := []place{{0, string(old), string(new)}}
	if bytes.Count(old, newline) == 0 && bytes.Count(new, newline) == 0 {
		return whole
	}
	a, b := bytes.SplitAfter(old, newline), bytes.SplitAfter(new, newline)
	var out []place
	at := 0
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case bytes.Equal(a[i], b[j]):
			at += len(b[j])
			i, j = i+1, j+1
		case len(a) == len(b):
			out = append(out, place{at, string(a[i]), string(b[j])})
			at += len(b[j])
			i, j = i+1, j+1
		case len(a) > len(b):
			// Lines removed: a run of old lines until they meet the new again.
			k := i
			for k < len(a) && !bytes.Equal(a[k], b[j]) {
				k++
			}
			if k == len(a) {
				return whole
			}
			out = append(out, place{at, string(bytes.Join(a[i:k], nil)), ""})
			i = k
		default:
			return whole
		}
	}
	if i < len(a) {
		out = append(out, place{at, string(bytes.Join(a[i:], nil)), ""})
	}
	if j < len(b) {
		return whole
	}
	if len(out) <= 1 {
		return whole
	}
	return out
}
