package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

// Schemas of argument types that the Go type alone cannot say (a pointer given as
// a string or an object, …). A package defines them once, at init, for its own
// types; schemaFor then uses them wherever such a type appears in arguments.
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

// schemaFor generates a tool's input schema from its argument type A, a struct,
// parsed and as JSON: properties are the JSON field names, a field without
// omitempty/omitzero is required, the `jsonschema:"…"` tag is the property's
// description and unknown properties are refused. null is refused too, also for
// pointer and slice fields: leaving a property out is the way not to give it.
// A's Refine method, if any (its own or promoted from an embedded struct), adds
// the constraints.
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

// Func builds a tool from a typed handler, as go-sdk's AddTool[In, Out] does:
// the arguments are decoded into In (unknown fields refused) after the
// registry validated them against the schema generated from In, and the
// tool's output schema is generated from Out (none when Out is an interface,
// such as any: the result has no one shape).
func Func[In, Out any](name, description string, fn func(ctx context.Context, args In) (Out, error)) Tool {
	return FuncCall(name, description, func(ctx context.Context, args In, _ Call, _ Context) (Out, error) {
		return fn(ctx, args)
	})
}

// FuncCall is Func for a handler that also needs the call (its meta properties)
// or the tool context (the agent's messages the call imported, the progress
// reporter).
func FuncCall[In, Out any](name, description string, fn func(ctx context.Context, args In, call Call, tc Context) (Out, error)) Tool {
	// The schemas are made at the tool's first use in a registry (Tool.gen).
	gen := func() (*jsonschema.Schema, json.RawMessage, json.RawMessage, error) {
		s, schema, err := schemaFor[In]()
		if err != nil {
			return nil, nil, nil, err
		}
		out, err := OutputSchemaFor[Out]()
		if err != nil {
			return nil, nil, nil, fmt.Errorf("output: %w", err)
		}
		return s, schema, out, nil
	}
	return Tool{Name: name, Description: description, gen: gen,
		In: reflect.TypeFor[In](), Out: reflect.TypeFor[Out](),
		Handler: func(ctx context.Context, call Call, _ *Tool, tc Context) (any, error) {
			a, err := Decode[In](call)
			if err != nil {
				return nil, err
			}
			v, err := fn(ctx, a, call, tc)
			if err != nil {
				return nil, err
			}
			return v, nil
		}}
}

// Output types that JSON writes in another shape than their Go fields say (a
// type with its own MarshalJSON or MarshalText): each is described, in output
// schemas and in the frontend's generated types, as the type it is written
// as.
var (
	outputAsMu sync.Mutex
	outputAs   = map[reflect.Type]reflect.Type{}
)

// DefineOutput says that results of type T are written as JSON of type As
// (document.Pointer as its pointer object, an enum as a string).
func DefineOutput[T, As any]() {
	outputAsMu.Lock()
	defer outputAsMu.Unlock()
	outputAs[reflect.TypeFor[T]()] = reflect.TypeFor[As]()
}

// WrittenAs is the type whose shape JSON gives a result of type t (t itself
// unless DefineOutput said otherwise).
func WrittenAs(t reflect.Type) reflect.Type {
	outputAsMu.Lock()
	defer outputAsMu.Unlock()
	if as, ok := outputAs[t]; ok {
		return as
	}
	return t
}

// OutputSchemaFor generates a tool's output schema from its result type Out:
// nil when Out is an interface (the result has no one shape); else the JSON
// Schema of what the result's JSON is (properties by JSON name, nil slices
// and pointers as null).
func OutputSchemaFor[Out any]() (json.RawMessage, error) {
	t := reflect.TypeFor[Out]()
	if t.Kind() == reflect.Interface {
		return nil, nil
	}
	outputAsMu.Lock()
	pairs := maps.Clone(outputAs)
	outputAsMu.Unlock()
	// Raw JSON is any JSON value.
	opts := &jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{reflect.TypeFor[json.RawMessage](): {}}}
	for from := range pairs {
		s, err := jsonschema.ForType(WrittenAs(from), &jsonschema.ForOptions{})
		if err != nil {
			return nil, fmt.Errorf("output type %v (written as %v): %w", from, WrittenAs(from), err)
		}
		opts.TypeSchemas[from] = s
	}
	s, err := jsonschema.ForType(t, opts)
	if err != nil {
		return nil, err
	}
	return json.Marshal(s)
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
