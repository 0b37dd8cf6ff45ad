package manuscript

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// ErrChangedOnDisk is returned when the manuscript file was changed by another
// program since Waymark read or wrote it: Waymark never overwrites such a file.
var ErrChangedOnDisk = errors.New("the manuscript changed on disk")

// diskState is what Waymark last knew of the file, to notice changes by others.
type diskState struct {
	size    int64
	modTime time.Time
	ino     uint64
	ctime   int64
	sha     string // SHA-256 of the file's bytes (with its byte-order mark, if any)
}

func stateOf(path string, sha string) (diskState, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return diskState{}, err
	}
	return diskStateOf(fi, sha), nil
}

// diskStateOf is the state of a file whose status fi was taken while its
// bytes (hashed to sha) were read.
func diskStateOf(fi os.FileInfo, sha string) diskState {
	ino, ctime := fileID(fi)
	return diskState{size: fi.Size(), modTime: fi.ModTime(), ino: ino, ctime: ctime, sha: sha}
}

// changedByOthers is the error of a save refused because another program changed
// the file: the loser of two writers gets it, and so does an edit of a book
// someone rewrote in another editor.
func changedByOthers(path string) error {
	return fmt.Errorf("%w: %s was changed by another program since Waymark read it; nothing was written and your edit was not applied — reload the book to see the other changes, then make your edit again", ErrChangedOnDisk, path)
}

// checkUnchanged verifies that the file still holds what Waymark last saw. With
// full, the content is always hashed (the save path: a same-size rewrite with its
// modification time put back must not be overwritten); without it, an unchanged
// size, modification time, inode and status-change time are trusted (the
// window's periodic look).
func checkUnchanged(path string, known diskState, full bool) error {
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("%w: %s can no longer be read (%v); nothing was written", ErrChangedOnDisk, path, err)
	}
	ino, ctime := fileID(fi)
	if !full && fi.Size() == known.size && fi.ModTime().Equal(known.modTime) && ino == known.ino && ctime == known.ctime {
		return nil
	}
	if fi.Size() != known.size {
		return changedByOthers(path)
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("%w: %s can no longer be read (%v); nothing was written", ErrChangedOnDisk, path, err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return fmt.Errorf("%w: reading %s: %v; nothing was written", ErrChangedOnDisk, path, err)
	}
	if hex.EncodeToString(h.Sum(nil)) != known.sha {
		return changedByOthers(path)
	}
	return nil
}

// hashParts is the SHA-256 of the concatenated parts, without building the bytes.
func hashParts(parts ...[]byte) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write(p)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// tempPattern names the temporary files of atomic saves, so that leftovers of a
// killed process can be recognised and removed.
func tempPattern(path string) string {
	return "." + filepath.Base(path) + ".waymark-*.tmp"
}

// WriteAtomic replaces path's content with the concatenated parts, keeping the
// file what it was to its owner and to other programs: its owner, group and
// permissions, and its identity when it has other names (hard links).
//
// Normally the new text goes to a temporary file in the same folder — fsynced,
// given the old file's owner, group and mode, then renamed over it, the folder
// fsynced — so that whatever happens (a crash, a kill, a full disk) the file
// holds either the old or the new version. A rename would split a file with
// more than one link into two files, and give a file this user cannot chown
// (another user's book in a shared folder) to this user; such a file, or one
// in a folder this user cannot write, is written in place instead: from its
// first byte, then cut to the new length, then fsynced. The caller keeps the
// old text in the history before (a save records its revision first), so an
// interrupted in-place write loses nothing that cannot be restored.
func WriteAtomic(path string, parts ...[]byte) error {
	fi, err := os.Stat(path)
	if err != nil {
		return writeAtomicMode(path, 0o644, parts...) // a new file
	}
	return writeAtomicMode(path, fi.Mode()&(os.ModePerm|os.ModeSetuid|os.ModeSetgid|os.ModeSticky), parts...)
}

// writeAtomicMode is WriteAtomic with the permission bits a rename gives the
// file (an export's follow the umask or the book's; a book keeps its own); a
// file written in place keeps its own.
func writeAtomicMode(path string, mode os.FileMode, parts ...[]byte) error {
	fi, err := os.Stat(path)
	if err != nil {
		fi = nil // a new file
	} else if linked(fi) {
		return writeInPlace(path, parts...)
	}
	err = writeByRename(path, fi, mode, parts...)
	if errors.Is(err, errInPlace) {
		return writeInPlace(path, parts...)
	}
	return err
}

// errInPlace means a rename cannot keep the file as it was: it is written in place.
var errInPlace = errors.New("the file is written in place")

// writeByRename is WriteAtomic's rename: a temporary file in path's folder with
// the content, old's owner and group (old is nil for a new file) and mode,
// renamed over path. errInPlace when a rename cannot keep the owner.
func writeByRename(path string, old os.FileInfo, mode os.FileMode, parts ...[]byte) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, tempPattern(path))
	if err != nil {
		if old != nil && errors.Is(err, os.ErrPermission) {
			return errInPlace // the folder is not writable, the file is
		}
		return fmt.Errorf("save %s: create temporary file: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	for _, p := range parts {
		if _, err = f.Write(p); err != nil {
			return fmt.Errorf("save %s: write: %w", path, err)
		}
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("save %s: fsync: %w", path, err)
	}
	if old != nil {
		if err = keepOwner(f, old); err != nil {
			return err
		}
	}
	// After the owner: a change of owner clears the set-user-ID bits.
	if err = f.Chmod(mode); err != nil {
		return fmt.Errorf("save %s: chmod: %w", path, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("save %s: close: %w", path, err)
	}
	if err = os.Rename(tmp, path); err != nil {
		if old != nil && errors.Is(err, os.ErrPermission) {
			return errInPlace // a sticky folder, say
		}
		return fmt.Errorf("save %s: rename: %w", path, err)
	}
	if d, derr := os.Open(dir); derr == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// writeInPlace writes the parts over path's content from its first byte, cuts
// the file to their length and fsyncs it: the file keeps its inode, so every
// name of it, its owner, group, mode and extended attributes.
func writeInPlace(path string, parts ...[]byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("save %s in place: %w", path, err)
	}
	defer f.Close()
	var n int64
	for _, p := range parts {
		if _, err := f.WriteAt(p, n); err != nil {
			return fmt.Errorf("save %s in place: write: %w", path, err)
		}
		n += int64(len(p))
	}
	if err := f.Truncate(n); err != nil {
		return fmt.Errorf("save %s in place: truncate: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("save %s in place: fsync: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("save %s in place: close: %w", path, err)
	}
	return nil
}

// removeStaleTemps deletes temporary files a killed save left behind.
func removeStaleTemps(path string) {
	matches, _ := filepath.Glob(filepath.Join(filepath.Dir(path), tempPattern(path)))
	for _, m := range matches {
		if strings.HasSuffix(m, ".tmp") {
			os.Remove(m)
		}
	}
}

// umask is the process's file-creation mask, read from /proc (setting it to
// read it back would race with every other goroutine creating a file);
// 022 when it cannot be read.
func umask() os.FileMode {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0o022
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "Umask:"); ok {
			if n, err := strconv.ParseUint(strings.TrimSpace(v), 8, 32); err == nil {
				return os.FileMode(n) & 0o777
			}
		}
	}
	return 0o022
}
