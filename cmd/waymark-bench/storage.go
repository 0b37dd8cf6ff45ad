package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf16"

	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/store"
	"github.com/waymark/waymark/backend/tools"
)

// keystrokeGrowth types saves letters into a copy of the book, one TypeText
// save each (what the window does at every typing pause), at the ends and in
// the middles of paragraphs across the book, and returns how many bytes the
// database (with its log) grew by.
func keystrokeGrowth(ctx context.Context, dir string, src []byte, saves int) (int64, error) {
	doc, db := filepath.Join(dir, "typed.md"), filepath.Join(dir, "typed.db")
	if err := os.WriteFile(doc, src, 0o644); err != nil {
		return 0, err
	}
	size := func() int64 {
		var n int64
		for _, p := range []string{db, db + "-wal"} {
			if fi, err := os.Stat(p); err == nil {
				n += fi.Size()
			}
		}
		return n
	}
	open := func() (*store.Store, *tools.Registry, error) {
		st, err := store.Open(db)
		if err != nil {
			return nil, nil, err
		}
		ws := manuscript.NewWorkspace(st)
		if _, err := ws.Open(ctx, doc); err != nil {
			st.Close()
			return nil, nil, err
		}
		r := tools.New()
		manuscript.RegisterTools(r, ws)
		return st, r, nil
	}
	st, _, err := open()
	if err != nil {
		return 0, err
	}
	st.Close()
	before := size()
	st, r, err := open()
	if err != nil {
		return 0, err
	}
	defer st.Close()
	text := string(src)
	// Paragraph starts spread over the book, every one a place to type at.
	var places []int
	for at, step := 0, len(text)/(saves+1); len(places) < saves && at < len(text); at += step {
		p := strings.Index(text[at:], "\n\n")
		if p < 0 {
			break
		}
		places = append(places, at+p+2)
	}
	rev := int64(1)
	for k := 0; k < saves; k++ {
		at := places[k%len(places)]
		if k%2 == 0 {
			at += strings.IndexByte(text[at:], '\n') // the end of the paragraph
		} else {
			at += strings.IndexByte(text[at:], ' ') + 1 // inside it
		}
		pos := len(utf16.Encode([]rune(text[:at])))
		res, err := manuscript.TypeTextRef.Call(ctx, r, manuscript.TypeTextArgs{BaseRevision: rev, FromUtf16: pos, ToUtf16: pos, Text: "ж"})
		if err != nil {
			return 0, fmt.Errorf("keystroke save %d: %w", k+1, err)
		}
		rev = res.Revision
		text = text[:at] + "ж" + text[at:]
		for j := range places {
			if places[j] > at {
				places[j] += len("ж")
			}
		}
	}
	if err := st.Close(); err != nil {
		return 0, err
	}
	return size() - before, nil
}
