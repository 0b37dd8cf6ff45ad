//go:build desktop && !webkit2_41

package main

// enableSpelling: with WebKitGTK 4.0 the window has no spell checking of its
// own; the spelling list (the Spelling tool) still works.
func enableSpelling() {}
