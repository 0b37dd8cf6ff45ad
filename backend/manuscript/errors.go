package manuscript

import "errors"

// The kinds of the errors a caller answers differently (tested with
// errors.Is, never by their words, so that rewording a message cannot change
// what an author is told). Each error keeps its own words and its other
// kinds (document.ErrBadInput among them).
var (
	// ErrNoOccurrence: ReplaceAll or DeleteAll found the text nowhere in the
	// range asked; nothing was changed.
	ErrNoOccurrence = errors.New("the text occurs nowhere in the range")
	// ErrNothingToUndo: the book has no edit left that Undo may take back.
	ErrNothingToUndo = errors.New("nothing to undo")
	// ErrNothingToRedo: no undone edit is left to redo.
	ErrNothingToRedo = errors.New("nothing to redo")
	// ErrUndoTextGone: the text an edit wrote (or an undo put back) has been
	// changed since, so it cannot be taken back (or redone) where it was.
	ErrUndoTextGone = errors.New("the text it wrote has changed since")
)

// kinded gives an error one more kind without changing its words or its
// chain.
type kinded struct {
	error
	kind error
}

func (e kinded) Unwrap() error        { return e.error }
func (e kinded) Is(target error) bool { return target == e.kind }

// withKind marks err as of kind (errors.Is(err, kind) holds).
func withKind(kind, err error) error { return kinded{err, kind} }
