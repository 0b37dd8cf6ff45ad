package manuscript

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/publish"
	"github.com/waymark/waymark/backend/tools"
)

// maxMetaLen bounds a title, an author's name and a rights line (characters).
const maxMetaLen = 500

// ExportMeta is what the author set for a book's exports (issue 35 point 3):
// given to Export (or its dialog), remembered per book in the store and
// used by every later export of the book until changed.
type ExportMeta struct {
	Title       string `json:"title,omitempty"`
	Author      string `json:"author,omitempty"`
	Language    string `json:"language,omitempty"`
	Date        string `json:"date,omitempty"`
	Rights      string `json:"rights,omitempty"`
	Cover       string `json:"cover,omitempty"`
	ImageFolder string `json:"imageFolder,omitempty"`
}

// exportMetaKey is the store setting that remembers a book's ExportMeta.
func exportMetaKey(docID int64) string { return fmt.Sprintf("export.meta.%d", docID) }

// rememberedMeta is the book's remembered ExportMeta (empty when none).
func (ws *Workspace) rememberedMeta(ctx context.Context, m *Manuscript) ExportMeta {
	var em ExportMeta
	if ws.Store == nil {
		return em
	}
	if raw, ok, err := ws.Store.Setting(ctx, exportMetaKey(m.DocID)); err == nil && ok {
		_ = json.Unmarshal([]byte(raw), &em)
	}
	return em
}

func (ws *Workspace) rememberMeta(ctx context.Context, m *Manuscript, em ExportMeta) error {
	if ws.Store == nil {
		return nil
	}
	b, err := json.Marshal(em)
	if err != nil {
		return err
	}
	return ws.Store.SetSetting(ctx, exportMetaKey(m.DocID), string(b))
}

// merged is em with the fields a call gives put over the remembered ones.
func (em ExportMeta) merged(a ExportArgs) ExportMeta {
	set := func(dst *string, v string) {
		if v = strings.TrimSpace(v); v != "" {
			*dst = v
		}
	}
	set(&em.Title, a.Title)
	set(&em.Author, a.Author)
	set(&em.Language, a.Language)
	set(&em.Date, a.Date)
	set(&em.Rights, a.Rights)
	set(&em.Cover, a.Cover)
	set(&em.ImageFolder, a.ImageFolder)
	return em
}

var exportDate = regexp.MustCompile(`^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$`)

// check says what is wrong with the metadata an Export call gives.
func (a ExportArgs) checkMeta() error {
	bad := func(what string) error { return fmt.Errorf("%w for Export: %s", tools.ErrInvalidArgs, what) }
	for _, f := range []struct{ name, v string }{{"title", a.Title}, {"author", a.Author}, {"rights", a.Rights}} {
		if len([]rune(f.v)) > maxMetaLen {
			return bad(fmt.Sprintf("the %s is %d characters long; at most %d are allowed", f.name, len([]rune(f.v)), maxMetaLen))
		}
		if strings.ContainsAny(f.v, "\n\r\x00") {
			return bad(fmt.Sprintf("the %s must be one line", f.name))
		}
	}
	if a.Language != "" && publish.Lang(a.Language) == "" {
		return bad(fmt.Sprintf("language %q is not a language tag; give ru or en (or another tag such as de, fr-CA)", a.Language))
	}
	if a.Date != "" && !exportDate.MatchString(strings.TrimSpace(a.Date)) {
		return bad(fmt.Sprintf("date %q is not a date; give YYYY, YYYY-MM or YYYY-MM-DD, e.g. 2026-11-29", a.Date))
	}
	for _, f := range []struct{ name, v string }{{"the cover", a.Cover}, {"the folder for pictures", a.ImageFolder}} {
		if f.v != "" && !filepath.IsAbs(f.v) {
			return bad(fmt.Sprintf("%s %q must be an absolute path", f.name, f.v))
		}
	}
	return nil
}

// ExportMetadataResult is the metadata the book's next export carries
// (what the author set, else what the book says), for the Export dialog.
type ExportMetadataResult struct {
	ExportMeta
	// Set is what the author set for this book (remembered), the rest
	// being the book's own.
	Set ExportMeta `json:"set"`
}

// ExportMetadataArgs are the ExportMetadata tool's arguments.
type ExportMetadataArgs struct{}

// ExportMetadataRef is the typed handle on the ExportMetadata tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var ExportMetadataRef = tools.RefTo[ExportMetadataArgs, ExportMetadataResult]("ExportMetadata")

// exportMetadataTool tells the metadata the book's next export carries.
func exportMetadataTool(ws *Workspace) tools.Tool {
	return ExportMetadataRef.Func("The title, author, language, date, rights, cover and picture folder the current book's next Export carries: those set for this book by an earlier Export (remembered per book, under set), else the front matter's, the book's own title (its one level-1 heading, else the file name), the author in Settings and the detected language.", ws.toolExportMetadata)
}

func (ws *Workspace) toolExportMetadata(ctx context.Context, _ ExportMetadataArgs) (ExportMetadataResult, error) {
	m, err := ws.Current()
	if err != nil {
		return ExportMetadataResult{}, err
	}
	author := ""
	if ws.Store != nil {
		author, _, _ = ws.Store.Setting(ctx, AuthorSetting)
	}
	var src []byte
	_ = m.Do(func(d *document.Document) error {
		src = append([]byte(nil), d.Source()...)
		return nil
	})
	set := ws.rememberedMeta(ctx, m)
	meta := bookMeta(src, m.Path, author, set)
	return ExportMetadataResult{ExportMeta: ExportMeta{Title: meta.Title, Author: meta.Author, Language: meta.Lang, Date: meta.Date,
		Rights: meta.Rights, Cover: set.Cover, ImageFolder: set.ImageFolder}, Set: set}, nil
}

// bookMeta is the metadata a book is exported with: what the author set
// (em) over the front matter's and what the book says.
func bookMeta(whole []byte, path, author string, em ExportMeta) publish.Meta {
	fields, body := publish.FrontMatter(whole)
	meta := publish.Describe(fields, body, publish.Headings(body), strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)), author)
	for _, f := range []struct {
		dst *string
		v   string
	}{{&meta.Title, em.Title}, {&meta.Author, em.Author}, {&meta.Date, em.Date}, {&meta.Rights, em.Rights}} {
		if f.v != "" {
			*f.dst = f.v
		}
	}
	if em.Language != "" {
		meta.Lang = publish.Lang(em.Language)
	}
	if meta.Date == "" {
		meta.Date = fields["date"]
	}
	if meta.Rights == "" {
		meta.Rights = fields["rights"]
	}
	return meta
}
