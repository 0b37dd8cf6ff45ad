package tools

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/textmatch"
)

// Schema fragments shared by the manuscript tools.
const (
	pointerSchema = `{"description": "the item: a pointer string such as \"r3:l120:c5310:b9876:i42\" or a pointer object {\"serialized\": ...} as returned by Read, Find, CursorNext and TargetSetGet",
		"anyOf": [{"type": "string", "minLength": 1}, {"type": "object", "properties": {"serialized": {"type": "string"}}, "required": ["serialized"]}]}`
	indexSchema   = `{"type": "integer", "minimum": 0, "description": "the item's linear index (alternative to pointer; valid only for the current revision)"}`
	addressSchema = `"pointer": ` + pointerSchema + `, "index": ` + indexSchema
)

// ItemView is an item as the tools return it.
type ItemView struct {
	Index    int               `json:"index"`
	Type     document.ItemType `json:"type"`
	Level    int               `json:"level"`
	Pointer  document.Pointer  `json:"pointer"`
	Markdown string            `json:"markdown"`
	Text     string            `json:"text"`
}

// EditView is the result of every edit tool: the new pointer(s), the revision and
// the cursor context (SPEC §1), so a model or a person knows where the edit landed.
type EditView struct {
	Success  bool               `json:"success"`
	Op       string             `json:"op"`
	Revision int64              `json:"revision"`
	Summary  string             `json:"summary"`
	Note     string             `json:"note,omitempty"` // where the edit went when it is not where asked (a heading after a whole section)
	Pointer  *document.Pointer  `json:"pointer,omitempty"`
	Pointers []document.Pointer `json:"pointers"`
	Markdown string             `json:"markdown,omitempty"`
	Deleted  []document.Pointer `json:"deleted,omitempty"`
	Context  string             `json:"context"`
}

type address struct {
	Pointer *json.RawMessage `json:"pointer"`
	Index   *int             `json:"index"`
}

// resolve finds the item an address names, in d.
func (a address) resolve(d *document.Document) (int, error) {
	switch {
	case a.Pointer != nil && a.Index != nil:
		return 0, fmt.Errorf("%w: give either pointer or index, not both", ErrInvalidArgs)
	case a.Pointer != nil:
		var p document.Pointer
		if err := json.Unmarshal(*a.Pointer, &p); err != nil {
			return 0, err
		}
		return d.Resolve(p)
	case a.Index != nil:
		return d.ResolveIndex(*a.Index)
	}
	return 0, fmt.Errorf("%w: an item is required: give pointer (from Read, Find or CursorNext) or index", ErrInvalidArgs)
}

func itemView(d *document.Document, i int) ItemView {
	it := d.Item(i)
	return ItemView{Index: i, Type: it.Type, Level: it.Level, Pointer: d.PointerTo(i), Markdown: d.Markdown(i), Text: d.Text(i)}
}

// RegisterManuscript adds the manuscript tools, acting on ws's current manuscript.
func RegisterManuscript(r *Registry, ws *manuscript.Workspace) {
	cur := ws.Current
	editTool := func(name, desc, mdField string, plan func(d *document.Document, i int, md string) (*document.Edit, error)) Tool {
		schema := `{"type": "object", "properties": {` + addressSchema
		required := ""
		if mdField != "" {
			schema += `, "` + mdField + `": {"type": "string", "description": "Markdown for the item"}`
			required = `"` + mdField + `"`
		}
		schema += `}, "required": [` + required + `], "additionalProperties": false}`
		return Tool{Name: name, Description: desc, InputSchema: json.RawMessage(schema),
			Handler: func(ctx context.Context, call Call, _ *Tool, _ Context) (any, error) {
				var a struct {
					address
					NewMarkdown string `json:"newMarkdown"`
					Markdown    string `json:"markdown"`
				}
				if err := json.Unmarshal(call.Args, &a); err != nil {
					return nil, fmt.Errorf("%w for %s: %v", ErrInvalidArgs, name, err)
				}
				md := a.NewMarkdown + a.Markdown
				m, err := cur()
				if err != nil {
					return nil, err
				}
				out, err := m.Edit(ctx, func(d *document.Document) (*document.Edit, error) {
					i, err := a.address.resolve(d)
					if err != nil {
						return nil, err
					}
					return plan(d, i, md)
				})
				if err != nil {
					return nil, err
				}
				return editView(m, out), nil
			}}
	}
	r.MustRegister(
		Tool{Name: "Read", Description: "Read one item of the manuscript by pointer (or index): its type, level, exact Markdown and plain text.",
			InputSchema: json.RawMessage(`{"type": "object", "properties": {` + addressSchema + `}, "additionalProperties": false}`),
			Handler: func(ctx context.Context, call Call, _ *Tool, _ Context) (any, error) {
				a, err := Decode[address](call)
				if err != nil {
					return nil, err
				}
				m, err := cur()
				if err != nil {
					return nil, err
				}
				var v ItemView
				err = m.Do(func(d *document.Document) error {
					i, err := a.resolve(d)
					if err == nil {
						v = itemView(d, i)
					}
					return err
				})
				return v, err
			}},
		editTool("ReplaceText", "Replace one item's Markdown (a paragraph, list item, heading text, table cell, …). Bytes outside the item never change; a paragraph cannot become a heading and a heading keeps its level.", "newMarkdown",
			func(d *document.Document, i int, md string) (*document.Edit, error) { return d.PlanReplaceText(i, md) }),
		editTool("InsertAfter", "Insert new Markdown item(s) right after an item (after a list item's nested items). Headings may only be inserted next to a heading of the same level.", "markdown",
			func(d *document.Document, i int, md string) (*document.Edit, error) { return d.PlanInsertAfter(i, md) }),
		editTool("InsertBefore", "Insert new Markdown item(s) right before an item. Headings may only be inserted next to a heading of the same level.", "markdown",
			func(d *document.Document, i int, md string) (*document.Edit, error) { return d.PlanInsertBefore(i, md) }),
		editTool("Delete", "Delete one item (a list item together with its nested items). Headings and table cells cannot be deleted.", "",
			func(d *document.Document, i int, _ string) (*document.Edit, error) { return d.PlanDelete(i) }),
		Tool{Name: "Undo", Description: "Undo the newest edit of the manuscript that is not undone yet.",
			Handler: func(ctx context.Context, call Call, _ *Tool, _ Context) (any, error) {
				m, err := cur()
				if err != nil {
					return nil, err
				}
				out, err := m.Undo(ctx)
				if err != nil {
					return nil, err
				}
				return editView(m, out), nil
			}},
		Tool{Name: "Redo", Description: "Redo the newest undone edit (not possible once a new edit was made after the undo).",
			Handler: func(ctx context.Context, call Call, _ *Tool, _ Context) (any, error) {
				m, err := cur()
				if err != nil {
					return nil, err
				}
				out, err := m.Redo(ctx)
				if err != nil {
					return nil, err
				}
				return editView(m, out), nil
			}},
		Tool{Name: "CreateCursor", Description: "Create (or reset) a named cursor that reads the manuscript in portions of at most maxElements items (1..200) and maxBytes bytes (1..65536), forward or backward. Defaults CUR_WHOLE_BOOK_FORWARD and CUR_WHOLE_BOOK_BACKWARD exist from the start.",
			InputSchema: json.RawMessage(`{"type": "object", "properties": {
				"cursorName": {"type": "string", "description": "1..96 characters, unique per document"},
				"forward": {"type": "boolean", "description": "true: from the start; false: from the end"},
				"maxElements": {"type": "integer", "description": "items per portion, 1..200"},
				"maxBytes": {"type": "integer", "description": "bytes per portion, 1..65536 (an item larger than this comes alone)"},
				"includeContent": {"type": "boolean", "description": "false: items carry pointers and metadata only"}},
				"required": ["cursorName", "forward", "maxElements", "maxBytes", "includeContent"], "additionalProperties": false}`),
			Handler: func(ctx context.Context, call Call, _ *Tool, _ Context) (any, error) {
				spec, err := Decode[document.CursorSpec](call)
				if err != nil {
					return nil, err
				}
				m, err := cur()
				if err != nil {
					return nil, err
				}
				st, err := m.CreateCursor(ctx, spec)
				if err != nil {
					return nil, err
				}
				return st.CursorSpec, nil
			}},
		Tool{Name: "CursorNext", Description: "Return the next portion of a named cursor: {cursorName, items, hasMore}. Items carry index, type, level, pointer, markdown and text.",
			InputSchema: json.RawMessage(`{"type": "object", "properties": {"cursorName": {"type": "string"}}, "required": ["cursorName"], "additionalProperties": false}`),
			Handler: func(ctx context.Context, call Call, _ *Tool, _ Context) (any, error) {
				a, err := Decode[struct {
					CursorName string `json:"cursorName"`
				}](call)
				if err != nil {
					return nil, err
				}
				m, err := cur()
				if err != nil {
					return nil, err
				}
				return m.CursorNext(ctx, a.CursorName)
			}},
		Tool{Name: "TargetSetCreate", Description: "Create a persistent set of pointers (e.g. every scene with Natasha). Returns targetSetId.",
			InputSchema: json.RawMessage(`{"type": "object", "properties": {"name": {"type": "string", "maxLength": 200}}, "additionalProperties": false}`),
			Handler: func(ctx context.Context, call Call, _ *Tool, _ Context) (any, error) {
				a, err := Decode[struct {
					Name string `json:"name"`
				}](call)
				if err != nil {
					return nil, err
				}
				m, err := cur()
				if err != nil {
					return nil, err
				}
				ts, err := m.CreateTargetSet(ctx, a.Name)
				if err != nil {
					return nil, err
				}
				return map[string]any{"targetSetId": ts.ID, "name": ts.Name}, nil
			}},
		Tool{Name: "TargetSetAdd", Description: "Add items to an existing target set, by pointers or by itemIndices. Returns {success, count}.",
			InputSchema: json.RawMessage(`{"type": "object", "properties": {
				"targetSetId": {"type": "string", "minLength": 1},
				"pointers": {"type": "array", "items": ` + pointerSchema + `},
				"itemIndices": {"type": "array", "items": {"type": "integer", "minimum": 0}}},
				"required": ["targetSetId"], "additionalProperties": false}`),
			Handler: func(ctx context.Context, call Call, _ *Tool, _ Context) (any, error) {
				a, err := Decode[struct {
					TargetSetID string             `json:"targetSetId"`
					Pointers    []document.Pointer `json:"pointers"`
					ItemIndices []int              `json:"itemIndices"`
				}](call)
				if err != nil {
					return nil, err
				}
				if len(a.Pointers) == 0 && len(a.ItemIndices) == 0 {
					return nil, fmt.Errorf("%w for TargetSetAdd: give pointers or itemIndices (at least one item)", ErrInvalidArgs)
				}
				m, err := cur()
				if err != nil {
					return nil, err
				}
				n, err := m.AddToTargetSet(ctx, a.TargetSetID, a.Pointers, a.ItemIndices)
				if err != nil {
					return nil, err
				}
				return map[string]any{"success": true, "count": n}, nil
			}},
		Tool{Name: "TargetSetGet", Description: "Return a target set's pointers in document order (and itemIndices ascending); members whose items were deleted are listed apart.",
			InputSchema: json.RawMessage(`{"type": "object", "properties": {"targetSetId": {"type": "string", "minLength": 1}}, "required": ["targetSetId"], "additionalProperties": false}`),
			Handler: func(ctx context.Context, call Call, _ *Tool, _ Context) (any, error) {
				a, err := Decode[struct {
					TargetSetID string `json:"targetSetId"`
				}](call)
				if err != nil {
					return nil, err
				}
				m, err := cur()
				if err != nil {
					return nil, err
				}
				v, err := m.TargetSet(ctx, a.TargetSetID)
				if err != nil {
					return nil, err
				}
				out := map[string]any{"targetSetId": v.ID, "name": v.Name, "pointers": v.Pointers, "itemIndices": v.ItemIndices, "count": len(v.ItemIndices)}
				if len(v.Deleted) > 0 {
					out["deleted"] = v.Deleted
				}
				return out, nil
			}},
		Tool{Name: "Find", Description: "Find a phrase with the deterministic first-mention rules: case-insensitive, ё = е, accents ignored, whole words, punctuation as word boundary, inflected forms of each word (Russian cases and numbers, English plurals; exact=true for the words as given); headings, paragraphs, list items, table cells and image captions (code and quotes only with includeCodeAndQuotes). Returns the first match, or all with all=true, with exact byte ranges.",
			InputSchema: json.RawMessage(`{"type": "object", "properties": {
				"query": {"type": "string", "minLength": 1, "description": "the phrase"},
				"all": {"type": "boolean", "description": "every match, not only the first (default false)"},
				"exact": {"type": "boolean", "description": "only the words as given, not their inflected forms (default false: «Долохов» also finds «Долохова»)"},
				"forward": {"type": "boolean", "description": "search from the start (default true) or from the end"},
				"includeCodeAndQuotes": {"type": "boolean", "description": "also search code blocks and block quotes (default false)"},
				"after": ` + pointerSchema + `,
				"limit": {"type": "integer", "minimum": 1, "description": "with all: at most this many matches"}},
				"required": ["query"], "additionalProperties": false}`),
			Handler: func(ctx context.Context, call Call, _ *Tool, _ Context) (any, error) {
				a, err := Decode[struct {
					Query                string            `json:"query"`
					All                  bool              `json:"all"`
					Exact                bool              `json:"exact"`
					Forward              *bool             `json:"forward"`
					IncludeCodeAndQuotes bool              `json:"includeCodeAndQuotes"`
					After                *document.Pointer `json:"after"`
					Limit                int               `json:"limit"`
				}](call)
				if err != nil {
					return nil, err
				}
				q, err := textmatch.CompileWith(a.Query, textmatch.Options{Forms: !a.Exact})
				if err != nil {
					return nil, fmt.Errorf("%w for Find: %v", ErrInvalidArgs, err)
				}
				m, err := cur()
				if err != nil {
					return nil, err
				}
				res := map[string]any{"query": a.Query}
				err = m.Do(func(d *document.Document) error {
					opts := document.FindOptions{All: a.All, Backward: a.Forward != nil && !*a.Forward, IncludeCodeAndQuotes: a.IncludeCodeAndQuotes, After: -1, Limit: a.Limit}
					if a.After != nil {
						i, err := d.Resolve(*a.After)
						if err != nil {
							return fmt.Errorf("after: %w", err)
						}
						opts.After = i
					}
					ms := d.Find(q, opts)
					out := make([]map[string]any, 0, len(ms))
					for _, mt := range ms {
						it := d.Item(mt.Index)
						out = append(out, map[string]any{"index": mt.Index, "type": it.Type, "pointer": d.PointerTo(mt.Index),
							"start": mt.Start, "end": mt.End, "line": mt.Line, "matched": string(d.Source()[mt.Start:mt.End]),
							"snippet": document.Snippet(d.Text(mt.Index), 120)})
					}
					res["matches"] = out
					res["count"] = len(out)
					res["found"] = len(out) > 0
					return nil
				})
				return res, err
			}},
		Tool{Name: "Outline", Description: "The manuscript's headings in order, each with its pointer and the word count of its section (own text, and with subsections), plus the book's total.",
			Handler: func(ctx context.Context, call Call, _ *Tool, _ Context) (any, error) {
				m, err := cur()
				if err != nil {
					return nil, err
				}
				var res map[string]any
				err = m.Do(func(d *document.Document) error {
					res = outline(d, m.Path)
					return nil
				})
				return res, err
			}},
	)
	RegisterHistory(r, ws)
}

func editView(m *manuscript.Manuscript, out manuscript.Outcome) EditView {
	v := EditView{Success: true, Op: out.Op, Revision: out.Rev, Summary: out.Summary, Note: out.Note, Context: out.Context, Deleted: out.Deleted, Pointers: []document.Pointer{}}
	_ = m.Do(func(d *document.Document) error {
		for _, i := range out.Produced {
			v.Pointers = append(v.Pointers, d.PointerTo(i))
		}
		if out.Note != "" {
			v.Summary += " (" + out.Note + ")"
		}
		if len(out.Produced) > 0 {
			p := v.Pointers[0]
			v.Pointer = &p
			v.Markdown = d.Markdown(out.Produced[0])
		}
		return nil
	})
	return v
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
