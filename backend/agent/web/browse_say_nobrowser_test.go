package web

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/tools"
)

// Chromium is only recommended by the package (issue 35 point 10): when it is
// missing, the browse door says so in a sentence with the apt command, in the
// listener's language, whatever path FindBin was given.
func TestMissingChromiumSaysHowToInstall(t *testing.T) {
	_, errMissing := browser.FindBin("/nonexistent/chromium")
	if errMissing == nil {
		t.Fatal("FindBin found a browser at /nonexistent/chromium")
	}
	_, statErr := os.Stat("/nonexistent/chromium")
	for _, msg := range []error{browser.ErrNoBrowser, errMissing, fmt.Errorf("%w: %v", browser.ErrNoBrowser, statErr)} {
		for l, want := range map[Lang]string{
			English: "Chromium is not installed, and the browser needs it. Install it with: sudo apt install chromium",
			Russian: "Chromium не установлен, а без него браузер не работает. Установите его командой: sudo apt install chromium",
		} {
			if got := SpokenError(l, msg); got != want {
				t.Errorf("%v, %q:\n got %s\nwant %s", l, msg, got, want)
			}
		}
	}
}

// What the browser tool itself answers when no Chromium is there (a package
// installed without its recommends) is said with the apt command too: the
// tool prefixes "the browser could not be started: ", which a broader rule
// once took first ("The browser could not be started." and no way out).
func TestMissingChromiumToolAnswerSaysHowToInstall(t *testing.T) {
	reg := tools.New()
	browser.Register(reg, browser.NewSessions(browser.Options{Headless: true, Bin: "/nonexistent/chromium"}))
	v, err := reg.Call(context.Background(), tools.Call{Name: "browser_navigate", Args: json.RawMessage(`{"url": "https://example.org"}`)}, tools.Context{})
	_, failed := tools.Failed(v, err)
	if !failed {
		t.Fatalf("navigating with no Chromium succeeded: %+v", v)
	}
	for l, want := range map[Lang]string{
		English: "Chromium is not installed, and the browser needs it. Install it with: sudo apt install chromium",
		Russian: "Chromium не установлен, а без него браузер не работает. Установите его командой: sudo apt install chromium",
	} {
		if got := SpokenError(l, v.(browser.Outcome).Cause()); got != want {
			t.Errorf("%v, %v:\n got %s\nwant %s", l, v, got, want)
		}
	}
}
