package llm

import "github.com/waymark/waymark/backend/tools"

// RegisterTools adds the model-server tools to r: ProbeModelServer and
// ModelServerModels.
func RegisterTools(r *tools.Registry) {
	r.MustRegister(probeModelServerTool())
	r.MustRegister(listModelsTool())
}
