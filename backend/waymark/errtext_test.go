package waymark

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// foreignMessages are the product functions that may read an error's text:
// each reads a foreign library's or server's message, which has no other
// identity (issue 36: Waymark's own errors are matched by errors.Is and
// errors.As, never by their words). The key is file:function.
var foreignMessages = map[string]string{
	"backend/browser/dialog.go:noDialogShowing":   "Chromium's DevTools: No dialog is showing",
	"backend/browser/oopif.go:sessionGone":        "Chromium's DevTools: Session with given id not found",
	"backend/browser/numbering.go:frameElsewhere": "Chromium's DevTools: No frame",
	"backend/browser/world.go:contextGone":        "Chromium's DevTools: Cannot find context, Execution context was destroyed",
	"backend/llm/errors.go:classify":              "go-openai's decoding errors, which it makes with fmt.Errorf",
	"backend/llm/window.go:ollamaWindow":          "an Ollama server's JSON error: model not found",
	"backend/llm/errors.go:describeNetErr":        "the last cause of a net/http error chain",
	"backend/tools/registry.go:cleanValidation":   "the jsonschema validator's message, made one line",
}

// textMatchers are the calls that look into a string: an error's text
// given to one of them is matched by its words.
var textMatchers = map[string]bool{
	"strings.Contains": true, "strings.HasPrefix": true, "strings.HasSuffix": true, "strings.Index": true,
	"strings.LastIndex": true, "strings.EqualFold": true, "strings.TrimPrefix": true, "strings.TrimSuffix": true,
	"strings.Cut": true, "strings.CutPrefix": true, "strings.CutSuffix": true, "strings.Split": true, "strings.Fields": true,
	"strings.ContainsAny": true, "bytes.Contains": true, "bytes.HasPrefix": true,
	"MatchString": true, "FindString": true, "FindStringSubmatch": true, "FindAllString": true, "FindAllStringSubmatch": true,
	"FindStringIndex": true, "ReplaceAllString": true, "ReplaceAllStringFunc": true, "regexp.MatchString": true,
}

// errTextName are the names that say they hold an error's text.
var errTextName = regexp.MustCompile(`^(?:msg|errText|errMsg|errMessage|reason|why)$`)

// errText says whether e is an error's text: err.Error(), a result's Error
// field, or a name given one of those in the function (m := err.Error(),
// msg, failed := res.Failed()).
func errText(e ast.Expr, names map[string]bool) bool {
	switch v := e.(type) {
	case *ast.CallExpr:
		if sel, ok := v.Fun.(*ast.SelectorExpr); ok && len(v.Args) == 0 && (sel.Sel.Name == "Error" || sel.Sel.Name == "Failed") {
			return true
		}
		if sel, ok := v.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "ToLower" {
			return len(v.Args) == 1 && errText(v.Args[0], names)
		}
	case *ast.SelectorExpr:
		return v.Sel.Name == "Error" || v.Sel.Name == "Reason"
	case *ast.Ident:
		return names[v.Name] || errTextName.MatchString(v.Name)
	case *ast.ParenExpr:
		return errText(v.X, names)
	}
	return false
}

// errTextNames are the names a function gives an error's text.
func errTextNames(fn *ast.FuncDecl) map[string]bool {
	names := map[string]bool{}
	ast.Inspect(fn, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 || len(as.Lhs) == 0 {
			return true
		}
		if id, ok := as.Lhs[0].(*ast.Ident); ok && errText(as.Rhs[0], names) {
			names[id.Name] = true
		}
		return true
	})
	return names
}

// wordsLit says whether e is a literal with words in it (not "").
func wordsLit(e ast.Expr) bool {
	l, ok := e.(*ast.BasicLit)
	return ok && l.Kind == token.STRING && l.Value != `""` && l.Value != "``"
}

func callName(c *ast.CallExpr) string {
	switch f := c.Fun.(type) {
	case *ast.SelectorExpr:
		if x, ok := f.X.(*ast.Ident); ok && (x.Name == "strings" || x.Name == "bytes" || x.Name == "regexp") {
			return x.Name + "." + f.Sel.Name
		}
		return f.Sel.Name
	case *ast.Ident:
		return f.Name
	}
	return ""
}

// matchesErrText lists where fn matches an error's text: a text matcher
// given it, a comparison of it with a literal, or a switch on it.
func matchesErrText(fset *token.FileSet, fn *ast.FuncDecl) []string {
	names := errTextNames(fn)
	var out []string
	at := func(n ast.Node, what string) {
		out = append(out, fset.Position(n.Pos()).String()+": "+what)
	}
	ast.Inspect(fn, func(n ast.Node) bool {
		switch v := n.(type) {
		case *ast.CallExpr:
			if textMatchers[callName(v)] {
				for _, a := range v.Args {
					if errText(a, names) {
						at(v, callName(v)+" on an error's text")
						break
					}
				}
			}
		case *ast.BinaryExpr:
			// A comparison with "" asks whether there is an error, not
			// which one.
			litX, litY := wordsLit(v.X), wordsLit(v.Y)
			if (v.Op == token.EQL || v.Op == token.NEQ) && ((litY && errText(v.X, names)) || (litX && errText(v.Y, names))) {
				at(v, "an error's text compared with a literal")
			}
		case *ast.SwitchStmt:
			if v.Tag != nil && errText(v.Tag, names) {
				at(v, "a switch on an error's text")
			}
		}
		return true
	})
	return out
}

// TestNoErrorMatchedByItsText: outside tests, no product code matches an
// error by its words (issue 36's acceptance), except the functions that
// read a foreign library's message (foreignMessages); and each of those
// still does, so the list holds no stale entry.
func TestNoErrorMatchedByItsText(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	used := map[string]bool{}
	var bad []string
	files := 0
	for _, dir := range []string{"backend", "app", "cmd"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return nil
			}
			file, err := parser.ParseFile(fset, p, nil, 0)
			if err != nil {
				return err
			}
			files++
			rel, _ := filepath.Rel(root, p)
			rel = filepath.ToSlash(rel)
			for _, decl := range file.Decls {
				fn, ok := decl.(*ast.FuncDecl)
				if !ok {
					continue
				}
				found := matchesErrText(fset, fn)
				key := rel + ":" + fn.Name.Name
				if _, ok := foreignMessages[key]; ok && len(found) > 0 {
					used[key] = true
					continue
				}
				bad = append(bad, found...)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if files < 100 {
		t.Fatalf("only %d product files read: is the root right?", files)
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Errorf("%s (give the error identity: a sentinel with errors.Is, a type with errors.As; or, for a foreign library's message, list the function in foreignMessages)", b)
	}
	for key := range foreignMessages {
		if !used[key] {
			t.Errorf("%s is in foreignMessages but matches no error's text", key)
		}
	}
}
