package browser

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

type downloadWaitArgs struct {
	TimeoutMs int `json:"timeout_ms,omitempty" jsonschema:"how long to wait (default 60000)"`
}

func (downloadWaitArgs) Refine(s *jsonschema.Schema) {
	tools.Range(tools.Prop(s, "timeout_ms"), 100, 600000)
}

// downloadWaitTool is browser_download_wait: it waits for a download to be saved.
func downloadWaitTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, "browser_download_wait", "Wait for a download in progress (or the next one to start) to be saved; returns path, name, bytes, url.", (*Session).toolDownloadWait)
}

func (s *Session) toolDownloadWait(ctx context.Context, a downloadWaitArgs) (any, error) {
	return s.DownloadWait(ctx, a.TimeoutMs)
}
