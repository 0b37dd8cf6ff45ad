package desktop

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/waymark/waymark/backend/tools"
)

// The window's TypeScript (frontend/src/lib/bindings.ts) declares what each
// bound method takes and returns; TestBindingsMatchGoTypes reads those
// declarations and compares them with the Go types of App's methods, field by
// field (JSON names, basic types, optional = omitempty), so a field renamed
// or added on one side only fails here, not in front of a user.

// tsField is one field of a TypeScript interface or object type.
type tsField struct {
	Name     string
	Optional bool
	Type     string
}

var (
	tsInterface = regexp.MustCompile(`(?m)^export interface (\w+) \{\n((?:.*\n)*?)\}`)
	tsFieldLine = regexp.MustCompile(`^\s*(\w+)(\??): (.+?);\s*$`)
	tsCall      = regexp.MustCompile(`^\s*(\w+): (?:async )?(?:<\w+>)?\((.*?)\) =>.*?call<(.+?)>\('(\w+)'(.*)$`)
	tsAnyCall   = regexp.MustCompile(`call<(.+?)>\('(\w+)'`)
)

// readInterfaces parses the `export interface` blocks of TypeScript files.
func readInterfaces(t *testing.T, files ...string) map[string][]tsField {
	t.Helper()
	out := map[string][]tsField{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range tsInterface.FindAllStringSubmatch(string(b), -1) {
			var fields []tsField
			for _, line := range strings.Split(m[2], "\n") {
				if fm := tsFieldLine.FindStringSubmatch(line); fm != nil {
					fields = append(fields, tsField{fm[1], fm[2] == "?", fm[3]})
				}
			}
			out[m[1]] = fields
		}
	}
	return out
}

// objectFields parses an inline object type: { a: string; b?: number }.
func objectFields(s string) ([]tsField, bool) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return nil, false
	}
	var out []tsField
	for _, part := range strings.Split(strings.Trim(s, "{} "), ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, typ, ok := strings.Cut(part, ":")
		if !ok {
			return nil, false
		}
		name = strings.TrimSpace(name)
		out = append(out, tsField{strings.TrimSuffix(name, "?"), strings.HasSuffix(name, "?"), strings.TrimSpace(typ)})
	}
	return out, true
}

// goFields are a struct's JSON fields (embedded structs flattened).
func goFields(t reflect.Type) map[string]reflect.StructField {
	out := map[string]reflect.StructField{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			for k, v := range goFields(ft) {
				out[k] = v
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f
	}
	return out
}

var rawMessage = reflect.TypeFor[json.RawMessage]()

// compareType checks that the TypeScript type ts describes the JSON of Go type g.
func compareType(ifaces map[string][]tsField, ts string, g reflect.Type, where string) []string {
	ts = strings.TrimSuffix(strings.TrimSpace(ts), " | null")
	g = tools.WrittenAs(g) // a pointer is written as its pointer object
	if strings.HasPrefix(ts, "import(") {
		ts = ts[strings.LastIndex(ts, ").")+2:]
	}
	for g.Kind() == reflect.Pointer {
		g = g.Elem()
	}
	if ts == "unknown" {
		return nil
	}
	if strings.HasPrefix(ts, "Record<string,") && strings.HasSuffix(ts, ">") {
		// An object of any keys: a Go map with string keys, or raw JSON that the
		// Go side passes through without a type.
		switch {
		case g == rawMessage:
			return nil
		case g.Kind() == reflect.Map && g.Key().Kind() == reflect.String:
			return compareType(ifaces, strings.TrimSuffix(strings.TrimPrefix(ts, "Record<string,"), ">"), g.Elem(), where+"{}")
		}
		return []string{fmt.Sprintf("%s: TypeScript has the map %s, Go has %v", where, ts, g)}
	}
	if strings.HasSuffix(ts, "[]") {
		if g.Kind() != reflect.Slice || g == rawMessage {
			return []string{fmt.Sprintf("%s: TypeScript has the list %s, Go has %v", where, ts, g)}
		}
		return compareType(ifaces, strings.TrimSuffix(ts, "[]"), g.Elem(), where+"[]")
	}
	basic := map[string][]reflect.Kind{
		"number":  {reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64},
		"string":  {reflect.String},
		"boolean": {reflect.Bool},
	}
	if strings.HasPrefix(ts, "'") { // a union of string literals
		ts = "string"
	}
	if kinds, ok := basic[ts]; ok {
		for _, k := range kinds {
			if g.Kind() == k {
				return nil
			}
		}
		return []string{fmt.Sprintf("%s: TypeScript says %s, Go has %v", where, ts, g)}
	}
	fields, ok := objectFields(ts)
	if !ok {
		if fields, ok = ifaces[ts]; !ok {
			return []string{fmt.Sprintf("%s: the TypeScript type %q is not declared in bindings.ts", where, ts)}
		}
		where += " (" + ts + ")"
	}
	if g.Kind() != reflect.Struct {
		return []string{fmt.Sprintf("%s: TypeScript has an object, Go has %v", where, g)}
	}
	return compareFields(ifaces, fields, g, where)
}

func compareFields(ifaces map[string][]tsField, fields []tsField, g reflect.Type, where string) []string {
	var bad []string
	gf := goFields(g)
	seen := map[string]bool{}
	for _, f := range fields {
		seen[f.Name] = true
		sf, ok := gf[f.Name]
		if !ok {
			bad = append(bad, fmt.Sprintf("%s.%s: in bindings.ts, but Go's %v has no JSON field %q", where, f.Name, g, f.Name))
			continue
		}
		if strings.Contains(sf.Tag.Get("json"), ",omitempty") && !f.Optional {
			bad = append(bad, fmt.Sprintf("%s.%s: Go leaves it out when empty (omitempty), so bindings.ts must mark it optional (%s?)", where, f.Name, f.Name))
		}
		bad = append(bad, compareType(ifaces, f.Type, sf.Type, where+"."+f.Name)...)
	}
	var missing []string
	for name := range gf {
		if !seen[name] {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	for _, name := range missing {
		bad = append(bad, fmt.Sprintf("%s.%s: Go's %v sends it, bindings.ts does not declare it", where, name, g))
	}
	return bad
}

// TestBindingsMatchGoTypes compares every call in bindings.ts's api with the
// bound method it names: the method exists, takes as many arguments, and its
// result (and each argument typed in the arrow's parameters) has the fields
// and basic types the TypeScript declares.
func TestBindingsMatchGoTypes(t *testing.T) {
	lib := filepath.Join("..", "..", "frontend", "src", "lib")
	// The generated tool types first: a window type of the same name
	// (desktop.Portion, with editor positions) is bindings.ts' own.
	ifaces := readInterfaces(t, filepath.Join(lib, "tools.gen.ts"), filepath.Join(lib, "bindings.ts"), filepath.Join(lib, "layout.ts"))
	if len(ifaces) < 30 {
		t.Fatalf("read only %d interfaces from bindings.ts: has its style changed?", len(ifaces))
	}
	src, err := os.ReadFile(filepath.Join(lib, "bindings.ts"))
	if err != nil {
		t.Fatal(err)
	}
	api := string(src[strings.Index(string(src), "export const api = {"):])
	app := reflect.TypeFor[*App]()
	called := map[string]bool{}
	var bad []string
	for _, line := range strings.Split(api, "\n") {
		cm := tsAnyCall.FindStringSubmatch(line)
		if cm == nil {
			continue
		}
		ret, method := cm[1], cm[2]
		called[method] = true
		m, ok := app.MethodByName(method)
		if !ok {
			bad = append(bad, fmt.Sprintf("bindings.ts calls %s, which the window does not have", method))
			continue
		}
		mt := m.Type // the receiver is argument 0
		var outs []reflect.Type
		for i := range mt.NumOut() {
			if o := mt.Out(i); o != reflect.TypeFor[error]() {
				outs = append(outs, o)
			}
		}
		switch {
		case ret == "void" && len(outs) != 0:
			bad = append(bad, fmt.Sprintf("%s: bindings.ts expects no result, Go returns %v", method, outs))
		case ret != "void" && len(outs) != 1:
			bad = append(bad, fmt.Sprintf("%s: bindings.ts expects %s, Go returns %v", method, ret, outs))
		case ret != "void":
			bad = append(bad, compareType(ifaces, ret, outs[0], method+" result")...)
		}
		am := tsCall.FindStringSubmatch(line)
		if am == nil {
			continue // a call spread over lines: its arguments are checked by count below
		}
		params := map[string]string{}
		for _, p := range strings.Split(am[2], ", ") {
			if name, typ, ok := strings.Cut(p, ": "); ok {
				params[name] = typ
			}
		}
		rest := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSpace(am[5]), ","), ")")
		var args []string
		for _, a := range strings.Split(rest, ",") {
			if a = strings.TrimSpace(a); a != "" {
				args = append(args, a)
			}
		}
		if len(args) != mt.NumIn()-1 {
			bad = append(bad, fmt.Sprintf("%s: bindings.ts passes %d argument(s), Go takes %d", method, len(args), mt.NumIn()-1))
			continue
		}
		for i, a := range args {
			if typ, ok := params[a]; ok {
				bad = append(bad, compareType(ifaces, typ, mt.In(i+1), fmt.Sprintf("%s argument %d (%s)", method, i+1, a))...)
			}
		}
	}
	for i := range app.NumMethod() {
		if name := app.Method(i).Name; !called[name] {
			bad = append(bad, fmt.Sprintf("the window's method %s is not in bindings.ts's api", name))
		}
	}
	for _, b := range bad {
		t.Error(b)
	}
}
