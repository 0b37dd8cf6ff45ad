// Package toolstest helps tests of the packages that register tools: it keeps
// the shape of every tool's input schema in a golden file, so that property
// names, types, required lists and constraints change only on purpose.
package toolstest

import (
	"encoding/json"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/tools"
)

// Shape is a tool's input schema as one line of JSON, without descriptions,
// with "required" sorted and an empty "required" left out.
func Shape(schema json.RawMessage) (string, error) {
	var s any
	if err := json.Unmarshal(schema, &s); err != nil {
		return "", err
	}
	b, err := json.Marshal(shape(s))
	return string(b), err
}

func shape(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			switch k {
			case "description":
				continue
			case "required":
				var r []string
				for _, n := range e.([]any) {
					r = append(r, n.(string))
				}
				sort.Strings(r)
				if len(r) > 0 {
					out[k] = r
				}
				continue
			}
			out[k] = shape(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = shape(e)
		}
		return out
	}
	return v
}

// CheckSchemas compares the shapes of the schemas of r's tools whose names
// pass keep (nil: all) with the golden file, one "Name shape" line per tool,
// and reports each line that differs. With update it first rewrites the file.
func CheckSchemas(t testing.TB, r *tools.Registry, keep func(name string) bool, golden string, update bool) {
	t.Helper()
	var b strings.Builder
	for _, tool := range r.MustTools() {
		if keep != nil && !keep(tool.Name) {
			continue
		}
		s, err := Shape(tool.InputSchema)
		if err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
		b.WriteString(tool.Name + " " + s + "\n")
	}
	if update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	lines := func(s string) map[string]string {
		m := map[string]string{}
		for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
			name, rest, _ := strings.Cut(l, " ")
			m[name] = rest
		}
		return m
	}
	got, exp := lines(b.String()), lines(string(want))
	for name, g := range got {
		if w, ok := exp[name]; !ok {
			t.Errorf("%s: a tool the golden file %s does not know", name, golden)
		} else if g != w {
			t.Errorf("%s: schema shape differs\n got  %s\n want %s", name, g, w)
		}
	}
	for name := range exp {
		if _, ok := got[name]; !ok {
			t.Errorf("%s: in the golden file, no longer registered", name)
		}
	}
}
