//go:build desktop && dev

package main

import (
	"context"
	"os"
)

// guardDevServer puts devGuard in front of Wails' dev server when one was
// asked for ($devserver): Wails then listens on a private loopback port and
// the guard on the address given. It returns a function that stops the guard.
func guardDevServer() (func(), error) {
	public := os.Getenv("devserver")
	if public == "" {
		return func() {}, nil // no dev server: the bindings are the window's only
	}
	internal, err := freeLoopbackAddr()
	if err != nil {
		return nil, err
	}
	g, err := newDevGuard(public, internal)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	if err := serveDevGuard(ctx, g); err != nil {
		cancel()
		return nil, err
	}
	os.Setenv("devserver", internal)
	return cancel, nil
}
