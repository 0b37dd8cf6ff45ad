package manuscript

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/store"
	"github.com/waymark/waymark/backend/tools"
)

// EditsSinceArgs names the revision the edits come after.
type EditsSinceArgs struct {
	SinceRevision int64 `json:"sinceRevision" jsonschema:"list the edits made after this revision (e.g. the revision before a command ran)"`
}

// Refine: revisions are not negative.
func (EditsSinceArgs) Refine(s *jsonschema.Schema) {
	tools.Range(tools.Prop(s, "sinceRevision"), 0, 1<<53)
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

func editsSinceTool(ws *Workspace) tools.Tool {
	return tools.Func("EditsSince", "The edits made after a revision (undo, redo, restore and outside changes left out), each with the text before and after, its place in the newest text (byteOffset in UTF-8 bytes, utf16Offset in UTF-16 code units), re-based over every later revision, and a description in words with the headings it is under.",
		func(ctx context.Context, a EditsSinceArgs) (any, error) { return EditsSince(ctx, ws, a) })
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
		res.Edits = append(res.Edits, EditSince{Revision: r.Rev, Op: r.Op, Summary: r.Summary, Before: string(r.Old), After: string(r.New),
			ByteOffset: int(start), Utf16Offset: idx.Pos(int(start))})
	}
	// Each edit in words, placed under the headings around it now.
	_ = m.Do(func(d *document.Document) error {
		for k := range res.Edits {
			e := &res.Edits[k]
			place := ""
			if i := d.IndexContaining(e.ByteOffset); i >= 0 && d.Rev() == head {
				place = d.Place(i)
			}
			e.Description = DescribeEdit(e.Before, e.After, place)
		}
		return nil
	})
	return res, nil
}
