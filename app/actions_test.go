package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/waymark/waymark/backend/browser"
	"github.com/waymark/waymark/backend/waymark"
)

// windowAction is what one bound method of the window does: the registry
// tools it calls (Tools, exactly the tool names its code — with the helpers it
// calls — names), or, for a method that calls none, why that is not a tool
// (View).
type windowAction struct {
	Tools []string
	View  string
}

// Every browser step (browserStep) runs one tool and then lists the numbering
// and the tabs; it looks at the result of browser_find and of the download
// tools, so those names are in every browser action's code.

// windowActions is every method the window can call (window.go.main.DesktopApp).
var windowActions = map[string]windowAction{
	// Manuscript.
	"Manuscript":            {Tools: []string{"Outline", "TextChanges"}, View: "the text for the editor, the outline, the session and recent files"},
	"ManuscriptInfo":        {Tools: []string{"Outline"}, View: "as Manuscript, the text fetched from /waymark/text"},
	"Outline":               {Tools: []string{"Outline"}},
	"OpenManuscript":        {Tools: []string{"Outline"}, View: "opening a book is each door's own choice (CLI and MCP: --doc), then the Outline tool"},
	"Search":                {Tools: []string{"Find"}},
	"ReadPortion":           {Tools: []string{"CreateCursor", "CursorNext"}},
	"ItemAt":                {Tools: []string{"ItemAt"}},
	"TargetSets":            {Tools: []string{"TargetSetList"}},
	"TargetSet":             {Tools: []string{"TargetSetGet"}},
	"History":               {Tools: []string{"History"}},
	"CheckDisk":             {Tools: []string{"CheckDisk"}},
	"ResolveExternalChange": {Tools: []string{"ResolveExternalChange"}},
	"Sync":                  {Tools: []string{"TextChanges"}},
	"TypeEdit":              {Tools: []string{"CheckDisk", "TypeText"}},
	"UndoEdit":              {Tools: []string{"UndoRevision"}},
	"RunCommand":            {Tools: []string{"RunCommand"}},
	"Call":                  {View: "any registry tool by name: the window's generic door"},
	"Transcript":            {View: "the saved transcript of the document or browser session"},
	"SaveDocumentSession":   {View: "the window's own state (cursor, scroll) for the book"},
	"RecentFiles":           {View: "the window's recent-files list"},
	"ChooseManuscript":      {Tools: []string{"Outline"}, View: "the native open dialog, then OpenManuscript"},
	"NewManuscript":         {Tools: []string{"Outline"}, View: "creates the book's file from its title, then OpenManuscript"},
	"ChooseSavePath":        {View: "the native save dialog"},
	// Browser.
	"BrowserCommand":      {Tools: []string{"BrowseCommand", "browser_click_and_wait_download", "browser_download_wait", "browser_list_interactives", "browser_tabs"}, View: "the number-command interpreter (the BrowseCommand tool, which the terminal uses too), then the tabs (the mirrored list is the last list the command made)"},
	"BrowserAct":          {Tools: []string{"browser_click_and_wait_download", "browser_download_wait", "browser_list_interactives", "browser_tabs"}, View: "acts by number in the window's browsing conversation (web.Browsing.Act: browser_overlay_act, as the command click 5 does), then the tabs"},
	"BrowserAnswerDialog": {Tools: []string{"BrowseCommand", "browser_click_and_wait_download", "browser_download_wait", "browser_list_interactives", "browser_tabs"}},
	"BrowserRefresh":      {Tools: []string{"browser_list_interactives", "browser_tabs"}},
	"BrowserGoal":         {Tools: []string{"BrowserGoal"}, View: "the browser assistant through the BrowserGoal tool; its progress lines become the window's events"},
	"BrowserAnswer":       {View: "answers the assistant's open question"},
	"BrowserSessionState": {View: "the browser session's history and transcript"},
	"Stop":                {View: "cancels the running command or goal"},
	// Settings and the window itself.
	"Settings":       {View: "the window's preferences"},
	"Language":       {View: "the language of the window's own words: the one chosen in Settings, else the system locale's"},
	"SaveSettings":   {View: "the window's preferences: model server, browser options, theme"},
	"TestConnection": {Tools: []string{"ProbeModelServer"}},
	"ServerModels":   {Tools: []string{"ModelServerModels"}},
	"Capabilities":   {View: "what this installation offers (model, pandoc, speech)"},
	"Say":            {View: "says a message: the window's native notice a screen reader speaks, and speech-dispatcher when the user turned that on and no screen reader runs"},
	"Layout":         {View: "the screenshot tier's layout report"},
	"Painted":        {View: "the window's timing hook (bench window)"},
	"Phase":          {View: "the window's timing hook (bench window)"},
}

// TestWindowActionsAreRegistryTools lists every bound method of the window and
// finds each action in the registry the CLI and MCP serve: a new method needs
// an entry, each tool named must be registered, and the tools a method's code
// names (with the helpers it calls) must be exactly the tools listed.
func TestWindowActionsAreRegistryTools(t *testing.T) {
	reg := waymark.New(waymark.Config{Browser: browser.NewSessions(browser.Options{})}).Registry
	calls := toolNamesInCode(t, filepath.Join("..", "backend", "desktop"), reg.Names())
	typ := reflect.TypeFor[*DesktopApp]()
	bound := map[string]bool{}
	for i := range typ.NumMethod() {
		name := typ.Method(i).Name
		bound[name] = true
		act, ok := windowActions[name]
		if !ok {
			t.Errorf("the window's method %s is in no entry of windowActions: name the registry tools it calls, or say why it is a view", name)
			continue
		}
		if len(act.Tools) == 0 && act.View == "" {
			t.Errorf("%s: an entry needs its tools or why it calls none", name)
		}
		for _, tool := range act.Tools {
			if !reg.Has(tool) {
				t.Errorf("%s calls the tool %s, which the registry does not have", name, tool)
			}
		}
		got := calls[name]
		want := slices.Clone(act.Tools)
		sort.Strings(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: its code calls the tools %v, windowActions says %v", name, got, want)
		}
	}
	for name := range windowActions {
		if !bound[name] {
			t.Errorf("windowActions lists %s, which the window no longer has", name)
		}
	}
	if len(bound) < 30 {
		t.Fatalf("only %d bound methods found: is DesktopApp still desktop.App?", len(bound))
	}
}

// toolNamesInCode reads the Go files of dir and returns, for each method of
// App, the registry tool names written as string literals in it or in the
// methods and functions of the package it calls, sorted.
func toolNamesInCode(t *testing.T, dir string, toolNames []string) map[string][]string {
	t.Helper()
	isTool := map[string]bool{}
	for _, n := range toolNames {
		isTool[n] = true
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	lits := map[string]map[string]bool{} // function → tool names in it
	callees := map[string][]string{}     // function → functions of the package it calls
	methods := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			name := fn.Name.Name
			if fn.Recv != nil {
				methods[name] = true
			}
			lits[name] = map[string]bool{}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.BasicLit:
					if s, err := strconv.Unquote(x.Value); err == nil && isTool[s] {
						lits[name][s] = true
					}
				case *ast.SelectorExpr:
					// A typed handle (browser.TabsRef, web.BrowseCommandRef)
					// names its tool.
					if s := refTool(x); isTool[s] {
						lits[name][s] = true
					}
				case *ast.CallExpr:
					switch f := x.Fun.(type) {
					case *ast.SelectorExpr:
						if id, ok := f.X.(*ast.Ident); ok && id.Name == "a" {
							callees[name] = append(callees[name], f.Sel.Name)
						}
					case *ast.Ident:
						callees[name] = append(callees[name], f.Name)
					}
				}
				return true
			})
		}
	}
	out := map[string][]string{}
	for m := range methods {
		seen := map[string]bool{}
		found := map[string]bool{}
		var walk func(string)
		walk = func(f string) {
			if seen[f] {
				return
			}
			seen[f] = true
			for l := range lits[f] {
				found[l] = true
			}
			for _, c := range callees[f] {
				walk(c)
			}
		}
		walk(m)
		var names []string
		for n := range found {
			names = append(names, n)
		}
		sort.Strings(names)
		out[m] = names
	}
	return out
}

// refTool is the tool a typed handle names by the convention of its
// package: browser.ListInteractivesRef is browser_list_interactives, any
// other package's XxxRef is Xxx ("" when x is no handle).
func refTool(x *ast.SelectorExpr) string {
	pkg, ok := x.X.(*ast.Ident)
	name, isRef := strings.CutSuffix(x.Sel.Name, "Ref")
	if !ok || !isRef || name == "" {
		return ""
	}
	if pkg.Name != "browser" {
		return name
	}
	var b strings.Builder
	b.WriteString("browser")
	for _, r := range name {
		if unicode.IsUpper(r) {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// TestWindowToolCallsAreRegistered finds every tool the frontend calls by name
// through the generic door (api.tool('Name', …)) in the registry, so a renamed
// tool cannot leave a button that fails only when pressed.
func TestWindowToolCallsAreRegistered(t *testing.T) {
	reg := waymark.New(waymark.Config{Browser: browser.NewSessions(browser.Options{})}).Registry
	// Every Svelte file of the frontend, at any depth (the manuscript's
	// panels are in src/lib/manuscript/).
	var files []string
	err := filepath.WalkDir(filepath.Join("..", "frontend", "src"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".svelte") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	call := regexp.MustCompile(`api\.tool(?:<[^>]*>)?\(\s*['"]([A-Za-z_]+)['"]`)
	found := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range call.FindAllStringSubmatch(string(b), -1) {
			found++
			if !reg.Has(m[1]) {
				t.Errorf("%s calls the tool %s, which the registry does not have", filepath.Base(f), m[1])
			}
		}
	}
	if found < 3 {
		t.Fatalf("only %d api.tool calls found in %d Svelte files: has the frontend's door changed?", found, len(files))
	}
}
