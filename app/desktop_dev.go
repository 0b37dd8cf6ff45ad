//go:build desktop && dev

package main

import (
	"context"
	"os"

	"github.com/waymark/waymark/backend/desktop"
)

// guardDevServer puts desktop.DevGuard in front of Wails' dev server when one was
// asked for ($devserver): Wails then listens on a private loopback port and
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
	return cancel, nil
}
