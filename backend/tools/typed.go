package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

// Schemas of argument types that the Go type alone cannot say (a pointer given as
// a string or an object, …). A package defines them once, at init, for its own
// types; SchemaFor then uses them wherever such a type appears in arguments.
var (
	typeSchemasMu sync.Mutex
	typeSchemas   = map[reflect.Type]*jsonschema.Schema{}
)

// DefineSchema sets the JSON Schema used for every argument field of type T.
func DefineSchema[T any](s *jsonschema.Schema) {
	typeSchemasMu.Lock()
	defer typeSchemasMu.Unlock()
	typeSchemas[reflect.TypeFor[T]()] = s
}

// Refiner is implemented by an argument struct whose schema needs what struct tags
// cannot say: ranges, enums, a minimum length. Refine gets the schema generated
// from the Go type (properties named by their JSON names) and tightens it.
type Refiner interface {
	Refine(s *jsonschema.Schema)
}

// SchemaFor generates a tool's input schema from its argument type A, a struct:
// properties are the JSON field names, a field without omitempty/omitzero is
// required, the `jsonschema:"…"` tag is the property's description and unknown
// properties are refused. null is refused too, also for pointer and slice
// fields: leaving a property out is the way not to give it. A's Refine method,
// if any (its own or promoted from an embedded struct), adds the constraints.
func SchemaFor[A any]() (json.RawMessage, error) {
	_, raw, err := schemaFor[A]()
	return raw, err
}

// schemaFor is SchemaFor that gives the schema parsed too.
func schemaFor[A any]() (*jsonschema.Schema, json.RawMessage, error) {
	typeSchemasMu.Lock()
	opts := &jsonschema.ForOptions{TypeSchemas: make(map[reflect.Type]*jsonschema.Schema, len(typeSchemas))}
	for t, s := range typeSchemas {
		opts.TypeSchemas[t] = s
	}
	typeSchemasMu.Unlock()
	s, err := jsonschema.For[A](opts)
	if err != nil {
		return nil, nil, err
	}
	if s.Type != "object" {
		return nil, nil, fmt.Errorf("arguments of type %v are not a struct", reflect.TypeFor[A]())
	}
	if s.Properties == nil {
		s.Properties = map[string]*jsonschema.Schema{}
	}
	refuseNull(s)
	var a A
	if r, ok := any(a).(Refiner); ok {
		r.Refine(s)
	}
	raw, err := json.Marshal(s)
	return s, raw, err
}

// Func builds a tool whose arguments are decoded into A (unknown fields refused)
// after the registry validated them against the schema generated from A.
func Func[A any](name, description string, fn func(ctx context.Context, args A) (any, error)) Tool {
	return FuncCall(name, description, func(ctx context.Context, args A, _ Call, _ Context) (any, error) {
		return fn(ctx, args)
	})
}

// FuncCall is Func for a handler that also needs the call (its meta properties)
// or the agent context the call imported.
func FuncCall[A any](name, description string, fn func(ctx context.Context, args A, call Call, tc Context) (any, error)) Tool {
	s, raw, err := schemaFor[A]()
	if err != nil {
		panic(fmt.Sprintf("tool %s: %v", name, err))
	}
	return Tool{Name: name, Description: description, InputSchema: raw, schema: s,
		Handler: func(ctx context.Context, call Call, _ *Tool, tc Context) (any, error) {
			a, err := Decode[A](call)
			if err != nil {
				return nil, err
			}
			return fn(ctx, a, call, tc)
		}}
}

// Prop returns the named property of a generated schema, for Refine; it panics on
// a name the struct does not have, which is a programming error.
func Prop(s *jsonschema.Schema, name string) *jsonschema.Schema {
	p, ok := s.Properties[name]
	if !ok {
		panic(fmt.Sprintf("schema has no property %q", name))
	}
	return p
}

// refuseNull takes "null" out of every type list the generator wrote for a
// pointer or a slice ({"type": ["null", "integer"]} becomes {"type": "integer"};
// a schema of its own with no type, such as an anyOf, gets none).
func refuseNull(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) > 0 {
		var ts []string
		for _, t := range s.Types {
			if t != "null" {
				ts = append(ts, t)
			}
		}
		s.Types = nil
		switch len(ts) {
		case 0:
		case 1:
			s.Type = ts[0]
		default:
			s.Types = ts
		}
	}
	for _, p := range s.Properties {
		refuseNull(p)
	}
	refuseNull(s.Items)
	for _, sub := range [][]*jsonschema.Schema{s.AnyOf, s.OneOf, s.AllOf, s.PrefixItems} {
		for _, e := range sub {
			refuseNull(e)
		}
	}
}

// Range sets an integer property's inclusive bounds.
func Range(p *jsonschema.Schema, lo, hi float64) {
	p.Minimum, p.Maximum = &lo, &hi
}

// Enum limits a property to the given values.
func Enum(p *jsonschema.Schema, values ...string) {
	p.Enum = make([]any, len(values))
	for i, v := range values {
		p.Enum[i] = v
	}
}

// Min sets a number property's inclusive lower bound.
func Min(p *jsonschema.Schema, lo float64) {
	p.Minimum = &lo
}

// MinLength sets a string property's minimum length in characters.
func MinLength(p *jsonschema.Schema, n int) {
	p.MinLength = &n
}

// AnyOf is the schema of a value that may take any of the given forms (a
// pointer given as a string or as an object, …), for DefineSchema.
func AnyOf(description string, forms ...*jsonschema.Schema) *jsonschema.Schema {
	return &jsonschema.Schema{Description: description, AnyOf: forms}
}
