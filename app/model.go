package main

import (
	"fmt"

	"github.com/waymark/waymark/backend/agent"
	"github.com/waymark/waymark/backend/llm"
)

// chooseModel returns the model server named by WAYMARK_MODEL_URL and
// WAYMARK_MODEL, or the built-in engine when none is configured. A configured but
// invalid server is an error, never a silent fallback.
func chooseModel() (llm.Model, error) {
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
