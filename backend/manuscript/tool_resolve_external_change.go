package manuscript

import (
	"context"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/tools"
)

// ExternalChoices are the answers to an outside change.
var ExternalChoices = []string{"reload", "keep", "compare"}

// ResolveExternalChangeArgs is the author's choice.
type ResolveExternalChangeArgs struct {
	Choice string `json:"choice" jsonschema:"reload: take the other program's version; keep: write Waymark's back; compare: only show the differences line by line"`
}

// Refine lists the choices.
func (ResolveExternalChangeArgs) Refine(s *jsonschema.Schema) {
	tools.Enum(tools.Prop(s, "choice"), ExternalChoices...)
}

// DiffLine is one line of a comparison: the same in both, only in Waymark's
// version, only on disk, or a gap of unchanged lines left out.
type DiffLine struct {
	Kind string `json:"kind"` // same, mine, disk, gap
	Text string `json:"text"`
}

// ExternalResult is the outcome of the choice.
type ExternalResult struct {
	Choice   string     `json:"choice"`
	Summary  string     `json:"summary"`
	Revision int64      `json:"revision"`
	Diff     []DiffLine `json:"diff"`
}

// ResolveExternalChangeRef is the typed handle on the ResolveExternalChange tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var ResolveExternalChangeRef = tools.RefTo[ResolveExternalChangeArgs, ExternalResult]("ResolveExternalChange")

func resolveExternalChangeTool(ws *Workspace) tools.Tool {
	return ResolveExternalChangeRef.Func("Act on a change another program made to the manuscript's file (see CheckDisk): reload takes the file's version, keep writes Waymark's back (both versions stay in the history either way), compare only lists the differing lines.",
		func(ctx context.Context, a ResolveExternalChangeArgs) (ExternalResult, error) {
			return ResolveExternalChange(ctx, ws, a)
		})
}

// ResolveExternalChange is the ResolveExternalChange tool's handler.
func ResolveExternalChange(ctx context.Context, ws *Workspace, a ResolveExternalChangeArgs) (ExternalResult, error) {
	m, err := ws.Current()
	if err != nil {
		return ExternalResult{}, err
	}
	r := ExternalResult{Choice: a.Choice, Diff: []DiffLine{}}
	switch a.Choice {
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
		r.Diff = LineDiff(mine, string(disk), 3, 2000)
		changed := 0
		for _, l := range r.Diff {
			if l.Kind == "mine" || l.Kind == "disk" {
				changed++
			}
		}
		r.Summary = fmt.Sprintf("%d changed line(s) between Waymark's version and the file on disk", changed)
	default:
		return r, fmt.Errorf("choice %q: reload, keep or compare", a.Choice)
	}
	return r, nil
}
