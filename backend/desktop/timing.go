package desktop

import (
	"fmt"
	"os"
	"runtime/debug"
	"time"
)

// The window's timing hook for `waymark bench window`: with
// WAYMARK_REPORT_PAINT=1 the window reports its cold start on standard error;
// without it, Mark does nothing and Painted only gives memory back.

// processStart is when this process began (package initialisation runs first
// thing after exec), so the window can report its cold start.
var processStart = time.Now()

// PaintEnv asks the window to report its first paint on standard error, for
// benchmarks: "waymark: first paint after N ms: NAME, BYTES bytes, editable".
const PaintEnv = "WAYMARK_REPORT_PAINT"

// BenchOpenEnv names a file the window opens once it has painted, the way
// its Open dialog does, and reports when that is drawn and editable ("opened
// in the window after N ms"): the in-window half of `bench window`.
const BenchOpenEnv = "WAYMARK_BENCH_OPEN"

// Painted is called by the window each time a manuscript is drawn and
// editable (after two animation frames): the memory its opening used is
// given back to the system. With WAYMARK_REPORT_PAINT=1 the
// first paint's time since the process started is printed, for the
// cold-start benchmark; with WAYMARK_BENCH_OPEN the window is then asked to
// open that file, and the time from the ask to its paint is printed.
func (a *App) Painted(name string, chars int) {
	// The book is drawn: what reading, indexing, zipping and sending it left
	// behind is garbage now. Collect it and give its pages back at once,
	// not over the minutes Go's scavenger would take (19 MB of the window's
	// PSS with the 6 MB book open).
	go debug.FreeOSMemory()
	if os.Getenv(PaintEnv) == "" {
		return
	}
	a.benchMu.Lock()
	defer a.benchMu.Unlock()
	a.paints++
	switch {
	case a.paints == 1:
		fmt.Fprintf(os.Stderr, "waymark: first paint after %d ms: %s, %d characters, editable\n", time.Since(processStart).Milliseconds(), name, chars)
		if p := os.Getenv(BenchOpenEnv); p != "" && a.emit != nil {
			a.benchOpenAt = time.Now()
			go a.emit("bench:open", p)
		}
	case !a.benchOpenAt.IsZero():
		fmt.Fprintf(os.Stderr, "waymark: opened in the window after %d ms: %s, %d characters, editable\n", time.Since(a.benchOpenAt).Milliseconds(), name, chars)
		a.benchOpenAt = time.Time{}
	}
}

// Mark prints how long after exec a phase of the cold start ended, with
// WAYMARK_REPORT_PAINT=1 (so `bench window` can be read phase by phase).
func Mark(phase string) {
	if os.Getenv(PaintEnv) == "" {
		return
	}
	fmt.Fprintf(os.Stderr, "waymark: %s after %d ms\n", phase, time.Since(processStart).Milliseconds())
}
