package desktop

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// fakeProc is a /proc with one process of the given name and owner.
func fakeProc(t *testing.T, name string, uid int) string {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "4242")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	status := "Name:\t" + name + "\nUid:\t" + strconv.Itoa(uid) + "\t" + strconv.Itoa(uid) + "\t0\t0\n"
	if err := os.WriteFile(filepath.Join(dir, "comm"), []byte(name+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "status"), []byte(status), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestSayNeverDoublesAScreenReader: every message goes to the native notice;
// the speech setting speaks it too, but only while no screen reader of this
// user runs (Orca speaks the notice; two voices would talk over each other).
func TestSayNeverDoublesAScreenReader(t *testing.T) {
	me := os.Getuid()
	for _, tc := range []struct {
		name   string
		speech bool
		proc   string
		speaks bool
	}{
		{"speech off", false, fakeProc(t, "gedit", me), false},
		{"speech on, no screen reader", true, fakeProc(t, "gedit", me), true},
		{"speech on, Orca running", true, fakeProc(t, "orca", me), false},
		{"speech on, another user's Orca", true, fakeProc(t, "orca", me+1), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, _ := desktopApp(t, "# Title\n\nText.\n")
			var noticed []string
			a.notice = func(s string) { noticed = append(noticed, s) }
			a.proc = tc.proc
			a.settings.Speech = tc.speech
			cmd, err := a.speech("Opened book.md.")
			if speechProgram() == "" && tc.speaks {
				if err == nil {
					t.Fatal("speech is on and no program can speak, yet no error says so")
				}
				return
			}
			if err != nil || (cmd != nil) != tc.speaks {
				t.Fatalf("speech: %v, %v; want speaking %v", cmd, err, tc.speaks)
			}
			if tc.speaks {
				return // Say would start the program: the test says nothing aloud
			}
			if err := a.Say("  Opened book.md.  "); err != nil {
				t.Fatal(err)
			}
			if len(noticed) != 1 || noticed[0] != "Opened book.md." {
				t.Fatalf("the notice got %q", noticed)
			}
			if a.Say("   "); len(noticed) != 1 {
				t.Fatalf("an empty message reached the notice: %q", noticed)
			}
		})
	}
}
