//go:build !desktop || !webkit2_41

package main

// keepKeyboard: without the GTK window there is no X window to keep the
// keyboard in.
func keepKeyboard(bool) {}

// holdKeyboard: no keyboard to hold without the GTK window.
func holdKeyboard() func() { return func() {} }

// browserBusy: nothing to do without the GTK window.
func browserBusy(bool) {}
