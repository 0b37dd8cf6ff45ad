// Package testenv holds what several packages' tests share about the test run
// itself (not about the product).
package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/waymark/waymark/backend/store"
)

// SkipSweepInShortMode skips a corpus or real-site sweep under -short: the race
// step of build/test.sh runs the suite with -race -short for the concurrent code
// paths, while the plain go test step (no -short) runs every sweep in full.
func SkipSweepInShortMode(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("a corpus or real-site sweep: run in full by the plain go test step, skipped under -short (the race step)")
	}
}

// BookAndStore writes text to book.md in a fresh temporary folder and opens a
// real SQLite file beside it (closed when the test ends): what a test of the
// manuscript tools or the window opens a workspace on.
func BookAndStore(t testing.TB, text string) (doc string, st *store.Store) {
	t.Helper()
	dir := t.TempDir()
	doc = filepath.Join(dir, "book.md")
	if err := os.WriteFile(doc, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(dir, "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return doc, st
}

// NeedProgram returns the path of a program a test checks its output with
// (epubcheck, pdfinfo, soffice…). Missing, it fails the test under CI, where
// build/setup.sh installs the Debian package debPkg, and skips it, saying
// which package to install, on a developer's machine.
func NeedProgram(t testing.TB, name, debPkg string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err == nil {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%s is missing (Debian package %s, which build/setup.sh installs)", name, debPkg)
	}
	t.Skipf("%s is missing: apt-get install %s (or bash build/setup.sh) to run this test", name, debPkg)
	return ""
}

// EpubcheckCommand is Debian's epubcheck (a jar, run with java) on args, or a
// skip (a failure under CI) where epubcheck or java is missing. The JVM
// compiles with its quick compiler only (-XX:TieredStopAtLevel=1): a check is
// a run of seconds, too short for the optimising compiler's work to pay back,
// and it halves the time (a 30 KB book 15.3 → 7.6 s, the Russian War and
// Peace 28.3 → 12.3 s, at load 7). What is checked is epubcheck's own either way.
func EpubcheckCommand(t testing.TB, args ...string) *exec.Cmd {
	t.Helper()
	epubcheck := NeedProgram(t, "epubcheck", "epubcheck")
	java := NeedProgram(t, "java", "default-jre-headless")
	return exec.Command(java, append([]string{"-XX:TieredStopAtLevel=1", "-jar", epubcheck}, args...)...)
}
