//go:build unix

package manuscript

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// lockWait is how long a save waits for another process's save of a book in the
// same folder to finish (a save holds the lock for milliseconds).
const lockWait = 15 * time.Second

// lockBook takes an exclusive OS lock (flock) for the check-and-write of a save
// of the book at path, so that two processes (the window and `waymark mcp`, two
// CLI calls) can never both pass the unchanged-on-disk check and then both
// rename: the second one re-checks after the first one's rename and is refused.
// The lock is on the book's folder (the file itself is replaced by each save, so
// a lock on it would not be shared), held through an open descriptor: a killed
// process releases it.
func lockBook(path string) (unlock func(), err error) {
	dir := filepath.Dir(path)
	f, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("lock %s for saving: %w", path, err)
	}
	deadline := time.Now().Add(lockWait)
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() {
				_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
				f.Close()
			}, nil
		}
		if err != syscall.EWOULDBLOCK && err != syscall.EINTR {
			f.Close()
			return nil, fmt.Errorf("lock %s for saving: %w", path, err)
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("%w: another program has been saving in %s for %s; nothing was written — try again", ErrChangedOnDisk, dir, lockWait)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// fileID is what changes whenever a file's content or metadata is rewritten:
// its inode (a rename-based save makes a new one) and its status-change time
// (which no program can set back, unlike the modification time).
func fileID(fi os.FileInfo) (ino uint64, ctime int64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino), st.Ctim.Sec*1e9 + st.Ctim.Nsec
	}
	return 0, 0
}

// writable tells whether the current user may change the file: the permission
// bits must allow it (even root's writes honour a read-only book) and so must
// the system (ownership, a read-only mount).
func writable(path string, fi os.FileInfo) error {
	if fi.Mode().Perm()&0o222 == 0 {
		return fmt.Errorf("%s is read-only (permissions %s); nothing was written — make it writable (chmod u+w) or save a copy under another name", path, fi.Mode().Perm())
	}
	if err := syscall.Access(path, 2 /* W_OK */); err != nil {
		return fmt.Errorf("%s cannot be written by this user (%v); nothing was written", path, err)
	}
	return nil
}

// linked tells whether a file has other names (hard links), which a save by
// rename would part from it.
func linked(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Nlink > 1
}

// keepOwner gives the new file f the owner and group of the file it replaces.
// errInPlace when this user may not (another user's file): then it is written
// in place and keeps them.
func keepOwner(f *os.File, old os.FileInfo) error {
	st, ok := old.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	now, err := f.Stat()
	if err != nil {
		return fmt.Errorf("save %s: %w", f.Name(), err)
	}
	if cur, ok := now.Sys().(*syscall.Stat_t); ok && cur.Uid == st.Uid && cur.Gid == st.Gid {
		return nil
	}
	if err := f.Chown(int(st.Uid), int(st.Gid)); err != nil {
		if errors.Is(err, os.ErrPermission) {
			return errInPlace
		}
		return fmt.Errorf("save %s: chown: %w", f.Name(), err)
	}
	return nil
}
