package tools

// The one error convention of the registry (issue 24, point 7). A call fails
// in one of two ways, and every door shows both alike:
//
//   - the tool returns a Go error (invalid arguments, a manuscript refused, a
//     file that cannot be written);
//   - the tool returns a result that says it failed, in its own shape, so
//     that a model reading it can recover (a browser tool's
//     {"status":"error","error":"…"}): such a result implements Failure.
//
// Failed tells the doors which it was: MCP answers both with isError, the
// CLI's "call" exits 1 on both with a JSON object holding "error", the
// agents' loop answers the model with the error, and the window shows it
// as an error.

// Failure is a result that can say the call failed.
type Failure interface {
	// Failed is why the call failed, and whether it did.
	Failed() (string, bool)
}

// Failed is a call's outcome as every door reads it: the message of a Go
// error, or of a result that says it failed; false when the call succeeded.
func Failed(v any, err error) (string, bool) {
	if err != nil {
		return err.Error(), true
	}
	if f, ok := v.(Failure); ok {
		return f.Failed()
	}
	return "", false
}
