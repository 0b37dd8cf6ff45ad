package manuscript

import (
	"context"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/tools"
)

// ReadArgs are the Read tool's arguments.
type ReadArgs struct {
	ItemAddress
}

// ReadRef is the typed handle on the Read tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var ReadRef = tools.RefTo[ReadArgs, ItemView]("Read")

// readTool is the Read tool: one item with its type, level, Markdown and text.
func readTool(ws *Workspace) tools.Tool {
	return ReadRef.Func("Read one item of the manuscript by pointer (or index): its type, level, exact Markdown and plain text.", ws.toolRead)
}

func (ws *Workspace) toolRead(ctx context.Context, a ReadArgs) (ItemView, error) {
	m, err := ws.Current()
	if err != nil {
		return ItemView{}, err
	}
	var v ItemView
	err = m.Do(func(d *document.Document) error {
		i, err := a.resolve(d)
		if err == nil {
			v = itemView(d, i)
		}
		return err
	})
	return v, err
}
