//go:build !desktop || !webkit2_41

package main

// keepKeyboard: without the GTK window there is no X window to keep the
// keyboard in.
func keepKeyboard(bool) {}

// browserBusy: nothing to do without the GTK window.
func browserBusy(bool) {}
