package publish

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"time"
	"unicode/utf16"
)

var (
	trailerSize = regexp.MustCompile(`/Size\s+(\d+)`)
	trailerRoot = regexp.MustCompile(`/Root\s+(\d+\s+\d+\s+R)`)
	trailerID   = regexp.MustCompile(`/ID\s*\[[^\]]*\]`)
	startXref   = regexp.MustCompile(`startxref\s+(\d+)\s+%%EOF\s*$`)
)

// SetPDFInfo gives a PDF Chromium printed its document information: title,
// author (Chromium writes no author) and Waymark as the creator. It appends
// an incremental update (a new Info dictionary, a one-entry cross-reference
// section and a trailer pointing back to the old one), the way PDF editors
// save, so nothing Chromium wrote is rewritten.
func SetPDFInfo(pdf []byte, title, author string, at time.Time) ([]byte, error) {
	t := bytes.LastIndex(pdf, []byte("trailer"))
	sx := startXref.FindSubmatch(pdf)
	if t < 0 || sx == nil {
		return nil, fmt.Errorf("set the PDF's title and author: no classic trailer in the PDF Chromium printed")
	}
	trailer := pdf[t:]
	size := trailerSize.FindSubmatch(trailer)
	root := trailerRoot.FindSubmatch(trailer)
	if size == nil || root == nil {
		return nil, fmt.Errorf("set the PDF's title and author: the trailer has no /Size or /Root")
	}
	n, _ := strconv.Atoi(string(size[1]))
	var b bytes.Buffer
	b.Write(pdf)
	if pdf[len(pdf)-1] != '\n' {
		b.WriteByte('\n')
	}
	off := b.Len()
	date := at.UTC().Format("D:20060102150405+00'00'")
	fmt.Fprintf(&b, "%d 0 obj\n<</Title %s\n", n, pdfText(title))
	if author != "" {
		fmt.Fprintf(&b, "/Author %s\n", pdfText(author))
	}
	fmt.Fprintf(&b, "/Creator (Waymark)\n/Producer (Waymark, printed by Chromium)\n/CreationDate (%s)\n/ModDate (%s)>>\nendobj\n", date, date)
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n%d 1\n%010d 00000 n \ntrailer\n<</Size %d\n/Root %s\n/Info %d 0 R\n/Prev %s", n, off, n+1, root[1], n, sx[1])
	if id := trailerID.Find(trailer); id != nil {
		b.WriteString("\n")
		b.Write(id)
	}
	fmt.Fprintf(&b, ">>\nstartxref\n%d\n%%%%EOF\n", xref)
	return b.Bytes(), nil
}

// pdfText is a PDF text string: UTF-16BE with a byte-order mark, in hex, so
// Cyrillic titles and names survive every reader.
func pdfText(s string) string {
	var b bytes.Buffer
	b.WriteString("<FEFF")
	for _, u := range utf16.Encode([]rune(s)) {
		fmt.Fprintf(&b, "%04X", u)
	}
	b.WriteString(">")
	return b.String()
}
