package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
)

// ErrWrongRef is returned when a Ref's types are not the registered tool's (a
// programming error: the handle and the tool drifted apart).
var ErrWrongRef = errors.New("tool handle does not match the registered tool")

// Ref is a typed handle on a tool: go-sdk's AddTool[In, Out] turned around.
// Product code calls a tool through its Ref with the argument struct and
// gets the result type back, so no caller builds a map of arguments or
// asserts the type of a result. A package that defines a tool exports its
// Ref beside it; the call still goes through the registry (the arguments
// are validated against the tool's schema, exactly as from every door).
//
// A result that says it failed (a Failure, such as a browser tool's error
// result) is returned as it is, with a nil error, as Registry.Call does.
type Ref[In, Out any] struct{ name string }

// RefTo is the handle on the tool registered under name, which takes In and
// returns Out.
func RefTo[In, Out any](name string) Ref[In, Out] { return Ref[In, Out]{name: name} }

// Name is the tool's registered name.
func (r Ref[In, Out]) Name() string { return r.name }

// Func builds the tool the handle refers to (see Func).
func (r Ref[In, Out]) Func(description string, fn func(ctx context.Context, args In) (Out, error)) Tool {
	return Func(r.name, description, fn)
}

// FuncCall builds the tool the handle refers to (see FuncCall).
func (r Ref[In, Out]) FuncCall(description string, fn func(ctx context.Context, args In, call Call, tc Context) (Out, error)) Tool {
	return FuncCall(r.name, description, fn)
}

// Call runs the tool in reg with args and no agent context.
func (r Ref[In, Out]) Call(ctx context.Context, reg *Registry, args In) (Out, error) {
	return r.CallWith(ctx, reg, args, Context{})
}

// CallWith runs the tool in reg with args and the tool context tc (progress,
// the agent's messages).
func (r Ref[In, Out]) CallWith(ctx context.Context, reg *Registry, args In, tc Context) (Out, error) {
	var zero Out
	t, err := reg.Get(r.name)
	if err != nil {
		return zero, err
	}
	if err := r.matches(t); err != nil {
		return zero, err
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return zero, fmt.Errorf("%s: arguments: %w", r.name, err)
	}
	v, err := reg.Call(ctx, Call{Name: r.name, Args: raw}, tc)
	if err != nil {
		return zero, err
	}
	if v == nil {
		return zero, nil
	}
	out, ok := v.(Out)
	if !ok {
		return zero, fmt.Errorf("%w: %s returned %T, not %v", ErrWrongRef, r.name, v, reflect.TypeFor[Out]())
	}
	return out, nil
}

// matches checks that the registered tool takes In and returns Out (a tool
// built by hand, without Func, has no types to check).
func (r Ref[In, Out]) matches(t *Tool) error {
	in, out := reflect.TypeFor[In](), reflect.TypeFor[Out]()
	if t.In != nil && t.In != in {
		return fmt.Errorf("%w: %s takes %v, not %v", ErrWrongRef, r.name, t.In, in)
	}
	if t.Out != nil && t.Out != out {
		return fmt.Errorf("%w: %s returns %v, not %v", ErrWrongRef, r.name, t.Out, out)
	}
	return nil
}
