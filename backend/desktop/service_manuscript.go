package desktop

import (
	"errors"
	"strings"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/manuscript"
)

// currentRev is the open manuscript's revision.
func (a *App) currentRev() (*manuscript.Manuscript, int64, error) {
	m, err := a.current()
	if err != nil {
		return nil, 0, err
	}
	var rev int64
	_ = m.Do(func(d *document.Document) error { rev = d.Rev(); return nil })
	return m, rev, nil
}

// SearchMatch is one result of a search, with its place in the editor.
type SearchMatch struct {
	Index   int    `json:"index"`
	Label   string `json:"label"`
	Snippet string `json:"snippet"`
	From    int    `json:"from"`
	To      int    `json:"to"`
}

// SearchResult lists every match of a search.
type SearchResult struct {
	Query   string        `json:"query"`
	Count   int           `json:"count"`
	Matches []SearchMatch `json:"matches"`
}

// Search finds a phrase through the deterministic matcher (the Find tool: case,
// ё/е and accents ignored, whole words) and returns every match (at most 500)
// with its exact place in the editor.
func (a *App) Search(query string) (SearchResult, error) {
	if strings.TrimSpace(query) == "" {
		return SearchResult{}, errors.New(`type a word or phrase to find, e.g. Zvezdochkin`)
	}
	_, rev, err := a.currentRev()
	if err != nil {
		return SearchResult{}, err
	}
	var res struct {
		Matches []struct {
			Index   int                  `json:"index"`
			Pointer document.PointerJSON `json:"pointer"`
			Start   int                  `json:"start"`
			End     int                  `json:"end"`
			Snippet string               `json:"snippet"`
		} `json:"matches"`
	}
	if err := a.call(a.context(), "Find", map[string]any{"query": query, "all": true, "limit": 500}, &res); err != nil {
		return SearchResult{}, err
	}
	out := SearchResult{Query: query, Matches: make([]SearchMatch, 0, len(res.Matches))}
	idx := a.index(rev)
	for _, m := range res.Matches {
		sm := SearchMatch{Index: m.Index, Label: m.Pointer.Label, Snippet: m.Snippet, From: -1, To: -1}
		if idx != nil && m.Pointer.Revision == rev {
			sm.From, sm.To = idx.Pos(m.Start), idx.Pos(m.End)
		}
		out.Matches = append(out.Matches, sm)
	}
	out.Count = len(out.Matches)
	return out, nil
}

// PortionItem is one item of a reading portion.
type PortionItem struct {
	Index int    `json:"index"`
	Label string `json:"label"`
	Type  string `json:"type"`
	Text  string `json:"text"`
	Pos   int    `json:"pos"`
}

// Portion is what the reader shows: one portion of the named cursor.
type Portion struct {
	CursorName string        `json:"cursorName"`
	Items      []PortionItem `json:"items"`
	HasMore    bool          `json:"hasMore"`
}

// readerCursor is the named cursor (SPEC §1) the window reads the book with;
// its position is saved in SQLite, so reading resumes after a restart.
const readerCursor = "UI_READER"

// ReadPortion returns the next portion of the book for reading (restart: from
// the beginning again). It uses the named-cursor tools, as the MCP door does.
func (a *App) ReadPortion(restart bool) (Portion, error) {
	ctx := a.context()
	_, rev, err := a.currentRev()
	if err != nil {
		return Portion{}, err
	}
	create := func() error {
		return a.call(ctx, "CreateCursor", map[string]any{"cursorName": readerCursor, "forward": true, "maxElements": 8, "maxBytes": 4096, "includeContent": true}, nil)
	}
	if restart {
		if err := create(); err != nil {
			return Portion{}, err
		}
	}
	var p struct {
		CursorName string `json:"cursorName"`
		Items      []struct {
			Index   int                  `json:"index"`
			Type    string               `json:"type"`
			Pointer document.PointerJSON `json:"pointer"`
			Text    string               `json:"text"`
		} `json:"items"`
		HasMore bool `json:"hasMore"`
	}
	err = a.call(ctx, "CursorNext", map[string]any{"cursorName": readerCursor}, &p)
	if err != nil && strings.Contains(err.Error(), "is not defined") {
		if err = create(); err == nil {
			err = a.call(ctx, "CursorNext", map[string]any{"cursorName": readerCursor}, &p)
		}
	}
	if err != nil {
		if strings.Contains(err.Error(), "is complete") {
			return Portion{}, errors.New("that was the end of the book; choose Start over to read it again")
		}
		return Portion{}, err
	}
	out := Portion{CursorName: p.CursorName, HasMore: p.HasMore, Items: make([]PortionItem, 0, len(p.Items))}
	idx := a.index(rev)
	for _, it := range p.Items {
		pi := PortionItem{Index: it.Index, Label: it.Pointer.Label, Type: it.Type, Text: it.Text, Pos: -1}
		if idx != nil {
			pi.Pos = idx.Pos(it.Pointer.ByteOffset)
		}
		out.Items = append(out.Items, pi)
	}
	return out, nil
}

// ItemRef names one item.
type ItemRef struct {
	Index int    `json:"index"`
	Label string `json:"label"`
	Type  string `json:"type"`
}

// ItemAt returns the item at a place in the editor (UTF-16), e.g. the one under
// the cursor, to add to a TargetSet.
func (a *App) ItemAt(pos int) (ItemRef, error) {
	m, rev, err := a.currentRev()
	if err != nil {
		return ItemRef{}, err
	}
	idx := a.index(rev)
	if idx == nil {
		return ItemRef{}, errors.New("the manuscript changed meanwhile; try again")
	}
	off, err := idx.ByteAt(pos)
	if err != nil {
		return ItemRef{}, err
	}
	var r ItemRef
	err = m.Do(func(d *document.Document) error {
		if d.Len() == 0 {
			return errors.New("the manuscript has no items")
		}
		i := d.IndexContaining(off)
		i = max(0, min(i, d.Len()-1))
		r = ItemRef{Index: i, Label: d.Label(i), Type: d.Item(i).Type.String()}
		return nil
	})
	return r, err
}

// TargetSetSummary is one TargetSet in the panel's list.
type TargetSetSummary struct {
	ID        string `json:"targetSetId"`
	Name      string `json:"name"`
	Count     int    `json:"count"`
	Deleted   int    `json:"deleted"`
	CreatedAt string `json:"createdAt"`
}

// TargetSets lists the manuscript's TargetSets (the TargetSetList tool).
func (a *App) TargetSets() ([]TargetSetSummary, error) {
	var res struct {
		TargetSets []TargetSetSummary `json:"targetSets"`
	}
	if err := a.call(a.context(), "TargetSetList", map[string]any{}, &res); err != nil {
		return nil, err
	}
	if res.TargetSets == nil {
		res.TargetSets = []TargetSetSummary{}
	}
	return res.TargetSets, nil
}

// TargetSetItem is one member of a set, with its place in the editor.
type TargetSetItem struct {
	Index   int    `json:"index"`
	Label   string `json:"label"`
	Snippet string `json:"snippet"`
	Pos     int    `json:"pos"`
}

// TargetSetView is one set's members in document order.
type TargetSetView struct {
	ID      string                     `json:"targetSetId"`
	Name    string                     `json:"name"`
	Items   []TargetSetItem            `json:"items"`
	Deleted []manuscript.DeletedMember `json:"deleted"`
}

// TargetSet returns a set's items (the TargetSetGet tool) with snippets.
func (a *App) TargetSet(id string) (TargetSetView, error) {
	m, rev, err := a.currentRev()
	if err != nil {
		return TargetSetView{}, err
	}
	var res struct {
		ID          string                     `json:"targetSetId"`
		Name        string                     `json:"name"`
		Pointers    []document.PointerJSON     `json:"pointers"`
		ItemIndices []int                      `json:"itemIndices"`
		Deleted     []manuscript.DeletedMember `json:"deleted"`
	}
	if err := a.call(a.context(), "TargetSetGet", map[string]any{"targetSetId": id}, &res); err != nil {
		return TargetSetView{}, err
	}
	v := TargetSetView{ID: res.ID, Name: res.Name, Items: make([]TargetSetItem, 0, len(res.ItemIndices)), Deleted: res.Deleted}
	if v.Deleted == nil {
		v.Deleted = []manuscript.DeletedMember{}
	}
	idx := a.index(rev)
	_ = m.Do(func(d *document.Document) error {
		for k, i := range res.ItemIndices {
			if i < 0 || i >= d.Len() {
				continue
			}
			it := TargetSetItem{Index: i, Label: res.Pointers[k].Label, Snippet: document.Snippet(d.Text(i), 100), Pos: -1}
			if idx != nil {
				it.Pos = idx.Pos(res.Pointers[k].ByteOffset)
			}
			v.Items = append(v.Items, it)
		}
		return nil
	})
	return v, nil
}

// History lists the newest revisions (the History tool).
func (a *App) History() ([]manuscript.RevisionInfo, error) {
	var res struct {
		Revisions []manuscript.RevisionInfo `json:"revisions"`
	}
	if err := a.call(a.context(), "History", map[string]any{"limit": 200}, &res); err != nil {
		return nil, err
	}
	if res.Revisions == nil {
		res.Revisions = []manuscript.RevisionInfo{}
	}
	return res.Revisions, nil
}

// CheckDisk tells whether another program changed the file since Waymark last
// read or wrote it (the window asks when it gets the focus, and every few
// seconds): the CheckDisk tool.
func (a *App) CheckDisk() (manuscript.DiskState, error) {
	var s manuscript.DiskState
	err := a.call(a.context(), "CheckDisk", manuscript.CheckDiskArgs{}, &s)
	return s, err
}

// DiffLine is one line of a comparison: the same in both, only in Waymark's
// version, only on disk, or a gap of unchanged lines left out.
type DiffLine = manuscript.DiffLine

// ExternalResult is the outcome of the author's choice about an external change.
type ExternalResult = manuscript.ExternalResult

// ResolveExternalChange acts on the author's choice when the file changed on
// disk (the ResolveExternalChange tool): "reload" takes the other program's
// version, "keep" writes Waymark's back (both versions stay in the history
// either way), "compare" only shows the differences, line by line.
func (a *App) ResolveExternalChange(choice string) (ExternalResult, error) {
	var r ExternalResult
	if err := a.call(a.context(), "ResolveExternalChange", manuscript.ResolveExternalChangeArgs{Choice: choice}, &r); err != nil {
		return ExternalResult{Choice: choice, Diff: []DiffLine{}}, err
	}
	return r, nil
}
