package desktop

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// Say says a message of the window aloud, once (the frontend's live.svelte.ts
// gathers what one action announces into one text): through the window's
// native notice, which a screen reader speaks (Config.Notice), and through
// speech-dispatcher (spd-say) or espeak-ng when the author turned speech on in
// the settings — unless a screen reader runs, which already speaks the notice:
// two voices would talk over each other. It returns at once.
func (a *App) Say(text string) error {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil
	}
	if a.notice != nil {
		a.notice(text)
	}
	cmd, err := a.speech(text)
	if cmd == nil || err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("speech: %w", err)
	}
	go cmd.Wait()
	return nil
}

// speech is the program that says text, or nil when nothing should: speech
// is off, or a screen reader runs.
func (a *App) speech(text string) (*exec.Cmd, error) {
	a.settingsMu.Lock()
	on := a.settings.Speech
	a.settingsMu.Unlock()
	if !on || screenReaderRunning(a.proc) {
		return nil, nil
	}
	p := speechProgram()
	if p == "" {
		return nil, errors.New("speech is on, but neither speech-dispatcher (spd-say) nor espeak-ng is installed (Debian: apt-get install speech-dispatcher)")
	}
	// Neither program takes "--"; a line starting with "-" would read as an option.
	return exec.Command(p, strings.TrimLeft(text, "- ")), nil
}

// screenReaders are the process names of the screen readers of a Linux desktop.
var screenReaders = map[string]bool{"orca": true, "odilia": true}

// screenReaderRunning tells whether a screen reader of this user runs (a
// process of that name, below proc).
func screenReaderRunning(proc string) bool {
	dirs, _ := os.ReadDir(proc)
	uid := strconv.Itoa(os.Getuid())
	for _, d := range dirs {
		if _, err := strconv.Atoi(d.Name()); err != nil {
			continue
		}
		comm, err := os.ReadFile(filepath.Join(proc, d.Name(), "comm"))
		if err != nil || !screenReaders[strings.TrimSpace(string(comm))] {
			continue
		}
		status, err := os.ReadFile(filepath.Join(proc, d.Name(), "status"))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(status), "\n") {
			if f := strings.Fields(line); len(f) > 1 && f[0] == "Uid:" && f[1] == uid {
				return true
			}
		}
	}
	return false
}
