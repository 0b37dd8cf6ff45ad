package desktop

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net/http"
	"strconv"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/manuscript"
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
	m, err := a.current()
	if err != nil {
		http.Error(w, err.Error(), http.StatusConflict)
		return
	}
	// The editor's copy of the text goes as raw bytes (6 MB for a novel), not
	// as a tool's JSON string: it is read here, under the manuscript's lock,
	// as a copy of its own, so the write holds up no other call. Other doors
	// get the same text from TextChanges (knownRevision 0).
	var body []byte
	var rev int64
	h := w.Header()
	if enc == "gzip" {
		if body, rev = a.gzipped(m); body == nil {
			http.Error(w, "the manuscript changed while it was read; ask again", http.StatusConflict)
			return
		}
		h.Set("Content-Type", "application/gzip")
		h.Set("X-Waymark-Encoding", "gzip")
	} else {
		_ = m.Do(func(d *document.Document) error {
			body, rev = bytes.Clone(d.Source()), d.Rev()
			return nil
		})
		h.Set("Content-Type", "text/markdown; charset=utf-8")
	}
	h.Set("Cache-Control", "no-store")
	h.Set("X-Waymark-Revision", strconv.FormatInt(rev, 10))
	h.Set("Content-Length", strconv.Itoa(len(body)))
	_, _ = w.Write(body)
	Mark("text served")
}

// gzipped returns the text of m as it is now, gzipped, and its revision (nil
// if m is no longer the open manuscript), made once per revision: warm makes
// it while the window starts.
func (a *App) gzipped(m *manuscript.Manuscript) ([]byte, int64) {
	a.gzMu.Lock()
	defer a.gzMu.Unlock()
	if cur, err := a.current(); err != nil || cur != m {
		return nil, 0
	}
	var rev int64
	var buf bytes.Buffer
	ok := false
	_ = m.Do(func(d *document.Document) error {
		rev = d.Rev()
		if a.gzDoc == m.Path && a.gzRev == rev && a.gz != nil {
			ok = true
			return nil
		}
		buf.Grow(len(d.Source()) / 2)
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
		if _, err := zw.Write(d.Source()); err != nil {
			return err
		}
		if zw.Close() == nil {
			a.gz, a.gzDoc, a.gzRev, ok = buf.Bytes(), m.Path, rev, true
		}
		return nil
	})
	if !ok {
		return nil, 0
	}
	return a.gz, rev
}
