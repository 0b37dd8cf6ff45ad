package cli

import (
	"fmt"

	"github.com/waymark/waymark/backend/agent"
	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/llm"
	"github.com/waymark/waymark/backend/manuscript"
	"github.com/waymark/waymark/backend/tools"
)

// ChooseModel returns the model server named by WAYMARK_MODEL_URL and
// WAYMARK_MODEL, or the built-in engine when none is configured. A configured but
// invalid server is an error, never a silent fallback.
func ChooseModel() (llm.Model, error) {
	cfg, ok := llm.ConfigFromEnv()
	if !ok {
		return agent.Builtin{}, nil
	}
	c, err := llm.NewClient(cfg)
	if err != nil {
		return nil, fmt.Errorf("model server settings (WAYMARK_MODEL_URL, WAYMARK_MODEL): %w", err)
	}
	return c, nil
}

// NewRegistry builds the one tool registry over a workspace, with the agent's
// tools running on model (a model server or the built-in engine). It has no
// browser tools; NewRegistryWith adds them.
func NewRegistry(ws *manuscript.Workspace, model llm.Model) (*tools.Registry, *agent.Runtime) {
	return NewRegistryWith(ws, model, nil)
}

// NewRegistryWith is NewRegistry plus the browser tools of SPEC §5 running on
// ss (nil: no browser tools). The browser starts on the first browser tool call.
func NewRegistryWith(ws *manuscript.Workspace, model llm.Model, ss *browser.Sessions) (*tools.Registry, *agent.Runtime) {
	r := tools.New()
	manuscript.RegisterTools(r, ws)
	llm.RegisterTools(r)
	rt := &agent.Runtime{WS: ws, Store: ws.Store, Model: model}
	agent.Register(r, rt)
	if ss != nil {
		browser.Register(r, ss)
		agent.RegisterBrowsing(r, rt)
	}
	return r, rt
}
