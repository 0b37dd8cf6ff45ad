package desktop

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The window's TypeScript types of App's methods, their arguments and results
// are generated from the Go types by cmd/waymark-tsgen (DesktopApp in
// frontend/src/lib/tools.gen.ts; TestGeneratedTypesAreCurrent fails when the
// file is stale), and bindings.ts's call checks every call against them, so
// svelte-check fails on a renamed field or a wrong argument.

// TestBindingsCallEveryMethod: every method the window binds has its
// wrapper in bindings.ts's api (a call by the method's name).
func TestBindingsCallEveryMethod(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "frontend", "src", "lib", "bindings.ts"))
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(src), "export const api = {")
	if i < 0 {
		t.Fatal("bindings.ts has no api object")
	}
	api := string(src[i:])
	app := reflect.TypeFor[*App]()
	for k := range app.NumMethod() {
		if name := app.Method(k).Name; !strings.Contains(api, "call('"+name+"'") {
			t.Errorf("the window's method %s is not in bindings.ts's api", name)
		}
	}
}
