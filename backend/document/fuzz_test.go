package document

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzEdit checks parse → edit → save: never a panic; a refused edit changes
// nothing; an applied edit changes no byte outside its splice; and the incremental
// item list always equals a full re-parse of the new source.
func FuzzEdit(f *testing.F) {
	seeds := []string{sample, "# T\n\na\n\nb\n", "- a\n  - b\n- c\n", "> q\n>\n> r\n", "| a | b |\n|---|---|\n| 1 | 2 |\n",
		"```\ncode\n```\n", "Title\n===\n\ntext\n", "a\r\n\r\nb\r\n", "[^1]: note\n\ntext[^1]\n", "<div>\nx\n</div>\n\np\n"}
	for i, s := range seeds {
		f.Add(s, uint8(i), uint16(i), "new *text*")
		f.Add(s, uint8(i+1), uint16(0), "- item\n  more")
	}
	f.Fuzz(func(t *testing.T, src string, op uint8, idx uint16, md string) {
		if !utf8.ValidString(src) || strings.IndexByte(src, 0) >= 0 || len(src) > 4096 || len(md) > 512 {
			return
		}
		d := Parse([]byte(src), 1)
		if d.Len() == 0 {
			return
		}
		i := int(idx) % d.Len()
		var e *Edit
		var err error
		switch op % 4 {
		case 0:
			e, err = d.PlanReplaceText(i, md)
		case 1:
			e, err = d.PlanInsertAfter(i, md)
		case 2:
			e, err = d.PlanInsertBefore(i, md)
		case 3:
			e, err = d.PlanDelete(i)
		}
		if err != nil {
			if string(d.Source()) != src {
				t.Fatalf("refused edit changed the source")
			}
			return
		}
		e.Apply()
		out := d.Source()
		if !bytes.HasPrefix(out, []byte(src[:e.Start])) || !bytes.HasSuffix(out, []byte(src[e.OldEnd:])) {
			t.Fatalf("bytes outside the splice changed")
		}
		consistent(t, d)
		for k := 0; k < d.Len(); k++ {
			_ = d.Text(k)
		}
		if d.Len() > 0 {
			_ = d.CursorContext(i % d.Len())
		}
	})
}
