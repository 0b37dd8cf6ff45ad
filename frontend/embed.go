// Package frontend embeds the built user interface (dist/, written by
// `npm run build`) so the desktop binary carries its window's contents.
package frontend

import "embed"

// Assets is the built frontend; dist/.gitkeep keeps the folder present (and the Go
// build working) before the first npm build.
//
//go:embed all:dist
var Assets embed.FS
