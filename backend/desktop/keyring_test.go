package desktop

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"

	"github.com/waymark/waymark/app/sample"
	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/llm/llmtest"
)

// keyringChild is set in the process that TestModelKeyInSecretService runs
// inside a private D-Bus session with GNOME Keyring.
const keyringChild = "WAYMARK_KEYRING_TEST_CHILD"

func init() {
	// No test may write to the keyring of the person running the tests:
	// outside the private session, the session bus is one that is not there.
	if os.Getenv(keyringChild) == "" {
		os.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/waymark-test-bus")
	}
}

// TestModelKeyInSecretService: with a Secret Service (GNOME Keyring in a
// private D-Bus session started by this test), the model server key is kept
// in the keyring and not in the database; the window uses it after a
// restart; a key an older Waymark stored in the database moves into the
// keyring; clearing it removes it (issue 13: the key was stored in plain
// text in the database).
func TestModelKeyInSecretService(t *testing.T) {
	if os.Getenv(keyringChild) == "" {
		run, err1 := exec.LookPath("dbus-run-session")
		daemon, err2 := exec.LookPath("gnome-keyring-daemon")
		if err1 != nil || err2 != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("dbus-run-session or gnome-keyring-daemon is missing (%v, %v); build/setup.sh installs them", err1, err2)
			}
			t.Skipf("KEYRING TEST SKIPPED: dbus-run-session or gnome-keyring-daemon is missing; run bash build/setup.sh")
		}
		home := t.TempDir()
		script := `printf waymark-test | "$1" --unlock --components=secrets >/dev/null && exec "$2" -test.run '^TestModelKeyInSecretService$' -test.count=1 -test.v`
		cmd := exec.Command(run, "--", "sh", "-c", script, "sh", daemon, os.Args[0])
		cmd.Env = append(os.Environ(), keyringChild+"=1", "HOME="+home, "XDG_DATA_HOME="+filepath.Join(home, "data"),
			"XDG_RUNTIME_DIR="+home, "XDG_CONFIG_HOME="+filepath.Join(home, "config"))
		out, err := cmd.CombinedOutput()
		if err != nil || !bytes.Contains(out, []byte("--- PASS: TestModelKeyInSecretService")) {
			t.Fatalf("inside a D-Bus session with GNOME Keyring: %v\n%s", err, out)
		}
		return
	}
	const key = "sk-waymark-test-7f3a"
	srv := llmtest.New(t, llmtest.Repeat(llmtest.Completion{Content: "ok"}))
	a, _ := desktopApp(t, string(sample.Manuscript))
	s, _ := a.Settings()
	s.ModelURL, s.Model, s.ModelKey = srv.URL(), "test", key
	out, err := a.SaveSettings(s)
	if err != nil {
		t.Fatal(err)
	}
	if out.ModelKeyStore != "keyring" || !out.ModelKeySet || out.ModelKey != "" {
		t.Fatalf("saved: %+v", out)
	}
	if got, err := keyring.Get(keyringService, keyringUser); err != nil || got != key {
		t.Fatalf("the keyring holds %q (%v)", got, err)
	}
	raw, _, _ := a.st.Setting(context.Background(), SettingsKey)
	if strings.Contains(raw, key) {
		t.Fatalf("the database holds the key: %s", raw)
	}
	// After a restart the window reads the key from the keyring and sends it.
	again := New(Config{Waymark: a.w})
	if again.settings.ModelKey != key || again.settings.ModelKeyStore != "keyring" {
		t.Fatalf("after a restart: %+v", again.settings)
	}
	if _, err := again.model().Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: "user", Content: "hi"}}}); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if got := reqs[len(reqs)-1].Header.Get("Authorization"); got != "Bearer "+key {
		t.Fatalf("the model server got Authorization %q", got)
	}
	// A key an older Waymark left in the database moves into the keyring.
	if err := keyring.Delete(keyringService, keyringUser); err != nil {
		t.Fatal(err)
	}
	legacy := defaultSettings()
	legacy.ModelURL, legacy.Model, legacy.ModelKey = srv.URL(), "test", "old-"+key
	b, _ := json.Marshal(legacy)
	if err := a.st.SetSetting(context.Background(), SettingsKey, strings.Replace(string(b), `"modelKeyStore":"",`, "", 1)); err != nil {
		t.Fatal(err)
	}
	moved := New(Config{Waymark: a.w})
	raw, _, _ = a.st.Setting(context.Background(), SettingsKey)
	if got, _ := keyring.Get(keyringService, keyringUser); got != "old-"+key || strings.Contains(raw, key) || moved.settings.ModelKey != "old-"+key {
		t.Fatalf("the old key did not move: keyring %q, database %s", got, raw)
	}
	// Clearing the key removes it from the keyring.
	s, _ = moved.Settings()
	s.ClearModelKey = true
	if out, err := moved.SaveSettings(s); err != nil || out.ModelKeySet {
		t.Fatalf("clear: %v %+v", err, out)
	}
	if _, err := keyring.Get(keyringService, keyringUser); !errors.Is(err, keyring.ErrNotFound) {
		t.Fatalf("after clearing, the keyring says %v", err)
	}
}

// TestModelKeyWithoutKeyring: with no Secret Service the key is kept in the
// profile database (a file only the owner may read) and the settings say so.
func TestModelKeyWithoutKeyring(t *testing.T) {
	if os.Getenv(keyringChild) != "" {
		t.Skip("inside the keyring session")
	}
	a, _ := desktopApp(t, string(sample.Manuscript))
	s, _ := a.Settings()
	s.ModelKey = "sk-no-keyring"
	out, err := a.SaveSettings(s)
	if err != nil {
		t.Fatal(err)
	}
	if out.ModelKeyStore != "database" || !strings.Contains(out.ModelKeyNote, "No system keyring") || !strings.Contains(out.ModelKeyNote, "readable only by you") {
		t.Fatalf("without a keyring: %+v", out)
	}
	again := New(Config{Waymark: a.w})
	if again.settings.ModelKey != "sk-no-keyring" || !strings.Contains(again.settings.ModelKeyNote, "No system keyring") {
		t.Fatalf("after a restart: %+v", again.settings)
	}
	if fi, err := os.Stat(a.st.Path()); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the database holding the key is %v (%v)", fi.Mode().Perm(), err)
	}
}
