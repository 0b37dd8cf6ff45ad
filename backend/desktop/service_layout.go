package desktop

import (
	"fmt"
	"os"
	"strings"
)

// layoutEnv asks the window to measure its own layout after every resize and
// report it here (frontend/src/lib/layout.ts); the screenshot tier
// (build/screens.sh) reads the lines this prints.
const layoutEnv = "WAYMARK_LAYOUT_REPORT"

// LayoutReport is what the window measured: its size, theme, the text's
// measure in characters, the widths of the text column and the side panel,
// and every problem found (empty when the layout holds).
type LayoutReport struct {
	Width    int      `json:"width"`
	Height   int      `json:"height"`
	Theme    string   `json:"theme"`
	Measure  int      `json:"measure"`
	Editor   int      `json:"editor"`
	Side     int      `json:"side"`
	Problems []string `json:"problems"`
}

// String is the report as build/screens.sh reads it: a summary line, then
// one indented line per problem.
func (r LayoutReport) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "waymark: layout %dx%d %s: %d problems (lines of %d characters, text column %d px, side panel %d px)\n",
		r.Width, r.Height, r.Theme, len(r.Problems), r.Measure, r.Editor, r.Side)
	for _, p := range r.Problems {
		fmt.Fprintf(&b, "  %s\n", strings.ReplaceAll(p, "\n", " "))
	}
	return b.String()
}

// Layout is called by the window with its layout after a resize (only when
// WAYMARK_LAYOUT_REPORT is set); the report goes to standard error.
func (a *App) Layout(r LayoutReport) {
	if os.Getenv(layoutEnv) == "" {
		return
	}
	fmt.Fprint(os.Stderr, r.String())
}
