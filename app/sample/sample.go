// Package sample holds the manuscript Waymark opens on first run, so that the
// window and the built-in engine have something real to work on.
package sample

import _ "embed"

// Manuscript is the sample novel excerpt (Markdown).
//
//go:embed manuscript.md
var Manuscript []byte
