package manuscript

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"
	"unicode"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/store"
)

// Merge is a change that reached this process from elsewhere and was taken
// in: a revision another Waymark door (the CLI, MCP, a second window) added to
// the shared history, or a write to the file by a program other than Waymark.
type Merge struct {
	Revision int64 `json:"revision"`
	// Heading is the text of the nearest heading before the change (the
	// chapter it is in); empty before the first heading.
	Heading string `json:"heading"`
	// Outside is true for a write by a program other than Waymark.
	Outside bool `json:"outside"`
}

// catchUp brings the manuscript to the newest state of the book, so that
// nothing another door or program did is ever "outside" or lost: the
// revisions another Waymark process added to the shared history are applied
// here, in order; a file another program rewrote becomes an "external"
// revision (its bytes as a splice, TargetSet members following their items
// by content). A file that is missing or not text is left for CheckDisk to
// report. The caller holds m.mu.
func (m *Manuscript) catchUp(ctx context.Context) (merges []Merge, err error) {
	defer func() { m.unreported = append(m.unreported, merges...) }()
	for attempt := 0; ; attempt++ {
		got, err := m.catchUpOnce(ctx)
		merges = append(merges, got...)
		// A file another Waymark process has just renamed into place, its
		// revision not yet committed, looks like another program's change; its
		// record is refused once that revision is there: take it in instead.
		if err == nil || !errors.Is(err, ErrChangedOnDisk) || attempt == 4 {
			return merges, err
		}
	}
}

// catchUpOnce is one look of catchUp.
func (m *Manuscript) catchUpOnce(ctx context.Context) (merges []Merge, err error) {
	head, ok, err := m.w.Store.LatestRevision(ctx, m.DocID)
	if err != nil {
		return nil, err
	}
	if ok && head.Rev > m.doc.Rev() {
		got, err := m.applyRevisions(ctx, head)
		merges = got
		if err != nil {
			return merges, err
		}
		// The other door wrote the file with its revision; take its state as
		// known only once it is seen to hold that text.
		want := hashParts(m.doc.FileBOM(), m.doc.Source())
		if st, err := stateOf(m.Path, want); err == nil && checkUnchanged(m.Path, st, true) == nil {
			m.disk = st
		}
	}
	if checkUnchanged(m.Path, m.disk, false) == nil {
		return merges, nil
	}
	file, err := m.readSettled()
	if err != nil {
		return merges, nil // missing, unreadable or not text: CheckDisk says so
	}
	content, bom := document.CutBOM(file)
	if bytes.Equal(content, m.doc.Source()) {
		if st, err := stateOf(m.Path, hashParts(file)); err == nil {
			m.disk = st
		}
		m.doc.SetFileBOM(bom != nil)
		return merges, nil
	}
	out, err := m.reloadLocked(ctx, file)
	if err != nil {
		return merges, err
	}
	merges = append(merges, Merge{Revision: out.Rev, Heading: m.headingAt(out.Start), Outside: true})
	return merges, nil
}

// readSettled reads the file another program is writing once the write is
// over: a file that changed while it was read is read again, and an empty
// file where the book has text is looked at once more a moment later (an
// editor that truncates the file, then writes it, leaves it empty in
// between; taking that in would record the book emptied).
func (m *Manuscript) readSettled() ([]byte, error) {
	var file []byte
	for try := 0; try < 5; try++ {
		before, err := os.Stat(m.Path)
		if err != nil {
			return nil, err
		}
		if file, err = document.ReadFile(m.Path, m.w.MaxSize); err != nil {
			return nil, err
		}
		if len(file) == 0 && len(m.doc.Source()) > 0 {
			time.Sleep(50 * time.Millisecond)
		}
		after, err := os.Stat(m.Path)
		if err != nil {
			return nil, err
		}
		if os.SameFile(before, after) && after.Size() == int64(len(file)) && after.ModTime().Equal(before.ModTime()) {
			return file, nil
		}
	}
	return file, nil
}

// applyRevisions applies to the document the revisions after its own up to
// head, as another process recorded them; when they do not fit (the history
// was restored from a whole text) the document is rebuilt from the history.
func (m *Manuscript) applyRevisions(ctx context.Context, head store.Revision) ([]Merge, error) {
	revs, err := m.w.Store.Revisions(ctx, m.DocID, m.doc.Rev())
	if err != nil {
		return nil, err
	}
	byRev := map[int64]store.Revision{}
	for _, r := range revs {
		byRev[r.Rev] = r
	}
	var merges []Merge
	for _, r := range revs {
		if r.Rev != m.doc.Rev()+1 || r.Rev > head.Rev {
			break
		}
		src := m.doc.Source()
		end := int(r.Start) + len(r.Old)
		whole := r.HasSnapshot && r.Start == 0 && len(r.Old) == 0 && len(r.New) == 0
		if whole || end > len(src) || !bytes.Equal(src[r.Start:end], r.Old) {
			return merges, m.rebuild(ctx, head)
		}
		removes, err := m.removes(ctx, r, byRev)
		if err != nil {
			return nil, err
		}
		e, err := m.planRaw(r.Op, int(r.Start), end, append([]byte(nil), r.New...), removes)
		if err != nil {
			return merges, m.rebuild(ctx, head)
		}
		res := e.Apply()
		m.refineChange(e)
		m.cursors.Follow(res)
		merges = append(merges, Merge{Revision: r.Rev, Heading: m.headingAt(int(r.Start))})
	}
	if m.doc.Rev() != head.Rev || hashParts(m.doc.Source()) != head.SHA256 {
		return merges, m.rebuild(ctx, head)
	}
	return merges, nil
}

// rebuild makes the document the text of revision head, rebuilt from the
// history, with its pointers' history and cursors.
func (m *Manuscript) rebuild(ctx context.Context, head store.Revision) error {
	content, err := m.w.Store.ContentAt(ctx, m.DocID, head.Rev)
	if err != nil {
		return fmt.Errorf("bring %s up to revision %d: %w", m.Path, head.Rev, err)
	}
	bom := m.doc.FileBOM() != nil
	m.doc = document.ParseOwned(content, head.Rev)
	m.doc.SetFileBOM(bom)
	if err := m.loadHistory(ctx, head.Rev); err != nil {
		return err
	}
	m.cursors = document.NewCursors(m.doc)
	return m.loadCursors(ctx)
}

// headingAt is the text of the heading the byte offset off is under.
func (m *Manuscript) headingAt(off int) string {
	d := m.doc
	i := d.IndexContaining(off)
	if i < 0 {
		return ""
	}
	if h := d.HeadingOf(i); h >= 0 {
		return d.Text(h)
	}
	return ""
}

// describeIn tells whether what is said about a book in lang ("en", "ru")
// is Russian; with no lang ("") it is said in the book's language (the CLI,
// MCP and the model), while the window asks for its own.
func describeIn(lang string, text []byte) bool {
	return lang == "ru" || lang == "" && bookIsRussian(text)
}

// bookIsRussian tells the book's language, for the lines said about it: most
// letters of its first pages are Cyrillic.
func bookIsRussian(text []byte) bool {
	cyr, lat := 0, 0
	for _, r := range string(text[:min(len(text), 8192)]) {
		switch {
		case unicode.Is(unicode.Cyrillic, r):
			cyr++
		case r < 128 && unicode.IsLetter(r):
			lat++
		}
	}
	return cyr > lat
}

// MergeNote is the one line the window shows after changes from elsewhere were
// taken in, in the book's language, naming the chapters they touched:
// "Another program changed “III”; your text is kept."
func MergeNote(merges []Merge, russian bool) string {
	if len(merges) == 0 {
		return ""
	}
	var names []string
	seen := map[string]bool{}
	for _, g := range merges {
		h := g.Heading
		if h == "" {
			h = map[bool]string{true: "начало книги", false: "the beginning of the book"}[russian]
		}
		if seen[h] {
			continue
		}
		seen[h] = true
		if russian {
			names = append(names, "«"+h+"»")
		} else {
			names = append(names, "“"+h+"”")
		}
	}
	if len(names) > 3 {
		if russian {
			names = append(names[:3], fmt.Sprintf("ещё %d", len(names)-3))
		} else {
			names = append(names[:3], fmt.Sprintf("%d more", len(names)-3))
		}
	}
	if russian {
		return "Другая программа изменила " + strings.Join(names, ", ") + "; ваш текст сохранён."
	}
	return "Another program changed " + strings.Join(names, ", ") + "; your text is kept."
}

// Sync takes in what other doors and programs changed since this process last
// looked, and returns what it took in.
func (m *Manuscript) Sync(ctx context.Context) ([]Merge, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, err := m.catchUp(ctx)
	return m.takeMerges(), err
}

// takeMerges returns what was taken in from elsewhere and not yet reported to
// the author (a reader may have taken it in quietly), and forgets it. The
// caller holds m.mu.
func (m *Manuscript) takeMerges() []Merge {
	g := m.unreported
	m.unreported = nil
	return g
}
