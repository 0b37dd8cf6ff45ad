package desktop

import (
	"errors"
	"strings"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/tools"
)

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
	res, err := call(a, a.context(), manuscript.FindRef, manuscript.FindArgs{Query: query, All: true, Limit: 500}, tools.Context{})
	if err != nil {
		return SearchResult{}, err
	}
	out := SearchResult{Query: query, Matches: make([]SearchMatch, 0, len(res.Matches))}
	for _, m := range res.Matches {
		out.Matches = append(out.Matches, SearchMatch{Index: m.Index, Label: m.Pointer.Label, Snippet: m.Snippet, From: m.FromUtf16, To: m.ToUtf16})
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
	create := func() error {
		_, err := call(a, ctx, manuscript.CreateCursorRef, manuscript.CreateCursorArgs{CursorName: readerCursor, Forward: true, MaxElements: 8, MaxBytes: 4096, IncludeContent: true}, tools.Context{})
		return err
	}
	if restart {
		if err := create(); err != nil {
			return Portion{}, err
		}
	}
	next := func() (document.Portion, error) {
		return call(a, ctx, manuscript.CursorNextRef, manuscript.CursorNextArgs{CursorName: readerCursor}, tools.Context{})
	}
	p, err := next()
	if errors.Is(err, document.ErrCursorNotDefined) {
		if err = create(); err == nil {
			p, err = next()
		}
	}
	if err != nil {
		if errors.Is(err, document.ErrCursorComplete) {
			return Portion{}, errors.New("that was the end of the book; choose Start over to read it again")
		}
		return Portion{}, err
	}
	out := Portion{CursorName: p.CursorName, HasMore: p.HasMore, Items: make([]PortionItem, 0, len(p.Items))}
	for _, it := range p.Items {
		out.Items = append(out.Items, PortionItem{Index: it.Index, Label: it.Pointer.Label, Type: it.Type.String(), Text: it.Text, Pos: it.Utf16Offset})
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
// the cursor, to add to a TargetSet: the ItemAt tool.
func (a *App) ItemAt(pos int) (ItemRef, error) {
	r, err := call(a, a.context(), manuscript.ItemAtRef, manuscript.ItemAtArgs{Utf16Offset: pos}, tools.Context{})
	if err != nil {
		return ItemRef{}, err
	}
	return ItemRef{Index: r.Index, Label: r.Pointer.Label, Type: r.Type.String()}, nil
}

// TargetSetSummary is one TargetSet in the panel's list.
type TargetSetSummary = manuscript.TargetSetSummary

// TargetSets lists the manuscript's TargetSets (the TargetSetList tool).
func (a *App) TargetSets() ([]TargetSetSummary, error) {
	res, err := call(a, a.context(), manuscript.TargetSetListRef, manuscript.TargetSetListArgs{}, tools.Context{})
	if err != nil {
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
	res, err := call(a, a.context(), manuscript.TargetSetGetRef, manuscript.TargetSetGetArgs{TargetSetID: id}, tools.Context{})
	if err != nil {
		return TargetSetView{}, err
	}
	v := TargetSetView{ID: res.ID, Name: res.Name, Items: make([]TargetSetItem, 0, len(res.Members)), Deleted: res.Deleted}
	if v.Deleted == nil {
		v.Deleted = []manuscript.DeletedMember{}
	}
	for _, it := range res.Members {
		v.Items = append(v.Items, TargetSetItem{Index: it.Index, Label: it.Pointer.Label, Snippet: it.Snippet, Pos: it.Utf16Offset})
	}
	return v, nil
}

// History lists the newest revisions (the History tool), each said in the
// window's language, whatever the book's.
func (a *App) History() ([]manuscript.RevisionInfo, error) {
	res, err := call(a, a.context(), manuscript.HistoryRef, manuscript.HistoryArgs{Limit: 200, Language: a.Language().Lang}, tools.Context{})
	if err != nil {
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
	s, err := call(a, a.context(), manuscript.CheckDiskRef, manuscript.CheckDiskArgs{}, tools.Context{})
	s.Note, s.Detail = a.mergeNote(s.Merged, s.Note), a.diskDetail(s)
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
	r, err := call(a, a.context(), manuscript.ResolveExternalChangeRef, manuscript.ResolveExternalChangeArgs{Choice: choice}, tools.Context{})
	if err != nil {
		return ExternalResult{Choice: choice, Diff: []DiffLine{}}, err
	}
	return r, nil
}
