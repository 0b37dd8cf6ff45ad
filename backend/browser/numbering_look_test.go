package browser

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/go-rod/rod/lib/proto"
)

// overlayCalls wraps the overlay's entry in the top document (installed by
// the navigation) so that the calls into it are recorded; ops returns the
// operations called since the last ops.
func overlayCalls(t *testing.T, s *Session) (ops func() []string) {
	t.Helper()
	ctx := testCtx(t)
	w, err := s.topWorld(ctx)
	if err != nil {
		t.Fatal(err)
	}
	run := func(js string) string {
		res, err := proto.RuntimeCallFunctionOn{FunctionDeclaration: js, ExecutionContextID: w.ctxID, ReturnByValue: true}.Call(w.p.Context(ctx))
		if err != nil || res.ExceptionDetails != nil {
			t.Fatalf("in the overlay's world: %v %v", err, res)
		}
		return res.Result.Value.Str()
	}
	if got := run(`function() {
		const W = globalThis.__waymark;
		if (!W) return 'no overlay';
		const call = W.call;
		W.ops = [];
		W.call = (op, arg) => { W.ops.push(op); return call(op, arg); };
		return 'ok';
	}`); got != "ok" {
		t.Fatalf("wrap the overlay: %s", got)
	}
	return func() []string {
		var ops []string
		if err := json.Unmarshal([]byte(run(`function() { const o = globalThis.__waymark.ops; globalThis.__waymark.ops = []; return JSON.stringify(o); }`)), &ops); err != nil {
			t.Fatal(err)
		}
		return ops
	}
}

// TestListIsOneCallIntoThePage: the first list of a page just navigated to
// is one call into its overlay (issue 33 point 14: the look and the walk
// were two, and before that four in two worlds), and numbers it as before;
// a list that the last one still describes is one call and walks nothing,
// and one after a change walks in that call; a page with a closed shadow
// root is walked after its roots are given, as before.
func TestListIsOneCallIntoThePage(t *testing.T) {
	s := newSession(t)
	want := []string{"Library", "Opening hours", "Full name", "E-mail", "Date of birth", "Branch", "Adult", "Child", "Notes", "Send me the newsletter", "Clear", "Apply", "Privacy"}
	var ops func() []string
	for i := 0; i < 2; i++ {
		open(t, s, "/small-form.html")
		ops = overlayCalls(t, s)
		r := mustList(t, s, ListOptions{})
		if got := ops(); len(got) != 1 {
			t.Errorf("the first list after a navigation called the overlay %d times (%v), want once", len(got), got)
		}
		if r.Total != len(want) || r.TotalAtLeast {
			t.Fatalf("total %d (at least %v), want %d", r.Total, r.TotalAtLeast, len(want))
		}
		for i, it := range r.Items {
			if it.Number != i+1 || it.Name != want[i] {
				t.Fatalf("item %d: %d %q, want %d %q", i, it.Number, it.Name, i+1, want[i])
			}
		}
		walks := s.walks
		again := mustList(t, s, ListOptions{})
		if got := ops(); len(got) != 1 || s.walks != walks || again.Generation == r.Generation || !samePrefix(r.Items, again.Items) {
			t.Errorf("a list of the page unchanged: overlay calls %v, %d walks, generations %d → %d (want one call, no walk, the same numbers)",
				got, s.walks-walks, r.Generation, again.Generation)
		}
	}

	// The page changed since the list: walked in the look's call.
	evalText(t, s, `() => { document.querySelector('main').prepend(Object.assign(document.createElement('button'), {textContent: 'Inserted'})); return 'ok'; }`)
	walks := s.walks
	r := mustList(t, s, ListOptions{})
	if got := ops(); len(got) != 1 || s.walks != walks+1 || numberOf(t, r, "Inserted") != 3 {
		t.Errorf("a list after a change: overlay calls %v, %d walks (want one of each): %s", got, s.walks-walks, names(r))
	}

	// Closed shadow roots are given to the overlay before the walk.
	open(t, s, "/closed.html")
	r = mustList(t, s, ListOptions{})
	if !strings.Contains(names(r), "Save nickname") {
		t.Errorf("the closed shadow root's elements are not listed: %s", names(r))
	}
}
