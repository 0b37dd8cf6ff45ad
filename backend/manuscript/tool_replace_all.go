package manuscript

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/tools"
)

// ReplaceAllArgs are ReplaceAll's arguments: what to replace, with what, how
// the query is read, and where.
type ReplaceAllArgs struct {
	Query string `json:"query" jsonschema:"the text to replace"`
	With  string `json:"with" jsonschema:"the new text (may be empty to remove the words)"`
	MatchOptions
	// First replaces only the first occurrence in the range.
	First bool `json:"first,omitempty" jsonschema:"only the first occurrence (default: every occurrence)"`
	ItemRange
	IncludeCodeAndQuotes bool `json:"includeCodeAndQuotes,omitempty" jsonschema:"also in code blocks and block quotes (default false)"`
	// FromUtf16 and ToUtf16 limit the replace to the matches within these
	// positions of the text (an editor's current match, or its selection).
	FromUtf16 *int `json:"fromUtf16,omitempty" jsonschema:"only matches at or after this position, in UTF-16 code units (an editor's current match or selection)"`
	ToUtf16   *int `json:"toUtf16,omitempty" jsonschema:"only matches that end at or before this position, in UTF-16 code units"`
	// Preview lists the places without changing anything.
	Preview bool `json:"preview,omitempty" jsonschema:"list what would change, change nothing"`
}

// Refine: a query is not empty.
func (ReplaceAllArgs) Refine(s *jsonschema.Schema) {
	tools.MinLength(tools.Prop(s, "query"), 1)
	refineRange(s)
	tools.Min(tools.Prop(s, "fromUtf16"), 0)
	tools.Min(tools.Prop(s, "toUtf16"), 0)
}

// ItemRange limits a tool to the items [fromIndex, toIndex) (a chapter, the
// selection, from the cursor on); absent ends mean the book's ends.
type ItemRange struct {
	FromIndex *int `json:"fromIndex,omitempty" jsonschema:"the first item of the range (default 0)"`
	ToIndex   *int `json:"toIndex,omitempty" jsonschema:"the item after the range (default: the end of the book)"`
}

func refineRange(s *jsonschema.Schema) {
	tools.Min(tools.Prop(s, "fromIndex"), 0)
	tools.Min(tools.Prop(s, "toIndex"), 0)
}

// bounds checks the range against d.
func (r ItemRange) bounds(d *document.Document) (int, int, error) {
	lo, hi := 0, d.Len()
	if r.FromIndex != nil {
		lo = *r.FromIndex
	}
	if r.ToIndex != nil {
		hi = *r.ToIndex
	}
	if lo < 0 || hi > d.Len() || lo > hi {
		return 0, 0, fmt.Errorf("%w: the range [%d, %d) is not within the book's %d items", tools.ErrInvalidArgs, lo, hi, d.Len())
	}
	return lo, hi, nil
}

// ReplacePlace is one item a replace changed (or would change).
type ReplacePlace struct {
	Index    int              `json:"index"`
	Pointer  document.Pointer `json:"pointer"`
	Section  string           `json:"section"` // the headings around it, "BOOK ONE: 1805, CHAPTER III"
	Count    int              `json:"count"`   // occurrences replaced in it
	Before   string           `json:"before"`  // its text around the first occurrence, before
	After    string           `json:"after"`   // and after
	Found    []string         `json:"found"`   // the words as they were in the text
	Replaced []string         `json:"replaced"`
}

// UnderivedForm is a form found in the text whose replacement is not certain.
type UnderivedForm struct {
	Form  string `json:"form"`
	Count int    `json:"count"`
}

// ReplaceAllResult says how many occurrences changed, where, and in which
// revision (one revision for all of them: one Undo takes them back).
type ReplaceAllResult struct {
	Count    int            `json:"count"`
	Items    int            `json:"items"`
	Preview  bool           `json:"preview"`
	Revision int64          `json:"revision,omitempty"`
	Summary  string         `json:"summary"`
	Places   []ReplacePlace `json:"places"`
	// Underived are the forms found (with word forms) whose new form cannot
	// be derived with certainty, with their counts: a replace with any of
	// them changes nothing.
	Underived []UnderivedForm `json:"underived,omitempty"`
	// Op and Context are every edit's (SPEC: the cursor context after the
	// edit, here after the last item it changed); empty for a preview.
	Op      string `json:"op,omitempty"`
	Context string `json:"context,omitempty"`
}

// ReplaceAllRef is the typed handle on the ReplaceAll tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var ReplaceAllRef = tools.RefTo[ReplaceAllArgs, ReplaceAllResult]("ReplaceAll")

func replaceAllTool(ws *Workspace) tools.Tool {
	return ReplaceAllRef.Func("Replace every occurrence of a phrase (or only the first) in the book or in a range of items, as ONE revision that one Undo reverts; with forms, each inflected form becomes the same form of the new text (Пьера → Петра). preview lists the places without changing anything. The query is read by the engine's rules (whole words, any case, ё = е, accents ignored) unless matchCase, partOfWord or regex say otherwise.",
		func(ctx context.Context, a ReplaceAllArgs) (ReplaceAllResult, error) { return ReplaceAll(ctx, ws, a) })
}

// ReplaceAll is ReplaceAll's handler.
func ReplaceAll(ctx context.Context, ws *Workspace, a ReplaceAllArgs) (ReplaceAllResult, error) {
	mt, err := compileMatcher(a.Query, a.MatchOptions)
	if err != nil {
		return ReplaceAllResult{}, err
	}
	m, err := ws.Current()
	if err != nil {
		return ReplaceAllResult{}, err
	}
	res := ReplaceAllResult{Preview: a.Preview, Places: []ReplacePlace{}}
	underived := map[string]int{}
	plan := func(d *document.Document) ([]ItemChange, error) {
		lo, hi, err := a.ItemRange.bounds(d)
		if err != nil {
			return nil, err
		}
		within, err := utf16Within(d.Source(), a)
		if err != nil {
			return nil, err
		}
		var changes []ItemChange
		clear(underived)
		for i := lo; i < hi && !(a.First && res.Count > 0); i++ {
			if !d.Candidate(i, a.IncludeCodeAndQuotes) {
				continue
			}
			place, md := replaceInItem(d, mt, a, i, within, underived)
			if place.Count == 0 {
				continue
			}
			changes = append(changes, ItemChange{Index: i, NewMarkdown: md})
			res.Count += place.Count
			res.Places = append(res.Places, place)
		}
		res.Items = len(res.Places)
		res.Underived = underivedList(underived)
		if len(res.Underived) > 0 && !a.Preview {
			return nil, fmt.Errorf("%w: the new form of %s cannot be derived with certainty from %q → %q; nothing was changed (replace those forms one by one, or without word forms)", document.ErrBadInput, underivedWords(res.Underived), a.Query, a.With)
		}
		return changes, nil
	}
	if a.Preview {
		err = m.Do(func(d *document.Document) error { _, err := plan(d); return err })
		res.Summary = fmt.Sprintf("%d occurrence(s) of %q in %d item(s) would be replaced with %q", res.Count, a.Query, res.Items, a.With)
		if len(res.Underived) > 0 {
			res.Summary += fmt.Sprintf("; the new form of %s cannot be derived with certainty, so the replace would change nothing", underivedWords(res.Underived))
		}
		return res, err
	}
	summary := fmt.Sprintf("Replace %q with %q", a.Query, a.With)
	out, places, err := m.EditItems(ctx, summary, func(d *document.Document) ([]ItemChange, error) {
		ch, err := plan(d)
		if err == nil && len(ch) == 0 {
			err = withKind(ErrNoOccurrence, fmt.Errorf("%w: %q does not occur%s; nothing was changed", document.ErrBadInput, a.Query, rangeWords(a.ItemRange)))
		}
		return ch, err
	})
	if err != nil {
		return ReplaceAllResult{}, err
	}
	_ = m.Do(func(d *document.Document) error {
		for k := range res.Places {
			if k < len(places) && places[k].Index >= 0 && places[k].Index < d.Len() {
				res.Places[k].Index = places[k].Index
				res.Places[k].Pointer = d.PointerTo(places[k].Index)
			}
		}
		return nil
	})
	res.Revision, res.Op, res.Context = out.Rev, out.Op, out.Context
	res.Summary = fmt.Sprintf("replaced %d occurrence(s) of %q with %q in %d item(s), revision %d", res.Count, a.Query, a.With, res.Items, out.Rev)
	return res, nil
}

// utf16Within is the byte range of src the positions in UTF-16 (an
// editor's) fromUtf16 and toUtf16 give (the whole source without them).
func utf16Within(src []byte, a ReplaceAllArgs) ([2]int, error) {
	within := [2]int{0, len(src)}
	if a.FromUtf16 == nil && a.ToUtf16 == nil {
		return within, nil
	}
	idx := document.NewUTF16Index(src)
	for k, p := range []*int{a.FromUtf16, a.ToUtf16} {
		if p == nil {
			continue
		}
		b, err := idx.ByteAt(*p)
		if err != nil {
			return within, fmt.Errorf("%w: %v", tools.ErrInvalidArgs, err)
		}
		within[k] = b
	}
	return within, nil
}

// replaceInItem replaces the occurrences in item i (within the byte range
// within; only the first with a.First): the place and the item's new
// Markdown. The forms whose replacement cannot be derived are counted in
// underived and left.
func replaceInItem(d *document.Document, mt *matcher, a ReplaceAllArgs, i int, within [2]int, underived map[string]int) (ReplacePlace, string) {
	src := d.Source()
	it := d.Item(i)
	var sb strings.Builder
	at := it.Start
	place := ReplacePlace{Index: i, Pointer: d.PointerTo(i), Section: d.Place(i)}
	mt.each(d, it, func(s, e int, sub []int) bool {
		if s < it.Start || e > it.End || s < within[0] || e > within[1] {
			return true // across the item's edge, or outside the positions asked
		}
		rep, ok := mt.replacement(src, a.Query, a.With, s, e, sub)
		if !ok {
			underived[string(src[s:e])]++
			return true
		}
		sb.Write(src[at:s])
		sb.WriteString(rep)
		at = e
		place.Count++
		place.Found = append(place.Found, string(src[s:e]))
		place.Replaced = append(place.Replaced, rep)
		if place.Count == 1 {
			place.Before = around(src, it.Start, it.End, s, e, "")
			place.After = around(src, it.Start, it.End, s, e, rep)
		}
		return !a.First
	})
	if place.Count == 0 {
		return place, ""
	}
	sb.Write(src[at:it.End])
	return place, sb.String()
}

func underivedList(m map[string]int) []UnderivedForm {
	out := make([]UnderivedForm, 0, len(m))
	for f, n := range m {
		out = append(out, UnderivedForm{f, n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Form < out[j].Form
	})
	return out
}

// underivedWords names the forms: «Андрея» (12), «Андреем» (3).
func underivedWords(u []UnderivedForm) string {
	var parts []string
	for k, f := range u {
		if k == 8 {
			parts = append(parts, fmt.Sprintf("and %d more", len(u)-k))
			break
		}
		parts = append(parts, fmt.Sprintf("«%s» (%d)", f.Form, f.Count))
	}
	return strings.Join(parts, ", ")
}

func rangeWords(r ItemRange) string {
	if r.FromIndex != nil || r.ToIndex != nil {
		return " in the range"
	}
	return " in the book"
}

// around is the item's text near [s, e) with that span shown as rep (or as it
// is when rep is ""), at most about 160 bytes, on whole characters.
func around(src []byte, lo, hi, s, e int, rep string) string {
	a, b := max(lo, s-80), min(hi, e+80)
	for a > lo && a < len(src) && src[a]&0xC0 == 0x80 {
		a--
	}
	for b < hi && src[b]&0xC0 == 0x80 {
		b++
	}
	mid := string(src[s:e])
	if rep != "" {
		mid = rep
	}
	out := string(src[a:s]) + mid + string(src[e:b])
	out = strings.Join(strings.Fields(out), " ")
	if a > lo {
		out = "…" + out
	}
	if b < hi {
		out += "…"
	}
	return out
}
