package manuscript

import (
	"context"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/tools"
)

// CreateCursorArgs are the CreateCursor tool's arguments.
type CreateCursorArgs struct {
	CursorName     string `json:"cursorName" jsonschema:"1..96 characters, unique per document"`
	Forward        bool   `json:"forward" jsonschema:"true: from the start; false: from the end"`
	MaxElements    int    `json:"maxElements" jsonschema:"items per portion, 1..200"`
	MaxBytes       int    `json:"maxBytes" jsonschema:"bytes per portion, 1..65536 (an item larger than this comes alone)"`
	IncludeContent bool   `json:"includeContent" jsonschema:"false: items carry pointers and metadata only"`
}

// CreateCursorRef is the typed handle on the CreateCursor tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var CreateCursorRef = tools.RefTo[CreateCursorArgs, document.CursorSpec]("CreateCursor")

// createCursorTool is the CreateCursor tool. The limits are checked by
// document.CursorSpec.Validate, whose messages say what is allowed.
func createCursorTool(ws *Workspace) tools.Tool {
	return CreateCursorRef.Func("Create (or reset) a named cursor that reads the manuscript in portions of at most maxElements items (1..200) and maxBytes bytes (1..65536), forward or backward. Defaults CUR_WHOLE_BOOK_FORWARD and CUR_WHOLE_BOOK_BACKWARD exist from the start.", ws.toolCreateCursor)
}

func (ws *Workspace) toolCreateCursor(ctx context.Context, a CreateCursorArgs) (document.CursorSpec, error) {
	m, err := ws.Current()
	if err != nil {
		return document.CursorSpec{}, err
	}
	st, err := m.CreateCursor(ctx, document.CursorSpec{Name: a.CursorName, Forward: a.Forward,
		MaxElements: a.MaxElements, MaxBytes: a.MaxBytes, IncludeContent: a.IncludeContent})
	if err != nil {
		return document.CursorSpec{}, err
	}
	return st.CursorSpec, nil
}
