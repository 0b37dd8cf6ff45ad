package author

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/tools"
)

// WaitEvery is how often a command that has said nothing for that long
// reports that it is still working (issue 31: a server answering in 30 s
// left the CLI silent for 4 minutes). Every door shows it: the CLI as an
// event line, MCP as a progress notification, the window in its status.
var WaitEvery = 5 * time.Second

// EnvTimeLimit sets the total time one command may take, as a Go duration
// ("20m", "1h30m"); unset or 0: no limit beyond each model request's own
// deadline.
const EnvTimeLimit = "WAYMARK_TIME_LIMIT"

// TimeLimitFromEnv reads EnvTimeLimit; a value that is not a duration is an
// error saying what is allowed.
func TimeLimitFromEnv() (time.Duration, error) {
	v := strings.TrimSpace(os.Getenv(EnvTimeLimit))
	if v == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%s=%q is not a time limit; use a duration such as 20m or 1h30m (0: none)", EnvTimeLimit, v)
	}
	return d, nil
}

// errTimeLimit is the cause of a command stopped at its time limit.
var errTimeLimit = errors.New("time limit")

// ErrTimeLimit marks a command stopped at the author's time limit.
var ErrTimeLimit = errors.New("the command reached its time limit")

// overTime is ErrTimeLimit said in the command's language.
type overTime struct {
	limit   time.Duration
	russian bool
}

func (e overTime) Error() string {
	if e.russian {
		return fmt.Sprintf("команда не уложилась в отведённое время (%s) и остановлена; книга не изменена сверх уже показанного", durationRU(e.limit))
	}
	return fmt.Sprintf("the command did not finish within its time limit (%s) and was stopped; nothing beyond what was already shown was changed", durationEN(e.limit))
}

func (overTime) Is(target error) bool { return target == ErrTimeLimit }

// heartbeat reports, while a command runs, how long it has been waiting
// whenever nothing else was said for WaitEvery: waiting for the model
// server (one that says it is: llm.Client.Waiting), or for a step.
type heartbeat struct {
	mu      sync.Mutex
	report  func(tools.Progress)
	last    time.Time
	start   time.Time
	inTool  string    // the step running (a tool_call without its result yet)
	model   llm.Model // what answers the command; a model server tells when it is waiting
	russian bool
	stop    chan struct{}
	done    chan struct{}
}

func newHeartbeat(report func(tools.Progress), model llm.Model, russian bool) *heartbeat {
	now := time.Now()
	h := &heartbeat{report: report, last: now, start: now, model: model, russian: russian, stop: make(chan struct{}), done: make(chan struct{})}
	go h.run()
	return h
}

// send reports p, after noting what it says of the command's state.
func (h *heartbeat) send(p tools.Progress) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.last = time.Now()
	switch p.Event {
	case "tool_call":
		h.inTool = p.Tool
	case "tool_result", "tool_error":
		h.inTool = ""
	}
	h.report(p)
}

func (h *heartbeat) run() {
	defer close(h.done)
	tick := time.NewTicker(WaitEvery / 5)
	defer tick.Stop()
	for {
		select {
		case <-h.stop:
			return
		case now := <-tick.C:
			h.mu.Lock()
			if now.Sub(h.last) >= WaitEvery {
				h.last = now
				h.report(tools.Progress{Event: "waiting", Text: h.line(now.Sub(h.start))})
			}
			h.mu.Unlock()
		}
	}
}

// line is the waiting line, in the command's language.
func (h *heartbeat) line(d time.Duration) string {
	d = d.Round(time.Second)
	if d == 0 {
		d = time.Second
	}
	waiting := false
	if w, ok := h.model.(interface{ Waiting() bool }); ok {
		waiting = w.Waiting()
	}
	switch {
	case waiting && h.russian:
		return fmt.Sprintf("Жду ответа сервера модели: прошло %s.", durationRU(d))
	case waiting:
		return fmt.Sprintf("Waiting for the model server: %s so far.", durationEN(d))
	case h.inTool != "" && h.russian:
		return fmt.Sprintf("Всё ещё выполняю шаг: прошло %s.", durationRU(d))
	case h.inTool != "":
		return fmt.Sprintf("Still working on a step: %s so far.", durationEN(d))
	case h.russian:
		return fmt.Sprintf("Всё ещё работаю: прошло %s.", durationRU(d))
	}
	return fmt.Sprintf("Still working: %s so far.", durationEN(d))
}

// close stops the heartbeat; no line is reported after it returns.
func (h *heartbeat) close() {
	close(h.stop)
	<-h.done
}

func durationEN(d time.Duration) string {
	m, s := int(d/time.Minute), int(d%time.Minute/time.Second)
	switch {
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	case m == 0:
		return fmt.Sprintf("%d s", s)
	case s == 0:
		return fmt.Sprintf("%d min", m)
	}
	return fmt.Sprintf("%d min %d s", m, s)
}

func durationRU(d time.Duration) string {
	m, s := int(d/time.Minute), int(d%time.Minute/time.Second)
	switch {
	case d < time.Second:
		return fmt.Sprintf("%d мс", d.Milliseconds())
	case m == 0:
		return fmt.Sprintf("%d с", s)
	case s == 0:
		return fmt.Sprintf("%d мин", m)
	}
	return fmt.Sprintf("%d мин %d с", m, s)
}

// withTimeLimit bounds ctx by the runtime's time limit (none when 0).
func withTimeLimit(ctx context.Context, limit time.Duration) (context.Context, context.CancelFunc) {
	if limit <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeoutCause(ctx, limit, errTimeLimit)
}
