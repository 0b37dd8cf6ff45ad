package manuscript

import (
	"context"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/tools"
)

type readArgs struct {
	itemAddress
}

// readTool is the Read tool: one item with its type, level, Markdown and text.
func readTool(ws *Workspace) tools.Tool {
	return tools.Func("Read", "Read one item of the manuscript by pointer (or index): its type, level, exact Markdown and plain text.", ws.toolRead)
}

func (ws *Workspace) toolRead(ctx context.Context, a readArgs) (ItemView, error) {
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
