package manuscript

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/characters"
	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/tools"
)

// CharactersArgs say where to look and how to export.
type CharactersArgs struct {
	ItemRange
	MinMentions int `json:"minMentions,omitempty" jsonschema:"leave out people named fewer times (default 3)"`
	// Format of the export text (and file): markdown, csv or json.
	Format string `json:"format,omitempty" jsonschema:"export text: markdown (default), csv or json"`
	// Path, when given, is written with the export (absolute; an existing
	// file only with overwrite).
	Path      string `json:"path,omitempty" jsonschema:"write the export to this absolute path"`
	Overwrite bool   `json:"overwrite,omitempty" jsonschema:"replace an existing file at path (default false)"`
	// Utf16 adds each mention's place in UTF-16 code units, for an editor.
	Utf16 bool `json:"utf16,omitempty" jsonschema:"also give where each item that names a person starts, in UTF-16 code units (an editor's positions)"`
}

// Refine: the formats; minMentions at least 1.
func (CharactersArgs) Refine(s *jsonschema.Schema) {
	refineRange(s)
	tools.Min(tools.Prop(s, "minMentions"), 1)
	tools.Enum(tools.Prop(s, "format"), "markdown", "csv", "json")
}

// CharacterView is one person as the tool returns them: the finding, the
// first mention's pointer, and the pointers of the chapters.
type CharacterView struct {
	characters.Character
	FirstPointer document.Pointer `json:"firstPointer"`
	// ItemsUtf16 are the starts of Items in UTF-16 code units (with utf16).
	ItemsUtf16 []int `json:"itemsUtf16,omitempty"`
}

// CharactersResult lists the people of the book (or of the range).
type CharactersResult struct {
	Count      int             `json:"count"`
	Characters []CharacterView `json:"characters"`
	Format     string          `json:"format"`
	Export     string          `json:"export"`
	Path       string          `json:"path,omitempty"`
}

// CharactersRef is the typed handle on the Characters tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var CharactersRef = tools.RefTo[CharactersArgs, CharactersResult]("Characters")

func charactersTool(ws *Workspace) tools.Tool {
	return CharactersRef.Func("The people of the book, found offline in Russian and English (no model): each with the names and case forms the book uses (Наташа, Наташи, Наташей are one person), the number of mentions, the first mention, the mentions per chapter and the items that name them (to jump to); in a range of items or the whole book. The list is exported as markdown, csv or json text, and written to path when one is given.",
		func(ctx context.Context, a CharactersArgs) (CharactersResult, error) { return Characters(ctx, ws, a) })
}

// Characters is the Characters tool's handler.
func Characters(ctx context.Context, ws *Workspace, a CharactersArgs) (CharactersResult, error) {
	m, err := ws.Current()
	if err != nil {
		return CharactersResult{}, err
	}
	if a.Format == "" {
		a.Format = "markdown"
	}
	path := a.Path
	if path != "" {
		var own []string
		if ws.Store != nil {
			own = append(own, ws.Store.Path())
		}
		if path, _, err = exportPath(m, "Characters", path, a.Overwrite, own); err != nil {
			return CharactersResult{}, err
		}
	}
	res := CharactersResult{Format: a.Format, Characters: []CharacterView{}}
	err = m.Do(func(d *document.Document) error {
		lo, hi, err := a.ItemRange.bounds(d)
		if err != nil {
			return err
		}
		var idx *document.UTF16Index
		if a.Utf16 {
			idx = m.utf16Index(d) // the revision's, shared with the other tools
		}
		for _, c := range characters.Find(d, characters.Options{From: lo, To: hi, MinMentions: a.MinMentions}) {
			v := CharacterView{Character: c, FirstPointer: d.PointerTo(c.First.Index)}
			if idx != nil {
				for _, i := range c.Items {
					v.ItemsUtf16 = append(v.ItemsUtf16, idx.Pos(d.Item(i).Start))
				}
			}
			res.Characters = append(res.Characters, v)
		}
		return nil
	})
	if err != nil {
		return CharactersResult{}, err
	}
	res.Count = len(res.Characters)
	res.Export = exportCharacters(res.Characters, a.Format)
	if path != "" {
		if err := WriteAtomic(path, []byte(res.Export)); err != nil {
			return CharactersResult{}, err
		}
		res.Path = path
	}
	return res, nil
}

// exportCharacters writes the list as a Markdown table, CSV or JSON.
func exportCharacters(cs []CharacterView, format string) string {
	switch format {
	case "json":
		b, _ := json.MarshalIndent(cs, "", "  ")
		return string(b) + "\n"
	case "csv":
		var b bytes.Buffer
		w := csv.NewWriter(&b)
		_ = w.Write([]string{"name", "forms", "mentions", "first mention", "chapters"})
		for _, c := range cs {
			_ = w.Write([]string{c.Name, strings.Join(c.Forms, "; "), strconv.Itoa(c.Mentions), c.First.Section, chapters(c, 0)})
		}
		w.Flush()
		return b.String()
	}
	var b strings.Builder
	b.WriteString("| Name | Forms | Mentions | First mention | Mentions per chapter |\n|---|---|---|---|---|\n")
	cell := func(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "|", "\\|"), "\n", " ") }
	for _, c := range cs {
		fmt.Fprintf(&b, "| %s | %s | %d | %s | %s |\n", cell(c.Name), cell(strings.Join(c.Forms, ", ")), c.Mentions, cell(c.First.Section), cell(chapters(c, 12)))
	}
	return b.String()
}

// chapters is "CHAPTER I: 3; CHAPTER II: 5", at most max chapters (0: all).
func chapters(c CharacterView, max int) string {
	var parts []string
	for k, ch := range c.Chapters {
		if max > 0 && k == max {
			parts = append(parts, fmt.Sprintf("… %d more", len(c.Chapters)-max))
			break
		}
		sec := ch.Section
		if i := strings.LastIndex(sec, ", "); i >= 0 {
			sec = sec[i+2:]
		}
		parts = append(parts, fmt.Sprintf("%s: %d", sec, ch.Mentions))
	}
	return strings.Join(parts, "; ")
}
