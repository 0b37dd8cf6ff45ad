package browser

import (
	"context"

	"github.com/waymark/waymark/backend/tools"
)

// ScreenshotArgs are browser_screenshot's arguments.
type ScreenshotArgs struct {
	FullPage bool `json:"full_page,omitempty" jsonschema:"the whole page instead of the visible part"`
}

// ScreenshotRef is the typed handle on browser_screenshot.
var ScreenshotRef = tools.RefTo[ScreenshotArgs, Result[ScreenshotResult]]("browser_screenshot")

// screenshotTool is browser_screenshot: it saves a PNG screenshot.
func screenshotTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, ScreenshotRef, "Save a PNG screenshot of the screen (or the whole page with full_page) into the screenshot folder and return its path. Use it when something fails, for the log.", (*Session).toolScreenshot)
}

func (s *Session) toolScreenshot(ctx context.Context, a ScreenshotArgs) (*ScreenshotResult, error) {
	return s.Screenshot(ctx, a.FullPage)
}
