package desktop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/waymark/waymark/backend/agent/author"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/tools"
)

// begin registers a cancellable run (a command or a browser goal); only one
// runs at a time, and Stop cancels it.
func (a *App) begin(what string) (context.Context, func(), error) {
	a.runMu.Lock()
	defer a.runMu.Unlock()
	if a.cancel != nil {
		if a.windowRussian() {
			return nil, nil, fmt.Errorf("ещё выполняется %s; дождитесь конца или нажмите «Стоп»", runWords[a.running])
		}
		return nil, nil, fmt.Errorf("a %s is still running; wait for it or press Stop", a.running)
	}
	ctx, cancel := context.WithCancel(a.context())
	a.cancel, a.running = cancel, what
	return ctx, func() {
		cancel()
		a.runMu.Lock()
		a.cancel, a.running = nil, ""
		a.runMu.Unlock()
	}, nil
}

// Stop cancels the running command or browser goal (the global Stop).
func (a *App) Stop() (string, error) {
	a.runMu.Lock()
	cancel, what := a.cancel, a.running
	a.runMu.Unlock()
	a.askMu.Lock()
	if a.askCh != nil {
		close(a.askCh)
		a.askCh = nil
	}
	a.askMu.Unlock()
	ru := a.windowRussian()
	switch {
	case cancel == nil && ru:
		return "Ничего не выполняется.", nil
	case cancel == nil:
		return "Nothing is running.", nil
	}
	cancel()
	if ru {
		return fmt.Sprintf("Остановлено: %s.", runWords[what]), nil
	}
	return fmt.Sprintf("Stopped the %s.", what), nil
}

// RunCommand runs an author's command: the RunCommand tool, as every door
// runs it (the model server when one is configured, else the built-in
// engine). Its progress is sent as "command:event" events while it runs;
// the tool keeps the transcript in the book's session.
func (a *App) RunCommand(command string) (author.RunCommandResult, error) {
	if strings.TrimSpace(command) == "" {
		return author.RunCommandResult{}, errors.New(`type a command, e.g. find the first mention of "Zvezdochkin"`)
	}
	if _, err := a.current(); err != nil {
		return author.RunCommandResult{}, err
	}
	ctx, done, err := a.begin("command")
	if err != nil {
		return author.RunCommandResult{}, err
	}
	defer done()
	return call(a, ctx, author.RunCommandRef, author.RunCommandArgs{Command: command}, a.progress())
}

// UndoEdit undoes the edit of revision rev — only if it is the newest edit
// not yet undone, so an undo never reverts something other than what the
// author is looking at (the UndoRevision tool).
func (a *App) UndoEdit(rev int64) (SyncResult, error) {
	out, err := call(a, a.context(), manuscript.UndoRevisionRef, manuscript.UndoRevisionArgs{Revision: rev}, tools.Context{})
	if err != nil {
		return SyncResult{}, err
	}
	return SyncResult{Revision: out.Revision, Summary: out.Summary}, nil
}

// TranscriptEntry is one saved line of a transcript.
type TranscriptEntry struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
	At      string          `json:"at"`
}

// Transcript returns the saved transcript of the open document ("document") or
// of the last browser session ("browser"), the last 500 lines.
func (a *App) Transcript(kind string) ([]TranscriptEntry, error) {
	var sid string
	switch kind {
	case "document":
		m, err := a.current()
		if err != nil {
			return nil, err
		}
		sid = docSessionID(m)
	case "browser":
		sid = browserSessionID
	default:
		return nil, fmt.Errorf("transcript kind %q: document or browser", kind)
	}
	lines, err := a.st.Transcript(a.context(), sid, 500)
	if err != nil {
		return nil, err
	}
	out := make([]TranscriptEntry, 0, len(lines))
	for _, l := range lines {
		c := json.RawMessage(l.Content)
		if !json.Valid(c) {
			c, _ = json.Marshal(l.Content)
		}
		out = append(out, TranscriptEntry{Role: l.Role, Content: c, At: l.CreatedAt.Local().Format(time.TimeOnly)})
	}
	return out, nil
}
