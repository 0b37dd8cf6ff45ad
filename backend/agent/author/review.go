package author

import (
	"context"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/tools"
)

// ReviewEdit is one edit a command or a plan made, for the author to review:
// the Markdown before and after, where it is now (utf16Offset is -1 when the
// book changed again meanwhile) and the cursor context the edit reported.
type ReviewEdit struct {
	manuscript.EditSince
	Context string `json:"context"`
}

// Found is where a find command landed: the item's stretch of the text at
// the result's revision, in bytes of UTF-8 and in UTF-16 code units (the
// window's editor counts those).
type Found struct {
	Label     string `json:"label"`
	ByteStart int    `json:"byteStart"`
	ByteEnd   int    `json:"byteEnd"`
	From      int    `json:"from"`
	To        int    `json:"to"`
}

// Outcome is what a command or a plan did to the book, read after it ran:
// the revision it left, the edits to review and, for a find, where it
// landed. Every door shows it as it is.
type Outcome struct {
	Revision int64        `json:"revision"`
	Edits    []ReviewEdit `json:"edits"`
	Found    *Found       `json:"found,omitempty"`
}

// watch follows a run's events for what its outcome needs: the cursor
// context each edit reported, and where the last successful find landed.
type watch struct {
	contexts map[int64]string
	found    *document.Pointer
	// language is the language the edits are described in: a command's
	// own ("ru", "en"); empty, the book's.
	language string
}

func (w *watch) see(tool string, result any) {
	switch r := result.(type) {
	case manuscript.EditView:
		if r.Revision > 0 && r.Op != "" {
			w.contexts[r.Revision] = r.Context
		}
	case CursorAgentResult:
		if tool == "RunCursorAgent" && r.Success && r.SemanticPointer != nil {
			w.found = r.SemanticPointer
		}
	}
}

// outcome reads the book after a run that began at revision head: the edits
// since (the EditsSince tool), or where the find landed when nothing changed.
func outcome(ctx context.Context, r *tools.Registry, m *manuscript.Manuscript, head int64, w *watch) Outcome {
	o := Outcome{Edits: []ReviewEdit{}}
	_ = m.Do(func(d *document.Document) error {
		o.Revision = d.Rev()
		if f := w.found; f != nil && o.Revision == head && f.Rev == head {
			if i, ok := d.IndexAt(f.Byte); ok {
				src, end := d.Source(), d.Item(i).End
				from := document.UTF16Units(src[:f.Byte])
				o.Found = &Found{Label: f.Label, ByteStart: f.Byte, ByteEnd: end, From: from, To: from + document.UTF16Units(src[f.Byte:end])}
			}
		}
		return nil
	})
	if o.Revision == head {
		return o
	}
	es, err := manuscript.EditsSinceRef.Call(context.WithoutCancel(ctx), r, manuscript.EditsSinceArgs{SinceRevision: head, Language: w.language})
	if err != nil {
		return o
	}
	for _, e := range es.Edits {
		if es.Head != o.Revision {
			e.Utf16Offset = -1 // the book changed again meanwhile
		}
		o.Edits = append(o.Edits, ReviewEdit{EditSince: e, Context: w.contexts[e.Revision]})
	}
	// An edit whose tool reported no cursor context (ReplaceAll, DeleteAll
	// answer with counts, not one place) gets the context of where it
	// landed, read from the book it left, while that is still the newest.
	_ = m.Do(func(d *document.Document) error {
		if d.Rev() != es.Head {
			return nil
		}
		for k := range o.Edits {
			if e := &o.Edits[k]; e.Context == "" && e.Utf16Offset >= 0 {
				if i := d.IndexContaining(e.ByteOffset); i >= 0 {
					e.Context = d.CursorContext(i)
				}
			}
		}
		return nil
	})
	return o
}
