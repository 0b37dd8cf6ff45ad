package manuscript

import (
	"context"

	"github.com/waymark/waymark/backend/tools"
)

// CheckDiskArgs: the tool takes none.
type CheckDiskArgs struct{}

// CheckDiskRef is the typed handle on the CheckDisk tool: product code calls it through
// the handle (tools.Ref), never by its name with a map of arguments.
var CheckDiskRef = tools.RefTo[CheckDiskArgs, DiskState]("CheckDisk")

func checkDiskTool(ws *Workspace) tools.Tool {
	return CheckDiskRef.Func("Whether another program changed (or removed) the manuscript's file since Waymark last read or wrote it: changed, missing, size, detail. Answer a change with ResolveExternalChange.",
		func(ctx context.Context, _ CheckDiskArgs) (DiskState, error) { return CheckDisk(ws) })
}

// CheckDisk is the CheckDisk tool's handler.
func CheckDisk(ws *Workspace) (DiskState, error) {
	m, err := ws.Current()
	if err != nil {
		return DiskState{}, err
	}
	return m.CheckDisk(), nil
}
