package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/waymark/waymark/backend/document"
	"github.com/waymark/waymark/backend/manuscript"
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

// RegisterHistory adds the tools for the manuscript's history, its TargetSets
// as a whole, and export: History, RestoreRevision, TargetSetList,
// TargetSetRemove, TargetSetDelete and Export.
func RegisterHistory(r *Registry, ws *manuscript.Workspace) {
	cur := ws.Current
	r.MustRegister(
		Tool{Name: "History", Description: "The manuscript's revisions, newest first: revision, op, summary, size, undone, createdAt. Every edit, undo, redo, restore and external change is one.",
			InputSchema: json.RawMessage(`{"type": "object", "properties": {"limit": {"type": "integer", "minimum": 1, "maximum": 5000, "description": "at most this many (default 200)"}}, "additionalProperties": false}`),
			Handler: func(ctx context.Context, call Call, _ *Tool, _ Context) (any, error) {
				a, err := Decode[struct {
					Limit int `json:"limit"`
				}](call)
				if err != nil {
					return nil, err
				}
				m, err := cur()
				if err != nil {
					return nil, err
				}
				revs, err := m.History(ctx, a.Limit)
				if err != nil {
					return nil, err
				}
				return map[string]any{"revisions": revs, "count": len(revs)}, nil
			}},
		Tool{Name: "RestoreRevision", Description: "Set the manuscript back to its text at an earlier revision. The restore is itself a new revision, so nothing is lost.",
			InputSchema: json.RawMessage(`{"type": "object", "properties": {"revision": {"type": "integer", "minimum": 1, "description": "the revision to go back to (from History)"}}, "required": ["revision"], "additionalProperties": false}`),
			Handler: func(ctx context.Context, call Call, _ *Tool, _ Context) (any, error) {
				a, err := Decode[struct {
					Revision int64 `json:"revision"`
				}](call)
				if err != nil {
					return nil, err
				}
				m, err := cur()
				if err != nil {
					return nil, err
				}
				out, err := m.Restore(ctx, a.Revision)
				if err != nil {
					return nil, err
				}
				return editView(m, out), nil
			}},
		Tool{Name: "TargetSetList", Description: "The manuscript's TargetSets: targetSetId, name, count of live items, createdAt.",
			Handler: func(ctx context.Context, call Call, _ *Tool, _ Context) (any, error) {
				m, err := cur()
				if err != nil {
					return nil, err
				}
				sets, err := m.TargetSets(ctx)
				if err != nil {
					return nil, err
				}
				out := make([]map[string]any, 0, len(sets))
				for _, ts := range sets {
					v, err := m.TargetSet(ctx, ts.ID)
					if err != nil {
						return nil, err
					}
					out = append(out, map[string]any{"targetSetId": ts.ID, "name": ts.Name, "count": len(v.ItemIndices),
						"deleted": len(v.Deleted), "createdAt": ts.CreatedAt.Format(time.DateTime)})
				}
				return map[string]any{"targetSets": out, "count": len(out)}, nil
			}},
		Tool{Name: "TargetSetRemove", Description: "Take one item (by its index) out of a TargetSet; the item stays in the manuscript.",
			InputSchema: json.RawMessage(`{"type": "object", "properties": {"targetSetId": {"type": "string", "minLength": 1}, "index": ` + indexSchema + `}, "required": ["targetSetId", "index"], "additionalProperties": false}`),
			Handler: func(ctx context.Context, call Call, _ *Tool, _ Context) (any, error) {
				a, err := Decode[struct {
					TargetSetID string `json:"targetSetId"`
					Index       int    `json:"index"`
				}](call)
				if err != nil {
					return nil, err
				}
				m, err := cur()
				if err != nil {
					return nil, err
				}
				if err := m.RemoveFromTargetSet(ctx, a.TargetSetID, a.Index); err != nil {
					return nil, err
				}
				v, err := m.TargetSet(ctx, a.TargetSetID)
				if err != nil {
					return nil, err
				}
				return map[string]any{"success": true, "count": len(v.ItemIndices)}, nil
			}},
		Tool{Name: "TargetSetDelete", Description: "Delete a whole TargetSet (its items stay in the manuscript).",
			InputSchema: json.RawMessage(`{"type": "object", "properties": {"targetSetId": {"type": "string", "minLength": 1}}, "required": ["targetSetId"], "additionalProperties": false}`),
			Handler: func(ctx context.Context, call Call, _ *Tool, _ Context) (any, error) {
				a, err := Decode[struct {
					TargetSetID string `json:"targetSetId"`
				}](call)
				if err != nil {
					return nil, err
				}
				m, err := cur()
				if err != nil {
					return nil, err
				}
				if err := m.DeleteTargetSet(ctx, a.TargetSetID); err != nil {
					return nil, err
				}
				return map[string]any{"success": true}, nil
			}},
		Tool{Name: "Export", Description: "Export the manuscript (or one TargetSet's items) to a file: markdown, html, or docx / epub through pandoc when it is installed. It writes the absolute path given, anywhere the user running Waymark may write; an existing file is replaced only with overwrite: true, and the manuscript itself never (compared as files, so not through a symbolic or hard link either).",
			InputSchema: json.RawMessage(`{"type": "object", "properties": {
				"format": {"type": "string", "enum": ["markdown", "html", "docx", "epub"]},
				"path": {"type": "string", "minLength": 1, "description": "absolute path of the file to write"},
				"targetSetId": {"type": "string", "description": "export only this TargetSet's items, in document order"},
				"overwrite": {"type": "boolean", "description": "replace an existing file; without it (default false) an existing file is never touched"}},
				"required": ["format", "path"], "additionalProperties": false}`),
			Handler: func(ctx context.Context, call Call, _ *Tool, _ Context) (any, error) {
				a, err := Decode[struct {
					Format      string `json:"format"`
					Path        string `json:"path"`
					TargetSetID string `json:"targetSetId"`
					Overwrite   bool   `json:"overwrite"`
				}](call)
				if err != nil {
					return nil, err
				}
				m, err := cur()
				if err != nil {
					return nil, err
				}
				return export(ctx, m, a.Format, a.Path, a.TargetSetID, a.Overwrite)
			}},
	)
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

func export(ctx context.Context, m *manuscript.Manuscript, format, path, setID string, overwrite bool) (any, error) {
	if !filepath.IsAbs(path) {
		return nil, fmt.Errorf("%w for Export: path %q must be absolute (e.g. /home/you/book.html)", ErrInvalidArgs, path)
	}
	path = filepath.Clean(path)
	if path == filepath.Clean(m.Path) {
		return nil, fmt.Errorf("%w for Export: %s is the manuscript itself; choose another file name", ErrInvalidArgs, path)
	}
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("%w for Export: the folder %s does not exist", ErrInvalidArgs, filepath.Dir(path))
	}
	// The manuscript is recognised as a file, not by its name: through a
	// symbolic link, a linked folder or a hard link it is still refused.
	if isManuscript(path, m.Path) {
		return nil, fmt.Errorf("%w for Export: %s is the manuscript itself (the same file under another name); choose another file name", ErrInvalidArgs, path)
	}
	if _, err := os.Lstat(path); err == nil && !overwrite {
		return nil, fmt.Errorf("%w for Export: %s exists; choose another name or pass overwrite: true to replace it", ErrInvalidArgs, path)
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
	if err := manuscript.WriteAtomic(path, out); err != nil {
		return nil, err
	}
	return map[string]any{"path": path, "format": format, "bytes": len(out)}, nil
}
