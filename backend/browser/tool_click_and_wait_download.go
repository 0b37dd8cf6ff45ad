package browser

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

// ClickAndWaitDownloadArgs are browser_click_and_wait_download's arguments.
type ClickAndWaitDownloadArgs struct {
	Index     int `json:"index" jsonschema:"the element's number in the last list"`
	TimeoutMs int `json:"timeout_ms,omitempty" jsonschema:"how long to wait (default 60000)"`
}

func (ClickAndWaitDownloadArgs) Refine(s *jsonschema.Schema) {
	tools.Min(tools.Prop(s, "index"), 1)
	tools.Range(tools.Prop(s, "timeout_ms"), 100, 600000)
}

// ClickAndWaitDownloadRef is the typed handle on browser_click_and_wait_download.
var ClickAndWaitDownloadRef = tools.RefTo[ClickAndWaitDownloadArgs, Result[Download]]("browser_click_and_wait_download")

// clickAndWaitDownloadTool is browser_click_and_wait_download: it clicks a download link and waits for the file.
func clickAndWaitDownloadTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, ClickAndWaitDownloadRef, "Click the numbered element (a download link or button) and wait until the file is saved in the download folder (safe file name; an existing name gets \" (1)\" unless the policy is overwrite). Returns path, name, bytes, url.", (*Session).toolClickAndWaitDownload)
}

func (s *Session) toolClickAndWaitDownload(ctx context.Context, a ClickAndWaitDownloadArgs) (*Download, error) {
	return s.ClickAndWaitDownload(ctx, a.Index, a.TimeoutMs)
}
