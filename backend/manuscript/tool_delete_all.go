package manuscript

import (
	"context"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/tools"
)

// DeleteAllArgs are DeleteAll's arguments: the items that hold the query.
type DeleteAllArgs struct {
	Query string `json:"query" jsonschema:"the text the items to delete hold"`
	MatchOptions
	First bool `json:"first,omitempty" jsonschema:"only the first such item (default: every one)"`
	ItemRange
	Preview bool `json:"preview,omitempty" jsonschema:"list what would be deleted, delete nothing"`
}

// Refine: a query is not empty.
func (DeleteAllArgs) Refine(s *jsonschema.Schema) {
	tools.MinLength(tools.Prop(s, "query"), 1)
	refineRange(s)
}

// DeletedItem is one item DeleteAll removed (or would remove).
type DeletedItem struct {
	Index   int              `json:"index"` // before the deletion
	Pointer document.Pointer `json:"pointer"`
	Section string           `json:"section"`
	Text    string           `json:"text"`
}

// DeleteAllResult lists the items deleted in one revision.
type DeleteAllResult struct {
	Count    int           `json:"count"`
	Preview  bool          `json:"preview"`
	Revision int64         `json:"revision,omitempty"`
	Summary  string        `json:"summary"`
	Items    []DeletedItem `json:"items"`
}

// DeleteAllRef is the typed handle on the DeleteAll tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var DeleteAllRef = tools.RefTo[DeleteAllArgs, DeleteAllResult]("DeleteAll")

func deleteAllTool(ws *Workspace) tools.Tool {
	return DeleteAllRef.Func("Delete every paragraph, list item or quote that holds a phrase (or only the first), in the book or a range of items, as ONE revision that one Undo reverts; headings and table cells are never deleted. preview lists them without deleting.",
		func(ctx context.Context, a DeleteAllArgs) (DeleteAllResult, error) { return DeleteAll(ctx, ws, a) })
}

// DeleteAll is DeleteAll's handler.
func DeleteAll(ctx context.Context, ws *Workspace, a DeleteAllArgs) (DeleteAllResult, error) {
	mt, err := compileMatcher(a.Query, a.MatchOptions)
	if err != nil {
		return DeleteAllResult{}, err
	}
	m, err := ws.Current()
	if err != nil {
		return DeleteAllResult{}, err
	}
	res := DeleteAllResult{Preview: a.Preview, Items: []DeletedItem{}}
	plan := func(d *document.Document) ([]ItemChange, error) {
		lo, hi, err := a.ItemRange.bounds(d)
		if err != nil {
			return nil, err
		}
		var changes []ItemChange
		for i := lo; i < hi && !(a.First && len(changes) > 0); i++ {
			it := d.Item(i)
			switch it.Type {
			case document.Paragraph, document.ListItem, document.Quote, document.Image:
			default:
				continue
			}
			hit := false
			mt.each(d, it, func(s, e int, _ []int) bool { hit = true; return false })
			if !hit {
				continue
			}
			// A list item's sub-items go with it: skip those inside one taken.
			if k := len(changes) - 1; k >= 0 {
				if prev := d.Item(changes[k].Index); prev.Type == document.ListItem && it.Start < prev.SubEnd {
					continue
				}
			}
			changes = append(changes, ItemChange{Index: i, Delete: true})
			res.Items = append(res.Items, DeletedItem{Index: i, Pointer: d.PointerTo(i), Section: d.Place(i), Text: document.Snippet(d.Text(i), 160)})
		}
		res.Count = len(changes)
		return changes, nil
	}
	if a.Preview {
		err = m.Do(func(d *document.Document) error { _, err := plan(d); return err })
		res.Summary = fmt.Sprintf("%d item(s) holding %q would be deleted", res.Count, a.Query)
		return res, err
	}
	out, _, err := m.EditItems(ctx, fmt.Sprintf("Delete the items with %q", a.Query), func(d *document.Document) ([]ItemChange, error) {
		ch, err := plan(d)
		if err == nil && len(ch) == 0 {
			err = withKind(ErrNoOccurrence, fmt.Errorf("%w: no paragraph holds %q%s; nothing was deleted", document.ErrBadInput, a.Query, rangeWords(a.ItemRange)))
		}
		return ch, err
	})
	if err != nil {
		return DeleteAllResult{}, err
	}
	res.Revision = out.Rev
	res.Summary = fmt.Sprintf("deleted %d item(s) holding %q, revision %d", res.Count, a.Query, out.Rev)
	return res, nil
}
