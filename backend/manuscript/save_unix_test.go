//go:build unix

package manuscript

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/waymark/waymark/backend/document"
)

func statOf(t *testing.T, path string) *syscall.Stat_t {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	st.Mode = uint32(fi.Mode().Perm()) // the permission bits, to compare
	return st
}

// TestSaveKeepsOwnerGroupAndMode: a book owned by another user and group,
// with its own permissions, keeps them through an edit and an undo (the old
// code made every saved book root's, 0644 or the mode alone).
func TestSaveKeepsOwnerGroupAndMode(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root, to give the book to another user")
	}
	f := setup(t, book)
	if err := os.Chown(f.path, 4242, 4243); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(f.path, 0o640); err != nil {
		t.Fatal(err)
	}
	f.replace(t, 2, "Natasha ran in.")
	if _, err := f.m.Undo(context.Background()); err != nil {
		t.Fatal(err)
	}
	f.replace(t, 2, "Natasha ran in again.")
	st := statOf(t, f.path)
	if st.Uid != 4242 || st.Gid != 4243 || st.Mode != 0o640 {
		t.Fatalf("after three saves: owner %d, group %d, mode %o; want 4242, 4243, 640", st.Uid, st.Gid, st.Mode)
	}
	if !strings.Contains(f.file(t), "Natasha ran in again.") {
		t.Fatalf("not saved: %q", f.file(t))
	}
}

// TestSaveKeepsHardLinks: a book with a second name (ln book.md other.md)
// stays one file through edits, an undo and an outside change: both names
// show every save (the old code's rename left other.md with the old text).
func TestSaveKeepsHardLinks(t *testing.T) {
	f := setup(t, book)
	other := filepath.Join(f.dir, "other.md")
	if err := os.Link(f.path, other); err != nil {
		t.Fatal(err)
	}
	ino := statOf(t, f.path).Ino
	f.replace(t, 2, "Natasha ran in, and the text is longer now.")
	if _, err := f.m.Undo(context.Background()); err != nil {
		t.Fatal(err)
	}
	f.replace(t, 2, "Short.")
	// Another program writes through the other name; Waymark takes it in and
	// saves on top of it, in place.
	b, _ := os.ReadFile(other)
	if err := os.WriteFile(other, []byte(strings.Replace(string(b), "Third paragraph.", "Third, by another editor.", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := f.m.Edit(context.Background(), func(d *document.Document) (*document.Edit, error) {
		return d.PlanInsertAfter(2, "Inserted.")
	}); err != nil {
		t.Fatal(err)
	}
	a, o := f.file(t), ""
	if b, err := os.ReadFile(other); err == nil {
		o = string(b)
	}
	if a != o || !strings.Contains(a, "Short.\n\nInserted.") || !strings.Contains(a, "Third, by another editor.") {
		t.Fatalf("the two names differ or lost a save:\nbook.md:\n%s\nother.md:\n%s", a, o)
	}
	if st := statOf(t, f.path); st.Ino != ino || st.Nlink != 2 {
		t.Fatalf("inode %d (was %d), %d links; want the same file with 2 names", st.Ino, ino, st.Nlink)
	}
}

// TestSaveAsAnotherUser runs WriteAtomic in a process of an ordinary user
// (uid 4242) on books it may write but not own or rename: a group-writable
// book of another user in a shared folder keeps its owner (the old code's
// rename gave it to 4242), and a writable book in a folder it cannot write is
// saved (the old code could not create its temporary file).
func TestSaveAsAnotherUser(t *testing.T) {
	if os.Getenv("WAYMARK_TEST_SAVE_AS") != "" {
		if err := WriteAtomic(os.Getenv("WAYMARK_TEST_SAVE_AS"), []byte("# Saved\n\nby 4242.\n")); err != nil {
			t.Fatal(err)
		}
		return
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root, to run a process as another user")
	}
	root := t.TempDir()
	for _, d := range []string{filepath.Dir(root), root} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The test binary, where uid 4242 may run it.
	bin := filepath.Join(root, "manuscript.test")
	if b, err := os.ReadFile(os.Args[0]); err != nil || os.WriteFile(bin, b, 0o755) != nil {
		t.Fatal("copy the test binary:", err)
	}
	shared, closed := filepath.Join(root, "shared"), filepath.Join(root, "closed")
	for dir, mode := range map[string]os.FileMode{shared: 0o777, closed: 0o755} {
		if err := os.Mkdir(dir, mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, mode); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "book.md")
		if err := os.WriteFile(p, []byte("# Book\n\nold text, longer than the new one.\n"), 0o664); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, 0o666); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(p, 4300, 4301); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, "-test.run=^TestSaveAsAnotherUser$", "-test.count=1")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "WAYMARK_TEST_SAVE_AS="+p)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 4242, Gid: 4242}}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: the save as uid 4242 failed: %v\n%s", dir, err, out)
		}
		b, _ := os.ReadFile(p)
		st := statOf(t, p)
		if string(b) != "# Saved\n\nby 4242.\n" || st.Uid != 4300 || st.Gid != 4301 || st.Mode != 0o666 {
			t.Fatalf("%s: %q, owner %d, group %d, mode %o; want the new text, 4300, 4301, 666", dir, b, st.Uid, st.Gid, st.Mode)
		}
	}
}
