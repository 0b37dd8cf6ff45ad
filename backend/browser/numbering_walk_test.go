package browser

import (
	"testing"

	"github.com/go-rod/rod/lib/proto"
	"github.com/ysmood/gson"
)

// A navigation leaves the numbering overlay installed in the document it
// loaded (issue 33 point 14: installing it was half of a small page's first
// list), and the first list then numbers the page as before: every field,
// box and button of the form, in document order.
func TestNavigateReadiesOverlay(t *testing.T) {
	s := newSession(t)
	ctx := testCtx(t)
	for _, path := range []string{"/small-form.html", "/paging.html", "/small-form.html"} {
		open(t, s, path)
		w, err := s.topWorld(ctx)
		if err != nil {
			t.Fatal(err)
		}
		res, err := proto.RuntimeCallFunctionOn{FunctionDeclaration: `function() { return !!globalThis.__waymark; }`,
			ExecutionContextID: w.ctxID, ReturnByValue: true, Arguments: []*proto.RuntimeCallArgument{{Value: gson.New(0)}}}.Call(w.p.Context(ctx))
		if err != nil || !res.Result.Value.Bool() {
			t.Fatalf("%s: the overlay is not installed after the navigation (%v)", path, err)
		}
	}
	r := mustList(t, s, ListOptions{})
	want := []string{"Library", "Opening hours", "Full name", "E-mail", "Date of birth", "Branch", "Adult", "Child", "Notes", "Send me the newsletter", "Clear", "Apply", "Privacy"}
	if r.Total != len(want) || r.TotalAtLeast {
		t.Fatalf("total %d (at least %v), want %d", r.Total, r.TotalAtLeast, len(want))
	}
	for i, it := range r.Items {
		if it.Number != i+1 || it.Name != want[i] {
			t.Fatalf("item %d: %d %q, want %d %q", i, it.Number, it.Name, i+1, want[i])
		}
	}
}
