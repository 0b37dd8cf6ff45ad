//go:build desktop && !dev

package main

import (
	"net/http"

	"github.com/waymark/waymark/backend/desktop"
)

// guardDevServer: the production build serves no dev server.
func guardDevServer() (func(), error) { return func() {}, nil }

// bindings are what the window binds: DesktopApp (reached only from the
// window's own page: the production build serves nothing on the network),
// and the asset handler.
func bindings(app *DesktopApp) ([]any, http.Handler, error) {
	return []any{app}, desktop.AssetHandler(app.App), nil
}
