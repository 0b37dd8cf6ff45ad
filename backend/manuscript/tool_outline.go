package manuscript

import (
	"context"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/tools"
)

type outlineArgs struct{}

// outlineTool is the Outline tool: the headings with their sections' word counts.
func outlineTool(ws *Workspace) tools.Tool {
	return tools.Func("Outline", "The manuscript's headings in order, each with its pointer and the word count of its section (own text, and with subsections), plus the book's total.", ws.toolOutline)
}

func (ws *Workspace) toolOutline(ctx context.Context, _ outlineArgs) (any, error) {
	m, err := ws.Current()
	if err != nil {
		return nil, err
	}
	var res map[string]any
	err = m.Do(func(d *document.Document) error {
		res = outline(d, m.Path)
		return nil
	})
	return res, err
}

type outlineEntry struct {
	Index     int              `json:"index"`
	Level     int              `json:"level"`
	Text      string           `json:"text"`
	Pointer   document.Pointer `json:"pointer"`
	OwnWords  int              `json:"ownWords"`
	Words     int              `json:"words"`
	Subtitles int              `json:"subsections"`
}

func outline(d *document.Document, path string) map[string]any {
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
		e := outlineEntry{Index: i, Level: it.Level, Text: d.Text(i), Pointer: d.PointerTo(i), OwnWords: words[i], Words: words[i]}
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
	return map[string]any{"path": path, "headings": hs, "totalWords": total, "items": d.Len(), "revision": d.Rev()}
}
