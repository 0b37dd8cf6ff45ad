package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestGeneratedTypesAreCurrent fails when frontend/src/lib/tools.gen.ts is
// not what the registry's Go types generate now (a result type changed and
// the window's types did not follow): run go run -tags sqlite_fts5
// ./cmd/waymark-tsgen.
func TestGeneratedTypesAreCurrent(t *testing.T) {
	want, err := generate()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join("..", "..", out))
	if err != nil {
		t.Fatalf("%v: generate it with go run -tags sqlite_fts5 ./cmd/waymark-tsgen", err)
	}
	if string(got) != string(want) {
		t.Fatalf("%s is stale: regenerate it with go run -tags sqlite_fts5 ./cmd/waymark-tsgen", out)
	}
}
