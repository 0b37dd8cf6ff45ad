package waymark

import (
	"reflect"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/agent/author"
	"github.com/waymark/waymark/backend/agent/web"
	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/tools"
)

// handle is a tools.Ref's name and types.
type handle struct {
	name    string
	in, out reflect.Type
}

func handleOf[In, Out any](r tools.Ref[In, Out]) handle {
	return handle{r.Name(), reflect.TypeFor[In](), reflect.TypeFor[Out]()}
}

// handles are the typed handles product code calls the tools through (issue
// 36 point 1); the browser's own tools (browser_*) have theirs in the browser
// package.
var handles = []handle{
	handleOf(author.PlanDiscardRef), handleOf(author.PlanProposeRef), handleOf(author.PlanRunRef), handleOf(author.RunCommandRef), handleOf(author.RunCursorAgentRef),
	handleOf(web.BrowseCommandRef), handleOf(web.BrowserGoalRef),
	handleOf(llm.ModelServerModelsRef), handleOf(llm.ProbeModelServerRef),
	handleOf(manuscript.CharactersRef), handleOf(manuscript.CheckDiskRef), handleOf(manuscript.ConvertToUTF8Ref), handleOf(manuscript.CreateCursorRef),
	handleOf(manuscript.CursorNextRef), handleOf(manuscript.DeleteRef), handleOf(manuscript.DeleteAllRef), handleOf(manuscript.EditsSinceRef),
	handleOf(manuscript.ExportRef), handleOf(manuscript.ExportMetadataRef), handleOf(manuscript.FindRef), handleOf(manuscript.HistoryRef),
	handleOf(manuscript.InsertAfterRef), handleOf(manuscript.InsertBeforeRef), handleOf(manuscript.ItemAtRef), handleOf(manuscript.NoteTypingRef),
	handleOf(manuscript.OutlineRef), handleOf(manuscript.ReadRef), handleOf(manuscript.RedoRef), handleOf(manuscript.ReplaceAllRef), handleOf(manuscript.ReplaceTextRef),
	handleOf(manuscript.ResolveExternalChangeRef), handleOf(manuscript.RestoreRevisionRef), handleOf(manuscript.SpellingRef),
	handleOf(manuscript.TargetSetAddRef), handleOf(manuscript.TargetSetCreateRef), handleOf(manuscript.TargetSetDeleteRef), handleOf(manuscript.TargetSetGetRef),
	handleOf(manuscript.TargetSetListRef), handleOf(manuscript.TargetSetRemoveRef), handleOf(manuscript.TextChangesRef), handleOf(manuscript.TypeTextRef),
	handleOf(manuscript.UndoRef), handleOf(manuscript.UndoRevisionRef),
}

// TestEveryToolHasAHandle: every tool of the assembled registry outside the
// browser's has a typed handle whose types are the tool's, and every handle
// names a registered tool, so no caller needs a map of arguments or an
// assertion on a result.
func TestEveryToolHasAHandle(t *testing.T) {
	reg := New(Config{Browser: browser.NewSessions(browser.Options{})}).Registry
	named := map[string]bool{}
	for _, h := range handles {
		if named[h.name] {
			t.Errorf("two handles name %s", h.name)
		}
		named[h.name] = true
		tool, err := reg.Get(h.name)
		if err != nil {
			t.Errorf("handle %s: %v", h.name, err)
			continue
		}
		if tool.In != h.in || tool.Out != h.out {
			t.Errorf("handle %s takes %v and returns %v; the tool takes %v and returns %v", h.name, h.in, h.out, tool.In, tool.Out)
		}
	}
	ts, err := reg.Tools()
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range ts {
		if !strings.HasPrefix(tool.Name, "browser_") && !named[tool.Name] {
			t.Errorf("tool %s has no typed handle (a package-level %sRef beside it)", tool.Name, tool.Name)
		}
	}
}
