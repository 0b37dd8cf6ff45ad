package cli

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
)

// TestVersion: `waymark --version` (and -V, version) prints the version, the
// commit and the build date on one line and exits 0; the values the package
// build sets with -ldflags -X are the ones printed. Before, --version was
// taken for a window flag and refused with the usage (exit 2).
func TestVersion(t *testing.T) {
	line := regexp.MustCompile(`^waymark \S.* \(commit \S+, built \S.*\)\n$`)
	for _, argv := range [][]string{{"--version"}, {"-V"}, {"version"}} {
		var out, errb bytes.Buffer
		if code := run(context.Background(), argv, strings.NewReader(""), &out, &errb); code != 0 {
			t.Fatalf("%v: exit %d, stderr %q", argv, code, errb.String())
		}
		if !line.MatchString(out.String()) {
			t.Errorf("%v printed %q, want one line: waymark VERSION (commit C, built DATE)", argv, out.String())
		}
	}
	old := [3]string{Version, Commit, BuildDate}
	t.Cleanup(func() { Version, Commit, BuildDate = old[0], old[1], old[2] })
	Version, Commit, BuildDate = "1.2.3", "abcdef123456", "2026-11-25"
	var out bytes.Buffer
	run(context.Background(), []string{"--version"}, strings.NewReader(""), &out, &out)
	if got, want := out.String(), "waymark 1.2.3 (commit abcdef123456, built 2026-11-25)\n"; got != want {
		t.Errorf("with the linker's values: %q, want %q", got, want)
	}
}
