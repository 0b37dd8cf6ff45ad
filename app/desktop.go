//go:build desktop

package main

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"

	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/store"
	"github.com/waymark/waymark/frontend"
)

// runDesktop opens the Wails window on a manuscript.
func runDesktop(opts desktopOptions) error {
	st, err := store.Open(opts.DBPath)
	if err != nil {
		return err
	}
	defer st.Close()
	ws := manuscript.NewWorkspace(st)
	if _, err := ws.Open(context.Background(), opts.DocPath); err != nil {
		return err
	}
	assets, err := fs.Sub(frontend.Assets, "dist")
	if err != nil {
		return fmt.Errorf("embedded user interface: %w", err)
	}
	model, err := chooseModel()
	if err != nil {
		return err
	}
	// The window's browser: a visible Chromium of its own, started by the first
	// browser tool, with cookies kept in the user's data folder.
	ss := browser.NewSessions(browserOptions(false, true))
	defer ss.Close()
	reg, _ := newRegistryWith(ws, model, ss)
	app := &DesktopApp{ws: ws, reg: reg}
	return wails.Run(&options.App{
		Title:       "Waymark — " + filepath.Base(opts.DocPath),
		Width:       1180,
		Height:      800,
		AssetServer: &assetserver.Options{Assets: assets},
		OnStartup:   app.startup,
		Bind:        []any{app},
	})
}
