package manuscript

import (
	"bytes"

	"github.com/waymark/waymark/backend/document"
)

// utf16Index is the UTF-16 index of d, m's document, at its revision: the
// tools give places in an editor's units (utf16Offset, fromUtf16, …) through
// it. It is made once per revision from a copy of the text (edits change the
// text in place); call it inside m.Do.
func (m *Manuscript) utf16Index(d *document.Document) *document.UTF16Index {
	if m.u16 == nil || m.u16rev != d.Rev() {
		m.u16, m.u16rev = document.NewUTF16Index(bytes.Clone(d.Source())), d.Rev()
	}
	return m.u16
}
