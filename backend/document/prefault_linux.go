package document

import (
	"syscall"
	"unsafe"
)

// madvPopulateWrite is MADV_POPULATE_WRITE (Linux 5.14): fault a range in,
// writable, with one system call.
const madvPopulateWrite = 23

// prefault readies a large buffer that is about to be filled whole (a book
// read from disk): it asks for huge pages and faults the pages in with one
// system call, instead of one page fault per 4 KB as the copy first touches
// them. Both are hints on memory the buffer owns: an older kernel, or one
// without transparent huge pages, refuses them and nothing changes. On a
// virtual machine a page fault costs tens of microseconds: a 6 MB book is
// 1,500 of them, more than the whole of a grep over it (waymark-bench cli);
// huge pages also spare the first pass over the bytes most of its cost
// (ws.Open of the 6 MB book at a load of 6: 72 ms with them, 104 ms with
// populating alone). The advice stays on the range after the buffer is
// freed: the kernel may back that part of the heap with huge pages later,
// a few megabytes at most for a book's buffers.
func prefault(b []byte) {
	const page = 4096
	if len(b) < 1<<20 {
		return
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	from, to := (p+page-1)&^(page-1)-p, (p+uintptr(len(b)))&^(page-1)-p
	r := b[from:to]
	_ = syscall.Madvise(r, syscall.MADV_HUGEPAGE)
	_ = syscall.Madvise(r, madvPopulateWrite)
}
