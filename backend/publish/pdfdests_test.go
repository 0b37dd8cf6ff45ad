package publish

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// classicPDF writes objects 1..n (their bodies) as a classic PDF with one
// cross-reference table, as Chromium does; root is the catalog's number.
func classicPDF(root int, objs ...string) []byte {
	var b strings.Builder
	b.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	x := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<</Size %d\n/Root %d 0 R>>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, root, x)
	return []byte(b.String())
}

var fixedTime = time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)

// cutTable is pdf with its cross-reference table cut after two entries.
func cutTable(pdf []byte) []byte {
	x := strings.LastIndex(string(pdf), "xref\n0 ")
	cut := x + len("xref\n0 10\n") + 2*20
	return []byte(fmt.Sprintf("%sstartxref\n%d\n%%%%EOF\n", pdf[:cut], x))
}

// TestDestPages: the page each named destination is on, through a nested
// page tree, a destination given as << /D [...] >>, and an incremental
// update after the table (as SetPDFInfo writes); a PDF this reader cannot
// read is an error, never a guess or a hang: no startxref, a cut table, an
// object missing, a page tree that loops, values nested without end.
func TestDestPages(t *testing.T) {
	book := []string{
		"<</Type /Catalog /Pages 2 0 R /Dests 3 0 R /Outlines 9 0 R>>",                                                                       // 1
		"<</Type /Pages /Count 3 /Kids [4 0 R 5 0 R]>>",                                                                                      // 2
		"<</h1 [6 0 R /XYZ 0 575.45996 0]\n/h2 <</D [5 0 R /XYZ 0 578 0]>>\n/h3 [7 0 R /Fit]\n/h4 [8 0 R /Fit]\n/x (a (nested\\) string))>>", // 3
		"<</Type /Pages /Count 2 /Kids [6 0 R 7 0 R] /Parent 2 0 R>>",                                                                        // 4
		"<</Type /Page /Parent 2 0 R /MediaBox [0 0 420 594.95996]>>",                                                                        // 5: page 3
		"<</Type /Page /Parent 4 0 R % a comment\n>>",                                                                                        // 6: page 1
		"<</Type /Page /Parent 4 0 R /Title <FEFF0041>>>",                                                                                    // 7: page 2
		"<</Type /Page /Parent 2 0 R>>",                                                                                                      // 8: no page of the tree
		"<</Type /Outlines>>",                                                                                                                // 9
	}
	want := map[string]int{"h1": 1, "h2": 3, "h3": 2} // h4: not a page of the book
	good := classicPDF(1, book...)
	updated, err := SetPDFInfo(good, "Война и мир", "Лев Толстой", fixedTime)
	if err != nil {
		t.Fatal(err)
	}
	loop := append([]string(nil), book...)
	loop[3] = "<</Type /Pages /Kids [6 0 R 2 0 R]>>"
	deep := append([]string(nil), book...)
	deep[2] = strings.Repeat("[", 100) + strings.Repeat("]", 100)
	missing := append([]string(nil), book...)
	missing[1] = "<</Type /Pages /Kids [4 0 R 12 0 R]>>"
	for _, c := range []struct {
		name string
		pdf  []byte
		want map[string]int
		err  string
	}{
		{"nested tree", good, want, ""},
		{"after an update", updated, want, ""},
		{"no dests", classicPDF(1, "<</Type /Catalog /Pages 2 0 R>>", "<</Type /Pages /Kids [3 0 R]>>", "<</Type /Page>>"), map[string]int{}, ""},
		{"no startxref", good[:len(good)-40], nil, "no startxref"},
		{"cut table", cutTable(good), nil, "cross-reference table"},
		{"loop", classicPDF(1, loop...), nil, "loops"},
		{"too deep", classicPDF(1, deep...), nil, "nested too deep"},
		{"missing object", classicPDF(1, missing...), nil, "no object 12"},
		{"not a PDF", []byte("startxref\n3\n%%EOF\n"), nil, "no cross-reference table"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := destPages(c.pdf)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Errorf("err %v, want one saying %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}
