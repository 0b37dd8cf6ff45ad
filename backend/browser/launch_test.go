package browser

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/go-rod/rod/lib/launcher/flags"
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

// TestLaunchHiddenFromScreenReader: the window's visible Chromium is kept off
// the accessibility bus (issue 33 point 1: a screen reader named its window
// and followed its page's focus out of Waymark's at every click), by its
// environment, whatever the desktop's own says; other launches inherit the
// environment untouched. The a11y tier checks the bus itself
// (build/a11y/browser_speech.py: no Chromium among its applications).
func TestLaunchHiddenFromScreenReader(t *testing.T) {
	t.Setenv("ACCESSIBILITY_ENABLED", "1")
	for _, c := range []struct {
		hidden, headless bool
		want             string // ACCESSIBILITY_ENABLED in Chromium's environment; "" inherited
	}{
		{true, false, "0"},
		{true, true, ""},
		{false, false, ""},
	} {
		l := chromiumLauncher(context.Background(), DefaultBin, Options{HiddenFromScreenReader: c.hidden, Headless: c.headless}.withDefaults(), t.TempDir())
		env, set := l.GetFlags(flags.Env)
		if c.want == "" {
			if set {
				t.Errorf("hidden %v, headless %v: the environment is set (%d variables), not inherited", c.hidden, c.headless, len(env))
			}
			continue
		}
		var vals []string
		for _, kv := range env {
			if v, ok := strings.CutPrefix(kv, "ACCESSIBILITY_ENABLED="); ok {
				vals = append(vals, v)
			}
		}
		if len(vals) != 1 || vals[0] != c.want {
			t.Errorf("hidden %v, headless %v: ACCESSIBILITY_ENABLED is %q, want only %q", c.hidden, c.headless, vals, c.want)
		}
		if len(env) < len(os.Environ()) {
			t.Errorf("hidden %v: %d variables of the %d the process has", c.hidden, len(env), len(os.Environ()))
		}
	}
}
