package desktop

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/tools"
)

// TextPath is where the window fetches the open manuscript's text: a plain
// HTTP body instead of a string in a bound call's JSON. Wails's asset server
// answers it (and the UI tier's binding server).
const TextPath = "/waymark/text"

// serveAsset answers the window's requests that are not embedded files.
func (a *App) serveAsset(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != TextPath {
		http.NotFound(w, r)
		return
	}
	if !ownHost(r.Host) {
		// A page of another name that points at a loopback port (DNS
		// rebinding) reads no book: the dev build's server answers any name.
		http.Error(w, fmt.Sprintf("host %q is not this window", r.Host), http.StatusForbidden)
		return
	}
	a.serveText(w, r)
}

// serveText writes the open manuscript's text, its revision in the
// X-Waymark-Revision header. With ?encoding=gzip the body is gzipped
// (X-Waymark-Encoding says so; the page unzips it): WebKitGTK reads
// asset-server answers through a pipe on the window's main thread, where
// the 6 MB of a novel would hold up everything else, its script included,
// for some 300 ms; zipped it is a third of that. The text becomes what the
// editor holds: typing is applied against its revision.
func (a *App) serveText(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", http.MethodGet)
		http.Error(w, "only GET reads the manuscript's text", http.StatusMethodNotAllowed)
		return
	}
	enc := r.URL.Query().Get("encoding")
	if enc != "" && enc != "gzip" {
		http.Error(w, fmt.Sprintf("unknown encoding %q: leave it out for plain UTF-8, or ask for gzip", enc), http.StatusBadRequest)
		return
	}
	// The editor's copy goes as raw bytes (6 MB for a novel), not as a string
	// in a bound call's JSON; the text is the TextChanges tool's, as every
	// door gets it.
	var body string
	var rev int64
	h := w.Header()
	if enc == "gzip" {
		z, zrev, err := a.gzipped()
		if err != nil {
			http.Error(w, err.Error(), http.StatusConflict)
			return
		}
		body, rev = z, zrev
		h.Set("Content-Type", "application/gzip")
		h.Set("X-Waymark-Encoding", "gzip")
	} else {
		t, err := a.wholeText()
		if err != nil {
			http.Error(w, err.Error(), http.StatusConflict)
			return
		}
		body, rev = t.Markdown, t.Revision
		h.Set("Content-Type", "text/markdown; charset=utf-8")
	}
	h.Set("Cache-Control", "no-store")
	h.Set("X-Waymark-Revision", strconv.FormatInt(rev, 10))
	h.Set("Content-Length", strconv.Itoa(len(body)))
	_, _ = io.WriteString(w, body)
	Mark("text served")
}

// wholeText is the open manuscript's whole text and its revision: the
// TextChanges tool's answer to a caller that holds none.
func (a *App) wholeText() (manuscript.TextChangesResult, error) {
	return call(a, a.context(), manuscript.TextChangesRef, manuscript.TextChangesArgs{}, tools.Context{})
}

// gzipped returns the open manuscript's text gzipped, and its revision, made
// once per revision (warm makes it while the window starts); the zipping
// holds up no edit: it works on the tool's copy of the text.
func (a *App) gzipped() (string, int64, error) {
	a.gzMu.Lock()
	defer a.gzMu.Unlock()
	m, err := a.current()
	if err != nil {
		return "", 0, err
	}
	if a.gzDoc == m.Path && a.gz != "" {
		// Unchanged since it was zipped (the window's usual fetch, after
		// warm): asked as an editor holding that revision, no copy of the book.
		c, err := call(a, a.context(), manuscript.TextChangesRef, manuscript.TextChangesArgs{KnownRevision: a.gzRev}, tools.Context{})
		if err == nil && c.Revision == a.gzRev && !c.Full && c.FromUtf16 == c.ToUtf16 && c.Insert == "" {
			return a.gz, a.gzRev, nil
		}
	}
	t, err := a.wholeText()
	if err != nil {
		return "", 0, err
	}
	var buf bytes.Buffer
	buf.Grow(len(t.Markdown) / 2)
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	if _, err := io.WriteString(zw, t.Markdown); err != nil {
		return "", 0, err
	}
	if err := zw.Close(); err != nil {
		return "", 0, err
	}
	z := buf.String()
	if now, err := a.current(); err == nil && now == m { // not another book meanwhile
		a.gz, a.gzDoc, a.gzRev = z, m.Path, t.Revision
	}
	return z, t.Revision, nil
}
