package manuscript

import (
	"context"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/tools"
)

type cursorNextArgs struct {
	CursorName string `json:"cursorName" jsonschema:"the cursor's name (from CreateCursor, or CUR_WHOLE_BOOK_FORWARD / CUR_WHOLE_BOOK_BACKWARD)"`
}

// cursorNextTool is the CursorNext tool: a named cursor's next portion.
func cursorNextTool(ws *Workspace) tools.Tool {
	return tools.Func("CursorNext", "Return the next portion of a named cursor: {cursorName, items, hasMore}. Items carry index, type, level, pointer, markdown and text.", ws.toolCursorNext)
}

func (ws *Workspace) toolCursorNext(ctx context.Context, a cursorNextArgs) (document.Portion, error) {
	m, err := ws.Current()
	if err != nil {
		return document.Portion{}, err
	}
	return m.CursorNext(ctx, a.CursorName)
}
