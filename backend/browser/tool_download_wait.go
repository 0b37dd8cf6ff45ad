package browser

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

// DownloadWaitArgs are browser_download_wait's arguments.
type DownloadWaitArgs struct {
	TimeoutMs int `json:"timeout_ms,omitempty" jsonschema:"how long to wait (default 60000)"`
}

func (DownloadWaitArgs) Refine(s *jsonschema.Schema) {
	tools.Range(tools.Prop(s, "timeout_ms"), 100, 600000)
}

// DownloadWaitRef is the typed handle on browser_download_wait.
var DownloadWaitRef = tools.RefTo[DownloadWaitArgs, Result[Download]]("browser_download_wait")

// downloadWaitTool is browser_download_wait: it waits for a download to be saved.
func downloadWaitTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, DownloadWaitRef, "Wait for a download in progress (or the next one to start) to be saved; returns path, name, bytes, url.", (*Session).toolDownloadWait)
}

func (s *Session) toolDownloadWait(ctx context.Context, a DownloadWaitArgs) (*Download, error) {
	return s.DownloadWait(ctx, a.TimeoutMs)
}
