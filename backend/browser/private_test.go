package browser

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// The screenshot folder is the user's alone: a looser folder of theirs is
// made 0700, a link planted in its place is refused.
func TestPrivateDir(t *testing.T) {
	dir := t.TempDir()
	loose := filepath.Join(dir, "loose")
	if err := os.Mkdir(loose, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(loose, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := privateDir(loose); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(loose); fi.Mode().Perm() != 0o700 {
		t.Errorf("a loose folder stayed %v", fi.Mode().Perm())
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(loose, link); err != nil {
		t.Fatal(err)
	}
	if err := privateDir(link); err == nil {
		t.Error("a link was taken for the screenshot folder")
	}
	fresh := filepath.Join(dir, "a", "b")
	if err := privateDir(fresh); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{filepath.Join(dir, "a"), fresh} {
		if fi, _ := os.Stat(d); fi.Mode().Perm() != 0o700 {
			t.Errorf("%s is %v", d, fi.Mode().Perm())
		}
	}
}

// A profile whose owner is gone is stale; one of a running process, or a
// fresh one without an owner yet, is not.
func TestStaleProfile(t *testing.T) {
	dir := t.TempDir()
	mk := func(name, owner string, age time.Duration) string {
		p := filepath.Join(dir, name)
		if err := os.Mkdir(p, 0o700); err != nil {
			t.Fatal(err)
		}
		if owner != "" {
			if err := os.WriteFile(filepath.Join(p, ownerFile), []byte(owner), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		at := time.Now().Add(-age)
		_ = os.Chtimes(p, at, at)
		return p
	}
	me := processID(os.Getpid())
	if me == "" {
		t.Fatal("no /proc entry for this process")
	}
	host, _ := os.Hostname()
	locked := mk("locked", "", time.Hour)
	if err := os.Symlink(host+"-"+strconv.Itoa(os.Getpid()), filepath.Join(locked, "SingletonLock")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		dir   string
		stale bool
	}{
		{mk("mine", me, time.Hour), false},
		{mk("reused-pid", strconv.Itoa(os.Getpid())+" 1", time.Hour), true},
		{mk("gone", "999999999 5", 0), true},
		{mk("fresh", "", 0), false},
		{mk("old", "", time.Hour), true},
		{locked, false},
	} {
		if got := staleProfile(c.dir); got != c.stale {
			t.Errorf("%s: stale %v, want %v", filepath.Base(c.dir), got, c.stale)
		}
	}
}
