// Package testenv holds what several packages' tests share about the test run
// itself (not about the product).
package testenv

import "testing"

// SkipSweepInShortMode skips a corpus or real-site sweep under -short: the race
// step of build/test.sh runs the suite with -race -short for the concurrent code
// paths, while the plain go test step (no -short) runs every sweep in full.
func SkipSweepInShortMode(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("a corpus or real-site sweep: run in full by the plain go test step, skipped under -short (the race step)")
	}
}
