package manuscript

import "fmt"

// SessionID names the book's session in the store: the transcript of its
// commands (the RunCommand tool writes it, every door reads it) and the
// window's state for it.
func (m *Manuscript) SessionID() string { return fmt.Sprintf("doc:%d", m.DocID) }
