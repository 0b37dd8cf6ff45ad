package manuscript

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/tools"
)

// ExportFormats are the formats Export writes; docx and epub need pandoc.
var ExportFormats = []string{"markdown", "html", "docx", "epub"}

// PandocPath returns pandoc's path, or "" when it is not installed.
func PandocPath() string {
	p, err := exec.LookPath("pandoc")
	if err != nil {
		return ""
	}
	return p
}

type exportArgs struct {
	Format      string `json:"format" jsonschema:"markdown, html, or docx / epub (through pandoc)"`
	Path        string `json:"path" jsonschema:"absolute path of the file to write"`
	TargetSetID string `json:"targetSetId,omitempty" jsonschema:"export only this TargetSet's items, in document order"`
	Overwrite   bool   `json:"overwrite,omitempty" jsonschema:"replace an existing file; without it (default false) an existing file is never touched"`
}

func (exportArgs) Refine(s *jsonschema.Schema) {
	tools.Enum(tools.Prop(s, "format"), ExportFormats...)
	tools.MinLength(tools.Prop(s, "path"), 1)
}

// exportTool is the Export tool: the manuscript, or one TargetSet, written to a file.
func exportTool(ws *Workspace) tools.Tool {
	return tools.Func("Export", "Export the manuscript (or one TargetSet's items) to a file: markdown, html, or docx / epub through pandoc when it is installed. It writes the absolute path given, anywhere the user running Waymark may write; an existing file is replaced only with overwrite: true, and the manuscript itself never (compared as files, so not through a symbolic or hard link either).", ws.toolExport)
}

func (ws *Workspace) toolExport(ctx context.Context, a exportArgs) (any, error) {
	m, err := ws.Current()
	if err != nil {
		return nil, err
	}
	return export(ctx, m, a.Format, a.Path, a.TargetSetID, a.Overwrite)
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

func export(ctx context.Context, m *Manuscript, format, path, setID string, overwrite bool) (any, error) {
	path, err := exportPath(m, "Export", path, overwrite)
	if err != nil {
		return nil, err
	}
	title := strings.TrimSuffix(filepath.Base(m.Path), filepath.Ext(m.Path))
	var src []byte
	if setID != "" {
		v, err := m.TargetSet(ctx, setID)
		if err != nil {
			return nil, err
		}
		title += " — " + v.Name
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
		src = b.Bytes()
	} else {
		_ = m.Do(func(d *document.Document) error {
			src = append([]byte(nil), d.Source()...)
			return nil
		})
	}
	var out []byte
	switch format {
	case "markdown":
		out = src
	case "html":
		h, err := document.RenderHTML(src, title)
		if err != nil {
			return nil, err
		}
		out = h
	case "docx", "epub":
		pandoc := PandocPath()
		if pandoc == "" {
			return nil, fmt.Errorf("%s export needs pandoc, which is not installed (Debian: apt-get install pandoc); Markdown and HTML export work without it", strings.ToUpper(format))
		}
		// pandoc writes a file of its own beside the target, renamed over it
		// only when whole: a failed export never leaves half a file, nor
		// spoils the one it was to replace.
		tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".waymark-*")
		if err != nil {
			return nil, fmt.Errorf("export %s: %w", path, err)
		}
		tmp.Close()
		defer os.Remove(tmp.Name())
		cmd := exec.CommandContext(ctx, pandoc, "--from=gfm+footnotes", "--to="+format, "--metadata", "title="+title, "--output="+tmp.Name())
		cmd.Stdin = bytes.NewReader(src)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("pandoc could not write %s: %v %s", path, err, strings.TrimSpace(stderr.String()))
		}
		if err := os.Rename(tmp.Name(), path); err != nil {
			return nil, fmt.Errorf("export %s: %w", path, err)
		}
		fi, err := os.Stat(path)
		if err != nil {
			return nil, err
		}
		return map[string]any{"path": path, "format": format, "bytes": fi.Size()}, nil
	}
	if err := WriteAtomic(path, out); err != nil {
		return nil, err
	}
	return map[string]any{"path": path, "format": format, "bytes": len(out)}, nil
}

// exportPath checks the file a tool is to write: an absolute path in an
// existing folder, not the manuscript (by name, link or inode), and not an
// existing file unless overwrite. tool names the tool in the error.
func exportPath(m *Manuscript, tool, path string, overwrite bool) (string, error) {
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("%w for %s: path %q must be absolute (e.g. /home/you/book.html)", tools.ErrInvalidArgs, tool, path)
	}
	path = filepath.Clean(path)
	if path == filepath.Clean(m.Path) {
		return "", fmt.Errorf("%w for %s: %s is the manuscript itself; choose another file name", tools.ErrInvalidArgs, tool, path)
	}
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("%w for %s: the folder %s does not exist", tools.ErrInvalidArgs, tool, filepath.Dir(path))
	}
	// The manuscript is recognised as a file, not by its name: through a
	// symbolic link, a linked folder or a hard link it is still refused.
	if isManuscript(path, m.Path) {
		return "", fmt.Errorf("%w for %s: %s is the manuscript itself (the same file under another name); choose another file name", tools.ErrInvalidArgs, tool, path)
	}
	if _, err := os.Lstat(path); err == nil && !overwrite {
		return "", fmt.Errorf("%w for %s: %s exists; choose another name or pass overwrite: true to replace it", tools.ErrInvalidArgs, tool, path)
	}
	return path, nil
}
