package manuscript

import (
	"context"

	"github.com/waymark/waymark/backend/tools"
)

// CheckDiskArgs: the tool takes none.
type CheckDiskArgs struct{}

func checkDiskTool(ws *Workspace) tools.Tool {
	return tools.Func("CheckDisk", "Whether another program changed (or removed) the manuscript's file since Waymark last read or wrote it: changed, missing, size, detail. Answer a change with ResolveExternalChange.",
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
