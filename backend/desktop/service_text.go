package desktop

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net/http"
	"strconv"

	"github.com/waymark/waymark/backend/document"
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
	// A copy of its own: the write must not hold up other calls.
	var body []byte
	var rev int64
	_ = m.Do(func(d *document.Document) error {
		rev = d.Rev()
		if enc == "" {
			body = bytes.Clone(d.Source())
		}
		return nil
	})
	h := w.Header()
	if enc == "gzip" {
		if body = a.gzipped(m.Path, rev); body == nil {
			http.Error(w, "the manuscript changed while it was read; ask again", http.StatusConflict)
			return
		}
		h.Set("Content-Type", "application/gzip")
		h.Set("X-Waymark-Encoding", "gzip")
	} else {
		h.Set("Content-Type", "text/markdown; charset=utf-8")
	}
	h.Set("Cache-Control", "no-store")
	h.Set("X-Waymark-Revision", strconv.FormatInt(rev, 10))
	h.Set("Content-Length", strconv.Itoa(len(body)))
	_, _ = w.Write(body)
	Mark("text served")
}

// gzipped returns the text of doc at rev gzipped (nil if the manuscript is no
// longer there), made once per revision: warm makes it while the window starts.
func (a *App) gzipped(doc string, rev int64) []byte {
	a.gzMu.Lock()
	defer a.gzMu.Unlock()
	if a.gzDoc == doc && a.gzRev == rev && a.gz != nil {
		return a.gz
	}
	m, err := a.current()
	if err != nil || m.Path != doc {
		return nil
	}
	var buf bytes.Buffer
	ok := false
	_ = m.Do(func(d *document.Document) error {
		if d.Rev() != rev {
			return nil
		}
		buf.Grow(len(d.Source()) / 2)
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
		if _, err := zw.Write(d.Source()); err != nil {
			return err
		}
		ok = zw.Close() == nil
		return nil
	})
	if !ok {
		return nil
	}
	a.gz, a.gzDoc, a.gzRev = buf.Bytes(), doc, rev
	return a.gz
}
