package agent

import (
	"encoding/json"
	"fmt"

	"github.com/waymark/waymark/backend/document"
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
}

func newBookView(d *document.Document, o CursorAgentOptions, st *taskState) (*bookView, error) {
	v := &bookView{d: d, o: o, task: ParseTask(o.TaskDescription)}
	lo, hi, ok := v.task.Range(d)
	if !ok {
		return nil, fmt.Errorf("%w: no heading names %s; the task reads a section the outline does not have", ErrBadOptions, v.task.Scope.Text)
	}
	v.lo, v.hi = lo, hi
	if o.Forward {
		v.pos = lo
	} else {
		v.pos = hi - 1
	}
	if st != nil {
		if st.Forward != o.Forward {
			return nil, fmt.Errorf("%w: the task was read %s; continue it in the same direction", ErrBadOptions, map[bool]string{true: "forward", false: "backward"}[st.Forward])
		}
		if st.Byte < 0 {
			v.pos = lo - 1
			if o.Forward {
				v.pos = hi
			}
		} else {
			off, err := d.Rebase(st.Rev, st.Byte)
			if err != nil {
				return nil, fmt.Errorf("%w: cannot continue the task: %v", ErrBadOptions, err)
			}
			i, ok := d.IndexAt(off)
			if !ok && !o.Forward {
				i--
			}
			if o.Forward {
				v.pos = max(i, lo)
			} else {
				v.pos = min(i, hi-1)
			}
		}
	}
	v.phrase = v.task.Phrase
	if v.phrase != "" {
		q, err := textmatch.CompileWith(v.phrase, wordforms.Options(!v.task.Exact))
		if err == nil {
			v.lexical = true
			v.prefilter = o.Prefilter == nil || *o.Prefilter
			if v.inRange(v.pos) {
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
		}
	}
	return v, nil
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
	for v.inRange(v.pos) && len(out) < v.o.MaxElements {
		it := v.d.Item(v.pos)
		sz := it.End - it.Start
		if len(out) > 0 && size+sz > v.o.MaxBytes {
			break
		}
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
