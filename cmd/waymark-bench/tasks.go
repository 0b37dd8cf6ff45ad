package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/waymark/waymark/backend/browser"
)

// debianDocSites are issue 33's documentation sites from Debian's packages,
// as TestRealSiteTasksBothDoors (backend/cli) serves them.
var debianDocSites = []struct{ prefix, dir, pkg string }{
	{"/pg", "/usr/share/doc/postgresql-doc-15/html", "postgresql-doc-15"},
	{"/sq", "/usr/share/doc/sqlite3", "sqlite3-doc"},
	{"/gnu", "/usr/share/doc/gnu-standards", "gnu-standards"},
	{"/py", "/usr/share/doc/python3.11/html", "python3.11-doc"},
}

// pwModel drives Playwright MCP as a model would: each tool's whole answer
// is what it reads (counted), and refs come from the last snapshot.
type pwModel struct {
	c     *mcpClient
	ctx   context.Context
	calls int
	read  int
	last  string
}

func (m *pwModel) call(tool string, args map[string]any) string {
	m.calls++
	out, err := m.c.call(m.ctx, tool, args)
	if err != nil {
		out = err.Error()
	}
	m.read += len([]rune(out))
	m.last = out
	return out
}

// open navigates and takes the page's snapshot (this Playwright MCP's
// navigate answer names a snapshot file; the model asks for the snapshot),
// and returns what the two answers said.
func (m *pwModel) open(url string) string {
	a := m.call("browser_navigate", map[string]any{"url": url})
	return a + "\n" + m.call("browser_snapshot", map[string]any{})
}

// click clicks by ref and takes the snapshot of what the page is then.
func (m *pwModel) click(name, ref string) string {
	a := m.call("browser_click", map[string]any{"element": name, "target": ref})
	return a + "\n" + m.call("browser_snapshot", map[string]any{})
}

// ref is the ref the last answer gives the element of that role and name.
func (m *pwModel) ref(role, name string) string {
	re := regexp.MustCompile(regexp.QuoteMeta(role+` "`+name+`"`) + `[^\n]*\[ref=(\w+)\]`)
	if mm := re.FindStringSubmatch(m.last); mm != nil {
		return mm[1]
	}
	return ""
}

// refTo is the ref of the first link (named or not) to url in the last
// answer.
func (m *pwModel) refTo(url string) string {
	re := regexp.MustCompile(`link[^\n]*\[ref=(\w+)\][^\n]*:\n\s*- /url: "` + regexp.QuoteMeta(url) + `"`)
	if mm := re.FindStringSubmatch(m.last); mm != nil {
		return mm[1]
	}
	return ""
}

// pwTasks are TestRealSiteTasksBothDoors's ten tasks as a model does them
// with Playwright MCP: navigate (the answer holds the page's snapshot),
// click by ref, back; "finished" when what it read holds what the task
// asks for.
var pwTasks = []struct {
	name string
	run  func(m *pwModel, base string) string
}{
	{"1. PostgreSQL: the range of bigint", func(m *pwModel, base string) string {
		return doneIf(m.open(base+"/pg/datatype-numeric.html"), "bigint", "-9223372036854775808 to +9223372036854775807")
	}},
	{"2. PostgreSQL (ru): how much space a real takes", func(m *pwModel, base string) string {
		return doneIf(m.open(base+"/pg/datatype-numeric.html"), `]: real`, `cell "4 bytes"`)
	}},
	{"3. PostgreSQL: 8.1.4 Serial Types by its link", func(m *pwModel, base string) string {
		return clickThen(m, base+"/pg/datatype-numeric.html", "link", "8.1.4. Serial Types", "are not true types")
	}},
	{"4. PostgreSQL (ru): 8.1.1 Integer Types by its link", func(m *pwModel, base string) string {
		return clickThen(m, base+"/pg/datatype-numeric.html", "link", "8.1.1. Integer Types", "store whole numbers")
	}},
	{"5. SQLite (ru): the datatypes page's main content", func(m *pwModel, base string) string {
		return doneIf(m.open(base+"/sq/datatype3.html"), "Most SQL database engines")
	}},
	{"6. SQLite (ru): the third mention of affinity", func(m *pwModel, base string) string {
		a := m.open(base + "/sq/datatype3.html")
		if strings.Count(strings.ToLower(a), "affinity") >= 3 {
			return "finished"
		}
		return "not"
	}},
	{"7. GNU standards: the third malloc, read on from it", func(m *pwModel, base string) string {
		return doneIf(m.open(base+"/gnu/standards.html"), "nonreentrancy aside from that of")
	}},
	{"8. GNU standards: a ref from the page before refused", func(m *pwModel, base string) string {
		m.open(base + "/gnu/standards.html")
		ref := m.ref("link", "2 Keeping Free Software Free")
		if ref == "" {
			return "not"
		}
		m.open(base + "/sq/datatype3.html")
		a := m.call("browser_click", map[string]any{"element": "2 Keeping Free Software Free", "target": ref})
		if !strings.Contains(a, "Error") {
			a += "\n" + m.call("browser_snapshot", map[string]any{})
		}
		if strings.Contains(a, "datatype3.html") && !strings.Contains(strings.ToLower(a), "not found") && !strings.Contains(a, "Error") {
			return "not" // it clicked something on the new page
		}
		return "finished"
	}},
	{"9. Python docs: copytree's entry from shutil's contents", func(m *pwModel, base string) string {
		// The contents' links to copytree have no name of their own (a code
		// element inside): the model goes by the link's address.
		m.open(base + "/py/library/shutil.html")
		ref := m.refTo("#shutil.copytree")
		if ref == "" {
			return "not"
		}
		return doneIf(m.click("copytree()", ref), "Recursively copy an entire directory tree")
	}},
	{"10. Python docs: another page and back", func(m *pwModel, base string) string {
		m.open(base + "/py/library/shutil.html")
		m.open(base + "/py/library/os.html")
		return doneIf(m.call("browser_navigate_back", map[string]any{}), "shutil.html")
	}},
}

func doneIf(a string, want ...string) string {
	for _, w := range want {
		if !strings.Contains(a, w) {
			return "not"
		}
	}
	return "finished"
}

// clickThen navigates to page, clicks the element of that role and name by
// its ref, and is finished when the answer holds want.
func clickThen(m *pwModel, page, role, name, want string) string {
	m.open(page)
	ref := m.ref(role, name)
	if ref == "" {
		return "not"
	}
	return doneIf(m.click(name, ref), want)
}

// runBenchTasks does the ten real-site tasks of TestRealSiteTasksBothDoors
// with Playwright MCP driven as a model would, and prints per task: done,
// tool calls and characters read (Waymark's two doors: the test's table).
func runBenchTasks(ctx context.Context, o options, stdout io.Writer) error {
	pw, err := findPlaywrightMCP(o)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	for _, s := range debianDocSites {
		if _, err := os.Stat(s.dir); err != nil {
			return fmt.Errorf("%s is missing: install the Debian package %s (bash build/setup.sh does)", s.dir, s.pkg)
		}
		mux.Handle(s.prefix+"/", http.StripPrefix(s.prefix, http.FileServer(http.Dir(s.dir))))
	}
	srv := httptest.NewServer(mux)
	defer srv.Close()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	pm, stop, err := startPlaywrightMCP(ctx, pw)
	if err != nil {
		return err
	}
	defer stop()
	tw := tabwriter.NewWriter(stdout, 2, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "Ten real-site tasks, Playwright MCP (%s) driven as a model would, headless %s, loopback\n", playwrightVersion(pw), browser.DefaultBin)
	fmt.Fprintln(tw, "task\tdone\ttool calls\tcharacters read")
	calls, read := 0, 0
	for _, tk := range pwTasks {
		m := &pwModel{c: pm, ctx: ctx}
		done := tk.run(m, srv.URL)
		calls, read = calls+m.calls, read+m.read
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\n", tk.name, done, m.calls, m.read)
	}
	fmt.Fprintf(tw, "all\t\t%d\t%d\n", calls, read)
	return tw.Flush()
}
