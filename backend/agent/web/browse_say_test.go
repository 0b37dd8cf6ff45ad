package web

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// modelOnly are the browser tools' errors a number command cannot cause:
// arguments the interpreter never gives (limits, offsets, modes, scopes,
// time-outs, key combinations), tools it has no command for (screenshots,
// focus by role, PDF), and the wrappers whose inner error is said instead.
var modelOnly = []string{
	"list %d was made with limit", "banner ", "the consent world", "frame %s has no document",
	"browser profile", "launch %s", "download conflict policy", "browser control URL", "connect to browser",
	"create browser context", "open page", "enable network events", "screenshot", "guard the browser's requests",
	"no element of role", "print to PDF", "%s is not a folder", "%s belongs to another user",
	"action select needs text", "action %q", "index must be", "to %q", "give either to", "index is an element's number",
	"behavior %q", "mode %q", "headings_from", "timeout_ms", "files is empty", "key is empty", "key %q", "ms must be",
	"state %q", "scope %q", "limit %d", "offset %d", "scheme %q", "give role or text", "limit must be", "from %d: a character",
	"heading %d: headings count", "give one of from", "chars %d", "give index (from 1)", "index %d: tabs count",
	"latency and speeds", "give offset or from_here", "there is no open dialog on the page; list with scope",
	"link %d: %w", "%s: %w", "%w: %s", "%w: %v", "%v", "%s",
}

// browserErrors are the texts of the errors the browser package makes
// (fmt.Errorf, errors.New, invalid, Fail), with their verbs filled in with
// Russian words, so a Latin word in what is said is Waymark's own English.
func browserErrors(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob("../../browser/*.go")
	fill := strings.NewReplacer("%d", "7", "%q", `"Поиск"`, "%s", "Поиск", "%v", "сбой", "%w", "сбой", "%.40q", `"сбой"`, "%%", "%")
	var out []string
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			name := ""
			switch fn := call.Fun.(type) {
			case *ast.SelectorExpr:
				if x, ok := fn.X.(*ast.Ident); ok {
					name = x.Name + "." + fn.Sel.Name
				}
			case *ast.Ident:
				name = fn.Name
			}
			if name != "fmt.Errorf" && name != "errors.New" && name != "invalid" {
				return true
			}
			lit, ok := call.Args[0].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			format, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			for _, m := range modelOnly {
				if strings.HasPrefix(format, m) {
					return true
				}
			}
			out = append(out, fill.Replace(format))
			return true
		})
	}
	return out
}

// Every error a number command can meet is said wholly in Russian to a
// Russian command (issue 23, point 6): no "Не получилось: " followed by
// the English text, no English word of Waymark's own. The old SpokenError
// knew 24 of them and said the rest as "Не получилось: " + English.
func TestEveryBrowserErrorSaidInRussian(t *testing.T) {
	msgs := browserErrors(t)
	if len(msgs) < 60 {
		t.Fatalf("only %d error texts found in the browser package: is the path right?", len(msgs))
	}
	// Words that are no English sentence: names of keys and programs, and
	// the addresses the user may say.
	allowed := regexp.MustCompile(`(?i)\b(?:chromium|sudo|apt|install|https?|file|example|org|Backspace|PageUp|PageDown|Home|End)\b`)
	latin := regexp.MustCompile(`\b[A-Za-z]{3,}\b`)
	bad := 0
	for _, m := range msgs {
		ru := SpokenError(Russian, m)
		if w := latin.FindString(allowed.ReplaceAllString(ru, "")); w != "" || strings.HasPrefix(ru, "Команда не выполнена") {
			bad++
			t.Errorf("%q is said in Russian as %q", m, ru)
		}
		en := SpokenError(English, m)
		if regexp.MustCompile(`\p{Cyrillic}`).MatchString(strings.ReplaceAll(en, "Поиск", "")) || strings.Contains(en, "сбой сбой") {
			t.Errorf("%q is said in English as %q", m, en)
		}
	}
	t.Logf("%d error texts, %d not said in Russian", len(msgs), bad)
	// An element is named by its role in words, its name in the language's
	// quotes (the old code: (combobox "Language of the guide") in Russian).
	for l, want := range map[Lang]string{
		Russian: "Элемент 6 (поле со списком «Language of the guide») недоступен.",
		English: "Element 6 (combobox “Language of the guide”) is disabled.",
	} {
		if got := SpokenError(l, `element 6 (combobox "Language of the guide") is disabled`); got != want {
			t.Errorf("%s: %q, want %q", l, got, want)
		}
	}
}
