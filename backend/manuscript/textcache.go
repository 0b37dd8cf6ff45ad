package manuscript

import (
	"context"
	"sync"

	"github.com/waymark/waymark/backend/document"
)

// textCache keeps the text of one revision the last caller was given (the
// editor's copy), so TextChanges need not rebuild it from the history. The
// text of a revision never changes, so a hit is always right.
type textCache struct {
	mu    sync.Mutex
	doc   int64
	rev   int64
	text  []byte
	valid bool
}

func (c *textCache) put(doc, rev int64, text []byte) {
	c.mu.Lock()
	c.doc, c.rev, c.text, c.valid = doc, rev, text, true
	c.mu.Unlock()
}

// holds says whether the text of doc at rev is the one kept.
func (c *textCache) holds(doc, rev int64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.valid && c.doc == doc && c.rev == rev
}

// at returns the manuscript's text at rev: from the cache, else rebuilt from
// the history in SQLite.
func (c *textCache) at(ctx context.Context, ws *Workspace, m *Manuscript, rev int64) ([]byte, error) {
	c.mu.Lock()
	if c.valid && c.doc == m.DocID && c.rev == rev {
		t := c.text
		c.mu.Unlock()
		return t, nil
	}
	c.mu.Unlock()
	return ws.Store.ContentAt(ctx, m.DocID, rev)
}

// current is the manuscript's text and revision now (a copy of its own).
func current(m *Manuscript) (text []byte, rev int64) {
	_ = m.Do(func(d *document.Document) error {
		text, rev = append([]byte(nil), d.Source()...), d.Rev()
		return nil
	})
	return text, rev
}
