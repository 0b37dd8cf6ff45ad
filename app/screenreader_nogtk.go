//go:build !desktop || !webkit2_41

package main

// windowStarted: without WebKitGTK 4.1 there is no native window to prepare.
func windowStarted() {}

// notice: without the GTK window there is no native notice; the page's live
// regions and the speech setting remain.
func notice(string) {}
