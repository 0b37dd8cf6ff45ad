package browser

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

// NavigateArgs are browser_navigate's arguments.
type NavigateArgs struct {
	URL string `json:"url" jsonschema:"the address, e.g. https://example.org/page"`
}

func (NavigateArgs) Refine(s *jsonschema.Schema) {
	tools.MinLength(tools.Prop(s, "url"), 1)
}

// NavigateRef is the typed handle on browser_navigate.
var NavigateRef = tools.RefTo[NavigateArgs, Result[PageState]]("browser_navigate")

// navigateTool is browser_navigate: it opens a web address and waits for it to load.
func navigateTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, NavigateRef, "Open a web address (http, https or file) in the browser and wait until it has loaded and the network is idle (capped). Returns url, title, http_status, loaded, network_idle. Any numbering becomes stale: list again before acting by number. A file: address opens only when the user asked for that file (MCP: a file or folder given to the server with --allow-file); an address carrying text typed into a password field is refused.", (*Session).toolNavigate)
}

func (s *Session) toolNavigate(ctx context.Context, a NavigateArgs) (*PageState, error) {
	if err := s.checkNavigation(ctx, a.URL); err != nil {
		return nil, err
	}
	return s.Navigate(ctx, a.URL)
}
