package author

import (
	"context"

	"github.com/waymark/waymark/backend/manuscript"
)

// The command agent's tool calls' arguments, built from an intent and a
// span (each call goes through the tool's typed handle: call, callShown,
// readBook).

// findAll is Find's arguments for every item in the span that holds the
// intent's object.
func findAll(in Intent, sp span) manuscript.FindArgs {
	return manuscript.FindArgs{Query: in.Object, All: true, Exact: in.Exact, IncludeCodeAndQuotes: in.Only != "", ItemRange: sp.itemRange()}
}

// maxSteps is the most model turns a reading of the whole book may take.
func maxSteps() *int {
	n := MaxMaxSteps
	return &n
}

// insertItem inserts Markdown before or after the item at index.
func (c *CommandAgent) insertItem(ctx context.Context, after bool, index int, md string) (manuscript.EditView, error) {
	at := manuscript.ItemAddress{Index: &index}
	if after {
		return call(ctx, c, manuscript.InsertAfterRef, manuscript.InsertAfterArgs{ItemAddress: at, Markdown: md})
	}
	return call(ctx, c, manuscript.InsertBeforeRef, manuscript.InsertBeforeArgs{ItemAddress: at, Markdown: md})
}

// undoOrRedo undoes the newest edit, or redoes the newest undone one; the
// transcript shows the revision, not every pointer of its span.
func (c *CommandAgent) undoOrRedo(ctx context.Context, redo bool) (manuscript.EditView, error) {
	shown := func(ev manuscript.EditView) any { return undoneOf(ev, "") }
	if redo {
		return callShown(ctx, c, manuscript.RedoRef, manuscript.RedoArgs{}, shown)
	}
	return callShown(ctx, c, manuscript.UndoRef, manuscript.UndoArgs{}, shown)
}
