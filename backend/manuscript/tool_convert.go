package manuscript

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/tools"
)

// ConvertArgs are the ConvertToUTF8 tool's arguments.
type ConvertArgs struct {
	Path string `json:"path" jsonschema:"the UTF-16 book to convert (absolute, or relative to the current folder)"`
}

func (ConvertArgs) Refine(s *jsonschema.Schema) {
	tools.MinLength(tools.Prop(s, "path"), 1)
}

// ConvertToUTF8Ref is the typed handle on the ConvertToUTF8 tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var ConvertToUTF8Ref = tools.RefTo[ConvertArgs, ConvertResult]("ConvertToUTF8")

// convertTool is the ConvertToUTF8 tool: the author's consent to turn a
// UTF-16 book (which opening refuses, naming its encoding) into UTF-8.
func convertTool(ws *Workspace) tools.Tool {
	return ConvertToUTF8Ref.Func("Convert a UTF-16 book (little- or big-endian, with or without a byte-order mark — the 'Unicode text' of Word and old Notepad) to UTF-8 and open it. Every character stays as it is; the UTF-16 file is kept beside the book as <name>.utf16; the book keeps its owner, permissions and other names. Opening a UTF-16 book is refused until it is converted.", ws.toolConvert)
}

// ConvertResult is what the ConvertToUTF8 tool answers: the book converted
// and opened.
type ConvertResult struct {
	Path  string `json:"path" jsonschema:"the book, now UTF-8"`
	From  string `json:"from" jsonschema:"the encoding it had, in words"`
	Kept  string `json:"kept" jsonschema:"where the UTF-16 file is kept"`
	Bytes int    `json:"bytes" jsonschema:"the UTF-8 text's length in bytes"`
	Items int    `json:"items" jsonschema:"the opened book's items"`
}

func (ws *Workspace) toolConvert(ctx context.Context, a ConvertArgs) (ConvertResult, error) {
	c, err := ws.ConvertToUTF8(a.Path)
	if err != nil {
		return ConvertResult{}, err
	}
	m, err := ws.Open(ctx, c.Path)
	if err != nil {
		return ConvertResult{}, fmt.Errorf("converted %s to UTF-8 (the UTF-16 file is %s), but opening it failed: %w", c.Path, c.Kept, err)
	}
	var items int
	_ = m.Do(func(d *document.Document) error { items = d.Len(); return nil })
	return ConvertResult{Path: c.Path, From: c.From, Kept: c.Kept, Bytes: c.Bytes, Items: items}, nil
}

// Converted is a book turned from UTF-16 into UTF-8.
type Converted struct {
	Path  string // the book, now UTF-8
	From  string // the encoding it had, in words
	Kept  string // where the UTF-16 file is kept
	Bytes int    // the UTF-8 text's length
}

// ConvertToUTF8 turns the UTF-16 book at path into UTF-8, on the author's word
// (opening refuses it and says so). The conversion keeps every character, so
// it can be undone exactly; still, the UTF-16 bytes are first written beside
// the book (book.md.utf16, or book.md.utf16.2, … when that name is taken),
// then the book is written as its UTF-8 text (keeping its owner, mode and
// hard links). A book that is not UTF-16, or whose UTF-16 is broken, is left
// as it is.
func (w *Workspace) ConvertToUTF8(path string) (Converted, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return Converted{}, fmt.Errorf("convert %s: %w", path, err)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	unlock, err := lockBook(abs)
	if err != nil {
		return Converted{}, err
	}
	defer unlock()
	raw, err := document.ReadRaw(abs, w.maxSize()*2) // UTF-16 of a book within the limit is up to twice as long
	if err != nil {
		return Converted{}, err
	}
	u, ok := document.DetectUTF16(raw)
	if !ok {
		if utf8.Valid(raw) && document.CheckSource(abs, raw, w.maxSize()) == nil {
			return Converted{}, fmt.Errorf("%w: %s is UTF-8 already; nothing to convert — open it", document.ErrBadInput, abs)
		}
		if what := document.NulInUTF8(raw); what != "" {
			return Converted{}, fmt.Errorf("%w: %s is %s, not UTF-16; nothing was changed: remove the NUL byte and open the book", document.ErrBadInput, abs, what)
		}
		return Converted{}, fmt.Errorf("%w: %s is not UTF-16 text (its bytes do not decode as UTF-16); nothing was changed", document.ErrBadInput, abs)
	}
	text, err := document.DecodeUTF16(raw, u)
	if err != nil {
		return Converted{}, fmt.Errorf("convert %s from %s: %w; nothing was changed", abs, u, err)
	}
	if err := document.CheckSource(abs, text, w.maxSize()); err != nil {
		return Converted{}, fmt.Errorf("convert %s from %s: %w; nothing was changed", abs, u, err)
	}
	kept := abs + ".utf16"
	for n := 2; ; n++ {
		if _, err := os.Lstat(kept); errors.Is(err, os.ErrNotExist) {
			break
		}
		kept = fmt.Sprintf("%s.utf16.%d", abs, n)
	}
	if err := WriteAtomic(kept, raw); err != nil {
		return Converted{}, fmt.Errorf("keep the UTF-16 file as %s: %w; nothing was changed", kept, err)
	}
	if err := WriteAtomic(abs, text); err != nil {
		return Converted{}, fmt.Errorf("write %s as UTF-8: %w; the UTF-16 file is unchanged (and copied to %s)", abs, err, kept)
	}
	return Converted{Path: abs, From: u.String(), Kept: kept, Bytes: len(text)}, nil
}
