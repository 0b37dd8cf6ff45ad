package agent

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/waymark/waymark/backend/tools"
)

// The State-path language of the loop: a call's meta properties
// (_outputPath, _scopes), the paths a result is stored at ("†state.a",
// "†state.a || †state.b" where the tool's "_branch" chooses), and the
// references "†state.path" ("a" or "a.b.c", a field inside a stored object)
// that resolve to stored values before a call runs.

// StatePrefix starts a reference to a value in State ("†state.name").
const StatePrefix = "†state."

// SplitMeta separates underscore meta properties from arguments.
func SplitMeta(raw json.RawMessage) (map[string]json.RawMessage, map[string]json.RawMessage, error) {
	args := map[string]json.RawMessage{}
	meta := map[string]json.RawMessage{}
	if len(raw) == 0 {
		return args, meta, nil
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(raw, &all); err != nil {
		return nil, nil, fmt.Errorf("arguments must be a JSON object: %v", err)
	}
	for k, v := range all {
		if strings.HasPrefix(k, "_") && k != "_output" {
			meta[k] = v
		} else {
			args[k] = v
		}
	}
	return args, meta, nil
}

func metaString(meta map[string]json.RawMessage, k string) string {
	var s string
	_ = json.Unmarshal(meta[k], &s)
	return s
}

// paths lists the State paths of an output path, "†state.a || †state.b" giving two.
func paths(out string) []string {
	var ps []string
	for _, p := range strings.Split(out, "||") {
		p = strings.TrimSpace(p)
		if strings.HasPrefix(p, StatePrefix) {
			ps = append(ps, strings.TrimPrefix(p, StatePrefix))
		}
	}
	return ps
}

// writePath stores v in State. For a branching path the activity's choice (branch)
// picks the alternative; without one the first is taken.
func writePath(state map[string]json.RawMessage, out string, v json.RawMessage, branch string) (string, error) {
	ps := paths(out)
	if len(ps) == 0 {
		return "", fmt.Errorf("_outputPath %q is not of the form †state.name (or †state.a || †state.b)", out)
	}
	chosen := ps[0]
	if branch != "" {
		b := strings.TrimPrefix(branch, StatePrefix)
		found := false
		for _, p := range ps {
			if p == b {
				chosen, found = p, true
			}
		}
		if !found {
			return "", fmt.Errorf("the activity chose branch %q, which is not one of %s", branch, out)
		}
	}
	state[chosen] = v
	return chosen, nil
}

// branchOf reads an activity's branch choice: a result object's "_branch".
func branchOf(v any) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(mustJSON(v), &m) != nil {
		return ""
	}
	return metaString(m, "_branch")
}

// resolveRefs replaces string arguments of the form "†state.path" by the stored
// value; it reports the first reference that does not resolve yet.
func resolveRefs(args map[string]json.RawMessage, state map[string]json.RawMessage) (map[string]json.RawMessage, string) {
	out := map[string]json.RawMessage{}
	for k, v := range args {
		var s string
		if json.Unmarshal(v, &s) == nil && strings.HasPrefix(s, StatePrefix) {
			path := strings.TrimPrefix(s, StatePrefix)
			val, ok := lookup(state, path)
			if !ok {
				return nil, s
			}
			out[k] = val
			continue
		}
		out[k] = v
	}
	return out, ""
}

// lookup finds "a" or "a.b.c" (a field inside a stored object).
func lookup(state map[string]json.RawMessage, path string) (json.RawMessage, bool) {
	parts := strings.Split(path, ".")
	for n := len(parts); n >= 1; n-- {
		v, ok := state[strings.Join(parts[:n], ".")]
		if !ok {
			continue
		}
		for _, f := range parts[n:] {
			var m map[string]json.RawMessage
			if json.Unmarshal(v, &m) != nil {
				return nil, false
			}
			if v, ok = m[f]; !ok {
				return nil, false
			}
		}
		return v, true
	}
	return nil, false
}

// RefsIn lists the State values the arguments reference (their first path
// segment).
func RefsIn(args map[string]json.RawMessage) []string {
	var refs []string
	for _, v := range args {
		var s string
		if json.Unmarshal(v, &s) == nil && strings.HasPrefix(s, StatePrefix) {
			p := strings.TrimPrefix(s, StatePrefix)
			refs = append(refs, strings.SplitN(p, ".", 2)[0])
		}
	}
	return refs
}

// scoped gives an activity only the State values its _scopes import.
func scoped(meta map[string]json.RawMessage, state map[string]json.RawMessage) []tools.Message {
	var scopes []string
	_ = json.Unmarshal(meta["_scopes"], &scopes)
	var out []tools.Message
	for _, s := range scopes {
		p := strings.TrimPrefix(s, StatePrefix)
		if v, ok := lookup(state, p); ok {
			out = append(out, tools.Message{Kind: KindData, Path: StatePrefix + p, Data: v})
		}
	}
	return out
}
