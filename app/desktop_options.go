package main

// desktopOptions is what the window is opened with.
type desktopOptions struct {
	DocPath string // the manuscript to show
	DBPath  string // the SQLite database
}
