package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/manuscript"
)

// currentRev is the open manuscript's revision.
func (a *DesktopApp) currentRev() (*manuscript.Manuscript, int64, error) {
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
func (a *DesktopApp) Search(query string) (SearchResult, error) {
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
			sm.From, sm.To = idx.pos(m.Start), idx.pos(m.End)
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
func (a *DesktopApp) ReadPortion(restart bool) (Portion, error) {
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
			pi.Pos = idx.pos(it.Pointer.ByteOffset)
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
func (a *DesktopApp) ItemAt(pos int) (ItemRef, error) {
	m, rev, err := a.currentRev()
	if err != nil {
		return ItemRef{}, err
	}
	idx := a.index(rev)
	if idx == nil {
		return ItemRef{}, errors.New("the manuscript changed meanwhile; try again")
	}
	off, err := idx.byteAt(pos)
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
func (a *DesktopApp) TargetSets() ([]TargetSetSummary, error) {
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
func (a *DesktopApp) TargetSet(id string) (TargetSetView, error) {
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
				it.Pos = idx.pos(res.Pointers[k].ByteOffset)
			}
			v.Items = append(v.Items, it)
		}
		return nil
	})
	return v, nil
}

// History lists the newest revisions (the History tool).
func (a *DesktopApp) History() ([]manuscript.RevisionInfo, error) {
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
// read or wrote it (the window asks when it gets the focus, and every few seconds).
func (a *DesktopApp) CheckDisk() (manuscript.DiskState, error) {
	m, err := a.current()
	if err != nil {
		return manuscript.DiskState{}, err
	}
	return m.CheckDisk(), nil
}

// DiffLine is one line of a comparison: the same in both, only in Waymark's
// version, only on disk, or a gap of unchanged lines left out.
type DiffLine struct {
	Kind string `json:"kind"` // same, mine, disk, gap
	Text string `json:"text"`
}

// ExternalResult is the outcome of the author's choice about an external change.
type ExternalResult struct {
	Choice   string     `json:"choice"`
	Summary  string     `json:"summary"`
	Revision int64      `json:"revision"`
	Diff     []DiffLine `json:"diff"`
}

// ResolveExternalChange acts on the author's choice when the file changed on
// disk: "reload" takes the other program's version, "keep" writes Waymark's back
// (both versions stay in the history either way), "compare" only shows the
// differences, line by line.
func (a *DesktopApp) ResolveExternalChange(choice string) (ExternalResult, error) {
	m, err := a.current()
	if err != nil {
		return ExternalResult{}, err
	}
	ctx := a.context()
	r := ExternalResult{Choice: choice, Diff: []DiffLine{}}
	switch choice {
	case "reload":
		out, err := m.ReloadFromDisk(ctx)
		if err != nil {
			return r, err
		}
		r.Summary, r.Revision = out.Summary, out.Rev
	case "keep":
		out, err := m.KeepMine(ctx)
		if err != nil {
			return r, err
		}
		r.Summary, r.Revision = out.Summary, out.Rev
	case "compare":
		disk, err := m.DiskText()
		if err != nil {
			return r, fmt.Errorf("compare: %w", err)
		}
		var mine string
		_ = m.Do(func(d *document.Document) error { mine = string(d.Source()); r.Revision = d.Rev(); return nil })
		r.Diff = lineDiff(mine, string(disk), 3, 2000)
		changed := 0
		for _, l := range r.Diff {
			if l.Kind == "mine" || l.Kind == "disk" {
				changed++
			}
		}
		r.Summary = fmt.Sprintf("%d changed line(s) between Waymark's version and the file on disk", changed)
	default:
		return r, fmt.Errorf("choice %q: reload, keep or compare", choice)
	}
	return r, nil
}

// lineDiff compares two texts line by line: common lines at both ends are
// trimmed, the middle is aligned by longest common subsequence when small
// enough, and unchanged runs longer than 2·ctx lines become gaps.
func lineDiff(mine, disk string, ctx, limit int) []DiffLine {
	a, b := strings.Split(mine, "\n"), strings.Split(disk, "\n")
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	var lines []DiffLine
	for _, l := range a[:p] {
		lines = append(lines, DiffLine{"same", l})
	}
	am, bm := a[p:len(a)-s], b[p:len(b)-s]
	if len(am)*len(bm) <= 4_000_000 {
		// LCS table over the middle.
		n, k := len(am), len(bm)
		t := make([][]int32, n+1)
		for i := range t {
			t[i] = make([]int32, k+1)
		}
		for i := n - 1; i >= 0; i-- {
			for j := k - 1; j >= 0; j-- {
				if am[i] == bm[j] {
					t[i][j] = t[i+1][j+1] + 1
				} else {
					t[i][j] = max(t[i+1][j], t[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < n || j < k {
			switch {
			case i < n && j < k && am[i] == bm[j]:
				lines = append(lines, DiffLine{"same", am[i]})
				i, j = i+1, j+1
			case j < k && (i == n || t[i][j+1] >= t[i+1][j]):
				lines = append(lines, DiffLine{"disk", bm[j]})
				j++
			default:
				lines = append(lines, DiffLine{"mine", am[i]})
				i++
			}
		}
	} else {
		for _, l := range am {
			lines = append(lines, DiffLine{"mine", l})
		}
		for _, l := range bm {
			lines = append(lines, DiffLine{"disk", l})
		}
	}
	for _, l := range a[len(a)-s:] {
		lines = append(lines, DiffLine{"same", l})
	}
	// Keep ctx lines of context around changes.
	keep := make([]bool, len(lines))
	for i, l := range lines {
		if l.Kind != "same" {
			for j := max(0, i-ctx); j <= min(len(lines)-1, i+ctx); j++ {
				keep[j] = true
			}
		}
	}
	out := []DiffLine{}
	gap := 0
	for i, l := range lines {
		if keep[i] {
			if gap > 0 {
				out = append(out, DiffLine{"gap", fmt.Sprintf("%d unchanged line(s)", gap)})
				gap = 0
			}
			out = append(out, l)
		} else {
			gap++
		}
		if len(out) >= limit {
			out = append(out, DiffLine{"gap", "… the comparison is cut here"})
			return out
		}
	}
	if gap > 0 && len(out) > 0 {
		out = append(out, DiffLine{"gap", fmt.Sprintf("%d unchanged line(s)", gap)})
	}
	return out
}
