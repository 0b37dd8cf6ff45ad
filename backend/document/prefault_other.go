//go:build !linux

package document

// prefault is a no-op where the kernel offers no such hints (see prefault_linux.go).
func prefault([]byte) {}
