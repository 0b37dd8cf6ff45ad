package author

import (
	"encoding/json"
	"fmt"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/textmatch"
	"github.com/waymark/waymark/backend/wordforms"
)

// bookView is the cursor local to one RunCursorAgent call, with the lexical
// prefilter: for a task about a phrase it shows the model only portions that hold
// a mention, and it knows the matcher's answer to check the model's claim.
type bookView struct {
	d         *document.Document
	o         CursorAgentOptions
	task      Task
	lo, hi    int // the items the task reads: [lo, hi)
	pos       int // next item to read (counting down when backward)
	phrase    string
	lexical   bool
	prefilter bool
	cands     []int // candidate items in reading order, from the start position
	ci        int   // next candidate to show
	portions  int
	// window: semantic candidates are shown with this many items on each
	// side; seen are the items shown.
	window int
	seen   map[int]bool
	// maxTokens bounds a portion's items (the context budget); 0: no bound.
	maxTokens int
	// textLimit cuts an item's text to this many bytes when one item alone
	// does not fit the budget; 0: no cut.
	textLimit int
}

// itemTokens is a conservative count of the tokens item i takes in a portion:
// its text and its label, pointer and type in the portion's JSON.
func itemTokens(d *document.Document, i int) int {
	it := d.Item(i)
	n := llm.ConservativeTokens(d.Text(i)) + 40
	if it.Type == document.CodeBlock || it.Type == document.HTML || it.Type == document.TableCell {
		n += llm.ConservativeTokens(d.Markdown(i))
	}
	return n
}

// semanticCandidates is the prefilter of a task that needs understanding
// ("the scene where Natasha sings"): the passages that name every one of the
// task's names, in any form, within a few items of each other, in reading
// order. Each is shown with the items around it; the model judges them.
func (v *bookView) semanticCandidates() {
	const near = 2
	var qs []*textmatch.Query
	for _, n := range v.task.Names {
		q, err := textmatch.CompileWith(n, wordforms.Options(true))
		if err != nil {
			return
		}
		qs = append(qs, q)
	}
	hit := make([][]bool, len(qs))
	for k, q := range qs {
		hit[k] = make([]bool, v.hi-v.lo)
		for i := v.lo; i < v.hi; i++ {
			if _, _, ok := q.FindIn(v.d.Source(), v.d.Item(i).Segs); ok && v.d.Candidate(i, true) {
				hit[k][i-v.lo] = true
			}
		}
	}
	for i := max(v.lo, v.pos); i < v.hi; i++ {
		if !hit[0][i-v.lo] {
			continue
		}
		all := true
		for k := 1; k < len(qs) && all; k++ {
			found := false
			for j := max(v.lo, i-near); j <= min(v.hi-1, i+near); j++ {
				found = found || hit[k][j-v.lo]
			}
			all = found
		}
		if all {
			v.cands = append(v.cands, i)
		}
	}
	v.prefilter, v.window = true, near
	v.seen = map[int]bool{}
}

// nextWindow is next for a semantic prefilter: the next candidates not yet
// shown, each with the items around it, as many as the portion holds.
func (v *bookView) nextWindow() ([]int, bool) {
	for v.ci < len(v.cands) && v.seen[v.cands[v.ci]] {
		v.ci++
	}
	if v.ci >= len(v.cands) {
		v.pos = v.hi
		return nil, false
	}
	var out []int
	size, tokens := 0, 0
	full := false
	for v.ci < len(v.cands) && !full {
		c := v.cands[v.ci]
		var add []int
		asz, atok := 0, 0
		for i := max(v.lo, c-v.window); i < min(v.hi, c+v.window+1); i++ {
			if v.seen[i] || len(out) > 0 && i <= out[len(out)-1] {
				continue
			}
			it := v.d.Item(i)
			add = append(add, i)
			asz += it.End - it.Start
			atok += itemTokens(v.d, i)
		}
		if len(out) > 0 && (size+asz > v.o.MaxBytes || len(out)+len(add) > v.o.MaxElements || v.maxTokens > 0 && tokens+atok > v.maxTokens) {
			break
		}
		for _, i := range add {
			if len(out) > 0 && v.maxTokens > 0 && tokens+itemTokens(v.d, i) > v.maxTokens {
				full = true
				break
			}
			out = append(out, i)
			v.seen[i] = true
			tokens += itemTokens(v.d, i)
			size += v.d.Item(i).End - v.d.Item(i).Start
		}
		if !full {
			v.ci++
		}
	}
	if len(out) > 0 {
		v.portions++
		v.pos = out[len(out)-1] + 1
	}
	more := false
	for k := v.ci; k < len(v.cands) && !more; k++ {
		more = !v.seen[v.cands[k]]
	}
	return out, more
}

func newBookView(d *document.Document, o CursorAgentOptions, st *taskState) (*bookView, error) {
	v := &bookView{d: d, o: o, task: ParseTask(o.TaskDescription)}
	lo, hi, ok := v.task.Range(d)
	if !ok {
		return nil, fmt.Errorf("%w: no heading names %s; the task reads a section the outline does not have", ErrBadOptions, v.task.Scope.section())
	}
	// The caller's range (a chapter, the selection, from the cursor on).
	if o.FromIndex != nil {
		lo = max(lo, *o.FromIndex)
	}
	if o.ToIndex != nil {
		hi = min(hi, *o.ToIndex)
	}
	if lo > hi {
		lo = hi
	}
	v.lo, v.hi = lo, hi
	if o.Forward {
		v.pos = lo
	} else {
		v.pos = hi - 1
	}
	if st != nil {
		if err := v.resume(st); err != nil {
			return nil, err
		}
	}
	v.phrase = v.task.Phrase
	if v.phrase == "" && len(v.task.Names) > 0 && (o.Prefilter == nil || *o.Prefilter) && o.Mode != ModeSummary && o.Forward {
		v.semanticCandidates()
	}
	if v.phrase != "" {
		v.lexicalCandidates()
	}
	return v, nil
}

// resume starts the view where the task st stopped: past the range's end
// when it had read it all, else at the item that holds its place now.
func (v *bookView) resume(st *taskState) error {
	d, o := v.d, v.o
	if st.Forward != o.Forward {
		return fmt.Errorf("%w: the task was read %s; continue it in the same direction", ErrBadOptions, map[bool]string{true: "forward", false: "backward"}[st.Forward])
	}
	if st.Byte < 0 {
		v.pos = v.lo - 1
		if o.Forward {
			v.pos = v.hi
		}
		return nil
	}
	off, err := d.Rebase(st.Rev, st.Byte)
	if err != nil {
		return fmt.Errorf("%w: cannot continue the task: %v", ErrBadOptions, err)
	}
	i, ok := d.IndexAt(off)
	if !ok && !o.Forward {
		i--
	}
	if o.Forward {
		v.pos = max(i, v.lo)
	} else {
		v.pos = min(i, v.hi-1)
	}
	return nil
}

// lexicalCandidates lists, when the task's phrase compiles, the items of
// the range from the view's place on that mention it: the portions the
// prefilter reads.
func (v *bookView) lexicalCandidates() {
	d, o := v.d, v.o
	q, err := textmatch.CompileWith(v.phrase, wordforms.Options(!v.task.Exact))
	if err != nil {
		return
	}
	v.lexical = true
	v.prefilter = o.Prefilter == nil || *o.Prefilter
	if !v.inRange(v.pos) {
		return
	}
	opts := document.FindOptions{All: true, Backward: !o.Forward, IncludeCodeAndQuotes: true, After: v.pos - v.step()}
	if opts.After < 0 || opts.After >= d.Len() {
		opts.After = -1
	}
	for _, m := range d.Find(q, opts) {
		if !v.inRange(m.Index) {
			break
		}
		if v.task.admissible(d, m.Index) {
			v.cands = append(v.cands, m.Index)
		}
	}
}

func (v *bookView) inRange(i int) bool { return i >= v.lo && i < v.hi }

func (v *bookView) step() int {
	if v.o.Forward {
		return 1
	}
	return -1
}

// next returns the next portion's item indices and whether more follow.
func (v *bookView) next() ([]int, bool) {
	if v.window > 0 {
		return v.nextWindow()
	}
	if v.prefilter {
		for v.ci < len(v.cands) && (v.o.Forward && v.cands[v.ci] < v.pos || !v.o.Forward && v.cands[v.ci] > v.pos) {
			v.ci++
		}
		if v.ci >= len(v.cands) {
			v.pos = v.lo - 1
			if v.o.Forward {
				v.pos = v.hi
			}
			return nil, false
		}
		v.pos = v.cands[v.ci]
	}
	var out []int
	size := 0
	tokens := 0
	for v.inRange(v.pos) && len(out) < v.o.MaxElements {
		it := v.d.Item(v.pos)
		sz := it.End - it.Start
		if len(out) > 0 && size+sz > v.o.MaxBytes {
			break
		}
		if v.o.Mode == ModeSummary && len(out) > 0 && it.Type == document.Heading {
			break // a summary's portion is one chapter (or part of one)
		}
		t := itemTokens(v.d, v.pos)
		if v.maxTokens > 0 && len(out) > 0 && tokens+t > v.maxTokens {
			break // the context budget
		}
		tokens += t
		size += sz
		out = append(out, v.pos)
		v.pos += v.step()
	}

	if len(out) > 0 {
		v.portions++
	}
	return out, v.more()
}

func (v *bookView) more() bool {
	if v.prefilter {
		for k := v.ci; k < len(v.cands); k++ {
			if v.o.Forward && v.cands[k] >= v.pos || !v.o.Forward && v.cands[k] <= v.pos {
				return true
			}
		}
		return false
	}
	return v.inRange(v.pos)
}

// portionItem is an item as the model sees it.
type portionItem struct {
	Index    int    `json:"index"`
	Type     string `json:"type"`
	Level    int    `json:"level,omitempty"`
	Label    string `json:"label"`
	Pointer  string `json:"pointer"`
	Text     string `json:"text,omitempty"`
	Markdown string `json:"markdown,omitempty"`
}

// portionMessage is the JSON of one portion in the conversation.
type portionMessage struct {
	Portion int           `json:"portion"`
	HasMore bool          `json:"hasMore"`
	Items   []portionItem `json:"items"`
}

func (v *bookView) render(idx []int, more bool) string {
	pm := portionMessage{Portion: v.portions, HasMore: more}
	for _, i := range idx {
		it := v.d.Item(i)
		pi := portionItem{Index: i, Type: it.Type.String(), Level: it.Level, Label: v.d.Label(i), Pointer: v.d.PointerTo(i).Serialize()}
		if v.o.IncludeContent {
			pi.Text = v.d.Text(i)
			if it.Type == document.CodeBlock || it.Type == document.HTML || it.Type == document.TableCell {
				pi.Markdown = v.d.Markdown(i)
			}
			if v.textLimit > 0 && len(pi.Text)+len(pi.Markdown) > v.textLimit {
				// One item larger than the budget: its beginning, and a note.
				pi.Text = document.Snippet(pi.Text, v.textLimit/2) + fmt.Sprintf(" [cut to fit the context budget: %d more bytes]", len(pi.Text)-v.textLimit/2)
				pi.Markdown = ""
			}
		}
		pm.Items = append(pm.Items, pi)
	}
	b, _ := json.Marshal(pm)
	return string(b)
}

// resolve turns an action's indices or pointers into item indices.
func (v *bookView) resolve(a Action) ([]int, error) {
	var out []int
	for _, i := range a.Indices {
		if i < 0 || i >= v.d.Len() {
			return nil, fmt.Errorf("index %d is not an item of the book (0..%d)", i, v.d.Len()-1)
		}
		out = append(out, i)
	}
	for _, s := range a.Pointers {
		p, err := document.ParsePointer(s)
		if err != nil {
			return nil, err
		}
		i, err := v.d.Resolve(p)
		if err != nil {
			return nil, err
		}
		out = append(out, i)
	}
	return out, nil
}

// checkable tells whether the matcher can check a FirstMatch claim.
func (v *bookView) checkable() bool { return v.lexical && v.o.Mode == ModeFirstMatch }

// matcherFirst is the first mention from where this run started.
func (v *bookView) matcherFirst() (int, bool) {
	if len(v.cands) == 0 {
		return 0, false
	}
	return v.cands[0], true
}

// moveAfter puts the position after item i, for "the next mention".
func (v *bookView) moveAfter(i int) { v.pos = i + v.step() }

func (v *bookView) stateJSON(o CursorAgentOptions) json.RawMessage {
	st := taskState{Rev: v.d.Rev(), Byte: -1, Mode: o.Mode, Forward: o.Forward}
	if v.inRange(v.pos) {
		st.Byte = v.d.Item(v.pos).Start
	}
	b, _ := json.Marshal(st)
	return b
}

// putBack returns the items of a portion that did not fit the budget, so the
// next portion starts with them.
func (v *bookView) putBack(items []int) {
	if len(items) == 0 {
		return
	}
	if v.window > 0 {
		for _, i := range items {
			delete(v.seen, i)
		}
		for v.ci > 0 && v.cands[v.ci-1] >= items[0]-v.window {
			v.ci--
		}
		v.pos = items[0]
		return
	}
	v.pos = items[0]
	if v.prefilter {
		for v.ci > 0 && (v.o.Forward && v.cands[v.ci-1] >= items[0] || !v.o.Forward && v.cands[v.ci-1] <= items[0]) {
			v.ci--
		}
	}
}

// claim is the item a FirstMatch finish names: its firstItemIndex, else its
// first index or pointer; -1 when it names none in the book.
func (v *bookView) claim(a Action) int {
	switch {
	case a.FirstItemIndex != nil:
		return *a.FirstItemIndex
	case len(a.Indices) > 0:
		return a.Indices[0]
	case len(a.Pointers) > 0:
		if idx, err := v.resolve(Action{Pointers: a.Pointers[:1]}); err == nil {
			return idx[0]
		}
	}
	return -1
}
