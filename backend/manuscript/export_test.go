package manuscript

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestExportRefusesWaymarksOwnFilesAndNonRegularFiles (issue 21 point 7):
// Export with overwrite: true replaced the --db file (the next start failed
// with "file is not a database", every book's history gone) and, as root,
// replaced /dev/null with a regular file. Now Waymark's database, its -wal,
// -shm and -journal files (also through a symbolic link), and anything that
// is not a regular file are refused with what was wrong, and left as they
// were.
func TestExportRefusesWaymarksOwnFilesAndNonRegularFiles(t *testing.T) {
	_, doc, call := historyRig(t, historyBook)
	dir := filepath.Dir(doc)
	db := filepath.Join(dir, "w.db") // testenv.BookAndStore's database
	dbBefore, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	dbLink := filepath.Join(other, "looks-harmless.html")
	if err := os.Symlink(db, dbLink); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(other, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(other, "target.html")
	if err := os.WriteFile(target, []byte("kept"), 0o644); err != nil {
		t.Fatal(err)
	}
	toTarget := filepath.Join(other, "to-target.html")
	if err := os.Symlink(target, toTarget); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, path, words string }{
		{"the database", db, "Waymark's database"},
		{"the database through a link", dbLink, "Waymark's database"},
		{"its write-ahead log", db + "-wal", "Waymark's database log"},
		{"its shared-memory index", db + "-shm", "Waymark's database index"},
		{"its journal", db + "-journal", "Waymark's database journal"},
		{"a device", "/dev/null", "a character device, not a regular file"},
		{"a named pipe", fifo, "a named pipe (FIFO), not a regular file"},
		{"a folder", other, "a folder, not a regular file"},
		{"a link to another file", toTarget, "a symbolic link, not a regular file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, format := range []string{"markdown", "html"} {
				args, _ := json.Marshal(map[string]any{"format": format, "path": c.path, "overwrite": true})
				_, err := call("Export", string(args))
				if err == nil || !strings.Contains(err.Error(), c.words) {
					t.Fatalf("Export %s to %s: %v, want an error saying %q", format, c.path, err, c.words)
				}
			}
		})
	}
	if after, _ := os.ReadFile(db); string(after) != string(dbBefore) {
		t.Error("the database was changed")
	}
	for _, p := range []string{db + "-journal"} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s was created", p)
		}
	}
	if fi, err := os.Lstat("/dev/null"); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("/dev/null is no longer a device: %v %v", fi.Mode(), err)
	}
	if fi, _ := os.Lstat(fifo); fi.Mode()&os.ModeNamedPipe == 0 {
		t.Error("the pipe was replaced")
	}
	if fi, _ := os.Lstat(toTarget); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced")
	}
	if b, _ := os.ReadFile(target); string(b) != "kept" {
		t.Error("the link's target was written")
	}
	// The tool still works: the same book exported to a new file.
	if _, err := call("Export", `{"format": "markdown", "path": "`+filepath.Join(other, "fine.md")+`"}`); err != nil {
		t.Fatal(err)
	}
}

// TestExportFileModes (issue 21 point 8): exports were 0644 whatever the
// umask, and from a 0600 book. A new file follows the umask; one written
// beside the book is no more open than the book and the umask allow (a 0644
// book under umask 077 gave a 0644 export, issue 32 point 9); a replaced
// file keeps its own.
func TestExportFileModes(t *testing.T) {
	_, doc, call := historyRig(t, historyBook)
	dir := filepath.Dir(doc)
	elsewhere := t.TempDir()
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	replaced := filepath.Join(elsewhere, "replaced.md")
	if err := os.WriteFile(replaced, nil, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(replaced, 0o640); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		umask     int
		bookMode  os.FileMode
		path      string
		overwrite bool
		want      os.FileMode
	}{
		{"umask 077, another folder", 0o077, 0o644, filepath.Join(elsewhere, "a.html"), false, 0o600},
		{"umask 027, another folder", 0o027, 0o644, filepath.Join(elsewhere, "b.md"), false, 0o640},
		{"umask 022, another folder", 0o022, 0o600, filepath.Join(elsewhere, "c.md"), false, 0o644},
		{"a 0600 book, beside it", 0o022, 0o600, filepath.Join(dir, "d.html"), false, 0o600},
		{"a 0640 book, beside it", 0o002, 0o640, filepath.Join(dir, "e.md"), false, 0o640},
		{"a 0644 book under umask 077, beside it", 0o077, 0o644, filepath.Join(dir, "f.md"), false, 0o600},
		{"a 0664 book under umask 022, beside it", 0o022, 0o664, filepath.Join(dir, "g.html"), false, 0o644},
		{"a replaced file keeps its mode", 0o022, 0o600, replaced, true, 0o640},
	} {
		t.Run(c.name, func(t *testing.T) {
			syscall.Umask(c.umask)
			if err := os.Chmod(doc, c.bookMode); err != nil {
				t.Fatal(err)
			}
			format := "markdown"
			if strings.HasSuffix(c.path, ".html") {
				format = "html"
			}
			args, _ := json.Marshal(map[string]any{"format": format, "path": c.path, "overwrite": c.overwrite})
			if _, err := call("Export", string(args)); err != nil {
				t.Fatal(err)
			}
			fi, err := os.Stat(c.path)
			if err != nil {
				t.Fatal(err)
			}
			if got := fi.Mode().Perm(); got != c.want {
				t.Errorf("%s is %04o, want %04o", c.path, got, c.want)
			}
		})
	}
}

// The package only recommends Chromium (issue 35 point 10): a PDF export
// without it says what to install, before anything is laid out, and writes
// nothing (it said "print to PDF: no Chromium executable found (set
// Options.Bin; …)", after "Starting Chromium to print the book").
func TestExportPDFWithoutChromiumSaysWhatToInstall(t *testing.T) {
	_, doc, call := historyRig(t, historyBook)
	old := pdfBrowserBin
	pdfBrowserBin = "/nonexistent/chromium"
	t.Cleanup(func() { pdfBrowserBin = old })
	out := filepath.Join(filepath.Dir(doc), "book.pdf")
	args, _ := json.Marshal(map[string]any{"format": "pdf", "path": out})
	_, err := call("Export", string(args))
	want := "PDF export needs Chromium, which is not installed: install it with sudo apt install chromium (Debian and Ubuntu), then export again; Markdown and HTML export work without it"
	if err == nil || err.Error() != want {
		t.Fatalf("error %v, want %q", err, want)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("a file was written: %v", err)
	}
}
