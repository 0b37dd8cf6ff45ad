package manuscript

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/tools"
)

// TextChangesArgs names the revision whose text the caller holds.
type TextChangesArgs struct {
	KnownRevision int64 `json:"knownRevision" jsonschema:"the revision of the text the caller (an editor) holds"`
}

// Refine: revisions are not negative.
func (TextChangesArgs) Refine(s *jsonschema.Schema) {
	tools.Range(tools.Prop(s, "knownRevision"), 0, 1<<53)
}

// TextChangesResult brings a caller's copy of the text up to Revision: either
// the whole text (Full, Markdown) or one replacement: UTF-16 code units
// [FromUtf16, ToUtf16) of the known text become Insert. FromUtf16 == ToUtf16
// and Insert == "" means no change.
type TextChangesResult struct {
	Revision  int64  `json:"revision"`
	Full      bool   `json:"full"`
	Markdown  string `json:"markdown,omitempty"`
	FromUtf16 int    `json:"fromUtf16"`
	ToUtf16   int    `json:"toUtf16"`
	Insert    string `json:"insert"`
}

// TextChangesRef is the typed handle on the TextChanges tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var TextChangesRef = tools.RefTo[TextChangesArgs, TextChangesResult]("TextChanges")

func textChangesTool(ws *Workspace, tc *textCache) tools.Tool {
	return TextChangesRef.Func("What changed in the manuscript's text since a revision the caller holds (after a command, an undo, a restore, a reload): one replacement in UTF-16 code units (fromUtf16, toUtf16, insert), or the whole text (full, markdown) when that revision cannot be rebuilt.",
		func(ctx context.Context, a TextChangesArgs) (TextChangesResult, error) {
			return TextChanges(ctx, ws, tc, a)
		})
}

// TextChanges is the TextChanges tool's handler.
func TextChanges(ctx context.Context, ws *Workspace, tc *textCache, a TextChangesArgs) (TextChangesResult, error) {
	m, err := ws.Current()
	if err != nil {
		return TextChangesResult{}, err
	}
	var now int64
	_ = m.Do(func(d *document.Document) error { now = d.Rev(); return nil })
	if a.KnownRevision == now && now > 0 && tc.holds(m.DocID, now) {
		// Nothing changed and the caller's text is the one kept: no copy of
		// the book, no history to read.
		return TextChangesResult{Revision: now}, nil
	}
	cur, rev := current(m)
	res := TextChangesResult{Revision: rev}
	if a.KnownRevision == rev && rev > 0 {
		// Nothing changed (the editor's usual question): no history to read.
		tc.put(m.DocID, rev, cur)
		return res, nil
	}
	var old []byte
	if a.KnownRevision > 0 && a.KnownRevision <= rev {
		old, err = tc.at(ctx, ws, m, a.KnownRevision)
	}
	if old == nil || err != nil {
		res.Full, res.Markdown = true, string(cur)
	} else {
		p, oldEnd, newEnd := document.RuneDelta(old, cur)
		from := document.UTF16Units(old[:p])
		res.FromUtf16, res.ToUtf16 = from, from+document.UTF16Units(old[p:oldEnd])
		res.Insert = string(cur[p:newEnd])
	}
	tc.put(m.DocID, rev, cur)
	return res, nil
}
