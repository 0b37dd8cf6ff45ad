//go:build desktop && !dev

package main

// guardDevServer: the production build serves no dev server.
func guardDevServer() (func(), error) { return func() {}, nil }
