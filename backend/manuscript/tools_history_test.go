package manuscript

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/testenv"
	"github.com/waymark/waymark/backend/tools"
)

// historyRig is the real registry over a real manuscript file and SQLite file.
func historyRig(t *testing.T, text string) (*tools.Registry, string, func(name, args string) (map[string]any, error)) {
	t.Helper()
	doc, st := testenv.BookAndStore(t, text)
	ws := NewWorkspace(st)
	if _, err := ws.Open(context.Background(), doc); err != nil {
		t.Fatal(err)
	}
	r := tools.New()
	RegisterTools(r, ws)
	call := func(name, args string) (map[string]any, error) {
		res, err := r.Call(context.Background(), tools.Call{Name: name, Args: json.RawMessage(args)}, tools.Context{})
		if err != nil {
			return nil, err
		}
		b, _ := json.Marshal(res)
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		return m, nil
	}
	return r, doc, call
}

const historyBook = "# One\n\nNatasha came in.\n\nPierre stayed.\n\n# Two\n\nAndrei left.\n"

// TestHistoryAndRestore edits, lists the revisions newest first, restores an
// earlier text as a new revision and refuses an unknown one.
func TestHistoryAndRestore(t *testing.T) {
	_, doc, call := historyRig(t, historyBook)
	if _, err := call("ReplaceText", `{"index": 1, "newMarkdown": "Natasha ran in."}`); err != nil {
		t.Fatal(err)
	}
	if _, err := call("ReplaceText", `{"index": 2, "newMarkdown": "Pierre left too."}`); err != nil {
		t.Fatal(err)
	}
	h, err := call("History", `{}`)
	if err != nil {
		t.Fatal(err)
	}
	revs := h["revisions"].([]any)
	if len(revs) < 3 {
		t.Fatalf("history: %v", h)
	}
	newest, oldest := revs[0].(map[string]any), revs[len(revs)-1].(map[string]any)
	if newest["revision"].(float64) <= oldest["revision"].(float64) {
		t.Fatalf("not newest first: %v", revs)
	}
	if one, _ := call("History", `{"limit": 1}`); one["count"].(float64) != 1 {
		t.Fatalf("limit 1: %v", one)
	}
	first := oldest["revision"].(float64)
	if _, err := call("RestoreRevision", `{"revision": `+jsonNum(first)+`}`); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(doc); string(b) != historyBook {
		t.Fatalf("after restoring revision %v the file holds %q", first, b)
	}
	h2, _ := call("History", `{}`)
	if h2["count"].(float64) != h["count"].(float64)+1 {
		t.Fatalf("the restore is not a revision of its own: %v then %v", h["count"], h2["count"])
	}
	for _, c := range []struct{ args, words string }{
		{`{"revision": 9999}`, "9999"},
		{`{"revision": 0}`, "minimum"},
		{`{}`, "revision"},
	} {
		if _, err := call("RestoreRevision", c.args); err == nil || !strings.Contains(err.Error(), c.words) {
			t.Errorf("RestoreRevision %s: %v, want an error about %q", c.args, err, c.words)
		}
	}
	if b, _ := os.ReadFile(doc); string(b) != historyBook {
		t.Fatalf("a refused restore changed the file: %q", b)
	}
}

// TestTargetSetToolsAndExport lists, trims and deletes a TargetSet and
// exports the book and a set; bad requests change nothing.
func TestTargetSetToolsAndExport(t *testing.T) {
	_, doc, call := historyRig(t, historyBook)
	c, err := call("TargetSetCreate", `{"name": "scenes"}`)
	if err != nil {
		t.Fatal(err)
	}
	id := c["targetSetId"].(string)
	if _, err := call("TargetSetAdd", `{"targetSetId": "`+id+`", "itemIndices": [1, 4]}`); err != nil {
		t.Fatal(err)
	}
	l, err := call("TargetSetList", `{}`)
	if err != nil || l["count"].(float64) != 1 {
		t.Fatalf("list: %v %v", l, err)
	}
	if s := l["targetSets"].([]any)[0].(map[string]any); s["name"] != "scenes" || s["count"].(float64) != 2 {
		t.Fatalf("set: %v", s)
	}

	dir := filepath.Dir(doc)
	exports := []struct {
		name, args, has, words string
	}{
		{"markdown", `{"format": "markdown", "path": "` + filepath.Join(dir, "out.md") + `"}`, "Andrei left.", ""},
		{"html", `{"format": "html", "path": "` + filepath.Join(dir, "out.html") + `"}`, "<h1>Two</h1>", ""},
		{"a set as html", `{"format": "html", "path": "` + filepath.Join(dir, "set.html") + `", "targetSetId": "` + id + `"}`, "<title>book — scenes</title>", ""},
		{"pdf paper for html", `{"format": "html", "paper": "a4", "path": "` + filepath.Join(dir, "p.html") + `"}`, "", "for PDF export only"},
		{"exists, no overwrite", `{"format": "markdown", "path": "` + filepath.Join(dir, "out.md") + `"}`, "", "exists"},
		{"the manuscript itself", `{"format": "markdown", "path": "` + doc + `", "overwrite": true}`, "", "the manuscript itself"},
		{"relative path", `{"format": "html", "path": "out.html"}`, "", "must be absolute"},
		{"no such folder", `{"format": "html", "path": "/no/such/folder/x.html"}`, "", "does not exist"},
		{"unknown format", `{"format": "rtf", "path": "` + filepath.Join(dir, "x.rtf") + `"}`, "", "rtf"},
	}
	for _, e := range exports {
		t.Run(e.name, func(t *testing.T) {
			var a struct{ Path string }
			_ = json.Unmarshal([]byte(e.args), &a)
			before, _ := os.ReadFile(a.Path)
			res, err := call("Export", e.args)
			if e.words != "" {
				if err == nil || !strings.Contains(err.Error(), e.words) {
					t.Fatalf("Export: %v, want an error saying %q", err, e.words)
				}
				if after, _ := os.ReadFile(a.Path); string(after) != string(before) {
					t.Fatalf("a refused export changed %s", a.Path)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(res["path"].(string))
			if !strings.Contains(string(b), e.has) {
				t.Fatalf("%s lacks %q:\n%s", res["path"], e.has, b)
			}
			if strings.Contains(e.name, "set") && strings.Contains(string(b), "Pierre") {
				t.Fatalf("the set's export holds an item not in the set:\n%s", b)
			}
		})
	}
	if PandocPath() == "" {
		_, err := call("Export", `{"format": "docx", "path": "`+filepath.Join(dir, "b.docx")+`"}`)
		if err == nil || !strings.Contains(err.Error(), "needs pandoc") {
			t.Fatalf("docx without pandoc: %v", err)
		}
		if _, serr := os.Stat(filepath.Join(dir, "b.docx")); serr == nil {
			t.Fatal("a failed docx export left a file")
		}
	}

	if _, err := call("TargetSetRemove", `{"targetSetId": "`+id+`", "index": 2}`); err == nil {
		t.Fatal("removing an item not in the set was accepted")
	}
	if r, err := call("TargetSetRemove", `{"targetSetId": "`+id+`", "index": 4}`); err != nil || r["count"].(float64) != 1 {
		t.Fatalf("remove: %v %v", r, err)
	}
	if _, err := call("TargetSetDelete", `{"targetSetId": "nope"}`); err == nil {
		t.Fatal("deleting an unknown set was accepted")
	}
	if _, err := call("TargetSetDelete", `{"targetSetId": "`+id+`"}`); err != nil {
		t.Fatal(err)
	}
	if l, _ := call("TargetSetList", `{}`); l["count"].(float64) != 0 {
		t.Fatalf("after delete: %v", l)
	}
	if b, _ := os.ReadFile(doc); string(b) != historyBook {
		t.Fatalf("set tools changed the manuscript: %q", b)
	}
}

func jsonNum(f float64) string { b, _ := json.Marshal(f); return string(b) }

// TestExportNeverOverwritesTheManuscript: Export compares files, not path
// strings (issue 10 point 3, issue 13 point 6): with overwrite: true it still
// refuses the manuscript under another name (a symbolic link, a linked
// folder, a hard link, a path with "." and ".."), and without overwrite it
// never replaces an existing file.
func TestExportNeverOverwritesTheManuscript(t *testing.T) {
	_, doc, call := historyRig(t, historyBook)
	dir := filepath.Dir(doc)
	before, _ := os.ReadFile(doc)
	link := filepath.Join(dir, "link.md")
	if err := os.Symlink(doc, link); err != nil {
		t.Fatal(err)
	}
	folder := filepath.Join(t.TempDir(), "folder-link")
	if err := os.Symlink(dir, folder); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "hard.md")
	if err := os.Link(doc, hard); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "notes.html")
	if err := os.WriteFile(other, []byte("my notes"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, path string
		overwrite  bool
		words      string
	}{
		{"a symbolic link to it", link, true, "the manuscript itself"},
		{"through a linked folder", filepath.Join(folder, "book.md"), true, "the manuscript itself"},
		{"a hard link to it", hard, true, "the manuscript itself"},
		{"dot and dot-dot", filepath.Join(dir, ".", "sub", "..", "book.md"), true, "the manuscript itself"},
		{"another file without overwrite", other, false, "pass overwrite: true"},
		{"the link without overwrite", link, false, "the manuscript itself"},
	} {
		t.Run(c.name, func(t *testing.T) {
			args, _ := json.Marshal(map[string]any{"format": "html", "path": c.path, "overwrite": c.overwrite})
			_, err := call("Export", string(args))
			if err == nil || !strings.Contains(err.Error(), c.words) {
				t.Fatalf("Export to %s: %v, want an error saying %q", c.path, err, c.words)
			}
			if after, _ := os.ReadFile(doc); string(after) != string(before) {
				t.Fatalf("the manuscript was overwritten:\n%.200s", after)
			}
			if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Fatal("the link was replaced")
			}
			if b, _ := os.ReadFile(other); string(b) != "my notes" {
				t.Fatalf("%s was overwritten", other)
			}
		})
	}
	// With overwrite: true another existing file is replaced.
	args, _ := json.Marshal(map[string]any{"format": "html", "path": other, "overwrite": true})
	if _, err := call("Export", string(args)); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(other); !strings.Contains(string(b), "<html") {
		t.Fatalf("overwrite: true did not replace %s: %.100s", other, b)
	}
}
