//go:build !desktop

package main

import "errors"

// runDesktop in a binary built without the desktop window says how to get one.
func runDesktop(opts desktopOptions) error {
	return errors.New("this waymark binary was built without the desktop window (no 'desktop' build tag); build it with 'bash build/build.sh' (bin/waymark), or use the command line: waymark help")
}

// hasWindow: this binary has no desktop window.
const hasWindow = false
