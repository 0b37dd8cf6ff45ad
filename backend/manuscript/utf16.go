package manuscript

import (
	"github.com/waymark/waymark/backend/document"
)

// utf16Index is the UTF-16 index of d, m's document, at its revision: the
// tools give places in an editor's units (utf16Offset, fromUtf16, …) through
// it. It reads the document's own text, which edits change in place, so it
// is made again for each revision (and each document: a reload starts a new
// one) and must be used only under m's lock: inside m.Do, or with m.mu held.
// (It copied the text once, 6 MB for a novel on every revision.)
func (m *Manuscript) utf16Index(d *document.Document) *document.UTF16Index {
	if m.u16 == nil || m.u16doc != d || m.u16rev != d.Rev() {
		m.u16, m.u16doc, m.u16rev = document.NewUTF16Index(d.Source()), d, d.Rev()
	}
	return m.u16
}
