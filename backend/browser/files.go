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
	ours      bool // started in one of the session's tabs, or staged here
	// admitted: ours and the first download of its tool call, so the
	// user's download command may save it; unasked: a further one the page
	// started by itself, cancelled (issue 32 point 7). claimed: a download
	// command took it; only a claimed download leaves staging.
	admitted, unasked, claimed bool
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
	// callAdmitted: a download of the current tool call was admitted
	// already (newCall clears it).
	callAdmitted bool
}

// newCall starts a tool call's count of downloads (the session lock is
// taken).
func (d *downloads) newCall() {
	if d == nil {
		return
	}
	d.mu.Lock()
	d.callAdmitted = false
	d.mu.Unlock()
}

// admit decides, once a download is known to be the session's, whether it
// may be saved by the user's download command (the first of its tool call)
// or was started by the page beyond that: then it is cancelled and the next
// result says so. dl.mu is held.
func (s *Session) admit(d *Download) {
	if d.admitted || d.unasked {
		return
	}
	if !s.dl.callAdmitted {
		s.dl.callAdmitted = true
		d.admitted = true
		return
	}
	d.unasked = true
	guid := d.guid
	go func() {
		ctx, cancel := context.WithTimeout(s.ctx, 5*time.Second)
		defer cancel()
		req := proto.BrowserCancelDownload{GUID: guid}
		if s.ownCtx {
			req.BrowserContextID = s.browser.BrowserContextID
		}
		_ = req.Call(s.root.Context(ctx))
	}()
	name := SafeFileName(d.suggested)
	s.noteRefused(Refusal{RefusedDownload, name})
	s.logf("browser: a download the page started by itself was cancelled")
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
		return failWith(KindDownloadFolder, err, dir)
	}
	// Each session stages in a folder of its own: Chromium tells every
	// connection about every download, and the staged file is how a session
	// knows a download is its own.
	parent := filepath.Join(dir, ".waymark-partial")
	if err := os.MkdirAll(parent, 0o700); err != nil {
		return failWith(KindDownloadFolder, err, dir)
	}
	staging, err := os.MkdirTemp(parent, "session-")
	if err != nil {
		return failWith(KindDownloadFolder, err, dir)
	}
	s.dl = &downloads{changed: make(chan struct{}), byGUID: map[string]*Download{}, staging: staging}
	req := proto.BrowserSetDownloadBehavior{Behavior: proto.BrowserSetDownloadBehaviorBehaviorAllowAndName, DownloadPath: staging, EventsEnabled: true}
	if s.ownCtx {
		req.BrowserContextID = s.browser.BrowserContextID
	}
	if err := req.Call(s.root.Context(ctx)); err != nil {
		return failWith(KindSetDownloadFolder, err)
	}
	staged := func(d *Download) bool {
		_, err := os.Lstat(d.staged)
		return err == nil
	}
	wait := s.root.Context(s.ctx).EachEvent(
		func(ev *proto.BrowserDownloadWillBegin) {
			s.dl.mu.Lock()
			s.dl.seq++
			d := &Download{guid: ev.GUID, URL: ev.URL, suggested: ev.SuggestedFilename, state: "inProgress", seq: s.dl.seq,
				staged: filepath.Join(staging, ev.GUID), ours: s.isTab(proto.TargetTargetID(ev.FrameID))}
			s.dl.byGUID[ev.GUID] = d
			if d.ours {
				s.admit(d)
			}
			s.dl.bump()
			s.dl.mu.Unlock()
			if d.ours {
				s.ev.downloadStarted(ev.URL)
			}
		},
		func(ev *proto.BrowserDownloadProgress) {
			s.dl.mu.Lock()
			defer s.dl.mu.Unlock()
			d := s.dl.byGUID[ev.GUID]
			if d == nil || d.state != "inProgress" {
				return
			}
			if !d.ours && staged(d) {
				d.ours = true
				s.admit(d)
				s.dl.bump()
			}
			switch ev.State {
			case proto.BrowserDownloadProgressStateCompleted, proto.BrowserDownloadProgressStateCanceled:
				if !d.ours {
					// Another session's download (its file is not here).
					delete(s.dl.byGUID, ev.GUID)
					s.dl.bump()
					return
				}
			}
			switch ev.State {
			case proto.BrowserDownloadProgressStateCompleted:
				d.Bytes = int64(ev.ReceivedBytes)
				if d.unasked {
					// Cancelled too late: the file goes, unsaved.
					_ = os.Remove(d.staged)
				} else if d.claimed {
					s.save(d)
				}
				// Not claimed yet: it stays in staging until the user's
				// download command takes it (or the session ends).
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

// save moves a completed, claimed download to the download folder; dl.mu
// is held.
func (s *Session) save(d *Download) {
	if d.Path != "" || d.err != nil {
		return
	}
	d.Path, d.err = s.finishDownload(d)
	if d.err == nil {
		d.Name = filepath.Base(d.Path)
	}
}

// dropStaging removes the session's staging folder (and the shared parent
// when no other session stages there); Close calls it.
func (s *Session) dropStaging() {
	if s.dl == nil {
		return
	}
	_ = os.RemoveAll(s.dl.staging)
	_ = os.Remove(filepath.Dir(s.dl.staging))
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
		return "", failWith(KindSaveDownload, err, final)
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
	return "", fail(KindTooManyFiles, name, dir)
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

// firstDownload is the download a wait for one started after seq after
// (-1: any not yet reported) takes: the earliest of the session's own that
// a page did not start by itself; nil when none. The downloads' lock is held.
func (s *Session) firstDownload(after int) *Download {
	var picked *Download
	for _, d := range s.dl.byGUID {
		if after >= 0 && d.seq <= after {
			continue
		}
		if !d.ours || d.unasked || (after < 0 && (d.reported || d.state == "canceled")) {
			continue
		}
		if picked == nil || d.seq < picked.seq {
			picked = d
		}
	}
	return picked
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
		if picked != nil && s.dl.byGUID[picked.guid] != picked {
			picked = nil // it was another session's download
		}
		if picked == nil {
			picked = s.firstDownload(after)
		}
		if picked != nil {
			// The user's download command takes it: saved once complete.
			picked.claimed = true
			if picked.state == "completed" {
				s.save(picked)
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
			return nil, fail(KindDownloadFailed, out.URL)
		}
		select {
		case <-ch:
		case <-ctx.Done():
			if picked == nil {
				return nil, fail(KindNoDownload, timeout)
			}
			return nil, fail(KindDownloadSlow, out.URL, timeout)
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
	// Chooser is true when the element had no file field in sight and its
	// click opened a file chooser, which got the files.
	Chooser bool `json:"chooser,omitempty"`
}

// fileInputFn finds the file field an element stands for: itself, the field
// of a label, one inside it, the one it names with aria-controls, or the only
// one in its nearest surroundings (a few levels up, or its form).
const fileInputFn = `function() {
	const el = this;
	const isFile = e => !!e && e.tagName === 'INPUT' && (e.type || '').toLowerCase() === 'file';
	if (isFile(el)) return el;
	if (el.tagName === 'LABEL' && isFile(el.control)) return el.control;
	const inner = el.querySelectorAll ? el.querySelectorAll('input[type=file]') : [];
	if (inner.length === 1) return inner[0];
	const root = el.getRootNode ? el.getRootNode() : el.ownerDocument;
	for (const id of (el.getAttribute && el.getAttribute('aria-controls') || '').split(/\s+/)) {
		const c = id && root.getElementById ? root.getElementById(id) : null;
		if (isFile(c)) return c;
	}
	let p = el.parentElement;
	for (let i = 0; p && i < 3; i++, p = p.parentElement) {
		const all = p.querySelectorAll('input[type=file]');
		if (all.length === 1) return all[0];
		if (all.length > 1) return null;
	}
	const form = el.closest && el.closest('form');
	if (form) { const all = form.querySelectorAll('input[type=file]'); if (all.length === 1) return all[0]; }
	return null;
}`

// fileFieldFn describes a file field: whether it takes several files and
// what it is called.
const fileFieldFn = `function() {
	const lab = this.labels && this.labels.length ? this.labels[0].textContent : '';
	const name = (this.getAttribute('aria-label') || lab || this.title || this.name || this.id || '').replace(/\s+/g, ' ').trim();
	return { multiple: !!this.multiple, name: name.slice(0, 80) };
}`

// submitterFn tells whether a click on the element would submit a form.
const submitterFn = `function() {
	const t = (this.type || '').toLowerCase();
	return !!this.form && (this.tagName === 'BUTTON' || this.tagName === 'INPUT') && (t === 'submit' || t === 'image');
}`

// fileChooserWait is how long a click may take to open a file chooser.
const fileChooserWait = 1500 * time.Millisecond

// checkUploadFile: f is the absolute path of a regular file that can be
// read.
func checkUploadFile(f string) error {
	if !filepath.IsAbs(f) {
		return fail(KindFileRelative, f)
	}
	fi, err := os.Stat(f)
	if err != nil {
		return failWith(KindFileStat, err, f)
	}
	if !fi.Mode().IsRegular() {
		return fail(KindFileNotRegular, f)
	}
	fh, err := os.Open(f)
	if err != nil {
		return failWith(KindFileUnreadable, err, f)
	}
	_, rerr := fh.Read(make([]byte, 1))
	fh.Close()
	if rerr != nil && rerr != io.EOF {
		return failWith(KindFileUnreadable, rerr, f)
	}
	return nil
}

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
		if err := checkUploadFile(f); err != nil {
			return nil, err
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
		return nil, n.notNumbered(index)
	}
	it := n.items[index-1]
	w, err := s.itemWorld(ctx, n, it)
	if err != nil {
		return nil, err
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
		switch it.Role {
		case "button", "link", "clickable", "menuitem":
			// No field in sight: the page may make one when the button is
			// clicked. Click it with the file chooser intercepted, unless
			// the click would send a form.
			sub, err := proto.RuntimeCallFunctionOn{FunctionDeclaration: submitterFn, ObjectID: obj, ReturnByValue: true}.Call(p)
			if err != nil {
				return nil, err
			}
			if sub.Result.Value.Bool() {
				return nil, fail(KindSubmitNoFile, it.Number, label(it))
			}
			return s.uploadByChooser(ctx, it, w, files)
		}
		return nil, fail(KindNotFileField, it.Number, label(it))
	}
	var field struct {
		Multiple bool   `json:"multiple"`
		Name     string `json:"name"`
	}
	fr, err := proto.RuntimeCallFunctionOn{FunctionDeclaration: fileFieldFn, ObjectID: in.Result.ObjectID, ReturnByValue: true}.Call(p)
	if err != nil {
		return nil, err
	}
	if err := fr.Result.Value.Unmarshal(&field); err != nil {
		return nil, err
	}
	if len(files) > 1 && !field.Multiple {
		return nil, fail(KindOneFile, it.Number, label(it), len(files))
	}
	if err := (proto.DOMSetFileInputFiles{Files: files, ObjectID: in.Result.ObjectID}).Call(p); err != nil {
		return nil, failWith(KindGiveFiles, err, it.Number)
	}
	if field.Name == "" {
		field.Name = it.Name
	}
	return &UploadResult{Number: it.Number, Files: files, Field: field.Name}, nil
}

// uploadByChooser clicks the numbered element with file choosers intercepted
// and gives the files to the chooser it opens; the lock is held.
func (s *Session) uploadByChooser(ctx context.Context, it *Item, w *world, files []string) (*UploadResult, error) {
	p := s.page.Context(ctx)
	opened := make(chan *proto.PageFileChooserOpened, 1)
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	wait := s.page.Context(wctx).EachEvent(func(ev *proto.PageFileChooserOpened) bool {
		opened <- ev
		return true
	})
	go wait()
	if err := (proto.PageSetInterceptFileChooserDialog{Enabled: true}).Call(p); err != nil {
		return nil, failWith(KindWatchChooser, err)
	}
	// Only while this click lasts: the user's own clicks get the real chooser.
	defer func() {
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		_ = proto.PageSetInterceptFileChooserDialog{Enabled: false}.Call(s.page.Context(dctx))
	}()
	dialog, err := s.watchInput(ctx, func(ctx context.Context) error {
		return s.clickItem(ctx, it, w, clickAt)
	})
	if err != nil {
		return nil, err
	}
	if dialog != nil {
		return nil, &DialogError{Dialog: *dialog}
	}
	var ev *proto.PageFileChooserOpened
	select {
	case ev = <-opened:
	case <-time.After(fileChooserWait):
		return nil, fail(KindNoFileChooser, it.Number, label(it))
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if ev.BackendNodeID == 0 {
		return nil, fail(KindPickerNotField, it.Number, label(it))
	}
	if len(files) > 1 && ev.Mode != proto.PageFileChooserOpenedModeSelectMultiple {
		// Close the chooser without files, as the user's Cancel would.
		_ = proto.DOMSetFileInputFiles{Files: []string{}, BackendNodeID: ev.BackendNodeID}.Call(p)
		return nil, fail(KindOneFile, it.Number, label(it), len(files))
	}
	if err := (proto.DOMSetFileInputFiles{Files: files, BackendNodeID: ev.BackendNodeID}).Call(p); err != nil {
		return nil, failWith(KindGiveFiles, err, it.Number)
	}
	return &UploadResult{Number: it.Number, Files: files, Field: it.Name, Chooser: true}, nil
}
