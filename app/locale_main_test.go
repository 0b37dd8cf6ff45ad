package main

import (
	"os"
	"testing"
)

// TestMain runs the package's tests in an English locale, whatever the
// developer's: the window's words follow the system locale (Settings'
// Automatic), and the tests that expect English words would otherwise fail
// on a Russian desktop. Tests of the Russian window set the locale
// themselves (t.Setenv). The UI tier's shared Chromium ends with the run.
func TestMain(m *testing.M) {
	os.Unsetenv("LC_ALL")
	os.Unsetenv("LC_MESSAGES")
	os.Setenv("LANG", "C.UTF-8")
	code := m.Run()
	closeUIChromium()
	os.Exit(code)
}
