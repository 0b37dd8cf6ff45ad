package browser

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark/waymark/backend/tools"
)

// WaitArgs are browser_wait's arguments.
type WaitArgs struct {
	Ms          int    `json:"ms,omitempty" jsonschema:"milliseconds to pause"`
	NetworkIdle bool   `json:"network_idle,omitempty" jsonschema:"wait until the network is idle (capped)"`
	State       string `json:"state,omitempty" jsonschema:"page state to wait for"`
}

func (WaitArgs) Refine(s *jsonschema.Schema) {
	tools.Range(tools.Prop(s, "ms"), 0, 30000)
	tools.Enum(tools.Prop(s, "state"), "load", "domcontentloaded", "network_idle")
}

// WaitRef is the typed handle on browser_wait.
var WaitRef = tools.RefTo[WaitArgs, Result[WaitResult]]("browser_wait")

// waitTool is browser_wait: it pauses or waits for a page state.
func waitTool(ss *Sessions) tools.Tool {
	return sessionTool(ss, WaitRef, "Wait: ms pauses (up to 30000); network_idle waits until no request is in flight for 0.5 s; state waits for load, domcontentloaded or network_idle. With no arguments: waits for load and network idle. Single-page apps may never go idle: then wait a short ms and list again. Returns numbering_stale when the page changed.", (*Session).toolWait)
}

func (s *Session) toolWait(ctx context.Context, a WaitArgs) (*WaitResult, error) {
	return s.Wait(ctx, WaitOptions{Ms: a.Ms, NetworkIdle: a.NetworkIdle, State: a.State})
}
