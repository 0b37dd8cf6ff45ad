package browser

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestLaunchNeverAsksForKeyring: the Chromium Waymark drives never asks the
// desktop for a keyring (issue 32 point 10: GNOME Keyring's "Choose password
// for new keyring" took the keys the user typed next). Every launch path goes
// through StartBrowser; its command line has --password-store=basic, and
// extra flags cannot take it away. The shared test browser, started by
// StartBrowser, runs with it.
func TestLaunchNeverAsksForKeyring(t *testing.T) {
	for _, extra := range [][]string{nil, {"password-store=gnome-libsecret"}, {"--password-store=kwallet5", "lang=ru"}} {
		args := chromiumLauncher(context.Background(), DefaultBin, Options{ExtraFlags: extra}.withDefaults(), t.TempDir()).FormatArgs()
		n := 0
		for _, a := range args {
			if strings.HasPrefix(a, "--password-store") {
				n++
				if a != "--password-store=basic" {
					t.Errorf("extra flags %q: the command line has %s", extra, a)
				}
			}
		}
		if n != 1 {
			t.Errorf("extra flags %q: %d --password-store flags in %q", extra, n, args)
		}
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(testProc.l.PID()) + "/cmdline")
	if err != nil {
		t.Fatalf("the test browser's command line: %v", err)
	}
	if !strings.Contains(string(b), "--password-store=basic\x00") {
		t.Errorf("the running Chromium has no --password-store=basic: %q", strings.ReplaceAll(string(b), "\x00", " "))
	}
}
