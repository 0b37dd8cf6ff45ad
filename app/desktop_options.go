package main

// desktopOptions is what the window is opened with.
type desktopOptions struct {
	DocPath string // the manuscript to show
	DBPath  string // the SQLite database
	// RestoreLast opens the last session's manuscript instead of DocPath (set
	// when the user named no file; DocPath is then the sample manuscript, used
	// when there is no last session or its book is gone).
	RestoreLast bool
	// Stop closes the window when it is closed (TERM or INT).
	Stop <-chan struct{}
}

// ProgramName is the window's WM_CLASS and the name of its .desktop entry
// (io.github.waymark.Waymark.desktop: StartupWMClass=waymark, Icon=waymark), so the menu entry,
// the icon and the running window are one application to a desktop shell.
const ProgramName = "waymark"
