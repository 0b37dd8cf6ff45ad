package manuscript

import (
	"context"
	"errors"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/tools"
)

// ItemAtArgs is a place in the manuscript's text, as an editor counts it.
type ItemAtArgs struct {
	Utf16Offset int `json:"utf16Offset" jsonschema:"the place in the text in UTF-16 code units (an editor's cursor position)"`
}

// Refine: places are not negative.
func (ItemAtArgs) Refine(s *jsonschema.Schema) { tools.Min(tools.Prop(s, "utf16Offset"), 0) }

// ItemAtResult is the item a place is in (at a place between two items, the
// one before it), at Revision.
type ItemAtResult struct {
	Index    int               `json:"index"`
	Type     document.ItemType `json:"type"`
	Pointer  document.Pointer  `json:"pointer"`
	Revision int64             `json:"revision"`
}

// ItemAtRef is the typed handle on the ItemAt tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var ItemAtRef = tools.RefTo[ItemAtArgs, ItemAtResult]("ItemAt")

func itemAtTool(ws *Workspace) tools.Tool {
	return ItemAtRef.Func("The item at a place in the manuscript's text given in UTF-16 code units (an editor's cursor position): its index, type and pointer, e.g. to add it to a target set.",
		func(ctx context.Context, a ItemAtArgs) (ItemAtResult, error) { return ItemAt(ws, a) })
}

// ItemAt is the ItemAt tool's handler.
func ItemAt(ws *Workspace, a ItemAtArgs) (ItemAtResult, error) {
	m, err := ws.Current()
	if err != nil {
		return ItemAtResult{}, err
	}
	var r ItemAtResult
	err = m.Do(func(d *document.Document) error {
		off, err := m.utf16Index(d).ByteAt(a.Utf16Offset)
		if err != nil {
			return err
		}
		if d.Len() == 0 {
			return errors.New("the manuscript has no items")
		}
		i := max(0, min(d.IndexContaining(off), d.Len()-1))
		r = ItemAtResult{Index: i, Type: d.Item(i).Type, Pointer: d.PointerTo(i), Revision: d.Rev()}
		return nil
	})
	return r, err
}
