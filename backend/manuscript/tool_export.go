package manuscript

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/publish"
	"github.com/waymark/waymark/backend/tools"
)

// ExportFormats are the formats Export writes; docx and epub need pandoc,
// pdf Chromium (both are what the Debian package depends on or recommends).
var ExportFormats = []string{"markdown", "html", "docx", "epub", "pdf"}

// pdfBrowserBin is the Chromium a PDF export prints with ("": found on the
// system, as the browser finds it; tests name a missing one).
var pdfBrowserBin = ""

// PandocPath returns pandoc's path, or "" when it is not installed.
func PandocPath() string { return publish.PandocPath() }

// AuthorSetting is the profile setting that holds the author's name, which
// exported books carry unless their front matter names one (the window's
// Settings write it).
const AuthorSetting = "book.author"

// ExportArgs are the Export tool's arguments.
type ExportArgs struct {
	Format      string `json:"format" jsonschema:"markdown, html, pdf (printed by Chromium), or docx / epub (through pandoc)"`
	Path        string `json:"path" jsonschema:"absolute path of the file to write"`
	TargetSetID string `json:"targetSetId,omitempty" jsonschema:"export only this TargetSet's items, in document order"`
	Overwrite   bool   `json:"overwrite,omitempty" jsonschema:"replace an existing file; without it (default false) an existing file is never touched"`
	Paper       string `json:"paper,omitempty" jsonschema:"the PDF's page size: a5 (default, a paperback's page) or a4"`
	Title       string `json:"title,omitempty" jsonschema:"the book's title (remembered for this book; default: the front matter's, else the book's own first heading when it is the title, else the file name)"`
	Author      string `json:"author,omitempty" jsonschema:"the author's name (remembered for this book; default: the front matter's, else Settings')"`
	Language    string `json:"language,omitempty" jsonschema:"the book's language, ru or en (remembered for this book; default: the front matter's, else detected)"`
	Date        string `json:"date,omitempty" jsonschema:"the publication date, YYYY, YYYY-MM or YYYY-MM-DD (remembered for this book)"`
	Rights      string `json:"rights,omitempty" jsonschema:"the copyright or licence line (remembered for this book)"`
	Cover       string `json:"cover,omitempty" jsonschema:"absolute path of a cover picture (PNG, JPEG, GIF, WebP or SVG) for EPUB and PDF (remembered for this book)"`
	ImageFolder string `json:"imageFolder,omitempty" jsonschema:"absolute path of one more folder whose pictures may go into the book; by default only pictures inside the book's own folder go in (remembered for this book)"`
	// ProgressLanguage is the language of what the export says while it
	// runs (the window's, or the command's); not the book's own.
	ProgressLanguage string `json:"progressLanguage,omitempty" jsonschema:"the language the progress lines and a cancel are said in: en or ru (the window's or the command's; default the book's)"`
}

func (ExportArgs) Refine(s *jsonschema.Schema) {
	tools.Enum(tools.Prop(s, "format"), ExportFormats...)
	tools.Enum(tools.Prop(s, "paper"), publish.PaperNames...)
	tools.MinLength(tools.Prop(s, "path"), 1)
	tools.Enum(tools.Prop(s, "progressLanguage"), "en", "ru")
	for _, k := range []string{"title", "author", "rights"} {
		n := maxMetaLen
		tools.Prop(s, k).MaxLength = &n
	}
}

// ExportRef is the typed handle on the Export tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var ExportRef = tools.RefTo[ExportArgs, ExportResult]("Export")

// exportTool is the Export tool: the manuscript, or one TargetSet, written to a file.
func exportTool(ws *Workspace) tools.Tool {
	return ExportRef.FuncCall("Export the manuscript (or one TargetSet's items) to a file an author can send: markdown, html, pdf (A5 or A4, printed by Chromium), or docx / epub through pandoc when it is installed. Books carry their title (front matter, else the first heading), author (front matter, else Settings) and language (detected: ru or en), a table of contents, and chapters as EPUB sections and new PDF pages. It writes the absolute path given, anywhere the user running Waymark may write; an existing file is replaced only with overwrite: true, and never the manuscript itself, Waymark's database, or anything that is not a regular file.", ws.toolExport)
}

func (ws *Workspace) toolExport(ctx context.Context, a ExportArgs, _ tools.Call, tc tools.Context) (ExportResult, error) {
	m, err := ws.Current()
	if err != nil {
		return ExportResult{}, err
	}
	if err := a.checkMeta(); err != nil {
		return ExportResult{}, err
	}
	var own []string
	author := ""
	if ws.Store != nil {
		own = append(own, ws.Store.Path())
		author, _, _ = ws.Store.Setting(ctx, AuthorSetting)
	}
	em := ws.rememberedMeta(ctx, m).merged(a)
	res, err := export(ctx, m, exportRequest{ExportArgs: a, author: author, own: own, meta: em, progress: tc.Report})
	if err != nil {
		return ExportResult{}, err
	}
	if em != (ExportMeta{}) {
		_ = ws.rememberMeta(ctx, m, em) // the export is written; a failure here only loses the memory
	}
	return res, nil
}

// exportRequest is an Export call with what the workspace adds: the
// author's name from Settings and Waymark's own files, never written.
type exportRequest struct {
	ExportArgs
	author   string
	own      []string   // the database (its -wal, -shm and -journal files go with it)
	meta     ExportMeta // the metadata set for this book (given now or remembered)
	progress func(tools.Progress)
}

// progressRussian tells whether the export's progress is said in Russian:
// in the language asked for, else in the book's (bookLang).
func (r exportRequest) progressRussian(bookLang string) bool {
	if r.ProgressLanguage != "" {
		return r.ProgressLanguage == "ru"
	}
	return bookLang == "ru"
}

// isManuscript reports whether path names the manuscript's file: the same
// file (os.SameFile: device and inode) followed through symbolic links, or a
// symbolic link itself pointing at it, or the same file as a hard link.
func isManuscript(path, manuscriptPath string) bool {
	mi, err := os.Stat(manuscriptPath)
	if err != nil {
		return false
	}
	if fi, err := os.Stat(path); err == nil && os.SameFile(fi, mi) {
		return true
	}
	if li, err := os.Lstat(path); err == nil && os.SameFile(li, mi) {
		return true
	}
	return false
}

// sameFileOrName reports whether path is file, as a file (through links) or
// by its name in the same folder (a database's -wal file may not exist yet).
func sameFileOrName(path, file string) bool {
	if isManuscript(path, file) {
		return true
	}
	pd, err1 := filepath.EvalSymlinks(filepath.Dir(path))
	fd, err2 := filepath.EvalSymlinks(filepath.Dir(file))
	return err1 == nil && err2 == nil && pd == fd && filepath.Base(path) == filepath.Base(file)
}

// ownFile says which of Waymark's own files path is ("" when none): the
// database of revisions and settings, or its write-ahead log, shared-memory
// index or rollback journal. Writing over one loses every book's history.
func ownFile(path string, own []string) string {
	for _, db := range own {
		if db == "" {
			continue
		}
		for _, f := range []struct{ suffix, what string }{
			{"", "Waymark's database (revisions, target sets and settings)"},
			{"-wal", "Waymark's database log (-wal)"},
			{"-shm", "Waymark's database index (-shm)"},
			{"-journal", "Waymark's database journal"},
		} {
			if sameFileOrName(path, db+f.suffix) {
				return f.what
			}
		}
	}
	return ""
}

// exportMode is the new file's permission bits: what the process's umask
// allows of 0666, as any program's new file, and, written beside the book,
// no more than the book's own (a private book gives a private export; a
// 0644 book under umask 077 gives 0600, issue 32 point 9).
func exportMode(path, book string) os.FileMode {
	mode := 0o666 &^ umask()
	if bi, err := os.Stat(book); err == nil {
		pd, err1 := filepath.EvalSymlinks(filepath.Dir(path))
		bd, err2 := filepath.EvalSymlinks(filepath.Dir(book))
		if err1 == nil && err2 == nil && pd == bd {
			mode &= bi.Mode().Perm()
		}
	}
	return mode
}

func export(ctx context.Context, m *Manuscript, r exportRequest) (ExportResult, error) {
	format := r.Format
	path, fi, err := exportPath(m, "Export", r.Path, r.Overwrite, r.own)
	if err != nil {
		return ExportResult{}, err
	}
	if format != "pdf" && r.Paper != "" {
		return ExportResult{}, fmt.Errorf("%w for Export: paper %q is for PDF export only; leave it out for %s", tools.ErrInvalidArgs, r.Paper, format)
	}
	mode := exportMode(path, m.Path)
	if fi != nil {
		mode = fi.Mode().Perm() // a replaced file keeps its mode
	}
	src, setName, err := exportSource(ctx, m, r.TargetSetID)
	if err != nil {
		return ExportResult{}, err
	}
	if format == "markdown" {
		if err := writeExport(path, mode, src); err != nil {
			return ExportResult{}, err
		}
		return ExportResult{Path: path, Format: format, Bytes: int64(len(src))}, nil
	}
	bk := bookOf(m, r, src, setName)
	if format == "docx" || format == "epub" {
		return exportPandoc(ctx, r, bk, path, mode)
	}
	var out []byte
	switch format {
	case "html":
		if out, err = document.RenderHTML(bk.body, bk.meta.Title); err != nil {
			return ExportResult{}, err
		}
	case "pdf":
		if out, err = exportPDF(ctx, r, &bk, path); err != nil {
			return ExportResult{}, err
		}
	}
	if err := writeExport(path, mode, out); err != nil {
		return ExportResult{}, err
	}
	return exported(path, format, int64(len(out)), bk.meta, bk.left), nil
}

// exportSource is the Markdown to export: the manuscript's, or the items
// of one TargetSet (then its name too).
func exportSource(ctx context.Context, m *Manuscript, setID string) ([]byte, string, error) {
	var src []byte
	if setID == "" {
		_ = m.Do(func(d *document.Document) error {
			src = append([]byte(nil), d.Source()...)
			return nil
		})
		return src, "", nil
	}
	v, err := m.TargetSet(ctx, setID)
	if err != nil {
		return nil, "", err
	}
	var b bytes.Buffer
	_ = m.Do(func(d *document.Document) error {
		for k, i := range v.ItemIndices {
			if k > 0 {
				b.WriteString("\n\n")
			}
			b.WriteString(d.Markdown(i))
		}
		b.WriteString("\n")
		return nil
	})
	return b.Bytes(), v.Name, nil
}

// bookToExport is a book to export: its metadata, its Markdown without front
// matter, the pictures it may show, and those already left out.
type bookToExport struct {
	meta   publish.Meta
	body   []byte
	policy publish.ImagePolicy
	left   []publish.LeftOut
}

// bookOf is the book src makes: the whole book's metadata (also for a set
// of its items, titled with the set's name), the pictures inside the book's
// folder (or the one the author chose), and the cover, vetted.
func bookOf(m *Manuscript, r exportRequest, src []byte, setName string) bookToExport {
	whole := src
	if setName != "" {
		_ = m.Do(func(d *document.Document) error {
			whole = append([]byte(nil), d.Source()...)
			return nil
		})
	}
	em := r.meta
	bk := bookToExport{meta: bookMeta(whole, m.Path, r.author, em)}
	_, bk.body = publish.FrontMatter(src)
	// Only real pictures inside the book's folder (or the one the author
	// chose) go into a book; the result says which were left out and why.
	bk.policy = publish.ImagePolicy{BookDir: filepath.Dir(m.Path)}
	if em.ImageFolder != "" {
		bk.policy.Folders = []string{em.ImageFolder}
	}
	if em.Cover != "" && r.Format != "html" {
		// The cover is the author's own choice: anywhere, but a picture.
		cp := publish.ImagePolicy{BookDir: filepath.Dir(em.Cover)}
		if img, why := cp.Vet(em.Cover); why != "" {
			bk.left = append(bk.left, publish.LeftOut{Src: em.Cover, Why: "the cover: " + why})
		} else {
			bk.meta.Cover = img.Path
		}
	}
	if setName != "" {
		bk.meta.Title += " — " + setName
		bk.meta.ChapterLevel = publish.ChapterLevel(publish.Headings(bk.body), len(bk.body))
	}
	return bk
}

// exportPandoc writes a DOCX or EPUB through pandoc, to a file of its own
// beside the target, renamed over it only when whole: a failed export
// never leaves half a file, nor spoils the one it was to replace.
func exportPandoc(ctx context.Context, r exportRequest, bk bookToExport, path string, mode os.FileMode) (ExportResult, error) {
	format := r.Format
	if publish.PandocPath() == "" {
		return ExportResult{}, publish.NeedPandoc(format)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".waymark-*")
	if err != nil {
		return ExportResult{}, fmt.Errorf("export %s: %w", path, err)
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	if r.progressRussian(bk.meta.Lang) {
		r.report("pandoc пишет %s", strings.ToUpper(format))
	} else {
		r.report("pandoc is writing the %s", strings.ToUpper(format))
	}
	l, err := publish.Pandoc(ctx, format, bk.body, bk.meta, bk.policy, tmp.Name())
	if err != nil {
		return ExportResult{}, exportFailed(ctx, format, path, err)
	}
	if err := os.Chmod(tmp.Name(), mode); err != nil {
		return ExportResult{}, fmt.Errorf("export %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return ExportResult{}, fmt.Errorf("export %s: %w", path, err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return ExportResult{}, err
	}
	return exported(path, format, fi.Size(), bk.meta, append(bk.left, l...)), nil
}

// report tells the listening door how the export is going.
func (r exportRequest) report(format string, args ...any) {
	if r.progress != nil {
		r.progress(tools.Progress{Event: "step", Text: fmt.Sprintf(format, args...), Tool: "Export"})
	}
}

// exportFailed is an export's error; a cancelled one says so, and that no
// file was written.
func exportFailed(ctx context.Context, format, path string, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("the %s export of %s was cancelled; no file was written", strings.ToUpper(format), filepath.Base(path))
	}
	return fmt.Errorf("%s export of %s: %w", strings.ToUpper(format), filepath.Base(path), err)
}

// ExportResult is where the export went, how big it is, the metadata it
// carries (markdown: none), and the pictures left out, with why.
type ExportResult struct {
	Path          string            `json:"path"`
	Format        string            `json:"format"`
	Bytes         int64             `json:"bytes"`
	Title         string            `json:"title,omitempty"`
	Author        string            `json:"author,omitempty"`
	Language      string            `json:"language,omitempty"`
	Date          string            `json:"date,omitempty"`
	Rights        string            `json:"rights,omitempty"`
	ImagesLeftOut []string          `json:"imagesLeftOut,omitempty"`
	LeftOut       []publish.LeftOut `json:"leftOut,omitempty"`
	Note          string            `json:"note,omitempty"`
}

// exported is Export's result for a book written with its metadata.
func exported(path, format string, size int64, m publish.Meta, left []publish.LeftOut) ExportResult {
	r := ExportResult{Path: path, Format: format, Bytes: size, Title: m.Title, Author: m.Author, Language: m.Lang, Date: m.Date, Rights: m.Rights}
	for _, l := range left {
		r.ImagesLeftOut = append(r.ImagesLeftOut, l.Src)
	}
	r.LeftOut = left
	r.Note = publish.LeftOutNote(left)
	return r
}

// writeExport writes an export whole (a temporary file renamed over the
// target) with the given permission bits.
func writeExport(path string, mode os.FileMode, data []byte) error {
	return writeAtomicMode(path, mode, data)
}

// exportPath checks the file a tool is to write: an absolute path in an
// existing folder, not the manuscript (by name, link or inode), none of
// Waymark's own files (own: the database paths), nothing but a regular file,
// and not an existing file unless overwrite. tool names the tool in the
// error. The existing file's info is returned (nil when there is none).
func exportPath(m *Manuscript, tool, path string, overwrite bool, own []string) (string, os.FileInfo, error) {
	if !filepath.IsAbs(path) {
		return "", nil, fmt.Errorf("%w for %s: path %q must be absolute (e.g. /home/you/book.html)", tools.ErrInvalidArgs, tool, path)
	}
	path = filepath.Clean(path)
	if path == filepath.Clean(m.Path) {
		return "", nil, fmt.Errorf("%w for %s: %s is the manuscript itself; choose another file name", tools.ErrInvalidArgs, tool, path)
	}
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || !fi.IsDir() {
		return "", nil, fmt.Errorf("%w for %s: the folder %s does not exist", tools.ErrInvalidArgs, tool, filepath.Dir(path))
	}
	// The manuscript is recognised as a file, not by its name: through a
	// symbolic link, a linked folder or a hard link it is still refused.
	if isManuscript(path, m.Path) {
		return "", nil, fmt.Errorf("%w for %s: %s is the manuscript itself (the same file under another name); choose another file name", tools.ErrInvalidArgs, tool, path)
	}
	if what := ownFile(path, own); what != "" {
		return "", nil, fmt.Errorf("%w for %s: %s is %s, which an export must never replace; choose another file name", tools.ErrInvalidArgs, tool, path, what)
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return path, nil, nil
	}
	if !fi.Mode().IsRegular() {
		return "", nil, fmt.Errorf("%w for %s: %s is %s, not a regular file; export only to a new file or over a regular one", tools.ErrInvalidArgs, tool, path, document.FileKind(fi.Mode()))
	}
	if !overwrite {
		return "", nil, fmt.Errorf("%w for %s: %s exists; choose another name or pass overwrite: true to replace it", tools.ErrInvalidArgs, tool, path)
	}
	return path, fi, nil
}
