//go:build desktop

package main

import (
	"context"
	_ "embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	"github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/desktop"
	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/store"
	"github.com/waymark/waymark/backend/waymark"
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
	doc := restoredDocument(st, opts)
	// A path that is not there fails here, in the terminal; the book is read
	// and parsed while the window starts (a whole novel takes ~150 ms, the
	// window ~300 ms), and a book that cannot be opened is said in the window.
	if fi, err := os.Stat(doc); err != nil {
		return fmt.Errorf("cannot open manuscript: %w", err)
	} else if fi.IsDir() {
		return fmt.Errorf("cannot open manuscript: %s is a folder; give a Markdown file", doc)
	}
	assets, err := fs.Sub(frontend.Assets, "dist")
	if err != nil {
		return fmt.Errorf("embedded user interface: %w", err)
	}
	model, err := waymark.ChooseModel()
	if err != nil {
		return err
	}
	_, envModel := llm.ConfigFromEnv()
	stopGuard, err := guardDevServer()
	if err != nil {
		return err
	}
	defer stopGuard()
	// The window's browser: a visible Chromium of its own, started by the first
	// browser tool, with cookies kept in the user's data folder. Settings may
	// replace it (download folder, banner budgets).
	first := browser.NewSessions(windowBrowser())
	w := waymark.New(waymark.Config{WS: ws, Model: model, Browser: first})
	made := false
	var wctx context.Context // the window's, from OnStartup
	app := &DesktopApp{desktop.New(desktop.Config{Waymark: w, EnvModel: envModel,
		NewBrowser: func(s desktop.Settings) *browser.Sessions {
			if !made {
				made = true
				first.Close()
			}
			return browser.NewSessions(desktop.BrowserOptions(windowBrowser(), s))
		},
		Emit: func(name string, data any) {
			if wctx != nil {
				runtime.EventsEmit(wctx, name, data)
			}
		},
		Dialogs: wailsDialogs{&wctx}, Notice: notice, BrowserBusy: browserBusy})}
	desktop.OpenWhileStarting(app.App, func() error {
		_, err := ws.Open(context.Background(), doc)
		if err != nil && doc != opts.DocPath {
			// The last session's book is unreadable now: open the one asked for.
			_, err = ws.Open(context.Background(), opts.DocPath)
		}
		return err
	})
	bind, handler, err := bindings(app)
	if err != nil {
		return err
	}
	setProgramName(ProgramName)
	return wails.Run(&options.App{
		Title:       "Waymark — " + filepath.Base(doc),
		Width:       1180,
		Height:      800,
		AssetServer: &assetserver.Options{Assets: assets, Handler: handler},
		OnStartup: func(ctx context.Context) {
			desktop.Mark("window started")
			windowStarted()
			keepKeyboard(windowBrowser().HiddenFromScreenReader)
			wctx = ctx
			desktop.Startup(app.App, ctx)
			// TERM or INT closes the window as its close button does.
			go func() {
				select {
				case <-opts.Stop:
					runtime.Quit(ctx)
				case <-ctx.Done():
				}
			}()
		},
		OnShutdown: func(context.Context) { desktop.Shutdown(app.App) },
		Bind:       bind,
		Linux: &linux.Options{
			// The window's icon (_NET_WM_ICON): the window list and the
			// task switcher show it, not a blank.
			Icon: appIcon,
			// WM_CLASS "waymark": the .desktop entry's StartupWMClass
			// (build/linux/io.github.waymark.Waymark.desktop), so a desktop shell groups the
			// window with its menu entry.
			ProgramName: ProgramName,
			// What Wails chooses when Linux options are absent: a machine
			// without a working GPU (a VM, Xvfb) draws the same.
			WebviewGpuPolicy: linux.WebviewGpuPolicyNever,
		},
	})
}

// appIcon is the window's icon, rendered from build/linux/icons/waymark.svg
// by build/linux/icons.sh.
//
//go:embed appicon.png
var appIcon []byte

// restoredDocument is the book of the last session when the window was opened
// without naming one, else the one asked for.
func restoredDocument(st *store.Store, opts desktopOptions) string {
	if !opts.RestoreLast {
		return opts.DocPath
	}
	last, ok, err := st.Setting(context.Background(), "ui.lastDocument")
	if err != nil || !ok || last == "" {
		return opts.DocPath
	}
	if fi, err := os.Stat(last); err != nil || fi.IsDir() {
		return opts.DocPath
	}
	return last
}

// wailsDialogs are the native GTK file dialogs of the window.
type wailsDialogs struct{ ctx *context.Context }

func (d wailsDialogs) OpenFile(title string) (string, error) {
	return runtime.OpenFileDialog(*d.ctx, runtime.OpenDialogOptions{Title: title,
		Filters: []runtime.FileFilter{{DisplayName: "Markdown (*.md, *.markdown, *.txt)", Pattern: "*.md;*.markdown;*.txt"}}})
}

func (d wailsDialogs) SaveFile(title, defaultName string) (string, error) {
	return runtime.SaveFileDialog(*d.ctx, runtime.SaveDialogOptions{Title: title, DefaultFilename: defaultName})
}

// hasWindow: this binary has the desktop window (bench window can run it).
const hasWindow = true

// windowBrowser is the window's browser: visible, its profile kept, and a
// page's alert, confirm and prompt asked by Waymark alone (a visible
// Chromium's own dialog took the keyboard and was read by the screen reader
// as well; issue 33 point 3).
//
// It is off the accessibility bus (HiddenFromScreenReader): Chromium takes
// the X focus for a moment on every click Waymark sends it, and a screen
// reader then named its window and followed its page's focus out of
// Waymark's (issue 33 point 1). WAYMARK_BROWSER_SCREEN_READER=1 keeps it
// readable, for a user who goes into Chromium's window with the screen
// reader (the moments of focus are heard again then).
func windowBrowser() browser.Options {
	o := waymark.BrowserOptions(false, true)
	o.OwnDialogs = true
	o.HiddenFromScreenReader = os.Getenv("WAYMARK_BROWSER_SCREEN_READER") != "1"
	o.HoldKeyboard = holdKeyboard
	return o
}
