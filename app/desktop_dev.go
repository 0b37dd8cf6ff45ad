//go:build desktop && dev

package main

import (
	"context"
	"fmt"
	"net/http"
	"os"

	"github.com/waymark/waymark/backend/desktop"
)

// guardDevServer puts desktop.DevGuard in front of Wails' dev server when one was
// asked for ($devserver): Wails then listens on a private loopback address and
// the guard on the address given. It returns a function that stops the guard.
func guardDevServer() (func(), error) {
	public := os.Getenv("devserver")
	if public == "" {
		return func() {}, nil // no dev server: the bindings are the window's only
	}
	internal, err := desktop.FreeLoopbackAddr()
	if err != nil {
		return nil, err
	}
	g, err := desktop.NewDevGuard(public, internal)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	if err := desktop.ServeDevGuard(ctx, g); err != nil {
		cancel()
		return nil, err
	}
	os.Setenv("devserver", internal)
	// Said on standard error for the tests: a page cannot read it.
	fmt.Fprintf(os.Stderr, "waymark dev: the dev server is at %s; Wails' own server listens at %s (its bindings need the per-run token)\n", public, internal)
	return cancel, nil
}

// bindings are what the dev window binds: DevGate alone (Wails' own dev
// server answers any page that finds it, so every call needs the per-run
// token, which only the dev build's own pages can read), and the asset
// handler that serves them the token.
func bindings(app *DesktopApp) ([]any, http.Handler, error) {
	gate, err := desktop.NewDevGate(app)
	if err != nil {
		return nil, nil, err
	}
	return []any{&DevGate{gate}}, desktop.DevTokenHandler(gate, desktop.AssetHandler(app.App)), nil
}

// DevGate is what the dev window binds: window.go.main.DevGate.Invoke(token,
// method, args) runs DesktopApp's method for the dev build's own pages.
type DevGate struct{ *desktop.DevGate }
