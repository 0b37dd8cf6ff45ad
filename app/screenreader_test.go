package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestOrcaNeedsNotices: the native notice is shown for the Orca that reads no
// live region of a WebKitGTK page (before 47: Debian 12 has 43.1), not for the
// ones that do (they would say each message twice), and when the version is
// unknown (a message heard twice is better than one not heard).
func TestOrcaNeedsNotices(t *testing.T) {
	for _, tc := range []struct {
		name, path, file string
		major            int
		notices          bool
	}{
		{"Debian 12", "usr/lib/python3/dist-packages/orca/orca_platform.py", "version = \"43.1\"\nrevision = \"\"\n", 43, true},
		{"Orca 47 from source", "usr/local/lib/python3.12/site-packages/orca/orca_platform.py", "version = \"47.alpha\"\n", 47, false},
		{"Orca 48", "usr/lib/python3.13/site-packages/orca/orca_platform.py", "version = '48.0'\n", 48, false},
		{"no Orca installed", "", "", 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			if tc.path != "" {
				p := filepath.Join(root, tc.path)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(tc.file), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if got := orcaVersion(root); got != tc.major {
				t.Fatalf("orcaVersion = %d, want %d", got, tc.major)
			}
			if got := orcaNeedsNotices(tc.major); got != tc.notices {
				t.Fatalf("orcaNeedsNotices(%d) = %v, want %v", tc.major, got, tc.notices)
			}
		})
	}
	// This machine's Orca, when there is one, is found.
	if _, err := os.Stat("/usr/bin/orca"); err == nil && orcaVersion("/") == 0 {
		t.Error("Orca is installed but its version was not found")
	}
}
