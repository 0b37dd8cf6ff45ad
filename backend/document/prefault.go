package document

import "unsafe"

// prefaultSlice is prefault for the memory of a slice of any type.
func prefaultSlice[T any](s []T) {
	if len(s) == 0 {
		return
	}
	prefault(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), uintptr(len(s))*unsafe.Sizeof(s[0])))
}
