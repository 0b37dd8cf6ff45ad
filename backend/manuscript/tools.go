package manuscript

import (
	"context"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/tools"
)

// RegisterTools adds the manuscript tools to r, acting on ws's current
// manuscript. Each tool is in the file named for it (tool_replace_text.go, …).
func RegisterTools(r *tools.Registry, ws *Workspace) {
	r.MustRegister(
		readTool(ws),
		replaceTextTool(ws),
		replaceAllTool(ws),
		deleteAllTool(ws),
		charactersTool(ws),
		insertAfterTool(ws),
		insertBeforeTool(ws),
		deleteTool(ws),
		undoTool(ws),
		redoTool(ws),
		createCursorTool(ws),
		cursorNextTool(ws),
		targetSetCreateTool(ws),
		targetSetAddTool(ws),
		targetSetGetTool(ws),
		findTool(ws),
		outlineTool(ws),
		historyTool(ws),
		restoreRevisionTool(ws),
		targetSetListTool(ws),
		targetSetRemoveTool(ws),
		targetSetDeleteTool(ws),
		exportTool(ws),
		exportMetadataTool(ws),
		convertTool(ws),
	)
	// The window's own actions are tools too, so MCP, the CLI and the model
	// reach them: positions in these are UTF-16 code units (what a JavaScript
	// editor counts), and every such field says so in its name (fromUtf16, …);
	// the other tools count bytes of UTF-8.
	tc := &textCache{}
	r.MustRegister(
		undoRevisionTool(ws),
		editsSinceTool(ws),
		checkDiskTool(ws),
		resolveExternalChangeTool(ws),
		typeTextTool(ws, tc),
		noteTypingTool(ws, tc),
		textChangesTool(ws, tc),
		spellingTool(ws),
		itemAtTool(ws),
	)
}

// A pointer argument is a pointer string or a pointer object, as the tools
// return them (document.Pointer reads both).
// A result's pointer is written as its pointer object, an item's type as
// its name.
func init() {
	tools.DefineOutput[document.Pointer, document.PointerJSON]()
	tools.DefineOutput[document.ItemType, string]()
	tools.DefineSchema[document.Pointer](tools.AnyOf(
		`the item: a pointer string such as "r3:l120:c5310:b9876:i42" or a pointer object {"serialized": ...} as returned by Read, Find, CursorNext and TargetSetGet`,
		&jsonschema.Schema{Type: "string", MinLength: jsonschema.Ptr(1)},
		&jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{"serialized": {Type: "string"}}, Required: []string{"serialized"}},
	))
}

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
	Success  bool   `json:"success"`
	Op       string `json:"op"`
	Revision int64  `json:"revision"`
	Summary  string `json:"summary"`
	// Description is an undo's or redo's edit in words, in the book's
	// language («Отменено: Замена «Пьер» на «Петр» — Том 1, II»).
	Description string `json:"description,omitempty"`
	// KeptAside is set (and Success false) when the window holds unsaved
	// typing in the paragraph this edit changed: when the window saves it,
	// this edit is kept aside (the window's conflicts, the history).
	KeptAside string             `json:"keptAside,omitempty"`
	Note      string             `json:"note,omitempty"` // where the edit went when it is not where asked (a heading after a whole section)
	Pointer   *document.Pointer  `json:"pointer,omitempty"`
	Pointers  []document.Pointer `json:"pointers"`
	Markdown  string             `json:"markdown,omitempty"`
	Deleted   []document.Pointer `json:"deleted,omitempty"`
	Context   string             `json:"context"`
}

// ItemAddress names one item: by pointer or by index, not both. Argument
// structs embed it.
type ItemAddress struct {
	Pointer *document.Pointer `json:"pointer,omitempty"`
	Index   *int              `json:"index,omitempty" jsonschema:"the item's linear index (alternative to pointer; valid only for the current revision)"`
}

func (ItemAddress) Refine(s *jsonschema.Schema) { tools.Min(tools.Prop(s, "index"), 0) }

// resolve finds the item an address names, in d.
func (a ItemAddress) resolve(d *document.Document) (int, error) {
	switch {
	case a.Pointer != nil && a.Index != nil:
		return 0, fmt.Errorf("%w: give either pointer or index, not both", tools.ErrInvalidArgs)
	case a.Pointer != nil:
		return d.Resolve(*a.Pointer)
	case a.Index != nil:
		return d.ResolveIndex(*a.Index)
	}
	return 0, fmt.Errorf("%w: an item is required: give pointer (from Read, Find or CursorNext) or index", tools.ErrInvalidArgs)
}

func itemView(d *document.Document, i int) ItemView {
	it := d.Item(i)
	return ItemView{Index: i, Type: it.Type, Level: it.Level, Pointer: d.PointerTo(i), Markdown: d.Markdown(i), Text: d.Text(i)}
}

// editItem runs one edit of the item at names, planned by plan, on the
// current manuscript (ReplaceText, InsertAfter, InsertBefore, Delete).
func (ws *Workspace) editItem(ctx context.Context, at ItemAddress, plan func(d *document.Document, i int) (*document.Edit, error)) (EditView, error) {
	m, err := ws.Current()
	if err != nil {
		return EditView{}, err
	}
	out, err := m.Edit(ctx, func(d *document.Document) (*document.Edit, error) {
		i, err := at.resolve(d)
		if err != nil {
			return nil, err
		}
		return plan(d, i)
	})
	if err != nil {
		return EditView{}, err
	}
	return editView(m, out), nil
}

func editView(m *Manuscript, out Outcome) EditView {
	v := EditView{Success: out.KeptAside == "", Op: out.Op, Revision: out.Rev, Summary: out.Summary, Description: out.Description, KeptAside: out.KeptAside, Note: out.Note, Context: out.Context, Deleted: out.Deleted, Pointers: []document.Pointer{}}
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
