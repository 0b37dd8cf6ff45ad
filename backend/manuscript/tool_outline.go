package manuscript

import (
	"context"
	"slices"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/tools"
)

// OutlineArgs are the Outline tool's arguments.
type OutlineArgs struct{}

// OutlineRef is the typed handle on the Outline tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var OutlineRef = tools.RefTo[OutlineArgs, OutlineResult]("Outline")

// outlineTool is the Outline tool: the headings with their sections' word counts.
func outlineTool(ws *Workspace) tools.Tool {
	return OutlineRef.Func("The manuscript's headings in order, each with its pointer, its place in UTF-16 code units (utf16Offset, as an editor counts) and the word count of its section (own text, and with subsections), plus the book's total, its number of items and its size in bytes.", ws.toolOutline)
}

func (ws *Workspace) toolOutline(ctx context.Context, _ OutlineArgs) (OutlineResult, error) {
	m, err := ws.Current()
	if err != nil {
		return OutlineResult{}, err
	}
	var res OutlineResult
	err = m.Do(func(d *document.Document) error {
		// One outline per revision: an editor asks again after every save.
		if m.outlined == nil || m.outlinedRev != d.Rev() {
			o := outline(d, m.Path, m.utf16Index(d))
			m.outlined, m.outlinedRev = &o, d.Rev()
		}
		res = *m.outlined
		res.Headings = slices.Clone(res.Headings)
		return nil
	})
	return res, err
}

type outlineEntry struct {
	Index   int              `json:"index"`
	Level   int              `json:"level"`
	Text    string           `json:"text"`
	Pointer document.Pointer `json:"pointer"`
	// Utf16Offset is where the heading starts, in UTF-16 code units.
	Utf16Offset int `json:"utf16Offset"`
	OwnWords    int `json:"ownWords"`
	Words       int `json:"words"`
	Subtitles   int `json:"subsections"`
}

// OutlineResult is the book's headings with their word counts, and its total.
type OutlineResult struct {
	Path       string         `json:"path"`
	Headings   []outlineEntry `json:"headings"`
	TotalWords int            `json:"totalWords"`
	Items      int            `json:"items"`
	SizeBytes  int            `json:"sizeBytes"`
	Revision   int64          `json:"revision"`
}

func outline(d *document.Document, path string, idx *document.UTF16Index) OutlineResult {
	words := make([]int, d.Len())
	total := 0
	for i := range words {
		words[i] = d.Words(i)
		total += words[i]
	}
	var hs []outlineEntry
	for i := 0; i < d.Len(); i++ {
		it := d.Item(i)
		if it.Type != document.Heading {
			continue
		}
		e := outlineEntry{Index: i, Level: it.Level, Text: d.Text(i), Pointer: d.PointerTo(i), Utf16Offset: idx.Pos(it.Start), OwnWords: words[i], Words: words[i]}
		own := true
		for j := i + 1; j < d.Len(); j++ {
			jt := d.Item(j)
			if jt.Type == document.Heading {
				if jt.Level <= it.Level {
					break
				}
				own = false
				e.Subtitles++
			}
			e.Words += words[j]
			if own {
				e.OwnWords += words[j]
			}
		}
		hs = append(hs, e)
	}
	if hs == nil {
		hs = []outlineEntry{}
	}
	return OutlineResult{Path: path, Headings: hs, TotalWords: total, Items: d.Len(), SizeBytes: len(d.Source()), Revision: d.Rev()}
}
