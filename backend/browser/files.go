package browser

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/go-rod/rod/lib/proto"
)

// Download conflict policies: what happens when the folder already has a
// file of that name.
const (
	ConflictRename    = "rename"    // save as "name (1).ext"
	ConflictOverwrite = "overwrite" // replace the old file
)

// Download is one file the page downloaded, as the tools report it.
type Download struct {
	Name  string `json:"name"`
	Path  string `json:"path"`
	Bytes int64  `json:"bytes"`
	URL   string `json:"url"`

	guid      string
	suggested string
	state     string // inProgress, completed, canceled
	staged    string
	err       error
	seq       int
	reported  bool
}

// downloads follows the browser's download events for one session: files
// land under a staging name in DownloadDir/.waymark-partial and move to a safe
// final name when complete.
type downloads struct {
	mu      sync.Mutex
	changed chan struct{}
	byGUID  map[string]*Download
	seq     int
	staging string
}

func (d *downloads) bump() {
	close(d.changed)
	d.changed = make(chan struct{})
}

// startDownloads sets the download behaviour of the session's browser context
// and follows its events.
func (s *Session) startDownloads(ctx context.Context) error {
	dir := s.opts.DownloadDir
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("download folder %s: %w", dir, err)
	}
	staging := filepath.Join(dir, ".waymark-partial")
	if err := os.MkdirAll(staging, 0o700); err != nil {
		return fmt.Errorf("download folder %s: %w", dir, err)
	}
	s.dl = &downloads{changed: make(chan struct{}), byGUID: map[string]*Download{}, staging: staging}
	req := proto.BrowserSetDownloadBehavior{Behavior: proto.BrowserSetDownloadBehaviorBehaviorAllowAndName, DownloadPath: staging, EventsEnabled: true}
	if s.ownCtx {
		req.BrowserContextID = s.browser.BrowserContextID
	}
	if err := req.Call(s.root.Context(ctx)); err != nil {
		return fmt.Errorf("set the download folder: %w", err)
	}
	wait := s.root.Context(s.ctx).EachEvent(
		func(ev *proto.BrowserDownloadWillBegin) {
			s.dl.mu.Lock()
			s.dl.seq++
			s.dl.byGUID[ev.GUID] = &Download{guid: ev.GUID, URL: ev.URL, suggested: ev.SuggestedFilename, state: "inProgress", seq: s.dl.seq,
				staged: filepath.Join(staging, ev.GUID)}
			s.dl.bump()
			s.dl.mu.Unlock()
			s.ev.downloadStarted(ev.URL)
		},
		func(ev *proto.BrowserDownloadProgress) {
			s.dl.mu.Lock()
			defer s.dl.mu.Unlock()
			d := s.dl.byGUID[ev.GUID]
			if d == nil || d.state != "inProgress" {
				return
			}
			switch ev.State {
			case proto.BrowserDownloadProgressStateCompleted:
				d.Bytes = int64(ev.ReceivedBytes)
				d.Path, d.err = s.finishDownload(d)
				d.Name = filepath.Base(d.Path)
				d.state = "completed"
				s.dl.bump()
			case proto.BrowserDownloadProgressStateCanceled:
				d.state = "canceled"
				_ = os.Remove(d.staged)
				s.dl.bump()
			}
		},
	)
	go wait()
	return nil
}

// finishDownload moves a completed download from staging to its safe final
// name under the conflict policy.
func (s *Session) finishDownload(d *Download) (string, error) {
	name := SafeFileName(d.suggested)
	final, err := placeFile(s.opts.DownloadDir, name, s.opts.DownloadConflict)
	if err != nil {
		return "", err
	}
	if err := os.Rename(d.staged, final); err != nil {
		return "", fmt.Errorf("save the download as %s: %w", final, err)
	}
	return final, nil
}

// placeFile returns the path a new file called name should take in dir under
// the policy: rename adds " (1)", " (2)" … before the extension; overwrite
// takes the name as it is.
func placeFile(dir, name, policy string) (string, error) {
	p := filepath.Join(dir, name)
	if policy == ConflictOverwrite {
		return p, nil
	}
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	for i := 1; i < 10000; i++ {
		if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
			return p, nil
		}
		p = filepath.Join(dir, fmt.Sprintf("%s (%d)%s", stem, i, ext))
	}
	return "", fmt.Errorf("too many files called %s in %s", name, dir)
}

var reservedNames = map[string]bool{"con": true, "prn": true, "aux": true, "nul": true,
	"com1": true, "com2": true, "com3": true, "com4": true, "com5": true, "com6": true, "com7": true, "com8": true, "com9": true,
	"lpt1": true, "lpt2": true, "lpt3": true, "lpt4": true, "lpt5": true, "lpt6": true, "lpt7": true, "lpt8": true, "lpt9": true}

// SafeFileName turns a name a web site suggests into one that is safe in any
// folder: no path (only the last part of "../../x" is kept), no control or
// reserved characters, no leading dots (hidden files), no device names, at
// most 200 bytes with the extension kept, never empty.
func SafeFileName(name string) string {
	name = strings.ReplaceAll(name, "\\", "/")
	if i := strings.LastIndex(name, "/"); i >= 0 {
		name = name[i+1:]
	}
	var b strings.Builder
	for _, r := range name {
		switch {
		case r == utf8.RuneError, unicode.IsControl(r), unicode.Is(unicode.Cf, r):
		case strings.ContainsRune(`<>:"|?*`, r):
			b.WriteRune('_')
		default:
			b.WriteRune(r)
		}
	}
	name = strings.TrimLeft(strings.TrimSpace(b.String()), ". ")
	name = strings.TrimRight(name, ". ")
	stem := name
	if i := strings.IndexByte(stem, '.'); i >= 0 {
		stem = stem[:i]
	}
	if reservedNames[strings.ToLower(stem)] {
		name = "_" + name
	}
	if name == "" {
		name = "download"
	}
	if len(name) > 200 {
		ext := filepath.Ext(name)
		if len(ext) > 20 {
			ext = ""
		}
		cut := 200 - len(ext)
		for cut > 0 && !utf8.RuneStart(name[cut]) {
			cut--
		}
		name = name[:cut] + ext
	}
	return name
}

// waitDownload waits for a download that began after seq (or, when seq < 0,
// the oldest one not reported yet: finished or still running) to finish,
// within timeout.
func (s *Session) waitDownload(ctx context.Context, after int, timeout time.Duration) (*Download, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var picked *Download
	for {
		s.dl.mu.Lock()
		if picked == nil {
			for _, d := range s.dl.byGUID {
				if after >= 0 && d.seq <= after {
					continue
				}
				if after < 0 && (d.reported || d.state == "canceled") {
					continue
				}
				if picked == nil || d.seq < picked.seq {
					picked = d
				}
			}
		}
		if picked != nil && picked.state != "inProgress" {
			picked.reported = true
		}
		var out Download
		state := ""
		if picked != nil {
			out, state = *picked, picked.state
		}
		ch := s.dl.changed
		s.dl.mu.Unlock()
		switch state {
		case "completed":
			if out.err != nil {
				return nil, out.err
			}
			return &out, nil
		case "canceled":
			return nil, fmt.Errorf("the download of %s was cancelled", out.URL)
		}
		select {
		case <-ch:
		case <-ctx.Done():
			if picked == nil {
				return nil, fmt.Errorf("no download started within %s", timeout)
			}
			return nil, fmt.Errorf("the download of %s did not finish within %s", out.URL, timeout)
		}
	}
}

func downloadTimeout(ms int) (time.Duration, error) {
	if ms == 0 {
		return 60 * time.Second, nil
	}
	if ms < 100 || ms > 600000 {
		return 0, invalid("timeout_ms %d: use 100..600000", ms)
	}
	return time.Duration(ms) * time.Millisecond, nil
}

// ClickAndWaitDownload clicks the numbered element and waits for the download
// it starts; it reports where the file was saved.
func (s *Session) ClickAndWaitDownload(ctx context.Context, index, timeoutMs int) (*Download, error) {
	timeout, err := downloadTimeout(timeoutMs)
	if err != nil {
		return nil, err
	}
	if index < 1 {
		return nil, invalid("index must be a number from the last list (1 or more)")
	}
	ctx, unlock, err := s.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	s.dl.mu.Lock()
	seq := s.dl.seq
	s.dl.mu.Unlock()
	res, err := s.act(ctx, ActOptions{Index: index, Action: "click"})
	if err != nil {
		return nil, err
	}
	if res.Dialog != nil {
		return nil, &DialogError{Dialog: *res.Dialog}
	}
	return s.waitDownload(ctx, seq, timeout)
}

// DownloadWait reports the oldest download not reported yet, waiting for it
// to finish (or for the next one to start and finish).
func (s *Session) DownloadWait(ctx context.Context, timeoutMs int) (*Download, error) {
	timeout, err := downloadTimeout(timeoutMs)
	if err != nil {
		return nil, err
	}
	ctx, unlock, err := s.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	return s.waitDownload(ctx, -1, timeout)
}

// UploadResult names the files given to a file field.
type UploadResult struct {
	Number int      `json:"number"`
	Files  []string `json:"files"`
	Field  string   `json:"field"`
}

const fileInputFn = `function() {
	const el = this;
	const isFile = e => e && e.tagName === 'INPUT' && (e.type || '').toLowerCase() === 'file';
	if (isFile(el)) return el;
	if (el.tagName === 'LABEL' && isFile(el.control)) return el.control;
	const inner = el.querySelector && el.querySelector('input[type=file]');
	if (inner) return inner;
	const forId = el.getAttribute && el.getAttribute('aria-controls');
	if (forId) { const c = el.ownerDocument.getElementById(forId); if (isFile(c)) return c; }
	const form = el.closest && el.closest('form');
	if (form) { const all = form.querySelectorAll('input[type=file]'); if (all.length === 1) return all[0]; }
	return null;
}`

// Upload gives files to the numbered file field (or the button or label of
// one). Files must be absolute paths of existing regular files; the
// assistant loop makes sure they are files the user named.
func (s *Session) Upload(ctx context.Context, index int, files []string) (*UploadResult, error) {
	if index < 1 {
		return nil, invalid("index must be a number from the last list (1 or more)")
	}
	if len(files) == 0 {
		return nil, invalid("files is empty: give the absolute path of at least one file")
	}
	for _, f := range files {
		if !filepath.IsAbs(f) {
			return nil, invalid("file %q: give an absolute path", f)
		}
		fi, err := os.Stat(f)
		if err != nil {
			return nil, invalid("file %q: %v", f, err)
		}
		if !fi.Mode().IsRegular() {
			return nil, invalid("file %q is not a regular file (a folder or device cannot be uploaded)", f)
		}
		fh, err := os.Open(f)
		if err != nil {
			return nil, invalid("file %q cannot be read: %v", f, err)
		}
		_, rerr := fh.Read(make([]byte, 1))
		fh.Close()
		if rerr != nil && rerr != io.EOF {
			return nil, invalid("file %q cannot be read: %v", f, rerr)
		}
	}
	ctx, unlock, err := s.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	defer s.release(ctx)
	n, err := s.validate(ctx)
	if err != nil {
		return nil, err
	}
	if index > len(n.items) {
		return nil, fmt.Errorf("number %d is not in list %d (it numbers 1..%d)", index, n.gen, len(n.items))
	}
	it := n.items[index-1]
	w, err := s.world(ctx, it.frame.frameID)
	if err != nil {
		return nil, &StaleError{Generation: n.gen, Reason: "a frame went away"}
	}
	obj, err := s.ref(ctx, w, "e", it.ID)
	if err != nil {
		return nil, err
	}
	if obj == "" {
		return nil, goneError(it)
	}
	p := s.page.Context(ctx)
	in, err := proto.RuntimeCallFunctionOn{FunctionDeclaration: fileInputFn, ObjectID: obj, ObjectGroup: objectGroup}.Call(p)
	if err != nil {
		return nil, err
	}
	if in.Result.ObjectID == "" {
		return nil, fmt.Errorf("element %d (%s) is not a file field and has none; list again and pick the file field or its button", it.Number, label(it))
	}
	mult, err := proto.RuntimeCallFunctionOn{FunctionDeclaration: `function() { return !!this.multiple }`, ObjectID: in.Result.ObjectID, ReturnByValue: true}.Call(p)
	if err != nil {
		return nil, err
	}
	if len(files) > 1 && !mult.Result.Value.Bool() {
		return nil, fmt.Errorf("element %d (%s) takes one file; %d were given", it.Number, label(it), len(files))
	}
	if err := (proto.DOMSetFileInputFiles{Files: files, ObjectID: in.Result.ObjectID}).Call(p); err != nil {
		return nil, fmt.Errorf("give the files to element %d: %w", it.Number, err)
	}
	return &UploadResult{Number: it.Number, Files: files, Field: it.Name}, nil
}
