package manuscript

import (
	"context"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/tools"
)

// TypeTextArgs is one change typed in an editor, in UTF-16 code units.
type TypeTextArgs struct {
	BaseRevision int64  `json:"baseRevision" jsonschema:"the revision of the text the change was typed into; if the manuscript is newer nothing is written"`
	FromUtf16    int    `json:"fromUtf16" jsonschema:"start of the replaced range, in UTF-16 code units (not bytes)"`
	ToUtf16      int    `json:"toUtf16" jsonschema:"end of the replaced range (exclusive), in UTF-16 code units (not bytes)"`
	Text         string `json:"text" jsonschema:"the text typed in place of the range (may be empty: a deletion)"`
}

// Refine: no negative positions or revisions.
func (TypeTextArgs) Refine(s *jsonschema.Schema) {
	tools.Range(tools.Prop(s, "baseRevision"), 1, 1<<53)
	tools.Range(tools.Prop(s, "fromUtf16"), 0, 1<<53)
	tools.Range(tools.Prop(s, "toUtf16"), 0, 1<<53)
}

// TypeTextResult is the typing's revision.
type TypeTextResult struct {
	Revision int64  `json:"revision"`
	Summary  string `json:"summary"`
}

func typeTextTool(ws *Workspace, tc *textCache) tools.Tool {
	return tools.Func("TypeText", "Write what was typed in an editor straight into the manuscript: UTF-16 code units [fromUtf16, toUtf16) of the text at baseRevision become text. It may cross items; it is one revision, saved and undoable like any edit. Against an older revision, or splitting a character, nothing is written.",
		func(ctx context.Context, a TypeTextArgs) (any, error) { return TypeText(ctx, ws, tc, a) })
}

// TypeText is the TypeText tool's handler.
func TypeText(ctx context.Context, ws *Workspace, tc *textCache, a TypeTextArgs) (TypeTextResult, error) {
	m, err := ws.Current()
	if err != nil {
		return TypeTextResult{}, err
	}
	if a.ToUtf16 < a.FromUtf16 {
		return TypeTextResult{}, fmt.Errorf("%w: the typed change has its end (%d) before its start (%d); nothing was written", document.ErrBadInput, a.ToUtf16, a.FromUtf16)
	}
	src, rev := current(m)
	if rev != a.BaseRevision {
		return TypeTextResult{}, fmt.Errorf("%w: the change was typed into revision %d, the manuscript is at revision %d; nothing was written", ErrStale, a.BaseRevision, rev)
	}
	x := document.NewUTF16Index(src)
	from, err := x.ByteAt(a.FromUtf16)
	if err != nil {
		return TypeTextResult{}, fmt.Errorf("%w: the typed change: %v; nothing was written", document.ErrBadInput, err)
	}
	to, err := x.ByteAt(a.ToUtf16)
	if err != nil {
		return TypeTextResult{}, fmt.Errorf("%w: the typed change: %v; nothing was written", document.ErrBadInput, err)
	}
	out, err := m.ApplySplice(ctx, a.BaseRevision, from, to, []byte(a.Text))
	if err != nil {
		return TypeTextResult{}, err
	}
	if out.Rev != rev {
		next := make([]byte, 0, len(src)-(to-from)+len(a.Text))
		tc.put(m.DocID, out.Rev, append(append(append(next, src[:from]...), a.Text...), src[to:]...))
	}
	return TypeTextResult{Revision: out.Rev, Summary: out.Summary}, nil
}
