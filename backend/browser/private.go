package browser

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// What the browser leaves on disk is the user's alone (issue 21):
// screenshots go to a folder of their own (0700) as files only they can read
// (0600), and a temporary Chromium profile (its cache holds the pages
// visited) is removed on every way a session ends; one a killed process left
// behind is removed at the next start.

// defaultScreenshotDir is the user's own screenshot folder:
// $XDG_CACHE_HOME/waymark/screenshots (~/.cache/waymark/screenshots), else a
// folder of the user's in the temporary folder.
func defaultScreenshotDir() string {
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "waymark", "screenshots")
	}
	return filepath.Join(os.TempDir(), fmt.Sprintf("waymark-screenshots-%d", os.Getuid()))
}

// privateDir creates dir (and its missing parents) readable only by the
// user, and checks that an existing one is a folder of theirs that no one
// else may enter (a looser one of theirs is made 0700; a link or another
// user's folder is refused).
func privateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a folder (a link or a file is there)", dir)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return fmt.Errorf("%s belongs to another user", dir)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return os.Chmod(dir, 0o700)
	}
	return nil
}

// profilePrefix names Waymark's temporary Chromium profiles.
const profilePrefix = "waymark-chromium-"

// ownerFile, inside a temporary profile, names the process that made it
// (pid and start time), so a later start can tell a profile left by a killed
// process from one in use.
const ownerFile = "waymark-owner"

// newTempProfile makes a temporary profile folder owned by this process,
// after removing the ones dead processes left.
func newTempProfile() (string, error) {
	RemoveStaleProfiles()
	dir, err := os.MkdirTemp("", profilePrefix)
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(processID(os.Getpid())), 0o600); err != nil {
		_ = os.RemoveAll(dir)
		return "", err
	}
	return dir, nil
}

// processID is "pid starttime" of a running process ("" when it is gone):
// the start time tells a reused pid from the process that had it.
func processID(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return ""
	}
	// Field 22 (starttime) counts after the command name, which is in
	// parentheses and may hold spaces.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return ""
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 20 {
		return ""
	}
	return strconv.Itoa(pid) + " " + f[19]
}

// alive reports whether the process id names a process that runs.
func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// staleGrace is how long a profile folder without an owner or a running
// Chromium is left alone (it may be one another process is just making).
const staleGrace = time.Minute

// RemoveStaleProfiles removes the temporary Chromium profiles of this user
// that no running process uses: those a killed Waymark left behind (its
// owner file names a process that is gone), and older ones without an owner
// file whose Chromium is gone. It returns how many it removed.
func RemoveStaleProfiles() int {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), profilePrefix+"*"))
	n := 0
	for _, d := range dirs {
		if staleProfile(d) && os.RemoveAll(d) == nil {
			n++
		}
	}
	return n
}

func staleProfile(dir string) bool {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() {
		return false
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Getuid() {
		return false
	}
	if b, err := os.ReadFile(filepath.Join(dir, ownerFile)); err == nil {
		owner := strings.TrimSpace(string(b))
		pid, _ := strconv.Atoi(strings.Fields(owner + " ")[0])
		return pid > 0 && processID(pid) != owner
	}
	// No owner file (an older Waymark's): Chromium's singleton lock names
	// the browser that uses it ("host-pid").
	if target, err := os.Readlink(filepath.Join(dir, "SingletonLock")); err == nil {
		host, pidText, _ := strings.Cut(target, "-")
		if h, _ := os.Hostname(); host == h {
			pid, _ := strconv.Atoi(pidText)
			return !alive(pid)
		}
		return false
	}
	return time.Since(fi.ModTime()) > staleGrace
}
