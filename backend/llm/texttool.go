package llm

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"regexp"
	"strings"
)

// ParseTextToolCall reads a tool call that a local model wrote as text instead
// of a structured call (small models under Ollama or llama.cpp often do; the
// browser assistant must still execute it, SPEC §5). Recognised, anywhere in
// the text and also inside ``` fences or <tool_call> tags:
//
//	function_call: name=browser_navigate args={"url":"http://x"}
//	{"name":"browser_navigate","arguments":{"url":"http://x"}}
//	{"name":"browser_navigate","parameters":{...}}          (Llama 3 style)
//	{"function_call":{"name":...,"arguments":"{\"url\":...}"}}
//
// Arguments may be an object or a string holding JSON; a missing args part
// means {}. The returned call has a generated id. ok is false when the text
// holds no call — for example the cursor agent's {"action":...} objects.
func ParseTextToolCall(text string) (ToolCall, bool) {
	if tc, ok := parseFunctionCallLine(text); ok {
		return tc, true
	}
	return parseJSONToolCall(text)
}

var (
	functionCallMarker = regexp.MustCompile(`(?i)function_call\s*[:=]\s*`)
	nameField          = regexp.MustCompile(`(?i)^\s*name\s*[=:]\s*["'\x60]?([A-Za-z_][A-Za-z0-9_.\-]*)["'\x60]?`)
	argsField          = regexp.MustCompile(`(?i)^[\s,;]*(?:args|arguments|parameters)\s*[=:]\s*`)
)

// parseFunctionCallLine handles `function_call: name=X args={...}`.
func parseFunctionCallLine(text string) (ToolCall, bool) {
	for _, loc := range functionCallMarker.FindAllStringIndex(text, -1) {
		rest := text[loc[1]:]
		m := nameField.FindStringSubmatchIndex(rest)
		if m == nil {
			continue
		}
		name := rest[m[2]:m[3]]
		rest = rest[m[1]:]
		rest = strings.TrimLeft(rest, `"'`+"`")
		args := json.RawMessage(`{}`)
		if a := argsField.FindStringIndex(rest); a != nil {
			v, ok := firstJSONValue(rest[a[1]:])
			if !ok {
				continue
			}
			args = normalizeArguments(v)
		}
		return ToolCall{ID: newCallID(), Name: name, Arguments: args}, true
	}
	return ToolCall{}, false
}

// parseJSONToolCall finds the first JSON object in text that looks like a
// call: a non-empty "name" plus "arguments", "parameters" or "args".
func parseJSONToolCall(text string) (ToolCall, bool) {
	for i := 0; i < len(text); i++ {
		if text[i] != '{' {
			continue
		}
		v, ok := firstJSONValue(text[i:])
		if !ok {
			continue
		}
		if tc, ok := callFromObject(v, 0); ok {
			return tc, true
		}
		// A well-formed object that is not a call: skip past it entirely so
		// that its inner objects are not mistaken for calls.
		i += len(v) - 1
	}
	return ToolCall{}, false
}

func callFromObject(raw json.RawMessage, depth int) (ToolCall, bool) {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil || depth > 2 {
		return ToolCall{}, false
	}
	for _, wrapper := range []string{"function_call", "function", "tool_call"} {
		if inner, ok := obj[wrapper]; ok {
			if tc, ok := callFromObject(inner, depth+1); ok {
				return tc, true
			}
		}
	}
	var name string
	if json.Unmarshal(obj["name"], &name) != nil || strings.TrimSpace(name) == "" {
		return ToolCall{}, false
	}
	for _, key := range []string{"arguments", "parameters", "args"} {
		if a, ok := obj[key]; ok {
			return ToolCall{ID: newCallID(), Name: strings.TrimSpace(name), Arguments: normalizeArguments(a)}, true
		}
	}
	return ToolCall{}, false
}

// firstJSONValue decodes the JSON value at the start of s (after blanks) and
// returns its exact text; trailing text is ignored.
func firstJSONValue(s string) (json.RawMessage, bool) {
	dec := json.NewDecoder(strings.NewReader(s))
	var v json.RawMessage
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	return v, true
}

// normalizeArguments turns whatever a server or model produced for tool-call
// arguments into valid JSON: objects stay objects (compacted), a string that
// holds JSON is unwrapped (the OpenAI wire form), empty or null becomes {},
// and a string that is not JSON stays a JSON string so that the agent can
// report it to the model instead of crashing on invalid JSON.
func normalizeArguments(raw []byte) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage(`{}`)
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return argumentsFromString(s)
		}
	}
	if json.Valid(raw) {
		var buf bytes.Buffer
		if json.Compact(&buf, raw) == nil {
			return buf.Bytes()
		}
	}
	return argumentsFromString(string(raw))
}

// argumentsFromString is normalizeArguments for the usual wire form: a string
// that should contain JSON.
func argumentsFromString(s string) json.RawMessage {
	t := strings.TrimSpace(s)
	if t == "" || t == "null" {
		return json.RawMessage(`{}`)
	}
	if json.Valid([]byte(t)) {
		var buf bytes.Buffer
		if json.Compact(&buf, []byte(t)) == nil {
			return buf.Bytes()
		}
	}
	quoted, _ := json.Marshal(s)
	return quoted
}

// argumentsToWire is the inverse for requests: the OpenAI protocol wants the
// arguments as a string of JSON.
func argumentsToWire(a json.RawMessage) string {
	t := bytes.TrimSpace(a)
	if len(t) == 0 || string(t) == "null" {
		return "{}"
	}
	if t[0] == '"' {
		var s string
		if json.Unmarshal(t, &s) == nil {
			return s
		}
	}
	return string(t)
}

// newCallID makes an id for a tool call whose server sent none (llama.cpp)
// or that came from text, so tool results can still be matched to calls.
func newCallID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "call_" + hex.EncodeToString(b[:])
}
