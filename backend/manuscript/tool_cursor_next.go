package manuscript

import (
	"context"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/tools"
)

// CursorNextArgs are the CursorNext tool's arguments.
type CursorNextArgs struct {
	CursorName string `json:"cursorName" jsonschema:"the cursor's name (from CreateCursor, or CUR_WHOLE_BOOK_FORWARD / CUR_WHOLE_BOOK_BACKWARD)"`
}

// CursorNextRef is the typed handle on the CursorNext tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var CursorNextRef = tools.RefTo[CursorNextArgs, document.Portion]("CursorNext")

// cursorNextTool is the CursorNext tool: a named cursor's next portion.
func cursorNextTool(ws *Workspace) tools.Tool {
	return CursorNextRef.Func("Return the next portion of a named cursor: {cursorName, items, hasMore}. Items carry index, type, level, pointer, markdown and text.", ws.toolCursorNext)
}

func (ws *Workspace) toolCursorNext(ctx context.Context, a CursorNextArgs) (document.Portion, error) {
	m, err := ws.Current()
	if err != nil {
		return document.Portion{}, err
	}
	return m.CursorNext(ctx, a.CursorName)
}
