// Package mtools holds the manuscript tools that were the desktop window's own
// logic (undo of a command's edits by revision, the outside-change choice,
// typing written straight through the manuscript, the text's changes since a
// revision), so MCP, the CLI and the model reach them too.
//
// Positions in these tools are in UTF-16 code units (what a JavaScript editor
// counts), and every such field says so in its name (fromUtf16, toUtf16, …);
// the other manuscript tools count bytes of UTF-8 (byteOffset).
//
// They belong in package manuscript (RegisterTools there): they live here only
// while backend/tools still imports backend/manuscript, which would make that
// an import cycle; once the existing manuscript tools have moved out of
// backend/tools, these files move into backend/manuscript unchanged but for
// the package line and the manuscript. qualifiers.
package mtools

import (
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/tools"
)

// RegisterTools adds the manuscript tools of this package to r, working on the
// workspace's current manuscript.
func RegisterTools(r *tools.Registry, ws *manuscript.Workspace) {
	tc := &textCache{}
	r.MustRegister(
		undoRevisionTool(ws),
		editsSinceTool(ws),
		checkDiskTool(ws),
		resolveExternalChangeTool(ws),
		typeTextTool(ws, tc),
		textChangesTool(ws, tc),
		spellingTool(ws),
	)
}
