package llm

import "github.com/waymark/waymark/backend/tools"

// RegisterTools adds the model-server tools to r: ProbeModelServer.
func RegisterTools(r *tools.Registry) {
	r.MustRegister(probeModelServerTool())
}
