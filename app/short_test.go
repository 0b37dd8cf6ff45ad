package main

import "testing"

// skipSweepInShortMode skips a corpus or real-site sweep under -short: the race
// step of build/test.sh runs the suite with -race -short for the concurrent code
// paths, while the plain go test step (no -short) runs every sweep in full.
func skipSweepInShortMode(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("a corpus or real-site sweep: run in full by the plain go test step, skipped under -short (the race step)")
	}
}
