package main

import "github.com/waymark/waymark/backend/desktop"

// DesktopApp is what the window binds: window.go.main.DesktopApp. Its methods
// are desktop.App's (backend/desktop), which call the tools registry; this
// type only gives them the name the frontend knows.
type DesktopApp struct{ *desktop.App }
